package encode_test

import (
	"context"
	"strings"
	"testing"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/sat"
	"bmc/solver"
)

// TestContexts decides small concurrent programs through the context
// encoding with our Spacer, within rounds and within switches: a
// derivation's steps replay on the explicit interpreter with the frames
// they need, an interpretation re-checks, and the verdict is the
// explicit search's. The programs exercise what the encoding must get
// right: a thread whose first context is empty, a call that spans
// contexts (it is entered in one and returns in a later one), recursion,
// atomic sections, init, and a thread that has ended.
func TestContexts(t *testing.T) {
	cases := []struct {
		name, src        string
		rounds, switches int
		unsafe           bool
	}{
		{"empty first context", `decl g;
void init() begin g := F; end
bool f(a) begin return !a; end
thread void t0() begin g := T; end
thread void t1() begin decl l; l := f(g); assert(!l); end`, 1, 0, true},
		{"call across contexts", `decl g, h;
void init() begin g, h := F, F; end
void f() begin g := T; h := g; end
thread void t0() begin f(); end
thread void t1() begin assert(!(g & !h)); end`, 1, 0, true},
		{"call across contexts, one round too few", `decl g, h;
void init() begin g, h := F, F; end
void f() begin g := T; assume(!g); h := T; end
thread void t0() begin f(); assert(!h); end
thread void t1() begin g := F; end`, 1, 0, false},
		{"call across contexts, two rounds", `decl g, h;
void init() begin g, h := F, F; end
void f() begin g := T; assume(!g); h := T; end
thread void t0() begin f(); assert(!h); end
thread void t1() begin g := F; end`, 2, 0, true},
		{"a lock held across contexts", `decl g;
lock m;
void init() begin g := F; end
thread void t0() begin acquire(m); g := T; assert(g); g := F; release(m); end
thread void t1() begin acquire(m); g := F; release(m); end`, 3, 0, false},
		{"no lock, the same threads", `decl g;
void init() begin g := F; end
thread void t0() begin g := T; assert(g); g := F; end
thread void t1() begin g := F; end`, 3, 0, true},
		{"a lock taken in a callee and released by its caller", `decl g;
lock m;
void init() begin g := F; end
void take() begin acquire(m); end
thread void t0() begin take(); g := T; assert(g); g := F; release(m); end
thread void t1() begin acquire(m); g := F; release(m); end`, 2, 0, false},
		{"a lock released by a thread that does not hold it", `lock m;
thread void t0() begin acquire(m); end
thread void t1() begin release(m); end`, 1, 0, true},
		{"tryacquire while another thread holds the lock", `decl g;
lock m;
void init() begin g := F; end
thread void t0() begin acquire(m); g := T; g := F; release(m); end
thread void t1() begin decl ok; ok := tryacquire(m); assert(!ok | !g); if (ok) then release(m); fi end`, 2, 0, false},
		{"tryacquire, the lock never taken", `decl g;
lock m;
void init() begin g := F; end
thread void t0() begin g := T; g := F; end
thread void t1() begin decl ok; ok := tryacquire(m); assert(!ok | !g); end`, 2, 0, true},
		{"atomic section", `decl g;
void init() begin g := F; end
thread void t0() begin atomic_begin; g := T; g := F; atomic_end; end
thread void t1() begin assert(!g); end`, 3, 0, false},
		{"recursion", `decl g;
void init() begin g := F; end
void r() begin if (*) then r(); fi g := !g; end
thread void t0() begin r(); end
thread void t1() begin assume(g); assert(F); end`, 2, 0, true},
		{"ended thread", `decl g;
void init() begin g := F; end
thread void t0() begin g := T; end
thread void t1() begin assume(g); g := F; end
thread void t2() begin assert(!g); end`, 2, 0, true},
		{"switches: a schedule the rounds do not have", `decl g, h;
void init() begin g, h := F, F; end
thread void t0() begin g := T; assert(!h); end
thread void t1() begin assume(g); h := T; end`, 0, 2, true},
		{"switches: one too few", `decl g, h;
void init() begin g, h := F, F; end
thread void t0() begin g := T; assert(!h); end
thread void t1() begin assume(g); h := T; end`, 0, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := ir.Load(context.Background(), "prog.bpl", []byte(c.src), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			eo := explicit.DefaultOptions()
			eo.Rounds, eo.Switches, eo.Depth = c.rounds, c.switches, 32
			if c.rounds > 0 {
				eo.Switches = -1
			}
			ck, err := explicit.New(p, eo)
			if err != nil {
				t.Fatal(err)
			}
			if ex := ck.Run(context.Background()); ex.Verdict.String() != map[bool]string{true: "unsafe", false: "safe"}[c.unsafe] {
				t.Fatalf("the explicit search says %s (the test expects unsafe = %v)", ex.Verdict, c.unsafe)
			}
			h, err := encode.NewContexts(context.Background(), p, c.rounds, c.switches)
			if err != nil {
				t.Fatal(err)
			}
			out := engine.Spacer(context.Background(), h.System, engine.HornOptions{NewSolver: func() solver.Solver { return sat.New() }})
			switch {
			case out.Status == solver.Sat && c.unsafe:
				if err := h.System.CheckDerivation(out.Derivation); err != nil {
					t.Fatal(err)
				}
				steps, depth, err := h.Steps(out.Derivation)
				if err != nil {
					t.Fatal(err)
				}
				eo.Depth = max(eo.Depth, depth)
				if _, err := explicit.Replay(p, eo, steps); err != nil {
					t.Fatalf("the derivation does not replay: %v", err)
				}
			case out.Status == solver.Unsat && !c.unsafe:
				if err := h.System.CheckInterpretation(context.Background(), out.Interpretation, func() solver.Solver { return sat.New() }); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("Spacer says %v (%s), want unsafe = %v", out.Status, out.Reason, c.unsafe)
			}
		})
	}
}

// TestContextsRefuses: programs that start threads are not encoded;
// locks are.
func TestContextsRefuses(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // "": encoded
	}{
		{"lock m; thread void a() begin acquire(m); release(m); end thread void b() begin skip; end", ""},
		{"thread void a() begin skip; end", ""},
		{"void a() begin skip; end void main() begin ASYNC_1: a(); end", "starts threads"},
	} {
		p, _, err := ir.Load(context.Background(), "prog.bpl", []byte(c.src), ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = encode.NewContexts(context.Background(), p, 1, -1)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}
