package explicit

import (
	"context"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/result"
)

// TestSemantics pins down how each construct executes (docs/SEMANTICS.md),
// with and without the partial-order reduction.
func TestSemantics(t *testing.T) {
	type tc struct {
		name       string
		src        string
		switches   int // -1: not bounded
		rounds     int
		depth      int
		maxThreads int
		target     string
		threads    string
		want       result.Verdict
		wantMsg    string // substring of the violation, or of the limits for Unknown
	}
	const noBound = -1
	cases := []tc{
		{name: "uninitialised global is arbitrary", src: `decl g; void main() begin assert(g); end`, want: result.Unsafe},
		{name: "an arbitrary value is one value", src: `decl g; void main() begin assert(g | !g); assert(g = g); end`, want: result.Safe},
		{name: "assert with * fails for some choice", src: `void main() begin assert(!(*)); end`, want: result.Unsafe, wantMsg: "assertion failed"},
		{name: "assume discards the path", src: `void main() begin assume(F); assert(F); end`, want: result.Safe},
		{name: "schoose true branch", src: `void main() begin decl x; x := schoose[T, F]; assert(x); x := schoose[F, T]; assert(!x); end`, want: result.Safe},
		{name: "schoose neither is arbitrary", src: `void main() begin decl x; x := schoose[F, F]; assert(x); end`, want: result.Unsafe},
		{name: "constrain relates old and new values", src: `void main() begin decl x, y; x := * constrain 'x = !y; assert(x != y); end`, want: result.Safe},
		{name: "unsatisfiable constrain discards the path", src: `void main() begin decl x; x := * constrain 'x & !'x; assert(F); end`, want: result.Safe},
		{name: "standalone constrain havocs unconstrained variables", src: `decl g, h; void main() begin g := T; constrain('h); assert(g); end`, want: result.Unsafe},
		{name: "standalone constrain keeps constrained variables", src: `decl g, h; void main() begin g := T; constrain('h & 'g = g); assert(g & h); end`, want: result.Safe},
		{name: "target assigned twice is relational", src: `void main() begin decl x; x, x := T, F; assert(F); end`, want: result.Safe},
		{name: "dead havocs", src: `void main() begin decl x; x := T; dead x; assert(x); end`, want: result.Unsafe},
		{name: "elsif chain", src: `void main() begin decl x; x := F; if x then assert(F); elsif !x then x := T; else assert(F); fi assert(x); end`, want: result.Safe},
		{name: "multiple return values", src: `bool<2> f(a) begin return a, !a; end void main() begin decl x, y; x, y := f(T); assert(x & !y); end`, want: result.Safe},
		{name: "return without values is arbitrary", src: `bool f() begin return; end void main() begin decl x; x := f(); assert(x); end`, want: result.Unsafe},
		{name: "call by value", src: `void f(a) begin a := F; end void main() begin decl x; x := T; f(x); assert(x); end`, want: result.Safe},
		{name: "local shadows global", src: `decl g; void main() begin decl g; g := F; assert(!g); end`, want: result.Safe},
		{name: "enforce discards violating paths", src: `decl g; void f() begin enforce g; g := F; assert(F); end void main() begin g := T; f(); end`, want: result.Safe},
		{name: "enforce is checked on entry", src: `decl g; void f() begin enforce g; assert(F); end void main() begin g := F; f(); end`, want: result.Safe},
		{name: "error label reached", src: `void main() begin goto error; error: skip; end`, want: result.Unsafe, wantMsg: "error label error reached"},
		{name: "target replaces the default labels", src: `void main() begin error: skip; MINE: skip; end`, target: "MINE", want: result.Unsafe, wantMsg: "MINE"},
		{name: "depth bound makes the answer unknown", src: `void f() begin f(); end void main() begin f(); end`, depth: 3, want: result.Unknown, wantMsg: "depth bound"},
		{name: "violation within the depth bound", src: `void f(a) begin if a then assert(F); fi f(T); end void main() begin f(F); end`, depth: 3, want: result.Unsafe},
		{name: "violation beyond the depth bound", src: `void f(a, b) begin if b then assert(F); fi f(T, a); end void main() begin f(F, F); end`, depth: 3, want: result.Unknown, wantMsg: "depth bound"},

		// Threads, locks and atomicity.
		{name: "locks give mutual exclusion", src: `decl in; lock m;
			thread void a() begin acquire(m); in := T; assert(in); in := F; release(m); end
			thread void b() begin acquire(m); in := T; in := F; release(m); end
			void init() begin in := F; end`, want: result.Safe},
		{name: "without the lock the race is found", src: `decl in;
			thread void a() begin in := T; assert(in); in := F; end
			thread void b() begin in := T; in := F; end
			void init() begin in := F; end`, want: result.Unsafe},
		{name: "release of a lock not held", src: `lock m; thread void a() begin release(m); end`, want: result.Unsafe, wantMsg: "release of lock m"},
		{name: "acquire of a held lock blocks", src: `lock m; thread void a() begin acquire(m); acquire(m); assert(F); end`, want: result.Safe},
		{name: "tryacquire does not block", src: `lock m; thread void a() begin decl x; x := tryacquire(m); assert(x); x := tryacquire(m); assert(!x); end`, want: result.Safe},
		{name: "atomic section is not interleaved", src: `decl g;
			void init() begin g := F; end
			thread void a() begin atomic_begin; g := T; g := F; atomic_end; end
			thread void b() begin assert(!g); end`, want: result.Safe},
		{name: "without atomic the intermediate state is seen", src: `decl g;
			void init() begin g := F; end
			thread void a() begin g := T; g := F; end
			thread void b() begin assert(!g); end`, want: result.Unsafe},
		{name: "Getafix atomic variable", src: `decl atomic, g;
			void init() begin atomic := F; g := F; endinit: skip; end
			void thread1() begin atomic := T; g := T; g := F; atomic := F; end
			void main() begin assert(!g); end`, rounds: 4, want: result.Safe},
		{name: "Getafix __VERIFIER_atomic call", src: `decl g;
			void init() begin g := F; end
			void __VERIFIER_atomic_flip() begin g := T; g := F; end
			void thread1() begin __VERIFIER_atomic_flip(); end
			void main() begin assert(!g); end`, want: result.Safe},
		{name: "init stops at endinit", src: `decl g;
			void init() begin g := T; endinit: skip; g := F; end
			void main() begin assert(g); end`, want: result.Safe},
		{name: "error label in init counts", src: `void init() begin SLIC_ERROR: skip; end void main() begin skip; end`, want: result.Unsafe},

		// Bounds: the race below needs a -> b -> a.
		{name: "two switches needed (1 is not enough)", src: raceProg, switches: 1, want: result.Safe},
		{name: "two switches needed", src: raceProg, switches: 2, want: result.Unsafe},
		{name: "two rounds needed (1 is not enough)", src: raceProg, rounds: 1, want: result.Safe},
		{name: "two rounds needed", src: raceProg, rounds: 2, want: result.Unsafe},
		{name: "thread instances from --threads", src: `decl c0, c1;
			void init() begin c0, c1 := F, F; end
			thread void inc() begin atomic_begin; c1, c0 := c1 | c0, !c0; atomic_end; end
			thread void check() begin assert(!c1); end`, threads: "inc=2", want: result.Unsafe},
		{name: "one instance cannot count to two", src: `decl c0, c1;
			void init() begin c0, c1 := F, F; end
			thread void inc() begin atomic_begin; c1, c0 := c1 | c0, !c0; atomic_end; end
			thread void check() begin assert(!c1); end`, want: result.Safe},

		// Spawning dialects.
		{name: "ASYNC label spawns", src: `decl g; void t() begin g := T; end
			void main() begin g := F; ASYNC_1: t(); assert(!g); end`, want: result.Unsafe},
		{name: "start_thread passes arguments", src: `void t(a) begin assert(a); end
			void main() begin start_thread t(T); end`, want: result.Safe},
		{name: "spawning beyond the thread bound", src: `decl a, b, c; void t() begin goto x, y, z; x: a := T; return; y: b := T; return; z: c := T; end
			void main() begin a, b, c := F, F, F; l: start_thread t(); goto l, chk; chk: assert(!(a & b & c)); end`, maxThreads: 3, want: result.Unknown, wantMsg: "thread bound"},
		{name: "spawning within the thread bound", src: `decl a, b, c; void t() begin goto x, y, z; x: a := T; return; y: b := T; return; z: c := T; end
			void main() begin a, b, c := F, F, F; l: start_thread t(); goto l, chk; chk: assert(!(a & b & c)); end`, maxThreads: 4, want: result.Unsafe},
		{name: "fork copies the locals", src: `void main() begin decl l; l := T; start_thread goto w; l := F; goto done; w: assert(l); done: skip; end`, want: result.Safe},
		{name: "end_thread ends the thread", src: `void main() begin start_thread goto w; end_thread; assert(F); w: skip; end`, want: result.Safe},
		{name: "broadcast writes the passive copies", src: `void main() begin decl l; l := F;
			start_thread goto w; l, l$ := F, T; goto done;
			w: assume(l); SLIC_ERROR: skip; done: skip; end`, want: result.Unsafe},
		{name: "without broadcast the copy is untouched", src: `void main() begin decl l; l := F;
			start_thread goto w; l := T; goto done;
			w: assume(l); SLIC_ERROR: skip; done: skip; end`, want: result.Safe},
		{name: "passive constraint must hold for every passive thread", src: `void main() begin decl l; l := F;
			start_thread goto w; l := T constrain l$; assert(F); w: goto w; end`, want: result.Safe},
		{name: "passive constraint without passive threads restricts only the active one", src: `void main() begin decl l; l := F;
			l := T constrain l$ & 'l; assert(F); end`, want: result.Unsafe},
	}
	for _, c := range cases {
		for _, reduce := range []bool{true, false} {
			name := c.name
			if !reduce {
				name += "/no-reduction"
			}
			t.Run(name, func(t *testing.T) {
				lo := ir.Options{Target: c.target}
				if c.threads != "" {
					tcs, err := ir.ParseThreads(c.threads)
					if err != nil {
						t.Fatal(err)
					}
					lo.Threads = tcs
				}
				p := loadText(t, "t.bpl", c.src, lo)
				opts := DefaultOptions()
				opts.Switches, opts.Rounds, opts.NoReduction = noBound, c.rounds, !reduce
				if c.switches != 0 || c.rounds == 0 && strings.Contains(c.name, "switch") {
					opts.Switches = c.switches
				}
				if c.depth > 0 {
					opts.Depth = c.depth
				}
				if c.maxThreads > 0 {
					opts.MaxThreads = c.maxThreads
				}
				res := runExplicit(t, p, opts)
				if res.Verdict != c.want {
					t.Fatalf("verdict %s %v, want %s", res.Verdict, res.Limits, c.want)
				}
				got := res.LimitText()
				if res.Trace != nil {
					got = res.Trace.Violation
					if opts.Switches >= 0 && res.Trace.Switches > opts.Switches {
						t.Errorf("trace uses %d switches, bound is %d", res.Trace.Switches, opts.Switches)
					}
				}
				if !strings.Contains(got, c.wantMsg) {
					t.Errorf("got %q, want it to contain %q", got, c.wantMsg)
				}
			})
		}
	}
}

// raceProg fails only when a writes, b copies, and a checks again.
const raceProg = `decl x, y;
void init() begin x, y := F, F; end
thread void a() begin x := T; assert(!y); end
thread void b() begin y := x; end`

// TestGuardAndValueShareVariable: a variable that a step's guard and its
// values both read is split before the step even when the guard does not
// need its value; copying it unsplit would let the copy and the original
// be refined apart. The parser writes no guards on assignments, the
// sequentializations do (their switches).
func TestGuardAndValueShareVariable(t *testing.T) {
	p, _, err := ir.Load(context.Background(), "guard.bpl", []byte(`decl x, y, c;
void main()
begin
  c := F;
  y := x;
  assert(y = x);
end
`), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var copyStep *ir.Edge
	for _, e := range p.Edges {
		if e.Kind == ir.Assign && e.Stmt == "y := x;" {
			copyStep = e
		}
	}
	if copyStep == nil {
		t.Fatal("no step y := x")
	}
	c, x := p.Globals[2], p.Globals[0]
	copyStep.Guard = ir.Binary(ir.OpOr, ir.Not(&ir.Expr{Op: ir.OpVar, Var: c}), &ir.Expr{Op: ir.OpVar, Var: x})
	ch, err := New(p, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := ch.Run(context.Background()); r.Verdict != result.Safe {
		t.Fatalf("%s: y := x under a guard that reads x lost the copy (%v)", r.Verdict, r.Trace)
	}
}
