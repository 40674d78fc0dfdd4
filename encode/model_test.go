package encode

import (
	"context"
	"slices"
	"testing"

	"bmc/ts"
)

// TestCheck asks each kind of encoding about programs that one kind or
// another cannot encode.
func TestSupported(t *testing.T) {
	const (
		loopFree  = `decl g; void f() begin g := !g; end void main() begin f(); assert(g); end`
		loops     = `decl g; void main() begin L: g := !g; goto L; end`
		twoEntry  = `decl g; void main() begin if g then goto A; fi B: g := !g; A: g := g; goto B; end`
		recursive = `decl g; void f() begin if g then f(); fi end void main() begin f(); end`
		twoThread = `thread void a() begin skip; end thread void b() begin skip; end`
		spawns    = `void t() begin skip; end void main() begin start_thread t(); end`
	)
	cases := []struct {
		name, src string
		depth     int
		ok        map[Kind]bool // kinds that accept the program
	}{
		{"loop-free", loopFree, 4, map[Kind]bool{KindSequential: true, KindDirect: true, KindWhole: true, KindUnwound: true}},
		{"calls deeper than the depth", loopFree, 1, map[Kind]bool{KindSequential: true, KindDirect: true}},
		{"a loop", loops, 4, map[Kind]bool{KindSequential: true, KindDirect: true, KindUnwound: true}},
		{"a loop entered at two nodes", twoEntry, 4, map[Kind]bool{KindSequential: true, KindDirect: true}},
		{"recursion", recursive, 4, map[Kind]bool{KindSequential: true, KindDirect: true}},
		{"two threads", twoThread, 4, map[Kind]bool{KindDirect: true}},
		{"a thread start", spawns, 4, map[Kind]bool{KindDirect: true}},
	}
	for _, c := range cases {
		p := load(t, c.src)
		for _, k := range []Kind{KindSequential, KindDirect, KindWhole, KindUnwound} {
			if err := Supported(p, k, c.depth); (err == nil) != c.ok[k] {
				t.Errorf("%s, kind %d: %v, want accepted %v", c.name, k, err, c.ok[k])
			}
		}
	}
	if err := Supported(load(t, loopFree), KindUnwound+1, 4); err == nil {
		t.Error("an unknown kind accepted")
	}
}

// TestModels checks what each encoding says of itself as a Model.
func TestModels(t *testing.T) {
	p := load(t, `decl g; void f() begin g := !g; end void main() begin f(); assert(g); end`)
	ctx := context.Background()
	cases := []struct {
		name   string
		build  func() (Model, error)
		limits []int
		whole  bool // frame 0 is the whole program
	}{
		{"sequential", func() (Model, error) { return Sequential(ctx, p, Options{Depth: 2}) }, []int{PropOverflow}, false},
		{"direct", func() (Model, error) { return Direct(ctx, p, DirectOptions{Depth: 2, Switches: -1}) }, []int{PropOverflow, PropThreadBound}, false},
		{"whole", func() (Model, error) { return Whole(ctx, p, 2) }, nil, true},
	}
	for _, c := range cases {
		m, err := c.build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := m.Limits(); !slices.Equal(got, c.limits) {
			t.Errorf("%s: limits %v, want %v", c.name, got, c.limits)
		}
		for _, i := range append([]int{PropViolation}, c.limits...) {
			if i >= len(m.System().Bad) {
				t.Errorf("%s: no property %d", c.name, i)
			}
		}
		if (m.Longest() > 0) != c.whole || m.Ended(0) != c.whole || (m.Running() == ts.False) != c.whole {
			t.Errorf("%s: longest %d, ended at 0 %v, running %v; want whole %v", c.name, m.Longest(), m.Ended(0), m.Running(), c.whole)
		}
		// The program has no loops: every encoding knows when it has ended.
		if !m.Ended(20) {
			t.Errorf("%s: not ended after 20 steps", c.name)
		}
	}
}
