package explicit

import (
	"fmt"

	"bmc/ir"
)

// ReplayStep is one statement of a counterexample found by another engine:
// the thread, the edge it takes and the values the engine's model gives
// after it.
type ReplayStep struct {
	Thread  int // index among the threads in existence (init is thread 0 while it runs)
	Edge    *ir.Edge
	Globals []ir.Value // all globals after the step; nil: not given
	Locals  []ir.Value // the locals of the thread's top frame after the step; nil: not given
}

type replayPath struct {
	states []*state
	recs   []stepRec
	next   []*state // successors of the step being replayed
}

// Replay executes the steps, each on its thread, from the initial state,
// resolving each nondeterministic choice to the given values, and returns
// the trace of the violation they reach. It is an error when a step cannot
// be executed with those values, or when the steps end without violation:
// another engine's counterexample is shown only if it replays here.
func Replay(p *ir.Program, opts Options, steps []ReplayStep) (*Trace, error) {
	opts.Switches, opts.Rounds = -1, 0
	c, err := New(p, opts)
	if err != nil {
		return nil, err
	}
	c.replay = &replayPath{}
	c.cur = -1
	starts := c.initialStates()
	if c.found {
		return c.trace, nil
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("replay: no initial state satisfies the enforce clauses")
	}
	cur := starts[0]
	c.replay.states, c.replay.recs = []*state{cur}, []stepRec{{kind: recStart}}
	for i, st := range steps {
		if st.Thread < 0 || st.Thread >= len(cur.threads) {
			return nil, fmt.Errorf("replay: step %d (%s): no thread %d", i, st.Edge.Stmt, st.Thread)
		}
		th := &cur.threads[st.Thread]
		if !th.alive() {
			return nil, fmt.Errorf("replay: step %d (%s): the thread has terminated", i, st.Edge.Stmt)
		}
		if o := c.atomicOwner(cur); o >= 0 && o != st.Thread {
			return nil, fmt.Errorf("replay: step %d (%s): another thread is inside an atomic section", i, st.Edge.Stmt)
		}
		if top := th.top(); top.proc != st.Edge.Proc || top.pc != st.Edge.From {
			return nil, fmt.Errorf("replay: step %d (%s at %s): the thread is at %s in %s",
				i, st.Edge.Stmt, st.Edge.Pos, top.proc.Nodes[top.pc].Pos, top.proc.Name)
		}
		rec := stepRec{kind: recStep, thread: int16(st.Thread), edge: int32(st.Edge.ID)}
		c.executing = rec
		c.replay.next = nil
		from := cur
		c.step(from, st.Thread, st.Edge, func(n *state) { c.arrive(from, n, st.Thread, rec) })
		if c.found {
			return c.trace, nil
		}
		var match *state
		for _, n := range c.replay.next {
			if match = refine(n, st); match != nil {
				break
			}
		}
		if match == nil {
			return nil, fmt.Errorf("replay: step %d (%s at %s): no execution of the statement gives the counterexample's values",
				i, st.Edge.Stmt, st.Edge.Pos)
		}
		cur = match
		c.replay.states = append(c.replay.states, cur)
		c.replay.recs = append(c.replay.recs, rec)
	}
	return nil, fmt.Errorf("replay: the %d steps end without a violation", len(steps))
}

// refine returns n with its arbitrary values fixed to the expected ones,
// or nil when a definite value disagrees.
func refine(n *state, st ReplayStep) *state {
	r := n.clone()
	fit := func(have *ir.Value, want ir.Value) bool {
		switch {
		case want == ir.Unknown:
			return true
		case *have == ir.Unknown:
			*have = want
			return true
		}
		return *have == want
	}
	for i, v := range st.Globals {
		if i < len(r.globals) && !fit(&r.globals[i], v) {
			return nil
		}
	}
	if st.Thread >= len(r.threads) {
		return r // init ended with this step; the threads' locals are not given
	}
	if th := &r.threads[st.Thread]; th.alive() {
		top := th.top()
		for k, v := range st.Locals {
			if k < len(top.locals) && !fit(&top.locals[k], v) {
				return nil
			}
		}
	}
	return r
}
