package engine

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"bmc/internal/testsolvers"
	"bmc/solver"
	"bmc/ts"
)

// kindEngines are the two k-induction engines by their --method names.
var kindEngines = []struct {
	name  string
	prove func(context.Context, *ts.System, ProofTask) *Proof
}{{"kind-simple", KInduction}, {"kind", ImprovedInduction}}

// kindTable is a system given by its transition table: state s is latches
// 0..nbits-1 holding s's bits, input value v is inputs 0..nin-1 holding
// v's bits, and next(s, v) is the state after s under v.
type kindTable struct {
	sys *ts.System
	ins []ts.Lit
	is  func(s int) ts.Lit
}

func newKindTable(nbits, nin int, init func(bit int) ts.Init, next func(s, v int) int) *kindTable {
	sys := ts.New()
	var ls, ins []ts.Lit
	for b := range nbits {
		ls = append(ls, sys.NewLatch(fmt.Sprintf("b%d", b), init(b)))
	}
	for i := range nin {
		ins = append(ins, sys.NewInput(fmt.Sprintf("x%d", i)))
	}
	value := func(lits []ts.Lit, x int) ts.Lit {
		var cube []ts.Lit
		for b, l := range lits {
			if x>>b&1 == 0 {
				l = l.Not()
			}
			cube = append(cube, l)
		}
		return sys.Ands(cube...)
	}
	for b, l := range ls {
		var terms []ts.Lit
		for s := range 1 << nbits {
			var when []ts.Lit // the input values under which bit b is set
			for v := range 1 << nin {
				if next(s, v)>>b&1 == 1 {
					when = append(when, value(ins, v))
				}
			}
			if len(when) == 1<<nin {
				when = []ts.Lit{ts.True} // smaller, for Z3's sake
			}
			terms = append(terms, sys.And(value(ls, s), sys.Ors(when...)))
		}
		sys.SetNext(l, sys.Ors(terms...))
	}
	return &kindTable{sys, ins, func(s int) ts.Lit { return value(ls, s) }}
}

func kindZeros(int) ts.Init { return ts.Init0 }

// kindCounter is a nbits-bit counter from 0 that input 0 increments, from
// wrap-1 back to 0 (and from the states above wrap on up, modulo 2^nbits).
func kindCounter(nbits, wrap int) *kindTable {
	return newKindTable(nbits, 1, kindZeros, func(s, v int) int {
		switch {
		case v == 0:
			return s
		case s == wrap-1:
			return 0
		}
		return (s + 1) % (1 << nbits)
	})
}

// kindFigure3 rebuilds Fig. 3 of the paper as a system of 16 states (4
// latches holding the state's number, 2 inputs choosing the branch):
// state 0 is the initial state, which only loops; 1 is a0, whose inputs
// choose a1 (2), a2 (3) or a5 (6); 2 = a1 steps to e; 3 = a2, 4 = a3,
// 5 = a4 make the path a2 -> a3 -> a4 -> e; 15 is e, the error state,
// which loops. The unbounded path a0 -> a5 ->* e is a5 and a chain
// c1 .. c8 (states 7 .. 14) from a5 to e, every state of which may also
// step into e at once (input bit 0), as another thread of a concurrent
// program could fail at any point: long paths to e that add no state far
// from e. By Lemma 3.1, simple-path induction needs the longest path into
// e, a0 -> a5 -> c1 -> .. -> c8 -> e, k = 10; improved induction needs the
// farthest state's shortest path into e, a2's, k = 3.
func kindFigure3() *kindTable {
	const a0, a1, a2, a3, a4, a5, e = 1, 2, 3, 4, 5, 6, 15
	return newKindTable(4, 2, kindZeros, func(s, v int) int {
		switch {
		case s == a0:
			return [...]int{a1, a2, a5, a5}[v]
		case s == a1 || s == a4:
			return e
		case s == a2 || s == a3:
			return s + 1
		case s >= a5 && s < e: // a5, c1 .. c8
			if v&1 == 1 {
				return e
			}
			return s + 1
		}
		return s // the initial state, e
	})
}

// kindReplay checks that w is a path of the system of n steps: frame 0 is an
// initial state (unless free), each frame takes a step to the next one
// with the constraints, and Target holds at frame n.
func kindReplay(sys *ts.System, w *Witness, target ts.Lit, n int, free bool) error {
	if len(w.Latches) != n+1 || len(w.Inputs) != n+1 {
		return fmt.Errorf("%d frames, want %d", len(w.Latches), n+1)
	}
	for j, l := range sys.Latches() {
		if !free && l.Init != ts.InitFree && w.Latches[0][j] != (l.Init == ts.Init1) {
			return fmt.Errorf("latch %s starts at %v", l.Name, w.Latches[0][j])
		}
	}
	for i := 0; i < n; i++ {
		vals := w.Values(sys, i)
		for _, c := range sys.Constraints {
			if !ts.Value(vals, c) {
				return fmt.Errorf("frame %d breaks a constraint", i)
			}
		}
		for j, l := range sys.Latches() {
			if ts.Value(vals, l.Next) != w.Latches[i+1][j] {
				return fmt.Errorf("latch %s at frame %d is not the step from frame %d", l.Name, i+1, i)
			}
		}
	}
	if !ts.Value(w.Values(sys, n), target) {
		return fmt.Errorf("no Target at frame %d", n)
	}
	return nil
}

// kindCheckCTI checks that cti is a counterexample to induction at k: a
// simple path of k+1 steps from any state, Target false at frames 0..k and
// true at k+1.
func kindCheckCTI(sys *ts.System, cti *Witness, target ts.Lit, k int) error {
	if cti == nil {
		return fmt.Errorf("no CTI")
	}
	if err := kindReplay(sys, cti, target, k+1, true); err != nil {
		return err
	}
	for i := 0; i <= k; i++ {
		if ts.Value(cti.Values(sys, i), target) {
			return fmt.Errorf("Target at frame %d", i)
		}
		for j := i + 1; j <= k+1; j++ {
			if slices.Equal(cti.Latches[i], cti.Latches[j]) {
				return fmt.Errorf("frames %d and %d repeat a state", i, j)
			}
		}
	}
	return nil
}

// TestKInduction runs both engines on small systems whose answers are
// known by hand.
func TestKInduction(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name  string
		ctx   context.Context
		build func() (*ts.System, ts.Lit)
		maxK  int
		// giveUp makes every Solve return Unknown with ctx alive.
		giveUp bool
		want   solver.Status
		// bounds: per engine, the witness's steps (Sat), the k that
		// proves (Unsat) or MaxK (Unknown).
		simple, improved int
		reason           string
	}{
		{name: "a counter reaches 5 at depth 5", build: func() (*ts.System, ts.Lit) {
			c := kindCounter(3, 8)
			return c.sys, c.is(5)
		}, maxK: 10, want: solver.Sat, simple: 5, improved: 5},
		{name: "an input-dependent Target at depth 6", build: func() (*ts.System, ts.Lit) {
			c := kindCounter(3, 8)
			return c.sys, c.sys.And(c.is(6), c.ins[0].Not())
		}, maxK: 10, want: solver.Sat, simple: 6, improved: 6},
		{name: "a counter modulo 6 never reaches 7", build: func() (*ts.System, ts.Lit) {
			c := kindCounter(3, 6)
			return c.sys, c.is(7)
		}, maxK: 10, want: solver.Unsat, simple: 1, improved: 1},
		{name: "a Target of two states in a row", build: func() (*ts.System, ts.Lit) {
			// 4 -> 5 -> 6 leads into Target; 4 -> 5 -> 6 -> 7 does too,
			// but through Target, which the step case assumes away.
			c := kindCounter(3, 4)
			return c.sys, c.sys.Or(c.is(6), c.is(7))
		}, maxK: 10, want: solver.Unsat, simple: 2, improved: 2},
		{name: "constraints cut the paths", build: func() (*ts.System, ts.Lit) {
			// Only 3 -> 4 -> 5 leads to 5 once 2 takes no step.
			c := kindCounter(3, 8)
			c.sys.AddConstraint(c.is(2).Not())
			return c.sys, c.is(5)
		}, maxK: 10, want: solver.Unsat, simple: 2, improved: 2},
		{name: "an InitFree latch starts in Target", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			x := s.NewLatch("x", ts.InitFree)
			s.SetNext(x, x.Not())
			return s, x
		}, maxK: 3, want: solver.Sat, simple: 0, improved: 0},
		{name: "an InitFree latch that never sets y alone", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			x, y := s.NewLatch("x", ts.InitFree), s.NewLatch("y", ts.Init0)
			s.SetNext(y, s.Or(x, y))
			return s, s.And(x.Not(), y)
		}, maxK: 3, want: solver.Unsat, simple: 0, improved: 0},
		{name: "an input-dependent Target under a latch that stays off", build: func() (*ts.System, ts.Lit) {
			// A path of one step from armed repeats its state: only the
			// simple-path constraint proves this.
			s := ts.New()
			armed, in := s.NewLatch("armed", ts.Init0), s.NewInput("in")
			return s, s.And(armed, in)
		}, maxK: 3, want: solver.Unsat, simple: 0, improved: 0},
		{name: "safe but not 3-inductive", build: func() (*ts.System, ts.Lit) {
			// 6 -> 7 -> .. -> 15 is a path of 9 steps into 15.
			c := kindCounter(4, 6)
			return c.sys, c.is(15)
		}, maxK: 3, want: solver.Unknown, simple: 3, improved: 3, reason: "k bound reached (k = 3)"},
		{name: "safe and 9-inductive", build: func() (*ts.System, ts.Lit) {
			c := kindCounter(4, 6)
			return c.sys, c.is(15)
		}, maxK: 12, want: solver.Unsat, simple: 9, improved: 9},
		{name: "Figure 3 with MaxK 2", build: func() (*ts.System, ts.Lit) {
			f := kindFigure3()
			return f.sys, f.is(15)
		}, maxK: 2, want: solver.Unknown, simple: 2, improved: 2, reason: "k bound reached (k = 2)"},
		{name: "a solver that gives up", giveUp: true, build: func() (*ts.System, ts.Lit) {
			c := kindCounter(3, 8)
			return c.sys, c.is(5)
		}, maxK: 10, want: solver.Unknown, simple: 0, improved: 0, reason: "the solver gave up"},
		{name: "a cancelled context", ctx: cancelled, build: func() (*ts.System, ts.Lit) {
			c := kindCounter(3, 8)
			return c.sys, c.is(5)
		}, maxK: 10, want: solver.Unknown, simple: 0, improved: 0, reason: "context canceled"}, // the context's cause
	}
	for _, tc := range cases {
		for sname, mk := range testsolvers.All(t) {
			for _, e := range kindEngines {
				ctx := tc.ctx
				if ctx == nil {
					ctx = context.Background()
				}
				sys, target := tc.build()
				made, closed := 0, 0
				newSolver := func() solver.Solver {
					made++
					return kindCloses{mk(), &closed, tc.giveUp}
				}
				p := e.prove(ctx, sys, ProofTask{Target: target, MaxK: tc.maxK, NewSolver: newSolver})
				where := fmt.Sprintf("%s, %s, %s", tc.name, e.name, sname)
				if made == 0 || made != closed {
					t.Errorf("%s: %d solvers made, %d closed", where, made, closed)
				}
				bound := map[string]int{"kind-simple": tc.simple, "kind": tc.improved}[e.name]
				if p.Status != tc.want || p.Bound != bound || p.Reason != tc.reason {
					t.Errorf("%s: got %v at %d (%q), want %v at %d (%q)", where, p.Status, p.Bound, p.Reason, tc.want, bound, tc.reason)
					continue
				}
				switch {
				case p.Status == solver.Sat:
					if err := kindReplay(sys, p.Witness, target, p.Bound, false); err != nil {
						t.Errorf("%s: the witness: %v", where, err)
					}
				case p.Status == solver.Unknown && tc.ctx == nil && !tc.giveUp:
					if err := kindCheckCTI(sys, p.CTI, target, tc.maxK); err != nil {
						t.Errorf("%s: the CTI: %v", where, err)
					}
				case p.Witness != nil || p.CTI != nil:
					t.Errorf("%s: a witness or a CTI with %v", where, p.Status)
				}
			}
		}
	}
}

// kindCloses counts Close calls, to check that an engine closes every
// solver it makes, and gives up every Solve if told to.
type kindCloses struct {
	solver.Solver
	closed *int
	giveUp bool
}

func (c kindCloses) Solve(ctx context.Context, assumptions ...solver.Lit) solver.Status {
	if c.giveUp {
		return solver.Unknown
	}
	return c.Solver.Solve(ctx, assumptions...)
}

func (c kindCloses) Close() {
	*c.closed++
	c.Solver.Close()
}

// TestKInductionFigure3 is Fig. 3 of the paper: improved induction
// proves the error state unreachable at a smaller k than simple-path
// induction (3 against 10, the values of Lemma 3.1; see kindFigure3), and
// reports each k on Progress.
func TestKInductionFigure3(t *testing.T) {
	f := kindFigure3()
	for sname, mk := range testsolvers.All(t) {
		got := map[string]int{}
		for _, e := range kindEngines {
			var log kindLog
			p := e.prove(context.Background(), f.sys, ProofTask{Target: f.is(15), MaxK: 20, NewSolver: mk, Progress: &log})
			if p.Status != solver.Unsat {
				t.Fatalf("%s, %s: %v (%s)", e.name, sname, p.Status, p.Reason)
			}
			if len(log) != p.Bound+1 {
				t.Errorf("%s, %s: %d progress lines up to k = %d: %q", e.name, sname, len(log), p.Bound, log)
			}
			got[e.name] = p.Bound
		}
		if got["kind"] != 3 || got["kind-simple"] != 10 || got["kind"] >= got["kind-simple"] {
			t.Errorf("%s: improved induction proves at k = %d, simple-path at k = %d; want 3 < 10", sname, got["kind"], got["kind-simple"])
		}
	}
}

// kindLog collects what is written to it, a line per Write.
type kindLog []string

func (l *kindLog) Write(p []byte) (int, error) {
	*l = append(*l, string(p))
	return len(p), nil
}

// TestKInductionRandom compares both engines with explicit-state answers
// on random small systems: the verdict, the depth of a violation (and the
// witness replayed), and for a proof the k, computed by brute force: for
// improved induction the least k at which no state's shortest bad run has
// k+1 steps; for simple-path induction (up to 4 latches) the longest
// simple path, not bad before its end, into a bad state.
func TestKInductionRandom(t *testing.T) {
	start := time.Now()
	const systems = 200
	for seed := range uint64(systems) {
		r := rand.New(rand.NewPCG(seed, 13))
		rs := kindRandomSystem(r)
		for sname, mk := range testsolvers.All(t) {
			maxK := 1 << len(rs.sys.Latches())
			got := map[string]*Proof{}
			for _, e := range kindEngines {
				p := e.prove(context.Background(), rs.sys, ProofTask{Target: rs.target, MaxK: maxK, NewSolver: mk})
				got[e.name] = p
				where := fmt.Sprintf("seed %d, %s, %s", seed, e.name, sname)
				switch {
				case rs.depth >= 0:
					if p.Status != solver.Sat || p.Bound != rs.depth {
						t.Errorf("%s: %v at %d, want a violation at depth %d", where, p.Status, p.Bound, rs.depth)
					} else if err := kindReplay(rs.sys, p.Witness, rs.target, p.Bound, false); err != nil {
						t.Errorf("%s: the witness: %v", where, err)
					}
				case p.Status != solver.Unsat:
					t.Errorf("%s: %v (%s), want proved", where, p.Status, p.Reason)
				}
			}
			if rs.depth >= 0 {
				continue
			}
			simple, improved := got["kind-simple"].Bound, got["kind"].Bound
			if improved != rs.improvedK || rs.simpleK >= 0 && simple != rs.simpleK || improved > simple {
				t.Errorf("seed %d, %s: proved at k = %d (simple), %d (improved); want %d, %d", seed, sname, simple, improved, rs.simpleK, rs.improvedK)
			}
		}
	}
	t.Logf("%d systems in %v", systems, time.Since(start))
}

// kindRandomSys is a random system with its answers by brute force.
type kindRandomSys struct {
	sys    *ts.System
	target ts.Lit
	// depth is the fewest steps to Target from an initial state, -1 if
	// none; improvedK and simpleK are the k at which each engine proves
	// (simpleK -1: not computed).
	depth, improvedK, simpleK int
}

func kindRandomSystem(r *rand.Rand) *kindRandomSys {
	if r.IntN(2) == 0 {
		// At most one input, for a sparse graph and so long paths.
		return kindRandomTable(r, 3+r.IntN(3), r.IntN(2))
	}
	nl, ni := 1+r.IntN(5), r.IntN(3)
	sys := ts.New()
	var pool []ts.Lit
	for i := range nl {
		// Mostly reset latches, so that few states are initial.
		pool = append(pool, sys.NewLatch(fmt.Sprintf("l%d", i), [...]ts.Init{ts.Init0, ts.Init0, ts.Init1, ts.InitFree}[r.IntN(4)]))
	}
	for i := range ni {
		pool = append(pool, sys.NewInput(fmt.Sprintf("i%d", i)))
	}
	pick := func(from int) ts.Lit { return pool[from+r.IntN(len(pool)-from)] ^ ts.Lit(r.IntN(2)) }
	for range 2 + r.IntN(10) {
		pool = append(pool, sys.And(pick(0), pick(0)))
	}
	for _, l := range sys.Latches() {
		// Mostly a gate, for next-state functions that mix the latches.
		from := nl + ni
		if r.IntN(4) == 0 {
			from = 0
		}
		sys.SetNext(l.Lit, pick(from))
	}
	if r.IntN(3) == 0 {
		sys.AddConstraint(pick(0))
	}
	// Mostly a cube of the latches and a pick, so that Target is rare
	// and so deep.
	target := pick(0)
	for i := range nl {
		if r.IntN(4) != 0 {
			target = sys.And(target, pool[i]^ts.Lit(r.IntN(2)))
		}
	}
	rs := &kindRandomSys{sys: sys, target: target}
	rs.solve(nl, ni)
	return rs
}

// kindRandomTable is a random transition table, whose random state graph
// has longer paths than random gates tend to make. The top latch, reset,
// never changes, so that the half of the states with it set is
// unreachable, and a Target there, one state (with an input value, at
// times), is proved at k as large as that half's graph makes it. Initial
// state 0, one other latch in four InitFree, and at times a state from
// which the constraints take no step.
func kindRandomTable(r *rand.Rand, nl, ni int) *kindRandomSys {
	top := 1 << (nl - 1)
	next := make([][]int, 1<<nl)
	for s := range next {
		for range 1 << ni {
			t := r.IntN(top)
			if r.IntN(3) != 0 {
				t = (s + 1) % top // mostly counting, for long paths
			}
			next[s] = append(next[s], s&top|t)
		}
	}
	free := r.IntN(4)
	init := func(b int) ts.Init {
		if b == free && b != nl-1 {
			return ts.InitFree
		}
		return ts.Init0
	}
	tb := newKindTable(nl, ni, init, func(s, v int) int { return next[s][v] })
	target := tb.is(r.IntN(1 << nl))
	if ni > 0 && r.IntN(3) == 0 {
		target = tb.sys.And(target, tb.ins[0])
	}
	if r.IntN(3) == 0 {
		tb.sys.AddConstraint(tb.is(r.IntN(1 << nl)).Not())
	}
	rs := &kindRandomSys{sys: tb.sys, target: target}
	rs.solve(nl, ni)
	return rs
}

// solve computes the answers by explicit search over the 2^nl states and
// 2^ni input values.
func (rs *kindRandomSys) solve(nl, ni int) {
	sys, n := rs.sys, 1<<nl
	latches := sys.Latches()
	// step[s][v]: the state after s under v, -1 if the constraints stop
	// it; bad[s][v]: Target holds.
	step, bad := make([][]int, n), make([][]bool, n)
	for s := range n {
		for v := range 1 << ni {
			vals := make([]bool, sys.NumVars())
			for j, l := range latches {
				vals[l.Lit.Var()] = s>>j&1 == 1
			}
			for j, in := range sys.Inputs() {
				vals[in.Var()] = v>>j&1 == 1
			}
			sys.Eval(vals)
			next := -1
			if ok := ts.Value(vals, sys.Ands(sys.Constraints...)); ok {
				next = 0
				for j, l := range latches {
					if ts.Value(vals, l.Next) {
						next |= 1 << j
					}
				}
			}
			step[s] = append(step[s], next)
			bad[s] = append(bad[s], ts.Value(vals, rs.target))
		}
	}
	// Breadth-first from the initial states: the least depth of Target.
	depth := make([]int, n)
	var frontier []int
	for s := range n {
		depth[s] = -1
		initial := true
		for j, l := range latches {
			if l.Init != ts.InitFree && (s>>j&1 == 1) != (l.Init == ts.Init1) {
				initial = false
			}
		}
		if initial {
			depth[s] = 0
			frontier = append(frontier, s)
		}
	}
	rs.depth = -1
	for d := 0; len(frontier) > 0 && rs.depth < 0; d++ {
		var next []int
		for _, s := range frontier {
			if slices.Contains(bad[s], true) {
				rs.depth = d
			}
			for _, t := range step[s] {
				if t >= 0 && depth[t] < 0 {
					depth[t] = d + 1
					next = append(next, t)
				}
			}
		}
		frontier = next
	}
	// dist[s]: the fewest steps of a bad run from s (d(s) in kind.go),
	// by relaxation; n+1 stands for none.
	dist := make([]int, n)
	for s := range n {
		dist[s] = n + 1
		if slices.Contains(bad[s], true) {
			dist[s] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for s := range n {
			for _, t := range step[s] {
				if t >= 0 && dist[t]+1 < dist[s] {
					dist[s], changed = dist[t]+1, true
				}
			}
		}
	}
	rs.improvedK = 0
	for slices.Contains(dist, rs.improvedK+1) {
		rs.improvedK++
	}
	rs.simpleK = -1
	if nl > 4 {
		return
	}
	// ends[m]: the states at which some simple path through exactly the
	// states of m ends, each step taken under inputs that make its state
	// not bad. The longest one into a state that can be bad is simpleK.
	ends := make([]uint32, 1<<n)
	for s := range n {
		ends[1<<s] = 1 << s
	}
	rs.simpleK = 0
	for m := range ends {
		for s := range n {
			if ends[m]>>s&1 == 0 {
				continue
			}
			if slices.Contains(bad[s], true) {
				rs.simpleK = max(rs.simpleK, bits.OnesCount(uint(m))-1)
			}
			for v, t := range step[s] {
				if t >= 0 && !bad[s][v] && m>>t&1 == 0 {
					ends[m|1<<t] |= 1 << t
				}
			}
		}
	}
}
