package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"bmc/bdd"
	"bmc/solver"
	"bmc/ts"
)

// PairViews proves t on an interleaving product by view abstraction with
// views of two threads (Abdulla, Haziza and Holík, "All for the price of
// few", VMCAI 2013, §3): a state is seen through each pair of threads,
// the latches those two write and those no thread writes, and the
// views of a pair grow by the steps of its two threads, each reading
// the other threads' latches as any value. Where each latch has one
// writer (Burns' and the flag-based mutual exclusion: a thread's flag
// is its own) no third thread's step changes a view, so each pair's
// views are the reachable states of a system of two threads, on
// diagrams of a few hundred nodes where the reachable states of ten
// threads take millions: the views grow polynomially in the threads.
//
// The conjunction of every pair's views holds in every reachable state.
// Written as clauses (an irredundant cover of each view's complement:
// on Burns' protocol the paths of the diagrams to false were ten times
// as many) it is the invariant: a solver decides that no state where it
// holds has Target (the views may be too coarse: the answer is then
// Unknown, Coarse; it never finds a violation), and a second solver
// re-checks that it holds initially and that every step keeps each
// pair's clauses (checkInvariantParts). A latch two threads write (a
// shared counter; a lock is a bit per thread) leaves the answer
// Unknown: a third thread's steps would change the views. The latches
// are in the system's reverse order, as stepOrders' first pass takes
// them (the views are small in any order, and its second pass for the
// order reachability wants took 1.3 s of 4.9 with 10 threads).
func PairViews(ctx context.Context, sys *ts.System, t ProofTask) *Proof {
	if len(t.Constraints) > 0 {
		return &Proof{Status: solver.Unknown, Reason: "the pairwise views take no constraints of the task"}
	}
	th := t.Threads
	if th == nil || len(th.Sched) == 0 {
		return &Proof{Status: solver.Unknown, Coarse: true, Reason: "the pairwise views need an interleaving product"}
	}
	reversed := slices.Clone(sys.Latches())
	slices.Reverse(reversed)
	// The invariant's parts: the init phase's states, then each pair's
	// views, as clauses.
	var parts [][][]ts.Lit
	views := 0
	err := buildDiagrams(ctx, sys, th.Sched, th.PC, th.Care, reversed, true, func(d *diagrams) error {
		phase, pairs, err := d.pairViews(t.Start)
		if err != nil {
			return err
		}
		views = len(pairs)
		for _, f := range append([]bdd.Node{phase}, pairs...) {
			part, err := d.clauses(f)
			if err != nil {
				return err
			}
			parts = append(parts, part)
		}
		return nil
	})
	if err != nil {
		var shared sharedWrite
		return &Proof{Status: solver.Unknown, Coarse: errors.As(err, &shared), Reason: err.Error()}
	}
	var inv [][]ts.Lit
	for _, part := range parts {
		inv = append(inv, part...)
	}
	s := t.NewSolver()
	defer s.Close()
	if excluded, err := excludes(ctx, sys, s, t, inv); err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	} else if !excluded {
		return &Proof{Status: solver.Unknown, Coarse: true, Reason: fmt.Sprintf("the views of each pair of threads (%d pairs) admit a violation, which another thread's state may rule out", views)}
	}
	again := t.NewSolver()
	defer again.Close()
	if err := checkInvariantParts(ctx, sys, again, t, parts); err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	}
	return &Proof{Status: solver.Unsat, Invariant: inv, Views: views}
}

// pairViews are, for each pair of steps (threads) of d.parts, the
// states reachable seen through that pair: a diagram over the latches
// the two change and those no step changes. The states of the
// initialization (d.phase: the product's init, whose step writes
// every thread's latches) are reached exactly first, and phase says
// that a state in it is one of them; the views grow from them by the
// steps that follow it. Phase is part of the invariant: a state whose
// every view is some initialization state's need not be one.
func (d *diagrams) pairViews(start []ts.Lit) (phase bdd.Node, views []bdd.Node, err error) {
	m := d.m
	init := d.initialStates(start)
	pre := d.phase
	d.keep = append(d.keep, &init, &pre)
	var steps []imageStep
	for _, part := range d.parts {
		steps = append(steps, imageStep{m.And(part.rel, pre), part.post})
	}
	first, err := d.viewFixpoint(init, steps, views)
	if err != nil {
		return bdd.False, nil, err
	}
	phase = m.Or(m.Not(pre), first)
	d.keep = append(d.keep, &first, &phase)
	after, writer, err := d.stepsAfter(m.Not(pre))
	if err != nil {
		return bdd.False, nil, err
	}
	var active []int
	for p, st := range after {
		if st != nil {
			active = append(active, p)
			d.keep = append(d.keep, &after[p].rel)
		}
	}
	pairs := [][]int{active}
	if len(active) > 1 {
		pairs = nil
		for i, p := range active {
			for _, q := range active[i+1:] {
				pairs = append(pairs, []int{p, q})
			}
		}
	}
	for _, pair := range pairs {
		var hidden []int
		for v, w := range writer {
			if !slices.Contains(pair, w) {
				hidden = append(hidden, v)
			}
		}
		slices.Sort(hidden)
		h := m.NewSet(hidden)
		var seen []imageStep
		for _, p := range pair {
			seen = append(seen, imageStep{m.Exists(after[p].rel, h), after[p].post})
		}
		view, err := d.viewFixpoint(m.Exists(first, h), seen, views)
		if err != nil {
			return bdd.False, nil, err
		}
		views = append(views, view)
	}
	return phase, views, nil
}

// stepsAfter are the steps of d.parts from the states where after holds,
// each with only the latches it changes there (nil: a part that changes
// none), and the part that changes each latch; two parts that change
// one latch are an error.
func (d *diagrams) stepsAfter(after bdd.Node) ([]*imageStep, map[int]int, error) {
	m := d.m
	steps := make([]*imageStep, len(d.parts))
	writer := map[int]int{} // latch level -> the part that changes it
	for p, part := range d.parts {
		rel := m.And(part.rel, after)
		var changed, kept []int
		for _, v := range part.changed {
			if m.And(rel, m.Xor(m.Var(v), m.Var(v+1))) == bdd.False {
				kept = append(kept, v+1)
				continue
			}
			if _, ok := writer[v]; ok {
				return nil, nil, sharedWrite{d.latchName(v)}
			}
			writer[v] = p
			changed = append(changed, v)
		}
		if len(changed) == 0 {
			continue
		}
		back := map[int]int{}
		for _, v := range changed {
			back[v+1] = v
		}
		post, err := m.NewRenamedSet(changed, back)
		if err != nil {
			panic(err) // each latch's next value sits right below it
		}
		steps[p] = &imageStep{m.Exists(rel, m.NewSet(kept)), post}
	}
	return steps, writer, nil
}

// viewFixpoint is the least fixpoint of the images of from by steps,
// chained as forward's; done are the views made so far, which a
// collection keeps.
func (d *diagrams) viewFixpoint(from bdd.Node, steps []imageStep, done []bdd.Node) (bdd.Node, error) {
	keep := make([]*bdd.Node, len(done))
	for i := range done {
		keep[i] = &done[i]
	}
	r, _, err := d.chained(from, steps, bdd.False, keep)
	return r, err
}

// clauses are f (a diagram over latches) as clauses over the latches'
// literals: the negations of the cubes of an irredundant cover of not f.
func (d *diagrams) clauses(f bdd.Node) ([][]ts.Lit, error) {
	latch := map[int]ts.Lit{}
	for _, l := range d.sys.Latches() {
		latch[d.level[l.Lit.Var()]] = l.Lit
	}
	var out [][]ts.Lit
	for _, cube := range d.m.Cover(d.m.Not(f)) {
		clause := make([]ts.Lit, len(cube))
		for i, x := range cube {
			l, ok := latch[x.Level]
			if !ok {
				return nil, fmt.Errorf("internal error: a view tests variable %d, no latch", x.Level)
			}
			clause[i] = l
			if x.Value {
				clause[i] = clause[i].Not()
			}
		}
		out = append(out, clause)
	}
	return out, nil
}

// sharedWrite is the error of a latch two threads write.
type sharedWrite struct{ latch string }

func (e sharedWrite) Error() string {
	return "the pairwise views need each variable written by one thread: " + e.latch + " is written by two"
}

// latchName names the latch at level v for a message.
func (d *diagrams) latchName(v int) string {
	for _, l := range d.sys.Latches() {
		if d.level[l.Lit.Var()] == v {
			if l.Name != "" {
				return l.Name
			}
			return fmt.Sprintf("latch %d", l.Lit.Var())
		}
	}
	return fmt.Sprintf("level %d", v)
}

// excludes says whether no state where the clauses inv hold has
// t.Target (with its inputs).
func excludes(ctx context.Context, sys *ts.System, s solver.Solver, t ProofTask, inv [][]ts.Lit) (bool, error) {
	u := NewUnrolling(sys, s)
	u.FreeStart = true
	goal := []solver.Lit{u.At(t.Target, 0)}
	for _, c := range inv {
		any := s.Not(s.True())
		for _, l := range c {
			any = solver.Or(s, any, u.At(l, 0))
		}
		goal = append(goal, any)
	}
	switch s.Solve(ctx, goal...) {
	case solver.Unsat:
		return true, nil
	case solver.Sat:
		return false, nil
	}
	return false, errors.New(stopReason(ctx))
}
