package encode

import (
	"context"
	"testing"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

func load(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), "t.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBlocks checks which statements form one step.
func TestBlocks(t *testing.T) {
	p := load(t, `decl a, b;
bool f(x) begin return !x; end
void main() begin
  a := T; b := F; a := a & b;
  if a then b := T; else b := F; fi
  a := f(b);
  b := a;
  L: a := !a; goto L;
end`)
	en, err := newSequential(context.Background(), p, Options{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	byHead := map[string]*block{}
	for _, b := range en.lay.blocks {
		byHead[b.Proc.Name+":"+b.Proc.Nodes[b.Head].Stmt] = b
	}
	cases := []struct {
		head  string
		path  int    // straight-line edges
		last  string // the statement whose edges end the step
		nOuts int
	}{
		{"main:a := T;", 3, "if a then", 2},     // three assignments, then the branch
		{"main:b := T;", 0, "b := T;", 1},       // a branch target is a head
		{"main:a := f(b);", 0, "a := f(b);", 1}, // the call ends the step
		{"main:b := a;", 0, "b := a;", 1},       // the call's continuation is a head
		{"main:a := !a;", 1, "goto L;", 1},      // the loop head (two predecessors)
		{"f:return !x;", 0, "return !x;", 1},    // entry of f
	}
	for _, c := range cases {
		b := byHead[c.head]
		if b == nil {
			t.Errorf("no block at %q; heads: %v", c.head, keys(byHead))
			continue
		}
		if len(b.Path) != c.path || b.Last.Stmt != c.last || len(b.Last.Out) != c.nOuts {
			t.Errorf("%s: path %d, last %q with %d edges; want %d, %q, %d", c.head, len(b.Path), b.Last.Stmt, len(b.Last.Out), c.path, c.last, c.nOuts)
		}
	}
	small, err := newSequential(context.Background(), p, Options{Depth: 4, SmallSteps: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range small.lay.blocks {
		if len(b.Path) != 0 {
			t.Errorf("small steps: block at %q has %d straight-line edges", b.Proc.Nodes[b.Head].Stmt, len(b.Path))
		}
	}
	if len(small.lay.blocks) <= len(en.lay.blocks) {
		t.Errorf("small steps: %d blocks, large: %d", len(small.lay.blocks), len(en.lay.blocks))
	}
}

func keys(m map[string]*block) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestRejectsConcurrentPrograms(t *testing.T) {
	for _, src := range []string{
		`thread void a() begin skip; end thread void b() begin skip; end`,
		`void t() begin skip; end void main() begin start_thread t(); end`,
		`void main() begin start_thread goto L; L: skip; end`,
	} {
		if _, err := Sequential(context.Background(), load(t, src), Options{Depth: 4}); err == nil {
			t.Errorf("accepted %q", src)
		}
	}
	if _, err := Sequential(context.Background(), load(t, `void main() begin skip; end`), Options{Depth: 0}); err == nil {
		t.Error("accepted depth 0")
	}
	// Depth 1: every call overflows; the encoding must still be built.
	if _, err := Sequential(context.Background(), load(t, `void f() begin skip; end void main() begin f(); end`), Options{Depth: 1}); err != nil {
		t.Error(err)
	}
}

// systemVerdict searches every state of en's transition system reachable
// within maxStates states: Unsafe when the violation property holds in a
// reachable state (with some inputs), Unknown when only a stack overflow
// does, Safe otherwise. A step is taken only where the constraints hold,
// as in BMC, where the violation at bound k needs the constraints at the
// frames before k only.
func systemVerdict(t *testing.T, en Model, maxStates int) result.Verdict {
	t.Helper()
	s := en.System()
	latches, inputs := s.Latches(), s.Inputs()
	if len(inputs) > 12 {
		t.Fatalf("%d inputs: too many to enumerate", len(inputs))
	}
	var free []int
	first := make([]bool, len(latches))
	for i, l := range latches {
		switch l.Init {
		case ts.Init1:
			first[i] = true
		case ts.InitFree:
			free = append(free, i)
		}
	}
	if len(free) > 12 {
		t.Fatalf("%d free initial latches: too many to enumerate", len(free))
	}
	key := func(st []bool) string {
		b := make([]byte, len(st))
		for i, x := range st {
			if x {
				b[i] = 1
			}
		}
		return string(b)
	}
	seen := map[string]bool{}
	var queue [][]bool
	push := func(st []bool) {
		if k := key(st); !seen[k] {
			seen[k] = true
			queue = append(queue, st)
		}
	}
	for m := 0; m < 1<<len(free); m++ {
		st := append([]bool(nil), first...)
		for j, i := range free {
			st[i] = m>>j&1 == 1
		}
		push(st)
	}
	verdict := result.Safe
	vals := make([]bool, s.NumVars())
	for len(queue) > 0 {
		if len(seen) > maxStates {
			t.Fatalf("more than %d states", maxStates)
		}
		st := queue[0]
		queue = queue[1:]
		for m := 0; m < 1<<len(inputs); m++ {
			for i, l := range latches {
				vals[l.Lit.Var()] = st[i]
			}
			for j, in := range inputs {
				vals[in.Var()] = m>>j&1 == 1
			}
			s.Eval(vals)
			if ts.Value(vals, s.Bad[PropViolation].Lit) {
				return result.Unsafe
			}
			if ts.Value(vals, s.Bad[PropOverflow].Lit) {
				verdict = result.Unknown
			}
			ok := true
			for _, c := range s.Constraints {
				ok = ok && ts.Value(vals, c)
			}
			if !ok {
				continue
			}
			next := make([]bool, len(latches))
			for i, l := range latches {
				next[i] = ts.Value(vals, l.Next)
			}
			push(next)
		}
	}
	return verdict
}

// TestEnforceAgreesWithExplicit compares, on small programs with enforce
// clauses, every reachable state of the transition system with the
// explicit interpreter, the reference semantics: the clause of the
// initial frame (main's, or init's) holds in the initial state, and of
// the top frame after every step and on entering a function.
func TestEnforceAgreesWithExplicit(t *testing.T) {
	const depth = 3
	cases := []struct {
		name, src string
		want      result.Verdict
	}{
		{"main's clause holds initially",
			`decl g; void main() begin enforce g; assert(g); end`, result.Safe},
		{"main's clause on a local holds initially",
			`void main() begin decl x; enforce x; assert(x); end`, result.Safe},
		{"main's clause holds initially, a violation in a later block",
			`decl g, h; void main() begin enforce g | h; if h then skip; fi assert(g | h); end`, result.Safe},
		{"an initial state breaking the clause starts nothing",
			`decl g := F; void main() begin enforce g; L: goto L; error: skip; end`, result.Safe},
		{"an error label at main's entry needs the clause",
			`decl g := F; void main() begin enforce g; error: skip; end`, result.Safe},
		{"an error label at main's entry",
			`decl g; void main() begin enforce g; error: skip; end`, result.Unsafe},
		{"init's clause holds initially",
			`decl g, h; void init() begin enforce g; assert(g); endinit: skip; end void main() begin skip; end`, result.Safe},
		{"main's clause when init ends",
			`decl g; void init() begin g := F; endinit: skip; end void main() begin enforce g; assert(F); end`, result.Safe},
		{"the clause allows the violation",
			`decl g; void main() begin enforce g; assert(!g); end`, result.Unsafe},
		{"the clause after a step discards the path",
			`decl g; void main() begin enforce g; g := F; assert(F); end`, result.Safe},
		{"the callee's clause on entry",
			`decl g; void f() begin enforce g; assert(F); end void main() begin g := F; f(); end`, result.Safe},
		{"the callee's clause allows the violation",
			`decl g; void f() begin enforce g; assert(!g); end void main() begin g := *; f(); end`, result.Unsafe},
		{"the caller's clause after the return",
			`decl g; bool f() begin return T; end void main() begin decl x; enforce !x | g; g := F; x := f(); assert(F); end`, result.Safe},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := load(t, c.src)
			eo := explicit.DefaultOptions()
			eo.Depth = depth
			ck, err := explicit.New(p, eo)
			if err != nil {
				t.Fatal(err)
			}
			if ref := ck.Run(context.Background()); ref.Verdict != c.want {
				t.Fatalf("explicit: %s %v, want %s", ref.Verdict, ref.Limits, c.want)
			}
			for _, small := range []bool{false, true} {
				en, err := Sequential(context.Background(), p, Options{Depth: depth, SmallSteps: small})
				if err != nil {
					t.Fatal(err)
				}
				if got := systemVerdict(t, en, 100_000); got != c.want {
					t.Errorf("small steps %v: transition system %s, explicit %s", small, got, c.want)
				}
			}
		})
	}
}
