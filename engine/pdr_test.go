package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bmc/internal/testsolvers"
	"bmc/solver"
	"bmc/ts"
)

// pdrCounter3 is a three-bit counter from 0 that an input increments
// (modulo 8); with saturate, it stays at 4 once there. is(v) is "the
// counter is v".
func pdrCounter3(saturate bool) (*ts.System, func(v int) ts.Lit) {
	s := ts.New()
	inc := s.NewInput("inc")
	b := []ts.Lit{s.NewLatch("b0", ts.Init0), s.NewLatch("b1", ts.Init0), s.NewLatch("b2", ts.Init0)}
	is := func(v int) ts.Lit {
		all := ts.True
		for i, l := range b {
			if v>>i&1 == 0 {
				l = l.Not()
			}
			all = s.And(all, l)
		}
		return all
	}
	step := inc
	if saturate {
		step = s.And(inc, is(4).Not())
	}
	carry := step
	for _, l := range b {
		s.SetNext(l, s.Xor(l, carry))
		carry = s.And(carry, l)
	}
	return s, is
}

// pdrRing is a one-hot ring of three latches that an input rotates;
// hot(i) is latch i.
func pdrRing() (*ts.System, func(i int) ts.Lit) {
	s := ts.New()
	en := s.NewInput("en")
	l := []ts.Lit{s.NewLatch("l0", ts.Init1), s.NewLatch("l1", ts.Init0), s.NewLatch("l2", ts.Init0)}
	for i := range l {
		s.SetNext(l[i], s.Ite(en, l[(i+2)%3], l[i]))
	}
	return s, func(i int) ts.Lit { return l[i] }
}

// pdrReplay checks w independently of any solver: frame 0 is initial,
// each frame before the bound meets the constraints and its successor is
// the next frame, and the bound's frame has target.
func pdrReplay(sys *ts.System, w *Witness, target ts.Lit, bound int) error {
	if len(w.Latches) != bound+1 || len(w.Inputs) != bound+1 {
		return fmt.Errorf("%d frames for %d steps", len(w.Latches), bound)
	}
	for j, l := range sys.Latches() {
		if l.Init != ts.InitFree && w.Latches[0][j] != (l.Init == ts.Init1) {
			return fmt.Errorf("latch %s starts at %v", l.Name, w.Latches[0][j])
		}
	}
	for i := 0; i < bound; i++ {
		vals := w.Values(sys, i)
		if !ts.Value(vals, sys.Ands(sys.Constraints...)) {
			return fmt.Errorf("frame %d breaks a constraint", i)
		}
		for j, l := range sys.Latches() {
			if ts.Value(vals, l.Next) != w.Latches[i+1][j] {
				return fmt.Errorf("latch %s at frame %d is not its next-state value", l.Name, i+1)
			}
		}
	}
	if !ts.Value(w.Values(sys, bound), target) {
		return fmt.Errorf("the last frame does not have the target")
	}
	return nil
}

// pdrCheckProof checks a proof of PDR on sys: a Sat witness replays, an
// Unsat invariant re-checks on a fresh solver. For Unsat it reports
// whether dropping some clause breaks the invariant.
func pdrCheckProof(t *testing.T, what string, sys *ts.System, target ts.Lit, mk func() solver.Solver, p *Proof) (dropBreaks bool) {
	t.Helper()
	switch p.Status {
	case solver.Sat:
		if err := pdrReplay(sys, p.Witness, target, p.Bound); err != nil {
			t.Errorf("%s: the witness does not replay: %v", what, err)
		}
	case solver.Unsat:
		check := func(inv [][]ts.Lit) error {
			s := mk()
			defer s.Close()
			return CheckInvariant(context.Background(), sys, s, target, inv)
		}
		if err := check(p.Invariant); err != nil {
			t.Errorf("%s: the invariant %v does not re-check: %v", what, p.Invariant, err)
		}
		for i := range p.Invariant {
			if check(slices.Delete(slices.Clone(p.Invariant), i, i+1)) != nil {
				dropBreaks = true
			}
		}
	}
	return dropBreaks
}

// TestPDR runs PDR on small systems whose answers are known by hand.
func TestPDR(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		maxK int // 0: 20
		// build makes the system and the target.
		build  func() (*ts.System, ts.Lit)
		status solver.Status
		bound  int    // for Sat: the witness's steps
		reason string // for Unknown: a part of it
	}{
		{name: "a counter reaches 3", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			return c.sys, c.is(3)
		}, status: solver.Sat, bound: 3},
		{name: "a counter stuck at 2 misses 3", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			c.sys.AddConstraint(c.is(2).Not())
			return c.sys, c.is(3)
		}, status: solver.Unsat},
		{name: "constraints bind steps, not the bad state", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			c.sys.AddConstraint(c.is(2).Not())
			return c.sys, c.is(2)
		}, status: solver.Sat, bound: 2},
		{name: "two constraints", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			c.sys.AddConstraint(c.is(1).Not())
			c.sys.AddConstraint(c.is(2).Not())
			return c.sys, c.is(3)
		}, status: solver.Unsat},
		{name: "a counter never incremented", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			c.sys.AddConstraint(c.inc.Not())
			return c.sys, c.is(1)
		}, status: solver.Unsat},
		{name: "a counter reaches 5 in 5 steps", build: func() (*ts.System, ts.Lit) {
			s, is := pdrCounter3(false)
			return s, is(5)
		}, status: solver.Sat, bound: 5},
		{name: "a counter reaches 7 through 0 in 7 steps", build: func() (*ts.System, ts.Lit) {
			s, is := pdrCounter3(false)
			return s, s.And(is(7), s.Inputs()[0])
		}, status: solver.Sat, bound: 7},
		{name: "a saturating counter stays below 5", build: func() (*ts.System, ts.Lit) {
			s, is := pdrCounter3(true)
			return s, s.Ors(is(5), is(6), is(7))
		}, status: solver.Unsat},
		{name: "two latches stay equal", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			x := s.NewInput("x")
			a, b := s.NewLatch("a", ts.Init0), s.NewLatch("b", ts.Init0)
			s.SetNext(a, s.Xor(a, x))
			s.SetNext(b, s.Xor(b, x))
			return s, s.Xor(a, b)
		}, status: solver.Unsat},
		{name: "a one-hot ring never has two hot", build: func() (*ts.System, ts.Lit) {
			s, hot := pdrRing()
			return s, s.Ors(s.And(hot(0), hot(1)), s.And(hot(1), hot(2)), s.And(hot(0), hot(2)))
		}, status: solver.Unsat},
		{name: "a one-hot ring is never cold", build: func() (*ts.System, ts.Lit) {
			s, hot := pdrRing()
			return s, s.Ands(hot(0).Not(), hot(1).Not(), hot(2).Not())
		}, status: solver.Unsat},
		{name: "a one-hot ring turns", build: func() (*ts.System, ts.Lit) {
			s, hot := pdrRing()
			return s, hot(2)
		}, status: solver.Sat, bound: 2},
		{name: "the bad state needs an input", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			in := s.NewInput("in")
			l := s.NewLatch("l", ts.Init0)
			s.SetNext(l, ts.True)
			return s, s.And(l, in)
		}, status: solver.Sat, bound: 1},
		{name: "an input alone is bad at once", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			l := s.NewLatch("l", ts.Init0)
			s.SetNext(l, l.Not())
			return s, s.NewInput("in")
		}, status: solver.Sat, bound: 0},
		{name: "the constraints forbid the input that leads to the bad state", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			in := s.NewInput("in")
			l, m := s.NewLatch("l", ts.Init0), s.NewLatch("m", ts.Init0)
			s.SetNext(l, ts.True)
			s.SetNext(m, s.Or(m, s.And(l, in)))
			s.AddConstraint(s.Implies(l, in.Not()))
			return s, m
		}, status: solver.Unsat},
		{name: "a free latch starts on", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			f, g := s.NewLatch("f", ts.InitFree), s.NewLatch("g", ts.Init0)
			s.SetNext(g, ts.True)
			return s, s.And(f, g)
		}, status: solver.Sat, bound: 1},
		{name: "a latch copies a free one", build: func() (*ts.System, ts.Lit) {
			s := ts.New()
			a, e := s.NewLatch("a", ts.InitFree), s.NewLatch("e", ts.Init0)
			s.SetNext(e, a)
			return s, s.And(e, a.Not())
		}, status: solver.Unsat},
		{name: "false is never bad", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			return c.sys, ts.False
		}, status: solver.Unsat},
		{name: "true is bad at once", build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			return c.sys, ts.True
		}, status: solver.Sat, bound: 0},
		{name: "the frame bound", maxK: 2, build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			return c.sys, c.is(3)
		}, status: solver.Unknown, reason: "frame bound reached (2 frames)"},
		{name: "an ended context", ctx: cancelled, build: func() (*ts.System, ts.Lit) {
			c := newCounter()
			return c.sys, c.is(3)
		}, status: solver.Unknown, reason: "canceled"},
	}
	for name, mk := range testsolvers.All(t) {
		dropBreaks := false
		for _, tc := range cases {
			what := tc.name + ", " + name
			sys, target := tc.build()
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			maxK := tc.maxK
			if maxK == 0 {
				maxK = 20
			}
			var progress strings.Builder
			p := PDR(ctx, sys, ProofTask{Target: target, MaxK: maxK, NewSolver: mk, Progress: &progress})
			if p.Status != tc.status || p.Status == solver.Sat && p.Bound != tc.bound || !strings.Contains(p.Reason, tc.reason) {
				t.Errorf("%s: got %v at %d (%q); want %v at %d (%q)", what, p.Status, p.Bound, p.Reason, tc.status, tc.bound, tc.reason)
				continue
			}
			if tc.ctx == nil && (p.Status != solver.Sat || p.Bound > 0) && !strings.HasPrefix(progress.String(), "pdr: frame 0: 0 clauses\n") {
				t.Errorf("%s: progress %q", what, progress.String())
			}
			if (p.Witness != nil) != (p.Status == solver.Sat) || p.Invariant != nil && p.Status != solver.Unsat {
				t.Errorf("%s: %v with witness %v, invariant %v", what, p.Status, p.Witness, p.Invariant)
			}
			dropBreaks = pdrCheckProof(t, what, sys, target, mk, p) || dropBreaks
		}
		if !dropBreaks {
			t.Errorf("%s: no invariant needs every clause", name)
		}
	}
}

// pdrRandom builds a random system of at most 6 latches and 3 inputs,
// with random gates, initial values, next-state functions, up to two
// constraints, and a target that is a gate of three random literals.
func pdrRandom(r *rand.Rand) (*ts.System, ts.Lit) {
	s := ts.New()
	var pool, latches []ts.Lit
	for i := range r.IntN(4) {
		pool = append(pool, s.NewInput(fmt.Sprint("i", i)))
	}
	for i := range 1 + r.IntN(6) {
		// Mostly fixed initial values, so that few states are initial.
		l := s.NewLatch(fmt.Sprint("l", i), ts.Init(r.IntN(5)%3))
		latches = append(latches, l)
		pool = append(pool, l)
	}
	pick := func() ts.Lit {
		l := pool[r.IntN(len(pool))]
		if r.IntN(2) == 0 {
			l = l.Not()
		}
		return l
	}
	for range 3 + r.IntN(12) {
		pool = append(pool, s.And(pick(), pick()))
	}
	// Toggled and held latches make longer paths than arbitrary
	// functions, which mix the states in a step or two.
	for _, l := range latches {
		switch r.IntN(3) {
		case 0:
			s.SetNext(l, s.Xor(l, pick()))
		case 1:
			s.SetNext(l, s.Ite(pick(), pick(), l))
		default:
			s.SetNext(l, pick())
		}
	}
	for range r.IntN(6) / 2 {
		s.AddConstraint(pick())
	}
	return s, s.Ands(pick(), pick(), pick())
}

// pdrSomewhereBad reports whether some state and inputs make target
// true, reachable or not.
func pdrSomewhereBad(sys *ts.System, target ts.Lit) bool {
	vars := slices.Clone(sys.Inputs())
	for _, l := range sys.Latches() {
		vars = append(vars, l.Lit)
	}
	vals := make([]bool, sys.NumVars())
	for a := range 1 << len(vars) {
		for j, v := range vars {
			vals[v.Var()] = a>>j&1 == 1
		}
		sys.Eval(vals)
		if ts.Value(vals, target) {
			return true
		}
	}
	return false
}

// pdrReachDepth explores sys's states breadth first and returns the
// fewest steps to a state in which some inputs make target true, or -1.
func pdrReachDepth(sys *ts.System, target ts.Lit) int {
	ls, ins := sys.Latches(), sys.Inputs()
	ok := sys.Ands(sys.Constraints...)
	vals := make([]bool, sys.NumVars())
	seen := make([]bool, 1<<len(ls))
	var frontier []int
	for st := range 1 << len(ls) {
		initial := true
		for j, l := range ls {
			initial = initial && (l.Init == ts.InitFree || st>>j&1 == int(l.Init))
		}
		if initial {
			seen[st] = true
			frontier = append(frontier, st)
		}
	}
	for d := 0; len(frontier) > 0; d++ {
		var next []int
		for _, st := range frontier {
			for in := range 1 << len(ins) {
				for j, l := range ls {
					vals[l.Lit.Var()] = st>>j&1 == 1
				}
				for j, l := range ins {
					vals[l.Var()] = in>>j&1 == 1
				}
				sys.Eval(vals)
				if ts.Value(vals, target) {
					return d
				}
				if !ts.Value(vals, ok) {
					continue
				}
				succ := 0
				for j, l := range ls {
					if ts.Value(vals, l.Next) {
						succ |= 1 << j
					}
				}
				if !seen[succ] {
					seen[succ] = true
					next = append(next, succ)
				}
			}
		}
		frontier = next
	}
	return -1
}

// pdrRandomCase is a random system and target with the length of the
// shortest path to it (-1: none). A target that nothing satisfies or
// that an initial state does is too easy; the hand-built cases have
// them.
func pdrRandomCase(r *rand.Rand) (*ts.System, ts.Lit, int) {
	sys, target := pdrRandom(r)
	want := pdrReachDepth(sys, target)
	for want == 0 || want < 0 && !pdrSomewhereBad(sys, target) {
		sys, target = pdrRandom(r)
		want = pdrReachDepth(sys, target)
	}
	return sys, target, want
}

// TestPDRRandom compares PDR's verdicts on random small systems with
// explicit reachability. A counterexample need not be a shortest one
// (an obligation blocked at one frame is tried again at the next), but
// none is shorter than the shortest, and it replays.
func TestPDRRandom(t *testing.T) {
	const systems = 300
	for name, mk := range testsolvers.All(t) {
		r := rand.New(rand.NewPCG(13, 2))
		var sat, unsat int
		for i := range systems {
			sys, target, want := pdrRandomCase(r)
			what := fmt.Sprintf("system %d, %s", i, name)
			p := PDR(context.Background(), sys, ProofTask{Target: target, MaxK: 100, NewSolver: mk})
			switch {
			case want < 0 && p.Status != solver.Unsat:
				t.Errorf("%s: %v (%s), want unsat", what, p.Status, p.Reason)
			case want >= 0 && (p.Status != solver.Sat || p.Bound < want):
				t.Errorf("%s: %v at %d (%s), want sat at %d or later", what, p.Status, p.Bound, p.Reason, want)
			}
			pdrCheckProof(t, what, sys, target, mk, p)
			if want < 0 {
				unsat++
			} else {
				sat++
			}
		}
		t.Logf("%s: %d reachable, %d unreachable", name, sat, unsat)
	}
}
