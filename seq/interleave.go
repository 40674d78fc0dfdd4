package seq

import (
	"fmt"
	"slices"
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
	if sp.Method != LassoTranslation {
		return nil, 0, fmt.Errorf("interleave: not a lasso translation")
	}
	return sp.interleave(trace)
}

// LassoWitness is a failing run of a lasso translation read as steps of
// the original program: the stem, then the loop from index Loop, within
// Bound.
type LassoWitness struct {
	Steps []result.ReplayStep
	Loop  int
	Bound result.LassoBound
}

// InterleaveKeyframes reads a failing run of LassoKeyframes's translation
// as the program's lassos (keyframe.go), to be replayed in order until one
// holds: first within the bound it was built for, with the loop being the
// first period (right where each thread's period begins with the loop);
// then with the first period in the stem and the loop being each
// thread's steps from its keyframe on, the second period's up to where
// its period closed and the first period's after its snapshot, repeated.
func (sp *Program) InterleaveKeyframes(trace []result.ReplayStep) ([]LassoWitness, error) {
	if sp.Method != LassoTranslation || sp.period == 0 {
		return nil, fmt.Errorf("interleave: not a lasso translation with keyframes")
	}
	init, steps, snapAt, err := sp.steps(trace)
	if err != nil {
		return nil, err
	}
	var out []result.ReplayStep
	for _, s := range init {
		out = append(out, s.ReplayStep)
	}
	byContext := func(xs []step) {
		sort.SliceStable(xs, func(i, j int) bool { return xs[i].ctx < xs[j].ctx })
	}
	second := sp.loop + sp.period
	var stem, loop []step
	for _, s := range steps {
		if s.ctx < second {
			stem = append(stem, s)
		}
	}
	byContext(stem)
	short := LassoWitness{Steps: slices.Clone(out), Loop: len(out), Bound: sp.lasso}
	for _, s := range stem {
		if s.ctx < sp.loop {
			short.Loop++
		}
		short.Steps = append(short.Steps, s.ReplayStep)
	}
	for _, s := range steps {
		if s.ctx >= second {
			loop = append(loop, s)
		}
	}
	for _, s := range steps {
		if at, ok := snapAt[s.Thread]; ok && s.ctx < second && s.seq > at {
			s.ctx += sp.period
			loop = append(loop, s)
		}
	}
	byContext(loop)
	long := LassoWitness{Steps: out, Loop: len(out) + len(stem), Bound: sp.lasso}
	long.Bound.Stem += sp.lasso.Loop
	for _, s := range stem {
		long.Steps = append(long.Steps, s.ReplayStep)
	}
	for _, s := range loop {
		long.Steps = append(long.Steps, s.ReplayStep)
	}
	return []LassoWitness{short, long}, nil
}

// interleave returns the original steps and, for the lasso translation,
// the index of the loop's first step.
func (sp *Program) interleave(trace []result.ReplayStep) ([]result.ReplayStep, int, error) {
	init, steps, _, err := sp.steps(trace)
	if err != nil {
		return nil, 0, err
	}
	var out []result.ReplayStep
	for _, s := range init {
		out = append(out, s.ReplayStep)
	}
	var order []step
	switch sp.Method {
	case EagerTranslation:
		order = sp.eagerOrder(steps)
	case LassoTranslation:
		// Every thread ran through all of its contexts; the run is the
		// steps in the order of their contexts.
		order = steps
		sort.SliceStable(order, func(i, j int) bool { return order[i].ctx < order[j].ctx })
	default:
		order = lazyOrder(steps, runThread(sp, trace))
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

// steps finds the original program's steps in a sequential trace: init's
// and the threads' (with their contexts); snapAt (lasso with keyframes)
// is where each thread took its snapshot in the trace.
func (sp *Program) steps(trace []result.ReplayStep) (init, steps []step, snapAt map[int]int, err error) {
	snapAt = map[int]int{}
	run := -1 // main's calls of thread code so far, less one
	for i, st := range trace {
		if st.Edge.ID >= len(sp.origins) || sp.Seq.Edges[st.Edge.ID] != st.Edge {
			return nil, nil, nil, fmt.Errorf("interleave: step %d is not an edge of the sequential program", i)
		}
		if _, ok := sp.runs[st.Edge.ID]; ok {
			run++
		}
		o := sp.origins[st.Edge.ID]
		if o.snap {
			snapAt[o.thread] = i
		}
		if o.errorLabel && len(steps) > 0 && steps[len(steps)-1].Thread == o.thread {
			// It arrived at the label (a thread that starts at one is in
			// violation as soon as it exists, which needs no step).
			steps[len(steps)-1].fail = true
		}
		if o.edge == nil {
			continue
		}
		if o.fail && sp.Method == LazyTranslation && i != len(trace)-1 {
			continue // lazy checks a release before it; only a failing check is a step
		}
		if len(st.Globals) < len(sp.Seq.Globals) {
			return nil, nil, nil, fmt.Errorf("interleave: step %d has no values of the globals", i)
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
			return nil, nil, nil, fmt.Errorf("interleave: step %d (%s) is in no context", i, o.edge.Stmt)
		}
		steps = append(steps, step{ReplayStep: rs, ctx: ctx, run: run, fail: o.fail, seq: i})
	}
	return init, steps, snapAt, nil
}

// runThread lists, by run (main's calls of thread code, in the order of
// the trace), the instance each ran.
func runThread(sp *Program, trace []result.ReplayStep) []int {
	var out []int
	for _, st := range trace {
		if t, ok := sp.runs[st.Edge.ID]; ok {
			out = append(out, t)
		}
	}
	return out
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
