package seq

import (
	"fmt"
	"sort"

	"bmc/ir"
	"bmc/result"
)

// step is a step of the original program found in a sequential trace.
type step struct {
	result.ReplayStep
	ctx  int // the context it belongs to
	run  int // lazy: the call from main it was executed in
	fail bool
	seq  int // position in the sequential trace
}

// Interleave turns a counterexample of the sequential program (its steps
// with the values after each, as encode.Model.Steps gives them) into the steps
// of the original program in execution order, each on its thread, for
// explicit.Replay on sp.Orig.
func (sp *Program) Interleave(trace []result.ReplayStep) ([]result.ReplayStep, error) {
	out, _, err := sp.interleave(trace)
	return out, err
}

// InterleaveLasso is Interleave for the lasso translation: the steps of
// the stem, then those of the loop, which start at the returned index.
func (sp *Program) InterleaveLasso(trace []result.ReplayStep) ([]result.ReplayStep, int, error) {
	if sp.Method != "lasso" {
		return nil, 0, fmt.Errorf("interleave: not a lasso translation")
	}
	return sp.interleave(trace)
}

// interleave returns the original steps and, for the lasso translation,
// the index of the loop's first step.
func (sp *Program) interleave(trace []result.ReplayStep) ([]result.ReplayStep, int, error) {
	var init, steps []step
	var runThread []int // by run: the thread it ran
	for i, st := range trace {
		if st.Edge.ID >= len(sp.origins) || sp.Seq.Edges[st.Edge.ID] != st.Edge {
			return nil, 0, fmt.Errorf("interleave: step %d is not an edge of the sequential program", i)
		}
		if t, ok := sp.runs[st.Edge.ID]; ok {
			runThread = append(runThread, t)
		}
		run := len(runThread) - 1
		o := sp.origins[st.Edge.ID]
		if o.errorLabel && len(steps) > 0 && steps[len(steps)-1].Thread == o.thread {
			// It arrived at the label (a thread that starts at one is in
			// violation as soon as it exists, which needs no step).
			steps[len(steps)-1].fail = true
		}
		if o.edge == nil {
			continue
		}
		if o.fail && sp.Method == "lazy" && i != len(trace)-1 {
			continue // lazy checks a release before it; only a failing check is a step
		}
		if len(st.Globals) < len(sp.Seq.Globals) {
			return nil, 0, fmt.Errorf("interleave: step %d has no values of the globals", i)
		}
		rs := result.ReplayStep{Edge: o.edge, Globals: st.Globals[:len(sp.Orig.Globals)], Locals: st.Locals}
		if o.thread < 0 {
			if o.edge.Proc == sp.Orig.Init && (o.edge.Kind == ir.Return || o.edge.To == sp.Orig.InitStop) {
				rs.Locals = nil // init ends here: the thread's locals are not init's
			}
			init = append(init, step{ReplayStep: rs, seq: i})
			continue
		}
		rs.Thread = o.thread
		ctx := -1
		for c, v := range sp.ctx {
			if st.Globals[v.Index] == ir.True {
				ctx = c
				break
			}
		}
		if ctx < 0 {
			return nil, 0, fmt.Errorf("interleave: step %d (%s) is in no context", i, o.edge.Stmt)
		}
		steps = append(steps, step{ReplayStep: rs, ctx: ctx, run: run, fail: o.fail, seq: i})
	}
	var out []result.ReplayStep
	for _, s := range init {
		out = append(out, s.ReplayStep)
	}
	var order []step
	switch sp.Method {
	case "eager":
		order = sp.eagerOrder(steps)
	case "lasso":
		// Every thread ran through all of its contexts; the run is the
		// steps in the order of their contexts.
		order = steps
		sort.SliceStable(order, func(i, j int) bool { return order[i].ctx < order[j].ctx })
	default:
		order = lazyOrder(steps, runThread)
	}
	loop := len(out)
	for _, s := range order {
		if s.ctx < sp.loop {
			loop++
		}
		out = append(out, s.ReplayStep)
	}
	return out, loop, nil
}

// eagerOrder: the threads ran one after another through all of their
// contexts; the interleaving is the steps ordered by context, up to the
// violation (steps of later contexts belong to the confirmation of the
// guesses, not to the counterexample).
func (sp *Program) eagerOrder(steps []step) []step {
	cut := len(steps)
	for i, s := range steps {
		if s.fail {
			cut = i
			break
		}
	}
	if cut == len(steps) {
		return nil // the violation is in init
	}
	v := steps[cut]
	var kept []step
	for _, s := range steps {
		if s.ctx < v.ctx || s.ctx == v.ctx && s.seq <= v.seq {
			kept = append(kept, s)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].ctx < kept[j].ctx })
	return kept
}

// lazyOrder: the violation happened in the last run, while it replayed
// context ic of its thread. Each context up to ic is taken from the last
// run, up to the violating one, of the thread owning the context: that
// run went through the context from its stored start to its stored end.
// Run r of main is the run for context r.
func lazyOrder(steps []step, runThread []int) []step {
	if len(steps) == 0 {
		return nil
	}
	last := steps[len(steps)-1]
	var out []step
	for c := 0; c <= last.ctx && c < len(runThread); c++ {
		src := c
		for r := c; r <= last.run; r++ {
			if runThread[r] == runThread[c] {
				src = r
			}
		}
		for _, s := range steps {
			if s.run == src && s.ctx == c {
				out = append(out, s)
			}
		}
	}
	return out
}
