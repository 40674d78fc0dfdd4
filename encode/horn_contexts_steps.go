package encode

import (
	"fmt"

	"bmc/chc"
	"bmc/ir"
	"bmc/result"
)

// Steps reads a derivation of a query as the interleaved steps of the
// program (init's, then context by context those of the thread running
// it), for the explicit interpreter to replay, and the largest number of
// frames a thread's stack holds on the way.
//
// A thread's steps in a context come from the chain of clauses of its
// own activations; the other threads' from the derivation of the ended
// atom that let it resume (or start). Each thread's contexts are all
// taken from one derivation, the one that reaches its latest context:
// its runs in different derivations may differ in their locals, but
// each run starts and ends every context in the shared states that H
// records, so the chosen runs fit together.
func (h *Contexts) Steps(d *chc.Derivation) ([]result.ReplayStep, int, error) {
	k := h.kinds[d.Clause]
	if k == nil || k.kind != ctxQuery {
		return nil, 0, fmt.Errorf("witness: the derivation does not end in a violation")
	}
	runs, err := h.walk(d, true)
	if err != nil {
		return nil, 0, err
	}
	var out []result.ReplayStep
	if r := runs[-1]; r != nil {
		out = append(out, r.steps[-1]...)
	}
	if k.inst >= 0 {
		for c := 0; c <= k.ctx; c++ {
			ran := -1
			for i := range h.entries {
				if r := runs[i]; r != nil && len(r.steps[c]) > 0 {
					if ran >= 0 {
						return nil, 0, fmt.Errorf("witness: %s and %s both run context %d", h.Threads[ran], h.Threads[i], c)
					}
					ran = i
				}
			}
			if ran < 0 {
				continue
			}
			for _, st := range runs[ran].steps[c] {
				st.Thread = ran
				out = append(out, st)
			}
		}
	}
	return out, result.StackDepth(out), nil
}

// ctxRun is a thread's steps per context, up to its latest context.
type ctxRun struct {
	last  int
	steps map[int][]result.ReplayStep
}

func (r *ctxRun) add(c int, steps ...result.ReplayStep) {
	r.steps[c] = append(r.steps[c], steps...)
	r.last = max(r.last, c)
}

// ctxRuns are the runs of the threads (init: -1) that a derivation knows.
type ctxRuns map[int]*ctxRun

func newRun(c int) *ctxRun { return &ctxRun{last: c, steps: map[int][]result.ReplayStep{}} }

// merge takes from o the runs that reach later contexts, except
// instance own's.
func (rs ctxRuns) merge(o ctxRuns, own int) {
	for i, r := range o {
		if i != own && (rs[i] == nil || r.last > rs[i].last) {
			rs[i] = r
		}
	}
}

// walk is the runs that derivation d knows. With context, the chain of
// an activation goes on into the derivation of its call (the violating
// activation's callers); without, it stops at the activation's entry
// (a summary, walked in place of its call).
func (h *Contexts) walk(d *chc.Derivation, context bool) (ctxRuns, error) {
	k := h.kinds[d.Clause]
	if k == nil {
		return nil, fmt.Errorf("witness: clause %s is not the program's", d.Clause.Name)
	}
	block := func(violation bool) ([]result.ReplayStep, error) {
		return k.region.steps(d.Values, violation, values, func(e *ir.Edge) bool {
			return e.Proc == h.prog.Init && e.To == h.prog.InitStop
		})
	}
	switch k.kind {
	case ctxInit:
		if d.Clause.Head.Pred == h.ended[0] {
			return ctxRuns{}, nil // no init
		}
		return ctxRuns{-1: newRun(-1)}, nil
	case ctxStart:
		runs, err := h.walk(d.Body[0], false)
		if err != nil {
			return nil, err
		}
		runs[k.inst] = newRun(k.ctx)
		return runs, nil
	case ctxEnter:
		if !context {
			return ctxRuns{k.inst: newRun(k.ctx)}, nil
		}
		return h.walk(d.Body[0], true)
	case ctxSwitch:
		// A context ends with the thread's whole stack: its run from its
		// start.
		return h.walk(d.Body[0], true)
	case ctxResume:
		own, err := h.walk(d.Body[0], context)
		if err != nil {
			return nil, err
		}
		runs, err := h.walk(d.Body[1], false)
		if err != nil {
			return nil, err
		}
		runs.merge(own, k.inst)
		runs[k.inst] = own[k.inst]
		return runs, nil
	case ctxBlock, ctxInitEnd, ctxEnd, ctxCallKind, ctxSummary, ctxQuery:
		runs, err := h.walk(d.Body[0], context || k.kind == ctxQuery || k.kind == ctxEnd)
		if err != nil {
			return nil, err
		}
		steps, err := block(k.kind == ctxQuery)
		if err != nil {
			return nil, err
		}
		return runs, runs.append(k.inst, k.ctx, steps)
	case ctxReturn:
		runs, err := h.walk(d.Body[0], context)
		if err != nil {
			return nil, err
		}
		steps, err := block(false)
		if err != nil {
			return nil, err
		}
		if err := runs.append(k.inst, k.ctx, steps); err != nil {
			return nil, err
		}
		callee, err := h.walk(d.Body[1], false)
		if err != nil {
			return nil, err
		}
		r := callee[k.inst]
		if r == nil {
			return nil, fmt.Errorf("witness: the summary of %s has no steps", k.edge.Callee.Name)
		}
		// The return's step arrives in the caller's frame.
		steps = r.steps[r.last]
		if len(steps) == 0 || steps[len(steps)-1].Edge.Kind != ir.Return {
			return nil, fmt.Errorf("witness: the summary of %s does not end in a return", k.edge.Callee.Name)
		}
		ret := &steps[len(steps)-1]
		ret.Globals, ret.Locals = values(d.Values, k.globals), values(d.Values, k.locals)
		own := runs[k.inst]
		for c := k.ctx; c <= r.last; c++ {
			own.add(c, r.steps[c]...)
		}
		runs.merge(callee, k.inst)
		return runs, nil
	}
	return nil, fmt.Errorf("witness: clause %s of unknown kind", d.Clause.Name)
}

// append adds steps to instance i's run in context c.
func (rs ctxRuns) append(i, c int, steps []result.ReplayStep) error {
	r := rs[i]
	if r == nil {
		return fmt.Errorf("witness: steps of %d in context %d without its run", i, c)
	}
	r.add(c, steps...)
	return nil
}
