package explicit

import (
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// replayPath holds the states a replay has reached, by id, each with the
// state it was reached from and how.
type replayPath struct {
	states  []*state
	parents []int32
	recs    []stepRec
	next    []*state // successors of the step being replayed
}

func (r *replayPath) add(s *state, parent int32, rec stepRec) int32 {
	r.states = append(r.states, s)
	r.parents = append(r.parents, parent)
	r.recs = append(r.recs, rec)
	return int32(len(r.states) - 1)
}

// Replay executes the steps, each on its thread, from the initial state,
// resolving each nondeterministic choice to the given values, and returns
// the trace of the violation they reach. It is an error when a step cannot
// be executed with those values, when the steps end without violation, or
// when they need more context switches or rounds than opts allows:
// another engine's counterexample is shown only if it replays here,
// within the bound it was found for.
//
// Arbitrary values stay arbitrary until a step reads them; the model's
// value then decides. So the trace shows, like the explicit engine's,
// only the initial values that are read before they are written. Where
// the model leaves a value read open (another thread's local read by a
// broadcast, say), every choice is followed until a later step decides.
func Replay(p *ir.Program, opts Options, steps []result.ReplayStep) (*result.Trace, error) {
	c, err := New(p, opts)
	if err != nil {
		return nil, err
	}
	c.replay = &replayPath{}
	c.sink = func(s *state, _ stepRec) { c.replay.next = append(c.replay.next, s) }
	starts := c.initialStates()
	if c.violation != nil {
		return c.replayTrace()
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("replay: no initial state satisfies the enforce clauses")
	}
	var frontier []int32
	for _, s := range starts {
		frontier = append(frontier, c.replay.add(s, -1, stepRec{kind: recStart}))
	}
	prev := -1
	for i, st := range steps {
		// The states of the frontier differ in data only.
		if err := c.replayable(c.replay.states[frontier[0]], i, st); err != nil {
			return nil, err
		}
		// With Getafix's switch points, the thread that ran the step
		// before (not init, which hands over to a thread chosen freely)
		// is left only at one of them, with the flag not true; so are
		// the threads a first round skips. The frontier's states may
		// differ in the flag: those that do not allow the switch go.
		if c.switchAt != nil && st.Thread != prev {
			firstSkip := prev < 0 && c.opts.Rounds > 0 && st.Thread > 0
			kept := slices.DeleteFunc(slices.Clone(frontier), func(id int32) bool {
				s := c.replay.states[id]
				switch {
				case s.init:
					return false
				case prev >= 0:
					return !c.canSwitch(s, prev)
				case firstSkip:
					return !c.getafixFlagAllows(s)
				}
				return false
			})
			if len(kept) == 0 {
				return nil, fmt.Errorf("replay: step %d (%s): a thread is left where Getafix places no context switch", i, st.Edge.Stmt)
			}
			frontier = kept
		}
		s := c.replay.states[frontier[0]]
		prev = st.Thread
		if s.init {
			prev = -1
		}
		rec := stepRec{kind: recStep, thread: int16(st.Thread), edge: int32(st.Edge.ID)}
		var next []int32
		var seen map[string]bool // by key, once two states could be equal
		for _, id := range frontier {
			from := c.preRefine(c.replay.states[id], rec, st)
			c.cur, c.executing, c.failed, c.replay.next = id, rec, false, nil
			c.step(from, st.Thread, st.Edge, func(n *state) { c.arrive(from, n, st.Thread, rec) })
			if c.violation != nil {
				return c.replayTrace()
			}
			if seen == nil && (len(frontier) > 1 || len(c.replay.next) > 1) {
				seen = map[string]bool{}
			}
			for _, n := range c.replay.next {
				if !agrees(n, st) {
					continue
				}
				if seen != nil {
					key := string(n.key(nil))
					if seen[key] {
						continue
					}
					seen[key] = true
				}
				next = append(next, c.replay.add(n, id, rec))
			}
		}
		if len(next) == 0 {
			return nil, fmt.Errorf("replay: step %d (%s at %s): no execution of the statement gives the counterexample's values",
				i, st.Edge.Stmt, st.Edge.Pos)
		}
		frontier = next
	}
	return nil, fmt.Errorf("replay: the %d steps end without a violation", len(steps))
}

// replayable says why step i cannot be taken from s, or nil.
func (c *Checker) replayable(s *state, i int, st result.ReplayStep) error {
	if st.Thread < 0 || st.Thread >= len(s.threads) {
		return fmt.Errorf("replay: step %d (%s): no thread %d", i, st.Edge.Stmt, st.Thread)
	}
	th := &s.threads[st.Thread]
	if !th.alive() {
		return fmt.Errorf("replay: step %d (%s): the thread has terminated", i, st.Edge.Stmt)
	}
	if o := c.atomicOwner(s); c.switchAt == nil && o >= 0 && o != st.Thread {
		return fmt.Errorf("replay: step %d (%s): another thread is inside an atomic section", i, st.Edge.Stmt)
	}
	if top := th.top(); top.proc != st.Edge.Proc || top.pc != st.Edge.From {
		return fmt.Errorf("replay: step %d (%s at %s): the thread is at %s in %s",
			i, st.Edge.Stmt, st.Edge.Pos, top.proc.Nodes[top.pc].Pos, top.proc.Name)
	}
	return nil
}

// replayTrace is the trace of the violation the replay reached, or an
// error when its schedule does not fit the bound.
func (c *Checker) replayTrace() (*result.Trace, error) {
	b := c.violationTrace()
	switch {
	case c.opts.Switches >= 0 && b.trace.Switches > c.opts.Switches:
		return nil, fmt.Errorf("replay: the steps need %s, more than the bound of %d",
			result.Plural(b.trace.Switches, "context switch"), c.opts.Switches)
	case c.opts.Rounds > 0 && b.rounds > c.opts.Rounds:
		return nil, fmt.Errorf("replay: the steps need %s, more than the bound of %d",
			result.Plural(b.rounds, "round"), c.opts.Rounds)
	}
	return b.trace, nil
}

// preRefine returns s with the arbitrary values that the step reads and
// does not write set to the model's: for such a variable the value after
// the step is the value before it. (A value both read and written is
// decided by matching the outcomes, see agrees.)
func (c *Checker) preRefine(s *state, rec stepRec, st result.ReplayStep) *state {
	t, e := st.Thread, st.Edge
	th := &s.threads[t]
	// The model's locals are those of the top frame after the step.
	sameFrame := !(e.Kind == ir.Call && !e.Spawn || e.Kind == ir.Return || e.Kind == ir.EndThread) &&
		!(s.init && e.To == c.prog.InitStop && len(th.frames) == 1)
	written := c.writtenSlots(s, rec)
	var r *state
	// Not the guard's own variables: the step splits them only as far as
	// the guard needs, as in the search, so that the trace shows the
	// same values.
	rd := c.readsOf(e)
	for _, v := range rd.vars[:len(rd.vars)-len(rd.guard)] {
		sl := s.varSlot(v, t)
		want := ir.Unknown
		switch {
		case v.Global && v.Index < len(st.Globals):
			want = st.Globals[v.Index]
		case !v.Global && sameFrame && v.Index < len(st.Locals):
			want = st.Locals[v.Index]
		}
		if want == ir.Unknown || written[sl] || s.get(sl) != ir.Unknown {
			continue
		}
		if r == nil {
			r = s.clone()
		}
		r.set(sl, want)
	}
	if r == nil {
		return s
	}
	return r
}

// agrees reports whether the definite values of n agree with the model's
// values after the step.
func agrees(n *state, st result.ReplayStep) bool {
	same := func(have, want ir.Value) bool {
		return have == ir.Unknown || want == ir.Unknown || have == want
	}
	for i, v := range st.Globals {
		if i < len(n.globals) && !same(n.globals[i], v) {
			return false
		}
	}
	if st.Thread >= len(n.threads) {
		return true // init ended with this step; the threads' locals are not given
	}
	if th := &n.threads[st.Thread]; th.alive() {
		top := th.top()
		for k, v := range st.Locals {
			if k < len(top.locals) && !same(top.locals[k], v) {
				return false
			}
		}
	}
	return true
}
