package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"bmc/bdd"
	"bmc/solver"
	"bmc/ts"
)

// Fairness is what a cycle must give the threads that do not step on
// it, as FairCycles asks.
type Fairness int

const (
	// StrongFairness: a thread enabled at some state of the cycle steps
	// on it (compassion).
	StrongFairness Fairness = iota
	// WeakFairness: a thread enabled at every state of the cycle steps
	// on it (justice).
	WeakFairness
	// NoFairness: any cycle.
	NoFairness
)

// CycleTask asks whether a cycle of thread steps that meets Fairness is
// reachable from an initial state of a system whose steps are each one
// thread's (an interleaving product).
type CycleTask struct {
	Threads *Threads // thread t steps where Sched has the value t
	// Enabled are, by thread, the condition over the latches that it
	// can step: it must step on a fair cycle where it is enabled (at
	// some state of it, strong; at every state, weak).
	Enabled []ts.Lit
	// Recurring are, by thread, a condition that holds at every state of
	// a cycle on which it steps (it stands on a loop of its own control
	// flow), and Waiting one that holds at every state of a cycle on
	// which it takes no step but is disabled at some state (it stands
	// where only a held lock blocks it, or has terminated); nil: none
	// known.
	Recurring, Waiting []ts.Lit
	// Stutter holds in the states where a step moves no thread (every
	// thread has terminated): no cycle goes through them.
	Stutter  ts.Lit
	Fairness Fairness
	Progress io.Writer // nil: quiet
}

// Cycles is FairCycles' answer.
type Cycles struct {
	// Status is Sat when a fair cycle is reachable, Unsat when none is
	// (decided twice, on diagrams of their own in two variable orders),
	// Unknown when the search stopped (Reason).
	Status  solver.Status
	Reason  string
	Reached float64 // the reachable states
}

// FairCycles decides t on sys by the fixpoint of Emerson and Lei on
// decision diagrams, with Kesten, Pnueli and Raviv's step for
// compassion ("Algorithmic verification of linear temporal logic
// specifications", ICALP 1998): from the reachable states (the
// stuttering ones left out), it removes the states without a successor
// among those left and, per thread t, under strong fairness those where
// t is enabled that cannot reach, among those left, a step of t that
// stays among them; under weak fairness those that cannot reach one
// where t is disabled or steps so. What remains when nothing changes is
// empty exactly when no fair cycle is reachable: a bottom strongly
// connected component of what remains holds, for each thread enabled
// in it, a step of that thread inside it (it reaches nothing outside),
// and a cycle through all of it is fair; conversely a fair cycle's
// states are never removed.
//
// Before the fixpoint, a state is left out where a thread neither
// stands on a loop of its own (t.Recurring) nor is disabled (strong) or
// waits (weak, t.Waiting): on a fair cycle every thread is one or the
// other at every state. Most states are such (a thread on its way to
// its end, a philosopher eating), and without them the fixpoint ends
// in a few rounds instead of one per step of the longest way out: the
// ordered philosophers with 7 threads took 40 s, now 3 s.
//
// The images are those of ForwardReach, one relation per thread within
// t.Threads.Care. "None" is computed a second time on fresh diagrams in
// stepOrder's second order, and the two answers must agree.
func FairCycles(ctx context.Context, sys *ts.System, t CycleTask) *Cycles {
	th := t.Threads
	first, second, err := stepOrders(ctx, sys, th.Sched, th.PC, th.Care)
	if err != nil {
		return &Cycles{Status: solver.Unknown, Reason: err.Error()}
	}
	out := &Cycles{}
	for pass, order := range [][]int{first, second} {
		var fair bool
		err := buildDiagrams(ctx, sys, th.Sched, th.PC, th.Care, inOrder(sys, order), true, func(d *diagrams) error {
			var err error
			fair, out.Reached, err = d.fairCycles(t)
			return err
		})
		switch {
		case err != nil:
			return &Cycles{Status: solver.Unknown, Reason: err.Error()}
		case fair:
			if pass > 0 {
				return &Cycles{Status: solver.Unknown, Reason: "internal error: the second order finds a fair cycle the first does not"}
			}
			out.Status = solver.Sat
			return out
		}
		if t.Progress != nil {
			fmt.Fprintf(t.Progress, "fair cycles: none among %.0f reachable states (pass %d of 2)\n", out.Reached, pass+1)
		}
	}
	out.Status = solver.Unsat
	return out
}

// fairCycles reports whether a fair cycle is reachable, and how many
// states are.
func (d *diagrams) fairCycles(t CycleTask) (fair bool, reached float64, err error) {
	m := d.m
	init := d.initialStates(nil)
	d.keep = append(d.keep, &init)
	r, _, err := d.forward(init, bdd.False)
	if err != nil {
		return false, 0, err
	}
	reached = m.Count(r, d.latchLevels())
	// The threads' parts (a value of the scheduler past the last thread
	// moves none) and their enabled states. The conditions on the
	// threads are built within the reachable states (whole, a thread's
	// enabled states took 107,000 nodes among 14 ordered philosophers,
	// and 2 s, as long as the fixpoint's first round).
	memo := map[int]bdd.Node{0: bdd.False}
	onReached := func(l ts.Lit) bdd.Node { return d.litWithin(l, r, memo) }
	var parts [][]*stepPart
	var enabled []bdd.Node
	for i, l := range t.Enabled {
		var ps []*stepPart
		for _, part := range d.parts {
			if part.thread == i {
				ps = append(ps, part)
			}
		}
		parts = append(parts, ps)
		enabled = append(enabled, onReached(l))
	}
	z := m.Diff(r, onReached(t.Stutter))
	for i := range t.Recurring {
		// On a fair cycle a thread steps, and so stands on a loop of
		// its own at every state, or does not: it is then disabled at
		// every state (strong) or at some (weak: its place, which does
		// not change, is one where it waits or it has terminated).
		switch t.Fairness {
		case StrongFairness:
			z = m.And(z, m.Or(onReached(t.Recurring[i]), m.Not(enabled[i])))
		case WeakFairness:
			z = m.And(z, m.Or(onReached(t.Recurring[i]), onReached(t.Waiting[i])))
		}
	}
	prev := bdd.False // z before a round of removals
	d.keep = append(d.keep, &z, &prev)
	for i := range enabled {
		d.keep = append(d.keep, &enabled[i])
	}
	// pre is the states of z with a step of ps into y.
	pre := func(ps []*stepPart, y bdd.Node) bdd.Node {
		out := bdd.False
		for _, part := range ps {
			out = m.Or(out, m.AndRenameAndExists(m.Diff(z, out), part.rel, y, part.pre))
		}
		return out
	}
	var all []*stepPart
	for _, ps := range parts {
		all = append(all, ps...)
	}
	collected := m.Nodes()
	// collect frees the nodes that neither d.keep nor roots hold, when
	// they have doubled.
	collect := func(roots ...*bdd.Node) {
		if d.collectDue(collected) {
			d.gc(append(roots, d.keep...))
			collected = m.Nodes()
		}
	}
	// back is the states of z from which a path within z reaches goal,
	// the images chained as in ForwardReach (each thread's steps back
	// to their fixpoint, then the next thread's).
	back := func(goal bdd.Node) (bdd.Node, error) {
		y := goal
		for grew := true; grew; {
			grew = false
			for _, part := range all {
				for g := y; ; {
					if d.ctx.Err() != nil {
						return bdd.False, errors.New(stopReason(d.ctx))
					}
					collect(&y, &g)
					g = m.Diff(m.AndRenameAndExists(z, part.rel, g, part.pre), y)
					if g == bdd.False {
						break
					}
					grew = true
					y = m.Or(y, g)
				}
			}
		}
		return y, nil
	}
	// successors keeps the states of z with a successor in z, to the
	// fixpoint (a removal leaves its predecessors without one).
	successors := func() {
		for y := bdd.False; y != z; {
			collect()
			y, z = z, pre(all, z)
		}
	}
	for {
		if d.ctx.Err() != nil {
			return false, reached, errors.New(stopReason(d.ctx))
		}
		prev = z
		// The parts with a step from z, z only shrinking: the steps of
		// init's phase (a part each) soon have none.
		all = slices.DeleteFunc(all, func(p *stepPart) bool { return m.And(z, p.ok) == bdd.False })
		for i := range parts {
			parts[i] = slices.DeleteFunc(parts[i], func(p *stepPart) bool { return m.And(z, p.ok) == bdd.False })
		}
		successors()
		for i, ps := range parts {
			if t.Fairness == NoFairness {
				break
			}
			collect()
			steps := pre(ps, z)
			switch t.Fairness {
			case StrongFairness:
				reach, err := back(steps)
				if err != nil {
					return false, reached, err
				}
				z = m.Or(m.Diff(z, enabled[i]), reach)
				successors()
			case WeakFairness:
				reach, err := back(m.Or(m.Diff(z, enabled[i]), steps))
				if err != nil {
					return false, reached, err
				}
				z = reach
				successors()
			}
		}
		if z == prev {
			return z != bdd.False, reached, nil
		}
	}
}
