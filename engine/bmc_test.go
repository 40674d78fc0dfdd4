package engine

import (
	"context"
	"slices"
	"testing"

	"bmc/internal/testsolvers"
	"bmc/solver"
	"bmc/ts"
)

// counter is a two-bit counter from 0 that an input increments (modulo
// 4) or leaves alone, with a latch that says it has stopped once the
// input is off; is(v) is "the counter is v".
type counter struct {
	sys     *ts.System
	inc     ts.Lit
	stopped ts.Lit
	is      func(v int) ts.Lit
}

func newCounter() *counter {
	s := ts.New()
	inc := s.NewInput("inc")
	lo, hi := s.NewLatch("lo", ts.Init0), s.NewLatch("hi", ts.Init0)
	stopped := s.NewLatch("stopped", ts.Init0)
	s.SetNext(lo, s.Xor(lo, inc))
	s.SetNext(hi, s.Xor(hi, s.And(lo, inc)))
	s.SetNext(stopped, s.Or(stopped, inc.Not()))
	is := func(v int) ts.Lit {
		l, h := lo, hi
		if v&1 == 0 {
			l = l.Not()
		}
		if v&2 == 0 {
			h = h.Not()
		}
		return s.And(l, h)
	}
	return &counter{s, inc, stopped, is}
}

// TestCheck runs Check on small systems whose answers are known by hand.
func TestCheck(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		// task builds the question on a fresh counter.
		task      func(c *counter) Task
		status    solver.Status
		bound     int
		seen      []bool
		ended     bool
		wantValue int // for Sat: the counter's value at the bound
	}{
		{name: "reached at the least bound", task: func(c *counter) Task {
			return Task{Target: c.is(2), Running: ts.True, MaxSteps: 5}
		}, status: solver.Sat, bound: 2, seen: []bool{}, wantValue: 2},
		{name: "not within the bound", task: func(c *counter) Task {
			return Task{Target: c.is(3), Running: ts.True, MaxSteps: 2}
		}, status: solver.Unsat, bound: 2, seen: []bool{}},
		{name: "a limit is seen on the way", task: func(c *counter) Task {
			return Task{Target: c.is(3), Limits: []ts.Lit{c.is(1), c.is(2)}, Running: ts.True, MaxSteps: 5}
		}, status: solver.Sat, bound: 3, seen: []bool{true, true}, wantValue: 3},
		{name: "constraints cut the paths", task: func(c *counter) Task {
			c.sys.AddConstraint(c.is(1).Not())
			return Task{Target: c.is(2), Running: ts.True, MaxSteps: 4}
		}, status: solver.Unsat, bound: 4, seen: []bool{}},
		{name: "a path runs longer than the bound", task: func(c *counter) Task {
			return Task{Target: c.is(3).Not().Not(), Running: c.stopped.Not(), MaxSteps: 2}
		}, status: solver.Unsat, bound: 2, seen: []bool{}, ended: false},
		{name: "constraints end every path", task: func(c *counter) Task {
			// Running at 3 needs three increments, through 2.
			c.sys.AddConstraint(c.is(2).Not())
			return Task{Target: c.is(3), Running: c.stopped.Not(), MaxSteps: 3}
		}, status: solver.Unsat, bound: 3, seen: []bool{}, ended: true},
		{name: "running is false after the bound", task: func(c *counter) Task {
			c.sys.AddConstraint(c.inc.Not())
			return Task{Target: c.is(3), Running: c.stopped.Not(), MaxSteps: 1}
		}, status: solver.Unsat, bound: 1, seen: []bool{}, ended: true},
		{name: "ended before the bound", task: func(c *counter) Task {
			return Task{Target: c.is(3), Running: ts.True, MaxSteps: 9, Ended: func(k int) bool { return k >= 2 }}
		}, status: solver.Unsat, bound: 2, seen: []bool{}, ended: true},
		{name: "ended beyond the bound", task: func(c *counter) Task {
			return Task{Target: c.is(3), Running: ts.True, MaxSteps: 1, Ended: func(k int) bool { return k >= 5 }}
		}, status: solver.Unsat, bound: 1, seen: []bool{}},
		{name: "a whole program in one frame", task: func(c *counter) Task {
			return Task{Target: c.sys.And(c.is(0), c.inc), Running: ts.False, Whole: true, Ended: func(int) bool { return true }}
		}, status: solver.Sat, bound: 0, seen: []bool{}, wantValue: 0},
		{name: "an ended context", ctx: cancelled, task: func(c *counter) Task {
			return Task{Target: c.is(3), Running: ts.True, MaxSteps: 4}
		}, status: solver.Unknown, bound: 0, seen: []bool{}},
	}
	for _, tc := range cases {
		for name, mk := range testsolvers.All(t) {
			c := newCounter()
			task := tc.task(c)
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			s := mk()
			out := Check(ctx, c.sys, s, task)
			s.Close()
			if out.Status != tc.status || out.Bound != tc.bound || !slices.Equal(out.Seen, tc.seen) || out.Ended != tc.ended {
				t.Errorf("%s, %s: got %v at bound %d, seen %v, ended %v; want %v at %d, seen %v, ended %v",
					tc.name, name, out.Status, out.Bound, out.Seen, out.Ended, tc.status, tc.bound, tc.seen, tc.ended)
				continue
			}
			if out.Status != solver.Sat {
				if out.Witness != nil {
					t.Errorf("%s, %s: a witness without a violation", tc.name, name)
				}
				continue
			}
			if len(out.Witness.Latches) != out.Bound+1 {
				t.Fatalf("%s, %s: witness of %d frames at bound %d", tc.name, name, len(out.Witness.Latches), out.Bound)
			}
			vals := out.Witness.Values(c.sys, out.Bound)
			if !ts.Value(vals, task.Target) || !ts.Value(vals, c.is(tc.wantValue)) {
				t.Errorf("%s, %s: the witness does not end in the target", tc.name, name)
			}
		}
	}
}
