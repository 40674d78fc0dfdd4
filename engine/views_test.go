package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"bmc/internal/testsolvers"
	"bmc/solver"
	"bmc/ts"
)

// viewsSystem is three threads chosen by two scheduler inputs (the
// fourth value moves no one), each with a one-hot ring of three bits
// that its steps turn and a bit set that it sets once its ring reaches
// the last place while the previous thread's set bit is up (thread 0:
// always), and thread 2 sets late once its set bit is up while thread
// 0's is down, which never happens (thread 2's waits for thread 1's,
// which waits for thread 0's); shared, when set, makes every thread
// write one latch.
type viewsSystem struct {
	sys  *ts.System
	th   *Threads
	hot  [3][3]ts.Lit
	done [3]ts.Lit
	late ts.Lit
}

func newViewsSystem(shared bool) *viewsSystem {
	v := &viewsSystem{sys: ts.New()}
	s := v.sys
	sched := []ts.Lit{s.NewInput("sched0"), s.NewInput("sched1")}
	var common ts.Lit
	if shared {
		common = s.NewLatch("common", ts.Init0)
	}
	for k := range 3 {
		for i := range 3 {
			init := ts.Init0
			if i == 0 {
				init = ts.Init1
			}
			v.hot[k][i] = s.NewLatch(fmt.Sprintf("t%d.hot%d", k, i), init)
		}
		v.done[k] = s.NewLatch(fmt.Sprintf("t%d.done", k), ts.Init0)
	}
	v.late = s.NewLatch("t2.late", ts.Init0)
	var mine [3]ts.Lit
	for k := range mine {
		a, b := sched[0], sched[1]
		if k&1 == 0 {
			a = a.Not()
		}
		if k&2 == 0 {
			b = b.Not()
		}
		mine[k] = s.And(a, b)
	}
	for k := range 3 {
		for i := range 3 {
			s.SetNext(v.hot[k][i], s.Ite(mine[k], v.hot[k][(i+2)%3], v.hot[k][i]))
		}
		may := ts.True
		if k > 0 {
			may = v.done[k-1]
		}
		s.SetNext(v.done[k], s.Or(v.done[k], s.Ands(mine[k], v.hot[k][2], may)))
	}
	s.SetNext(v.late, s.Or(v.late, s.Ands(mine[2], v.done[2], v.done[0].Not())))
	if shared {
		s.SetNext(common, s.Ors(mine[0], mine[1], mine[2]))
	}
	v.th = &Threads{Sched: sched, Care: ts.True}
	return v
}

// TestPairViews proves what the views of two threads decide, and
// leaves open what needs a third thread's state or a latch two threads
// write.
func TestPairViews(t *testing.T) {
	t.Parallel()
	for sname, mk := range testsolvers.All(t) {
		for _, c := range []struct {
			name   string
			shared bool
			target func(v *viewsSystem) ts.Lit
			status solver.Status
			reason string // part of Reason, for Unknown
		}{
			{"a ring with two hot", false, func(v *viewsSystem) ts.Lit {
				return v.sys.Ors(v.sys.And(v.hot[0][0], v.hot[0][1]), v.sys.And(v.hot[2][1], v.hot[2][2]))
			}, solver.Unsat, ""},
			{"one thread done before the one it waits for", false, func(v *viewsSystem) ts.Lit {
				return v.sys.And(v.done[1], v.done[0].Not())
			}, solver.Unsat, ""},
			{"thread 2 done before thread 0 (the views of two pairs)", false, func(v *viewsSystem) ts.Lit {
				return v.sys.And(v.done[2], v.done[0].Not())
			}, solver.Unsat, ""},
			{"late (thread 2 waits for thread 0 through thread 1)", false, func(v *viewsSystem) ts.Lit { return v.late }, solver.Unknown, "admit a violation"},
			{"every thread done", false, func(v *viewsSystem) ts.Lit {
				return v.sys.Ands(v.done[0], v.done[1], v.done[2])
			}, solver.Unknown, "admit a violation"},
			{"a latch every thread writes", true, func(v *viewsSystem) ts.Lit {
				return v.sys.And(v.hot[0][0], v.hot[0][1])
			}, solver.Unknown, "common is written by two"},
		} {
			v := newViewsSystem(c.shared)
			target := c.target(v)
			p := PairViews(context.Background(), v.sys, ProofTask{Target: target, Threads: v.th, NewSolver: mk})
			what := sname + ": " + c.name
			switch {
			case p.Status != c.status:
				t.Errorf("%s: %v (%s), want %v", what, p.Status, p.Reason, c.status)
			case p.Status == solver.Unknown && (!p.Coarse || !strings.Contains(p.Reason, c.reason)):
				t.Errorf("%s: unknown (%s, coarse %v), want the reason %q", what, p.Reason, p.Coarse, c.reason)
			case p.Status == solver.Unsat:
				if p.Views != 3 {
					t.Errorf("%s: %d views, want 3", what, p.Views)
				}
				if err := CheckInvariant(context.Background(), v.sys, mk(), target, p.Invariant); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
		}
	}
}
