package engine

import (
	"context"
	"errors"
	"fmt"

	"bmc/bdd"
	"bmc/solver"
	"bmc/ts"
)

// ForwardReach decides t on sys by forward reachability on decision
// diagrams: the least fixpoint of the images of the initial states
// (t.Start narrowing them), each image a relational product with the
// step of one thread (t.Threads: its scheduler inputs fixed, the step's
// relation holds only the latches that thread changes), chained as a
// round-robin run is (each thread's steps to their fixpoint, then the
// next thread's), within t.Threads.Care. Symbolic model checkers of
// asynchronous systems win with this fixpoint where PDR and an explicit
// search do not end: Burns' mutual exclusion with 7 threads has half a
// billion reachable states in 41,000 diagram nodes.
//
// The reachable states are the invariant of a proof, re-checked on
// fresh diagrams in stepOrder's second order, independent of the
// fixpoint and of Care: the initial states are among them, every step
// from them ends among them, and none is bad. (The diagram as a formula
// for a SAT solver, as PDR's invariants are re-checked, was out of
// reach: on Burns with 6 threads, 11,700 nodes, gini had not decided
// the step in 60 s.) The fixpoint stops at the first bad state it
// reaches; a violation is a path back to the initial states through the
// layers of the backward fixpoint within the states reached, read by
// simulating the system and confirmed to end at Target. t.Constraints and MaxK are
// PDR's: ForwardReach refuses constraints and has no bound but the
// context's.
func ForwardReach(ctx context.Context, sys *ts.System, t ProofTask) *Proof {
	if len(t.Constraints) > 0 {
		return &Proof{Status: solver.Unknown, Reason: "reachability on decision diagrams takes no constraints of the task"}
	}
	th := t.Threads
	if th == nil {
		th = &Threads{Care: ts.True}
	}
	first, second, err := stepOrders(ctx, sys, th.Sched, th.PC, th.Care)
	if err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	}
	pf := &Proof{Status: solver.Unsat}
	var reached ts.Lit // the reachable states, built into sys's graph
	err = buildDiagrams(ctx, sys, th.Sched, th.PC, th.Care, inOrder(sys, first), true, func(d *diagrams) error {
		m := d.m
		init := d.initialStates(t.Start)
		target := d.lit(t.Target)
		d.keep = append(d.keep, &init, &target)
		r, hit, err := d.forward(init, target)
		if err != nil {
			return err
		}
		if !hit {
			if t.Progress != nil {
				fmt.Fprintf(t.Progress, "reach: %.0f states reachable, %d diagram nodes\n", m.Count(r, d.latchLevels()), m.Size(r))
			}
			reached, pf.Nodes = d.graph(r), m.Size(r)
			return nil
		}
		d.keep = append(d.keep, &r)
		layers, err := d.backward(t.Target, r, nil)
		if err != nil {
			return err
		}
		start := m.And(init, layers[len(layers)-1])
		pf.Status, pf.Witness = solver.Sat, d.run(m.Witness(start), layers, t.Target)
		pf.Bound = len(pf.Witness.Latches) - 1
		return nil
	})
	switch {
	case err != nil:
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	case pf.Status == solver.Sat:
		if !ts.Value(pf.Witness.Values(sys, pf.Bound), t.Target) {
			return &Proof{Status: solver.Unknown, Reason: "internal error: the path read from the diagrams misses the target"}
		}
		return pf
	}
	if err := recheckReached(ctx, sys, th, reached, inOrder(sys, second), t); err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	}
	return pf
}

// recheckReached checks on fresh diagrams, the latches in the order
// given, that reached (a condition on the latches) is an inductive
// invariant that excludes t.Target: it holds in every initial state
// (with t.Start), every step of a thread th.Sched chooses from a state
// where it holds ends in one where it holds, and no state where it
// holds has inputs that make Target true. The steps' relations are
// built within th.Care, as the fixpoint's are (a thread's counter standing
// in another thread's code would make its relation write every
// thread's variables), and reached is checked to lie within it.
func recheckReached(ctx context.Context, sys *ts.System, th *Threads, reached ts.Lit, latches []ts.LatchInfo, t ProofTask) error {
	return buildDiagrams(ctx, sys, th.Sched, th.PC, th.Care, latches, true, func(d *diagrams) error {
		m := d.m
		r := d.lit(reached)
		init := bdd.True
		for _, l := range sys.Latches() {
			init = m.And(init, d.initial(l))
		}
		for _, l := range t.Start {
			init = m.And(init, d.lit(l))
		}
		fail := func(what string) error { return errors.New("the reachable states do not re-check: " + what) }
		if !m.Implies(init, r) {
			return fail("an initial state is not among them")
		}
		if !m.Implies(r, d.care) {
			return fail("they leave the condition that holds on every path")
		}
		for _, part := range d.parts {
			if !m.Implies(m.AndExists(part.rel, r, part.post), r) {
				return fail("a step leaves them")
			}
		}
		if m.AndExists(r, d.lit(t.Target), d.inputs) != bdd.False {
			return fail("one of them is bad")
		}
		return nil
	})
}

// graph builds the set of latch states f into the system's graph, one
// multiplexer per diagram node, and returns its literal.
func (d *diagrams) graph(f bdd.Node) ts.Lit {
	latch := map[int]ts.Lit{}
	for _, l := range d.sys.Latches() {
		latch[d.level[l.Lit.Var()]] = l.Lit
	}
	made := map[bdd.Node]ts.Lit{bdd.False: ts.False, bdd.True: ts.True}
	var build func(f bdd.Node) ts.Lit
	build = func(f bdd.Node) ts.Lit {
		if l, ok := made[f]; ok {
			return l
		}
		lo, hi := d.m.Branches(f)
		l := d.sys.Ite(latch[d.m.Level(f)], build(hi), build(lo))
		made[f] = l
		return l
	}
	return build(f)
}
