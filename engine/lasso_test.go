package engine

import (
	"context"
	"slices"
	"testing"

	"bmc/internal/testsolvers"
	"bmc/solver"
	"bmc/ts"
)

// TestLasso runs Lasso on the counter of TestCheck (bmc_test.go), whose
// loops are known by hand: the cycle 0, 1, 2, 3, 0 while the input
// increments every step, and, once a step has left the counter alone
// (stopped), a loop at any value or around the values.
func TestLasso(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	const anyLoop = -1
	cases := []struct {
		name string
		ctx  context.Context
		// justice adds the property to a fresh counter, with the
		// constraints and fairness of the case, and returns its index.
		justice func(c *counter) int
		maxK    int
		status  solver.Status
		bound   int
		loop    int // for Sat: the loop's first frame, or anyLoop
	}{
		{name: "the counter cycles", justice: func(c *counter) int {
			return c.sys.AddJustice("three", c.is(3))
		}, maxK: 8, status: solver.Sat, bound: 4, loop: 0},
		{name: "the property asked for, not the first", justice: func(c *counter) int {
			c.sys.AddJustice("never", ts.False)
			return c.sys.AddJustice("three", c.is(3))
		}, maxK: 8, status: solver.Sat, bound: 4, loop: 0},
		{name: "no literals: any loop", justice: func(c *counter) int {
			// Frame 0 is not stopped and frame 2 with two increments is 2.
			return c.sys.AddJustice("any")
		}, maxK: 8, status: solver.Sat, bound: 2, loop: 1},
		{name: "every loop misses a literal", justice: func(c *counter) int {
			// Not stopped in a loop means incrementing all round it.
			return c.sys.AddJustice("running and resting", c.stopped.Not(), c.inc.Not())
		}, maxK: 8, status: solver.Unsat, bound: 8},
		{name: "fairness excludes the cycle", justice: func(c *counter) int {
			// Three increments, then a step that rests at 3: frames 4, 5.
			c.sys.AddFairness(c.inc.Not())
			return c.sys.AddJustice("three", c.is(3))
		}, maxK: 8, status: solver.Sat, bound: 5, loop: 4},
		{name: "fairness on a latch, two shortest loops", justice: func(c *counter) int {
			// Resting at 3 from frame 4, or around from 0 stopped at 1.
			c.sys.AddFairness(c.stopped)
			return c.sys.AddJustice("three", c.is(3))
		}, maxK: 8, status: solver.Sat, bound: 5, loop: anyLoop},
		{name: "a constraint excludes the short loops", justice: func(c *counter) int {
			c.sys.AddConstraint(c.inc)
			return c.sys.AddJustice("any")
		}, maxK: 8, status: solver.Sat, bound: 4, loop: 0},
		{name: "a constraint at the loop's last frame excludes it", justice: func(c *counter) int {
			// The cycle's frame 3 is 3; an off-by-one that leaves out the
			// constraints of frame k-1 finds it.
			c.sys.AddConstraint(c.sys.And(c.inc, c.is(3).Not()))
			return c.sys.AddJustice("any")
		}, maxK: 8, status: solver.Unsat, bound: 8},
		{name: "an ended context", ctx: cancelled, justice: func(c *counter) int {
			return c.sys.AddJustice("any")
		}, maxK: 8, status: solver.Unknown, bound: 1},
	}
	for _, tc := range cases {
		for name, mk := range testsolvers.All(t) {
			c := newCounter()
			j := tc.justice(c)
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			s := mk()
			out := Lasso(ctx, c.sys, s, j, tc.maxK)
			s.Close()
			if out.Status != tc.status || out.Bound != tc.bound || out.Status == solver.Sat && tc.loop != anyLoop && out.Loop != tc.loop {
				t.Errorf("%s, %s: got %v at bound %d, loop %d; want %v at %d, loop %d",
					tc.name, name, out.Status, out.Bound, out.Loop, tc.status, tc.bound, tc.loop)
				continue
			}
			if out.Status != solver.Sat {
				if out.Witness != nil {
					t.Errorf("%s, %s: a witness without a lasso", tc.name, name)
				}
				continue
			}
			if err := checkLasso(c.sys, j, out); err != "" {
				t.Errorf("%s, %s: the witness (loop %d of %d) %s", tc.name, name, out.Loop, out.Bound, err)
			}
		}
	}
}

// checkLasso simulates a Sat outcome's witness on sys and says what is
// wrong with it as a lasso of justice property j, or "".
func checkLasso(sys *ts.System, j int, out *LassoOutcome) string {
	w, k, i := out.Witness, out.Bound, out.Loop
	if len(w.Latches) != k+1 || len(w.Inputs) != k+1 || i < 0 || i >= k {
		return "has the wrong shape"
	}
	for n, l := range sys.Latches() {
		if l.Init != ts.InitFree && w.Latches[0][n] != (l.Init == ts.Init1) {
			return "does not start in an initial state"
		}
	}
	for f := 0; f < k; f++ {
		vals := w.Values(sys, f)
		for n, l := range sys.Latches() {
			if w.Latches[f+1][n] != ts.Value(vals, l.Next) {
				return "takes a step the system does not"
			}
		}
	}
	if !slices.Equal(w.Latches[k], w.Latches[i]) || !slices.Equal(w.Inputs[k], w.Inputs[i]) {
		return "does not end in its loop's first frame"
	}
	for f := 0; f <= k; f++ {
		vals := w.Values(sys, f)
		for _, l := range sys.Constraints {
			if !ts.Value(vals, l) {
				return "breaks a constraint"
			}
		}
	}
	for _, l := range append(slices.Clone(sys.Justice[j].Lits), sys.Fairness...) {
		holds := false
		for f := i; f < k; f++ {
			holds = holds || ts.Value(w.Values(sys, f), l)
		}
		if !holds {
			return "has a justice or fairness literal false all round the loop"
		}
	}
	return ""
}
