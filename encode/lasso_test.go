package encode_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/sat"
	"bmc/solver"
)

// livelockBound is the BMC bound of TestDirectLasso: the property holds
// from the closing frame on, so one query covers every shorter path. It
// is also the bound of most of TestDirectLassoJustice's lasso searches.
const livelockBound = 30

// directLivelock decides the livelock question of m: BMC finds a
// livelock, which must replay on the explicit interpreter; otherwise PDR
// must prove that there is none (calls beyond the depth aside: they end
// executions, and a keyframe lasso repeated makes them).
func directLivelock(t *testing.T, p *ir.Program, lb result.LassoBound, depth int) bool {
	t.Helper()
	m, err := encode.DirectLasso(context.Background(), p, encode.DirectLassoOptions{Depth: depth, Stem: lb.Stem, Loop: lb.Loop, Fairness: lb.Fairness})
	if err != nil {
		t.Fatal(err)
	}
	sys := m.System()
	s := sat.New()
	defer s.Close()
	b := engine.NewBMC(sys, s)
	bad := sys.Bad[encode.PropViolation].Lit
	switch b.Query(context.Background(), livelockBound, b.U.At(bad, livelockBound)) {
	case solver.Sat:
		w := b.Witness(livelockBound)
		steps, loop, err := m.Lasso(func(i int) []bool { return w.Values(sys, i) }, livelockBound)
		if err != nil {
			t.Fatal(err)
		}
		eo := explicit.DefaultOptions()
		eo.Depth = depth
		if _, err := explicit.ReplayLasso(p, lb, eo, steps, loop); err != nil {
			t.Fatalf("the livelock does not replay: %v\nsteps (loop from %d): %s", err, loop, showSteps(steps))
		}
		return true
	case solver.Unknown:
		t.Fatal("BMC gave up")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pf := engine.PDR(ctx, sys, engine.ProofTask{Target: bad, MaxK: 200,
		NewSolver: func() solver.Solver { return sat.New() }})
	if pf.Status != solver.Unsat {
		t.Fatalf("no livelock within %d steps, but PDR says %v (%s)", livelockBound, pf.Status, pf.Reason)
	}
	return false
}

const (
	spinner = `thread void spinner() begin while (!g) do skip; od end
`
	atomicSpinner = `thread void spinner() begin atomic_begin; while (T) do skip; od atomic_end; end
`
)

// livelockFairness is the fairness of each answer of livelockCases.
var livelockFairness = [3]result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness}

// livelockCases are small programs with their livelock answers under
// each fairness, with a loop of one round.
var livelockCases = []struct {
	name      string
	src       string
	stem      int
	livelocks [3]bool // strong, weak, none
}{
	{"spin with the setter terminated", `decl g;` + spinner + `thread void setter() begin g := F; end`, 1, [3]bool{true, true, true}},
	{"spin, the setter never terminated before the loop", `decl g;` + spinner + `thread void setter() begin g := F; end`, 0, [3]bool{false, false, true}},
	{"spin while the setter never runs: unfair", `decl g;` + spinner + `thread void setter() begin g := T; end`, 1, [3]bool{false, false, true}},
	{"waiter blocked by a lock held throughout", `lock m;
thread void holder() begin acquire(m); while (T) do skip; od end
thread void waiter() begin acquire(m); release(m); end`, 1, [3]bool{true, true, true}},
	{"the holder's acquire cannot come back", `lock m;
thread void holder() begin acquire(m); while (T) do skip; od end
thread void waiter() begin acquire(m); release(m); end`, 0, [3]bool{false, false, false}},
	{"lock released in the loop: blocked at some configurations only", `lock m;
thread void cycler() begin while (T) do acquire(m); release(m); od end
thread void waiter() begin acquire(m); assume(F); end`, 1, [3]bool{false, true, true}},
	{"a thread waiting on the lock it holds is blocked", `decl g; lock m;
thread void self() begin acquire(m); acquire(m); end` + "\n" + spinner, 1, [3]bool{true, true, true}},
	{"terminating threads", `decl g;
thread void a() begin g := T; end
thread void b() begin g := F; end`, 1, [3]bool{false, false, false}},
	{"two spinners from the start", `
thread void a() begin while (T) do skip; od end
thread void b() begin while (T) do skip; od end`, 0, [3]bool{true, true, true}},
	{"one thread", `decl g;
thread void a() begin g := F; while (!g) do g := F; od end`, 1, [3]bool{true, true, true}},
	{"a loop inside an atomic section never ends its round", atomicSpinner, 1, [3]bool{false, false, false}},
	{"init first, then the spin", `decl g;
void init() begin g := F; end` + "\n" + spinner, 0, [3]bool{true, true, true}},
	{"a failed assertion ends the execution", `decl g;
thread void a() begin while (T) do g := !g; assert(g); od end`, 1, [3]bool{false, false, false}},
	{"an error label ends the execution", `decl g;
thread void a() begin while (T) do g := !g; if (g) then ERROR: skip; fi od end`, 1, [3]bool{false, false, false}},
	{"a release of a free lock ends the execution", `decl g; lock m;
thread void a() begin while (T) do g := !g; if (g) then release(m); fi od end`, 1, [3]bool{false, false, false}},
	{"frames not in use keep stale locals, which do not count", `
void h() begin skip; end
void f() begin h(); end
thread void a() begin decl x := F; while (T) do x := !x; f(); x := !x; od end`, 0, [3]bool{true, true, true}},
	{"a loop through a call", `decl g;
void f() begin g := !g; end
thread void a() begin while (T) do f(); od end`, 1, [3]bool{true, true, true}},
}

// Keyframe lassos (docs/SEMANTICS.md, "Livelocks"): a recursive
// thread's stack may be deeper at the loop's end, the frames from its
// keyframe (the lowest on top during the loop) up as at the start.
const (
	// Thread1 retries by a recursive call that never returns while
	// Thread2 keeps setting g (examples/mutant_fig1b_recursive.bpl).
	retryThread = `decl g;
thread void Thread1() begin retry(); return; end
void retry() begin if (g) then g := F; retry(); fi return; end
`
	// Thread1's stack grows for ever: c calls r, which waits for g and
	// takes it (an assume: fewer paths than a spin), then c calls itself
	// with its argument flipped. r returns in each loop, so c's frame
	// below r must come back too: with a round per loop (one r a round:
	// Thread2 sets g after Thread1's context) it is c(!x) at the end for
	// c(x) at the start, with two rounds c(x) again.
	flipper = `decl g;
thread void Thread1() begin c(F); end
void c(x) begin r(); c(!x); end
void r() begin assume(g); g := F; end
thread void Thread2() begin while (T) do g := T; od end
`
)

// keyframeCases are livelock questions on recursive programs, with
// their loop rounds and depths, and for the costlier ones a smaller
// bound for the lasso search of TestDirectLassoJustice (0:
// livelockBound; -1: not asked there).
var keyframeCases = []struct {
	name         string
	src          string
	stem, loop   int
	depth        int
	livelocks    [3]bool // strong, weak, none
	justiceBound int
}{
	{name: "keyframe: a retry by a call that never returns", src: retryThread + `thread void Thread2() begin while (!g) do g := T; od return; end`,
		stem: 1, loop: 1, depth: 4, livelocks: [3]bool{true, true, true}},
	// Within 3 frames the loop must start with retry's first frame on top:
	// Thread1's frame below it at the start, a frame of retry at the end.
	{name: "keyframe: the frame below the keyframe need not come back", src: retryThread + `thread void Thread2() begin while (!g) do g := T; od return; end`,
		stem: 1, loop: 1, depth: 3, livelocks: [3]bool{true, true, true}},
	{name: "keyframe: the loop must start after the first call", src: retryThread + `thread void Thread2() begin while (!g) do g := T; od return; end`,
		stem: 0, loop: 1, depth: 4, livelocks: [3]bool{false, false, false}},
	{name: "keyframe: the retries stop", src: retryThread + `thread void Thread2() begin g := T; return; end`,
		stem: 1, loop: 1, depth: 4, livelocks: [3]bool{false, false, false}},
	{name: "keyframe: a deeper retry within the depth", src: retryThread + `thread void Thread2() begin while (!g) do g := T; od return; end`,
		stem: 2, loop: 2, depth: 4, livelocks: [3]bool{true, true, true}},
	{name: "a stack lower at the end with the same frames on top", src: `decl g, h;
thread void a() begin r(); return; end
void r() begin if (g | h) then if (g) then g := F; else h := F; fi r(); fi return; end`,
		stem: 1, loop: 1, depth: 4, livelocks: [3]bool{false, false, false}},
	{name: "keyframe: the frame below the top must come back", src: flipper,
		stem: 1, loop: 1, depth: 4, livelocks: [3]bool{false, false, true}, justiceBound: 15},
	{name: "keyframe: it does after two rounds", src: flipper,
		stem: 1, loop: 2, depth: 5, livelocks: [3]bool{true, true, true}, justiceBound: -1},
}

// livelockQuestion is a question of livelockCases or keyframeCases
// under one fairness.
type livelockQuestion struct {
	p        *ir.Program
	lb       result.LassoBound
	eo       explicit.Options // calls eo.Depth frames deep
	livelock bool             // the expected answer
	justice  int              // the bound of the justice form's lasso search; -1: none
}

// eachLivelockQuestion calls ask on every question of livelockCases (a
// loop of one round, calls 3 frames deep) and keyframeCases, each case a
// subtest.
func eachLivelockQuestion(t *testing.T, ask func(t *testing.T, q livelockQuestion)) {
	each := func(name, src string, stem, loop, depth int, livelocks [3]bool, justice int) {
		t.Run(name, func(t *testing.T) {
			p := load(t, "lasso.bpl", src)
			for i, f := range livelockFairness {
				eo := explicit.DefaultOptions()
				eo.Depth = depth
				ask(t, livelockQuestion{p, result.LassoBound{Stem: stem, Loop: loop, Fairness: f}, eo, livelocks[i], justice})
			}
		})
	}
	for _, c := range livelockCases {
		each(c.name, c.src, c.stem, 1, 3, c.livelocks, livelockBound)
	}
	for _, c := range keyframeCases {
		justice := livelockBound
		if c.justiceBound != 0 {
			justice = c.justiceBound
		}
		each(c.name, c.src, c.stem, c.loop, c.depth, c.livelocks, justice)
	}
}

// TestDirectLasso checks the livelock system of the direct product on
// small programs, under each fairness, against the expected answers and
// the explicit fair-cycle search.
func TestDirectLasso(t *testing.T) {
	eachLivelockQuestion(t, func(t *testing.T, q livelockQuestion) {
		p, lb, eo, livelock := q.p, q.lb, q.eo, q.livelock
		if want := explicit.LassoSearch(context.Background(), p, lb, eo).Verdict == result.Unsafe; want != livelock {
			t.Fatalf("%s: the explicit search says livelock %v, the case %v", lb, want, livelock)
		}
		if got := directLivelock(t, p, lb, eo.Depth); got != livelock {
			t.Errorf("%s: livelock %v, want %v", lb, got, livelock)
		}
	})
}

// TestDirectLassoJustice asks engine.Lasso the justice form of each
// question of TestDirectLasso: there is a lasso within the question's
// bound (livelockBound, or less for a costly one) exactly when a
// livelock is expected, and its path up to the first end of a period
// (which must close the loop) replays as a livelock on the explicit
// interpreter.
func TestDirectLassoJustice(t *testing.T) {
	eachLivelockQuestion(t, func(t *testing.T, q livelockQuestion) {
		p, lb, eo, livelock := q.p, q.lb, q.eo, q.livelock
		if q.justice < 0 {
			return
		}
		m, err := encode.DirectLasso(context.Background(), p, encode.DirectLassoOptions{Depth: eo.Depth, Stem: lb.Stem, Loop: lb.Loop, Fairness: lb.Fairness})
		if err != nil {
			t.Fatal(err)
		}
		sys := m.System()
		s := sat.New()
		out := engine.Lasso(context.Background(), sys, s, 0, q.justice)
		s.Close()
		switch {
		case out.Status == solver.Unknown:
			t.Fatalf("%s: the lasso search gave up at %d", lb, out.Bound)
		case (out.Status == solver.Sat) != livelock:
			t.Errorf("%s: lasso %v at bound %d (loop from %d), want a livelock %v", lb, out.Status, out.Bound, out.Loop, livelock)
			return
		case out.Status == solver.Unsat:
			return
		}
		// The loop holds a period's end, so the first one comes before
		// the bound, and Lasso reads up to it.
		values := func(frame int) []bool { return out.Witness.Values(sys, frame) }
		steps, loop, err := m.Lasso(values, out.Bound)
		if err != nil {
			t.Fatalf("%s: %v", lb, err)
		}
		if _, err := explicit.ReplayLasso(p, lb, eo, steps, loop); err != nil {
			t.Errorf("%s: the lasso does not replay: %v\nsteps (loop from %d): %s", lb, err, loop, showSteps(steps))
		}
	})
}

// TestDirectLassoUnsupported: what DirectLasso refuses.
func TestDirectLassoUnsupported(t *testing.T) {
	spawns := load(t, "spawn.bpl", `void t() begin skip; end void main() begin start_thread t(); end`)
	ok := load(t, "ok.bpl", `thread void a() begin skip; end`)
	for _, c := range []struct {
		p    *ir.Program
		o    encode.DirectLassoOptions
		want string
	}{
		{spawns, encode.DirectLassoOptions{Depth: 2, Stem: 1, Loop: 1}, "does not support starting threads"},
		{ok, encode.DirectLassoOptions{Depth: 2, Stem: -1, Loop: 1}, "stem"},
		{ok, encode.DirectLassoOptions{Depth: 2, Stem: 1, Loop: 0}, "loop"},
		{ok, encode.DirectLassoOptions{Depth: 2, Stem: 1, Loop: 1, Fairness: 7}, "fairness"},
		{ok, encode.DirectLassoOptions{Depth: 0, Stem: 1, Loop: 1}, "depth"},
	} {
		if _, err := encode.DirectLasso(context.Background(), c.p, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: error %v, want one about %q", c.p.File, c.o, err, c.want)
		}
	}
}
