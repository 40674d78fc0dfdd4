package explicit

import (
	"encoding/binary"
	"fmt"

	"bmc/ir"
	"bmc/result"
)

// maxLassoFrontier bounds the states a livelock replay follows at once:
// those that the witness's values leave apart.
const maxLassoFrontier = 1 << 16

// ReplayLasso checks a livelock witness found by another engine: steps are
// the stem and then the loop (steps[loop:]), each with the values the
// engine's model gives after it (result.ReplayStep, as Replay takes). It
// returns the trace (as LassoSearch would print it) when the steps execute
// from an initial state within b's stem and loop rounds, the loop ends in
// the configuration it started from, has at least one step and meets b's
// fairness; otherwise an error saying which check failed.
//
// The rounds are the fewest the order of the threads needs: a step of a
// thread before the previous step's thread begins a round; the stem's
// count leaves out init's steps, and the loop's begins afresh. Replay
// follows every state the model's values leave possible, concrete in
// what each step reads and in the values the model gives after it (the
// globals, the stepping thread's top frame); each thread's other values
// stay arbitrary until it runs, and the loop's first configuration is
// made wholly concrete, as is its last, so that they compare by equality.
func ReplayLasso(p *ir.Program, b result.LassoBound, opts Options, steps []result.ReplayStep, loop int) (*result.Trace, error) {
	c, err := newLassoChecker(p, b, opts)
	if err != nil {
		return nil, err
	}
	switch {
	case loop < 0 || loop > len(steps):
		return nil, fmt.Errorf("replay: the loop begins at step %d of %d", loop, len(steps))
	case loop == len(steps):
		return nil, fmt.Errorf("replay: the loop has no step")
	}
	r := &lassoReplay{c: c}
	c.failed = false
	starts := c.initialStates()
	switch {
	case c.failed:
		return nil, fmt.Errorf("replay: the execution starts at an error label")
	case len(starts) == 0:
		return nil, fmt.Errorf("replay: no initial state satisfies the enforce clauses")
	}
	var frontier []int32
	for _, s := range starts {
		frontier = append(frontier, r.add(s, -1, stepRec{kind: recStart}, -1))
	}
	var stemThreads, loopThreads []int
	var fair loopFairness
	var book string
	for i, st := range steps {
		if i == loop {
			if frontier, err = r.beginLoop(frontier, roundsOf(stemThreads), b, steps[loop:]); err != nil {
				return nil, err
			}
			s := r.nodes[frontier[0]].s
			fair = newLoopFairness(b.Fairness, s)
			book = fair.start(s)
		}
		// The states of the frontier differ in data only: the steps
		// decide each thread's control and the locks.
		s := r.nodes[frontier[0]].s
		if err := c.replayable(s, i, st); err != nil {
			return nil, err
		}
		switch {
		case s.init:
		case i < loop:
			stemThreads = append(stemThreads, st.Thread)
		default:
			loopThreads = append(loopThreads, st.Thread)
		}
		if frontier, err = r.step(frontier, i, st); err != nil {
			return nil, err
		}
		if i >= loop {
			n := r.nodes[frontier[0]].s
			if len(n.threads) != len(fair.alive) {
				return nil, fmt.Errorf("replay: step %d (%s at %s) starts a thread in the loop, which then cannot come back",
					i, st.Edge.Stmt, st.Edge.Pos)
			}
			book = fair.after(book, n, st.Thread)
		}
	}
	if n := roundsOf(loopThreads); n > b.Loop {
		return nil, fmt.Errorf("replay: the loop needs %s, more than the bound of %d", result.Plural(n, "round"), b.Loop)
	}
	end := r.close(frontier)
	if end < 0 {
		return nil, fmt.Errorf("replay: the loop does not end in the configuration it started from")
	}
	if u := fair.unfair(book); u >= 0 {
		s := r.nodes[end].s
		how := "is not blocked throughout it"
		if b.Fairness == result.WeakFairness {
			how = "is never blocked in it"
		}
		return nil, fmt.Errorf("replay: the loop is not %s fair: %s takes no step in it and %s",
			map[result.Fairness]string{result.StrongFairness: "strongly", result.WeakFairness: "weakly"}[b.Fairness],
			threadNames(s)[u], how)
	}
	return c.lassoTrace(r.path(end), b), nil
}

// roundsOf is the fewest round-robin rounds in which threads take steps
// in this order: one context for consecutive steps of a thread, and a new
// round for a thread before the previous one.
func roundsOf(threads []int) int {
	n := 0
	for i, t := range threads {
		if i == 0 || t < threads[i-1] {
			n++
		}
	}
	return n
}

// lassoReplay holds the states a livelock replay has reached.
type lassoReplay struct {
	c     *Checker
	nodes []replayNode
}

// replayNode is a state of a replay: the node it was reached from (-1:
// an initial state) and how, by a step or (recStart) as a refinement,
// and the node the loop begins at on its path (-1 in the stem).
type replayNode struct {
	s      *state
	parent int32
	rec    stepRec
	start  int32
}

func (r *lassoReplay) add(s *state, parent int32, rec stepRec, start int32) int32 {
	r.nodes = append(r.nodes, replayNode{s, parent, rec, start})
	return int32(len(r.nodes) - 1)
}

// key tells apart the states of a frontier: the state, and where its
// loop began.
func (r *lassoReplay) key(s *state, start int32) string {
	return string(binary.AppendVarint(s.key(nil), int64(start)))
}

// step executes st from every state of the frontier, keeping the
// outcomes that agree with the model's values.
func (r *lassoReplay) step(frontier []int32, i int, st result.ReplayStep) ([]int32, error) {
	c := r.c
	t, e := st.Thread, st.Edge
	rec := stepRec{kind: recStep, thread: int16(t), edge: int32(e.ID)}
	var next []int32
	var violation string
	seen := map[string]bool{}
	for _, id := range frontier {
		from := r.nodes[id]
		for pre := range splits(from.s, stepSlots(from.s, t)) {
			parent := id
			if pre != from.s {
				parent = r.add(pre, id, stepRec{kind: recStart}, from.start)
			}
			outs, v := c.stepOutcomes(pre, t, e)
			if v != "" {
				violation = v
			}
			for _, n := range outs {
				cells := globalSlots(n)
				if !(pre.init && !n.init) { // else the threads' locals are not given
					cells = stepSlots(n, t)
				}
				for m := range splits(n, cells) {
					if key := r.key(m, from.start); agrees(m, st) && !seen[key] {
						seen[key] = true
						next = append(next, r.add(m, parent, rec, from.start))
					}
				}
				if len(next) > maxLassoFrontier {
					return nil, fmt.Errorf("replay: step %d (%s at %s): the witness's values leave more than %d states apart",
						i, e.Stmt, e.Pos, maxLassoFrontier)
				}
			}
		}
	}
	if len(next) == 0 {
		why := "no execution of the statement gives the witness's values"
		switch s := r.nodes[frontier[0]].s; {
		case violation != "":
			why = fmt.Sprintf("the step is a violation (%s), which ends the execution", violation)
		case e.Kind == ir.Call && !e.Spawn && len(s.threads[t].frames) >= c.opts.Depth:
			why = fmt.Sprintf("the call goes beyond the call depth %d", c.opts.Depth)
		}
		return nil, fmt.Errorf("replay: step %d (%s at %s): %s", i, e.Stmt, e.Pos, why)
	}
	return next, nil
}

// stepSlots are the cells a step of thread t reads or the model gives
// after it: the globals and the thread's top frame.
func stepSlots(s *state, t int) []slot {
	out := globalSlots(s)
	if t < len(s.threads) && s.threads[t].alive() {
		th := &s.threads[t]
		for k := range th.top().locals {
			out = append(out, slot{t, len(th.frames) - 1, k})
		}
	}
	return out
}

// beginLoop checks that the stem, of the given rounds, ends where a loop
// may begin, and makes each state of the frontier concrete, as the
// configuration its loop must come back to: in the cells the loop's
// steps read before they write them (loopReads), or in all where it
// cannot tell. A cell left arbitrary is never read as the start's value,
// so close may give it the value the loop ends with (ten philosophers
// each with two arbitrary locals at a stem of 0 rounds made 2^20
// configurations to try, of which the loop reads none before writing).
func (r *lassoReplay) beginLoop(frontier []int32, rounds int, b result.LassoBound, loop []result.ReplayStep) ([]int32, error) {
	c := r.c
	s := r.nodes[frontier[0]].s
	switch {
	case s.init:
		return nil, fmt.Errorf("replay: the loop begins before init has ended")
	case c.atomicOwner(s) >= 0:
		return nil, fmt.Errorf("replay: the loop begins inside an atomic section of %s", threadNames(s)[c.atomicOwner(s)])
	case rounds > b.Stem:
		return nil, fmt.Errorf("replay: the stem needs %s, more than the bound of %d", result.Plural(rounds, "round"), b.Stem)
	}
	var next []int32
	seen := map[string]bool{}
	for _, id := range frontier {
		s := r.nodes[id].s
		cells, ok := c.loopReads(s, loop)
		if !ok {
			cells = allSlots(s)
		}
		for m := range splits(s, cells) {
			if key := string(m.key(nil)); !seen[key] {
				seen[key] = true
				n := r.add(m, id, stepRec{kind: recStart}, -1)
				r.nodes[n].start = n
				next = append(next, n)
			}
			if len(next) > maxLassoFrontier {
				return nil, fmt.Errorf("replay: the witness's values leave more than %d configurations apart where the loop begins",
					maxLassoFrontier)
			}
		}
	}
	return next, nil
}

// close returns a node, refining a state of the frontier, in which its
// loop comes back (loopDips), or -1. A value still arbitrary at the end
// can be any value, so it is taken equal to the loop's first one (a
// frame's, where the stack has grown, to the one of the frame as far
// from the top at the start).
func (r *lassoReplay) close(frontier []int32) int32 {
	for _, id := range frontier {
		n := r.nodes[id]
		start := r.nodes[n.start].s
		m := n.s.clone()
		for _, sl := range allSlots(m) {
			if m.get(sl) != ir.Unknown {
				continue
			}
			from := sl
			if sl.thread >= 0 && sl.thread < len(start.threads) {
				from.frame -= len(m.threads[sl.thread].frames) - len(start.threads[sl.thread].frames)
			}
			if hasSlot(start, from) {
				m.set(sl, start.get(from))
			}
		}
		// A cell the loop starts without a value and ends with one
		// was not read as the start's value (beginLoop): the start
		// takes the end's, and so do the states that still have none.
		filled := map[slot]ir.Value{}
		for _, sl := range allSlots(start) {
			if start.get(sl) == ir.Unknown && hasSlot(m, sl) && m.get(sl) != ir.Unknown {
				filled[sl] = m.get(sl)
			}
		}
		if len(filled) > 0 {
			start = start.clone()
			for sl, v := range filled {
				start.set(sl, v)
			}
		}
		dips := newLoopDips(r.c.prog, start)
		rec := dips.start()
		for at := id; at != n.start; at = r.nodes[at].parent {
			if rc := r.nodes[at].rec; rc.kind == recStep {
				rec = dips.after(rec, r.nodes[at].s, int(rc.thread))
			}
		}
		if dips.comesBack(start, m, rec) {
			for at := id; len(filled) > 0; at = r.nodes[at].parent {
				st := r.nodes[at].s.clone()
				for sl, v := range filled {
					if hasSlot(st, sl) && st.get(sl) == ir.Unknown {
						st.set(sl, v)
					}
				}
				r.nodes[at].s = st
				if at == n.start {
					break
				}
			}
			return r.add(m, id, stepRec{kind: recStart}, n.start)
		}
	}
	return -1
}

// hasSlot reports whether s has the cell sl.
func hasSlot(s *state, sl slot) bool {
	if sl.thread < 0 {
		return sl.index < len(s.globals)
	}
	if sl.thread >= len(s.threads) || sl.frame < 0 || sl.frame >= len(s.threads[sl.thread].frames) {
		return false
	}
	return sl.index < len(s.threads[sl.thread].frames[sl.frame].locals)
}

// path is the execution that ends in node end.
func (r *lassoReplay) path(end int32) *lassoPath {
	var ids []int32
	for id := end; id >= 0; id = r.nodes[id].parent {
		ids = append(ids, id)
	}
	p := &lassoPath{}
	for i := len(ids) - 1; i >= 0; i-- {
		n := r.nodes[ids[i]]
		if n.start == ids[i] {
			p.loop = len(p.states)
		}
		p.states = append(p.states, n.s)
		p.recs = append(p.recs, n.rec)
	}
	return p
}

// loopReads are the cells of s that the loop's steps read before they
// write them, the steps taken in order from s; ok is false where it
// cannot tell: a step calls, returns, starts or ends a thread, or writes
// another thread's locals, or a thread's procedure has an enforce
// clause (read after every step).
func (c *Checker) loopReads(s *state, loop []result.ReplayStep) (cells []slot, ok bool) {
	for _, th := range s.threads {
		if th.alive() && th.top().proc.Enforce != nil {
			return nil, false
		}
	}
	written := map[slot]bool{}
	seen := map[slot]bool{}
	for _, st := range loop {
		e, t := st.Edge, st.Thread
		switch {
		case t < 0 || t >= len(s.threads) || !s.threads[t].alive():
			return nil, false
		case e.Kind == ir.Call || e.Kind == ir.Return || e.Kind == ir.Fork || e.Kind == ir.EndThread || len(e.PassiveTargets) > 0:
			return nil, false
		}
		cell := func(v *ir.Var) slot {
			if v.Global {
				return slot{-1, 0, v.Index}
			}
			return slot{t, len(s.threads[t].frames) - 1, v.Index}
		}
		for _, x := range append([]*ir.Expr{e.Guard, e.Cond, e.Constrain}, e.Values...) {
			x.Walk(func(y *ir.Expr) {
				if y.Op == ir.OpVar {
					if sl := cell(y.Var); !written[sl] && !seen[sl] {
						seen[sl] = true
						cells = append(cells, sl)
					}
				}
			})
		}
		for _, v := range e.Targets {
			if v != nil {
				written[cell(v)] = true
			}
		}
	}
	return cells, true
}
