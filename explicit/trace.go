package explicit

import (
	"fmt"
	"slices"
	"strings"

	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// fail reports a violation of the step being executed (c.executing) from the
// state being expanded; v is that state with the values the step read.
func (c *Checker) fail(v *state, msg string) {
	e := c.prog.Edges[c.executing.edge]
	c.violate(c.executing, v, msg, c.prog.File, e.Pos)
}

// failAt reports a violation in state s, reached from c.cur by rec.
func (c *Checker) failAt(s *state, rec stepRec, msg, file string, pos lang.Pos) {
	c.violate(rec, s, msg, file, pos)
}

// violate keeps a violation unless one no more costly is known.
func (c *Checker) violate(rec stepRec, final *state, msg, file string, pos lang.Pos) {
	if c.quiet {
		return
	}
	c.failed = true
	at := cost{}
	if rec.kind == recStep {
		at = c.charge
	}
	if c.violation != nil && !c.queue.less(at, c.violation.cost) {
		return
	}
	c.violation = &violation{parent: c.cur, via: c.from, rec: rec, final: final.clone(), cost: at, msg: msg, file: file, pos: pos}
}

// path is an execution: states[i] is reached from states[i-1] by recs[i];
// recs[0] is recStart.
type path struct {
	states []*state
	recs   []stepRec
}

func (p *path) add(s *state, rec stepRec) {
	p.states = append(p.states, s)
	p.recs = append(p.recs, rec)
}

// violationTrace is the trace of the violation found.
func (c *Checker) violationTrace() builtTrace {
	v := c.violation
	p := c.violationPath()
	msg, pos := v.msg, v.pos
	if last := p.recs[len(p.recs)-1]; c.ring != nil && last.kind == recStep && last.edge != v.rec.edge {
		// Rotated back, the violating step is another thread's copy.
		msg, pos = relocated(msg, pos, c.prog.Edges[v.rec.edge], c.prog.Edges[last.edge])
	}
	return c.buildTrace(p, msg, v.file, pos)
}

// violationPath is the execution that reaches the violation found: the
// path to the state it was found from, step by step, then the violating
// move.
func (c *Checker) violationPath() path {
	v := c.violation
	var ids []int32
	parents, recs := c.parents, c.steps
	if c.replay != nil {
		parents, recs = c.replay.parents, c.replay.recs
	}
	for id := v.parent; id >= 0; id = parents[id] {
		ids = append(ids, id)
	}
	var p path
	var bounds []boundary // where the canonical states renumber the threads
	var from *state       // the state the next move starts from
	for i := len(ids) - 1; i >= 0; i-- {
		id := ids[i]
		if c.replay != nil {
			// The replay's states serve this one trace: concretize may
			// change them in place.
			p.add(c.replay.states[id], recs[id])
			continue
		}
		s := decode(c.prog, c.states.key(id))
		if len(p.states) > 0 {
			end := c.addMove(&p, from, recs[id], s)
			if c.sym != nil {
				if _, perm := c.sym.canonical(end); perm != nil {
					bounds = append(bounds, boundary{at: len(p.states) - 1, perm: perm})
				}
			}
			if c.ring != nil {
				if _, rot := c.ring.canonical(end); rot != 0 {
					bounds = append(bounds, boundary{at: len(p.states) - 1, rot: rot})
				}
			}
			from = s
			continue
		}
		p.add(s, recs[id])
		from = s
	}
	var within []*moveState
	for m := v.via; m != nil && m.prev != nil; m = m.prev {
		within = append(within, m)
	}
	for i := len(within) - 1; i >= 0; i-- {
		p.add(within[i].s.clone(), within[i].rec)
	}
	if len(p.states) == 0 || v.rec.kind != recStart {
		p.add(v.final.clone(), v.rec)
	}
	if bounds != nil && c.sym != nil {
		p.unpermute(bounds)
	}
	if bounds != nil && c.ring != nil {
		p.unrotate(c.ring, bounds)
	}
	return p
}

// addMove appends to p the steps of the move by which the search reached
// to from from, whose last step is last, and returns the move's end as
// the search made it (to, or with symmetry a state whose canonical one
// is to). The search keeps no state within a move, so the move is made
// again to find them.
func (c *Checker) addMove(p *path, from *state, last stepRec, to *state) *state {
	t := int(last.thread)
	if bounded := c.opts.Rounds > 0 || c.opts.Switches >= 0; bounded && !from.init && from.cur != t {
		from = c.switchTo(from, t)
	}
	top := from.threads[t].top()
	if c.sym == nil && c.ring == nil && (!c.reduce || from.init || c.visible[top.proc.Index][top.pc]) {
		p.add(to, last) // a move of one step
		return to
	}
	want := string(to.key(nil))
	var found []*moveState // the states within the move, then its end
	defer c.restoreSink(c.sink, c.quiet)
	c.quiet = true
	c.sink = func(s *state, rec stepRec) {
		canon := s
		if c.sym != nil {
			canon, _ = c.sym.canonical(s)
		}
		if c.ring != nil {
			canon, _ = c.ring.canonical(s)
		}
		if found != nil || rec != last || string(canon.key(nil)) != want {
			return
		}
		found = []*moveState{{s: s, rec: rec}}
		for m := c.from; m.prev != nil; m = m.prev {
			found = append(found, m)
		}
		c.failed = true // the move need not go on
	}
	c.runThread(from, t, cost{})
	if found == nil {
		panic("explicit: a move of the search cannot be made again")
	}
	for i := len(found) - 1; i >= 0; i-- {
		p.add(found[i].s.clone(), found[i].rec)
	}
	return found[0].s
}

// restoreSink ends making steps again for a trace.
func (c *Checker) restoreSink(sink func(*state, stepRec), quiet bool) {
	c.sink, c.quiet = sink, quiet
}

// builtTrace is a trace with the rounds its schedule needs (-k).
type builtTrace struct {
	trace  *result.Trace
	rounds int
}

// buildTrace turns the execution p, which ends in the violation, into a
// trace. The scheduling lines follow from the threads of the steps
// shown, so that a trace looks the same whichever engine found it.
func (c *Checker) buildTrace(p path, msg, file string, pos lang.Pos) builtTrace {
	states, recs := p.states, p.recs
	start := states[0].clone()
	c.concretize(states, recs)
	kept := c.keptSteps(states, recs)

	names := threadNames(states[len(states)-1])
	tr := &result.Trace{Violation: msg, File: file, Pos: pos, Threads: names}
	var initial []string
	for i, g := range c.prog.Globals {
		if start.globals[i] == ir.Unknown && states[0].globals[i] != ir.Unknown {
			initial = append(initial, fmt.Sprintf("%s=%s", g.Name, states[0].globals[i]))
		}
	}
	if len(initial) > 0 {
		tr.Steps = append(tr.Steps, result.Step{Event: "initial values: " + strings.Join(initial, " "), Sched: result.SchedInitial})
	}
	sched := schedule{opts: c.opts, last: -1}
	for i := 1; i < len(states); i++ {
		if kept[i] {
			c.describe(tr, states[i-1], states[i], recs[i], names, &sched)
		}
	}
	tr.Switches = sched.switches
	tr.Depth = stackDepth(states)
	return builtTrace{tr, sched.round}
}

// stackDepth is the most frames a thread's stack holds over states.
func stackDepth(states []*state) int {
	most := 0
	for _, s := range states {
		for i := range s.threads {
			most = max(most, len(s.threads[i].frames))
		}
	}
	return most
}

// keptSteps marks the steps a trace shows: all but the thread-local steps
// (see ir.VisibleNodes) that a thread takes after its last other step,
// unless one violates. They commute with every later step of the other
// threads, so leaving them out leaves an execution that reaches the same
// violation. (The search never takes them; another engine's may.)
func (c *Checker) keptSteps(states []*state, recs []stepRec) []bool {
	kept := make([]bool, len(states))
	runsLater := map[int]bool{}
	for i := len(states) - 1; i > 0; i-- {
		if recs[i].kind != recStep {
			continue
		}
		a, t := states[i-1], int(recs[i].thread)
		if a.init {
			kept[i] = true
			continue
		}
		top := a.threads[t].top()
		if i == len(states)-1 || runsLater[t] || c.visible[top.proc.Index][top.pc] {
			kept[i] = true
			runsLater[t] = true
		}
	}
	return kept
}

// concretize replaces, going backwards, every arbitrary value (ir.Unknown)
// that a later state knows by that value, unless the step in between
// wrote the variable. The search keeps values symbolic until they are
// read; a trace shows them where they were chosen.
func (c *Checker) concretize(states []*state, recs []stepRec) {
	for i := len(states) - 2; i >= 0; i-- {
		a, b := states[i], states[i+1]
		c.learnReads(a, b, recs[i+1])
		written := c.writtenSlots(a, recs[i+1])
		learn := func(sl slot) {
			if a.get(sl) == ir.Unknown && b.get(sl) != ir.Unknown && !written[sl] {
				a.set(sl, b.get(sl))
			}
		}
		for g := range a.globals {
			learn(slot{-1, 0, g})
		}
		if a.init != b.init {
			continue // the init thread is gone; thread 0 is another thread now
		}
		for t := range a.threads {
			if t >= len(b.threads) {
				continue
			}
			fa, fb := a.threads[t].frames, b.threads[t].frames
			for d := 0; d < len(fa) && d < len(fb) && fa[d].proc == fb[d].proc; d++ {
				if fa[d] == fb[d] {
					continue // one frame, shared: nothing to learn
				}
				for k := range fa[d].locals {
					learn(slot{t, d, k})
				}
			}
		}
	}
}

// maxOpenReads bounds the values learnReads tries at once (it makes the
// step once for each of their combinations).
const maxOpenReads = 4

// learnReads sets the arbitrary values of a that the step rec from a to b
// reads but that b cannot tell (the step overwrites them, as in
// g := !g, or a return pops them), when exactly one choice of them makes
// the step end in b: so a trace shows the initial value g=F of g := !g.
func (c *Checker) learnReads(a, b *state, rec stepRec) {
	if rec.kind != recStep {
		return
	}
	e, t := c.prog.Edges[rec.edge], int(rec.thread)
	written := c.writtenSlots(a, rec)
	var open []slot
	for _, v := range c.readsOf(e).vars {
		sl := a.varSlot(v, t)
		if a.get(sl) == ir.Unknown && (written[sl] || e.Kind == ir.Return && !v.Global) {
			open = append(open, sl)
		}
	}
	if len(open) == 0 || len(open) > maxOpenReads {
		return
	}
	defer c.restoreSink(c.sink, c.quiet)
	var fits *state
	for r := range splits(a, open) {
		var outcomes []*state
		c.quiet, c.local, c.failed = true, false, false
		c.sink = func(n *state, _ stepRec) { outcomes = append(outcomes, n) }
		c.step(r, t, e, func(n *state) { c.arrive(r, n, t, rec) })
		if slices.ContainsFunc(outcomes, func(n *state) bool { return consistent(n, b) }) {
			if fits != nil {
				return // the values do not matter
			}
			fits = r
		}
	}
	if fits != nil {
		for _, sl := range open {
			a.set(sl, fits.get(sl))
		}
	}
}

// consistent reports whether states a and b can be the same: the same
// control, and no definite value of one differs from the other's.
func consistent(a, b *state) bool {
	same := func(x, y []ir.Value) bool {
		for i := range x {
			if x[i] != y[i] && x[i] != ir.Unknown && y[i] != ir.Unknown {
				return false
			}
		}
		return true
	}
	if a.init != b.init || len(a.threads) != len(b.threads) || !slices.Equal(a.locks, b.locks) || !same(a.globals, b.globals) {
		return false
	}
	for i := range a.threads {
		fa, fb := a.threads[i].frames, b.threads[i].frames
		if len(fa) != len(fb) {
			return false
		}
		for d := range fa {
			if fa[d].proc != fb[d].proc || fa[d].pc != fb[d].pc || !same(fa[d].locals, fb[d].locals) {
				return false
			}
		}
	}
	return true
}

// writtenSlots returns the variable cells of a that the move rec from a
// assigns (a return's targets are in the caller's frame, below the top).
func (c *Checker) writtenSlots(a *state, rec stepRec) map[slot]bool {
	w := map[slot]bool{}
	if rec.kind != recStep {
		return w
	}
	e, t := c.prog.Edges[rec.edge], int(rec.thread)
	switch e.Kind {
	case ir.Assign, ir.Havoc, ir.TryAcquire:
		for _, x := range e.Targets {
			if x != nil {
				w[a.varSlot(x, t)] = true
			}
		}
		for p := range a.threads {
			if p != t && a.threads[p].alive() {
				for _, x := range e.PassiveTargets {
					w[a.varSlot(x, p)] = true
				}
			}
		}
	case ir.Return:
		if th := &a.threads[t]; len(th.frames) > 1 {
			for _, x := range c.prog.Edges[th.top().call].Targets {
				switch {
				case x == nil:
				case x.Global:
					w[slot{-1, 0, x.Index}] = true
				default:
					w[slot{t, len(th.frames) - 2, x.Index}] = true
				}
			}
		}
	}
	return w
}

// threadNames names threads by entry function, numbered when several
// threads share one: adder#1, adder#2, stopper.
func threadNames(s *state) []string {
	count := map[*ir.Proc]int{}
	for _, t := range s.threads {
		count[t.entry]++
	}
	seen := map[*ir.Proc]int{}
	names := make([]string, len(s.threads))
	for i, t := range s.threads {
		seen[t.entry]++
		names[i] = t.entry.Name
		if count[t.entry] > 1 {
			names[i] = fmt.Sprintf("%s#%d", t.entry.Name, seen[t.entry])
		}
	}
	return names
}

func name(names []string, s *state, t int) string {
	if s.init {
		return "init"
	}
	if t < len(names) {
		return names[t]
	}
	return fmt.Sprintf("thread%d", t)
}

// schedule derives a trace's scheduling lines from the threads of its
// steps: a change of thread is a context switch; under a round bound, a
// thread whose index is not above the previous one's starts a new round
// (the contexts in between were empty).
type schedule struct {
	opts     Options
	last     int // the thread of the previous step; -1 before the first
	switches int
	round    int    // rounds begun (-k)
	phase    string // "stem " or "loop " in a livelock trace, whose loop counts its rounds afresh
}

// next returns the event announcing thread t (named name) before its
// step; ok is false when none is due.
func (sc *schedule) next(t int, name string) (ev result.Step, ok bool) {
	if t == sc.last {
		return ev, false
	}
	first := sc.last < 0
	newRound := first || t < sc.last
	sc.last = t
	if !first {
		sc.switches++
	}
	ev = result.Step{Thread: name, Sched: result.SchedSwitch, Switch: sc.switches}
	switch {
	case sc.opts.Rounds > 0 && newRound:
		sc.round++
		ev.Sched, ev.Round = result.SchedRound, sc.round
		ev.Event = fmt.Sprintf("%sround %d of %d begins: %s runs", sc.phase, sc.round, sc.opts.Rounds, name)
	case sc.opts.Rounds > 0:
		ev.Round = sc.round
		ev.Event = fmt.Sprintf("context switch: %s runs (%sround %d)", name, sc.phase, sc.round)
	case sc.opts.Switches >= 0 && first:
		ev.Sched = result.SchedFirst
		ev.Event = fmt.Sprintf("%s runs first", name)
	case sc.opts.Switches >= 0:
		ev.Event = fmt.Sprintf("context switch %d of %d: %s runs", sc.switches, sc.opts.Switches, name)
	case first:
		return ev, false
	default:
		ev.Event = fmt.Sprintf("context switch: %s runs", name)
	}
	return ev, true
}

// describe appends the trace lines for the step rec from a to b.
func (c *Checker) describe(tr *result.Trace, a, b *state, rec stepRec, names []string, sched *schedule) {
	t := int(rec.thread)
	e := c.prog.Edges[rec.edge]
	who := name(names, a, t)
	if !a.init {
		if ev, ok := sched.next(t, who); ok {
			tr.Steps = append(tr.Steps, ev)
		}
	}
	tr.Steps = append(tr.Steps, result.Step{
		Thread: who, File: c.prog.File, Pos: e.Pos, Proc: e.Proc.Name,
		Stmt: e.Stmt, Changes: c.changes(a, b, t, e, names),
	})
	if a.init && !b.init {
		var started []string
		for i := range b.threads {
			started = append(started, name(names, b, i))
		}
		tr.Steps = append(tr.Steps, result.Step{Thread: "init", Event: "init done; threads start: " + strings.Join(started, ", "), Sched: result.SchedStart})
	}
}

// resultSlots are the cells of b that step e of thread t from a writes as
// its result: a tryacquire's target, a return's targets in the caller,
// and in a livelock trace (c.allWrites) an assignment's or havoc's
// targets. A trace shows them even when they kept their value.
func (c *Checker) resultSlots(a, b *state, t int, e *ir.Edge) []slot {
	if a.init && !b.init || !b.threads[t].alive() {
		return nil
	}
	var targets []*ir.Var
	switch {
	case e.Kind == ir.TryAcquire:
		targets = e.Targets
	case e.Kind == ir.Return && len(a.threads[t].frames) > 1:
		targets = c.prog.Edges[a.threads[t].top().call].Targets
	case c.allWrites && (e.Kind == ir.Assign || e.Kind == ir.Havoc):
		targets = e.Targets
	}
	var out []slot
	for _, x := range targets {
		if x != nil {
			out = append(out, b.varSlot(x, t))
		}
	}
	return out
}

// changes lists what step e of thread t changed: its results (see
// resultSlots), globals, locks, and the locals of the thread's current
// frame (and of other threads, for broadcasts).
func (c *Checker) changes(a, b *state, t int, e *ir.Edge, names []string) []string {
	var out []string
	results := map[slot]bool{}
	for _, sl := range c.resultSlots(a, b, t, e) {
		results[sl] = true
		if v := b.get(sl); v != ir.Unknown {
			out = append(out, fmt.Sprintf("%s=%s", c.slotName(b, sl), v))
		}
	}
	for i, g := range c.prog.Globals {
		if a.globals[i] != b.globals[i] && !results[slot{-1, 0, i}] {
			out = append(out, fmt.Sprintf("%s=%s", g.Name, b.globals[i]))
		}
	}
	for i, l := range c.prog.Locks {
		if a.locks[i] != b.locks[i] {
			holder := ""
			if b.locks[i] >= 0 {
				holder = name(names, b, int(b.locks[i]))
			}
			out = append(out, result.LockChange(l.Name, holder))
		}
	}
	if a.init && !b.init {
		return out // the init thread is gone
	}
	for i := range b.threads {
		prefix := ""
		if i != t {
			prefix = name(names, b, i) + "."
		}
		if i >= len(a.threads) {
			out = append(out, "new thread "+name(names, b, i))
			continue
		}
		ta, tb := &a.threads[i], &b.threads[i]
		if ta.alive() && !tb.alive() {
			out = append(out, name(names, b, i)+" terminated")
			continue
		}
		if !tb.alive() {
			continue
		}
		top := len(tb.frames) - 1
		fb := tb.frames[top]
		if top >= len(ta.frames) || ta.frames[top].proc != fb.proc {
			// A new frame: show its parameters.
			for j := 0; j < fb.proc.Params; j++ {
				out = append(out, fmt.Sprintf("%s%s=%s", prefix, fb.proc.Locals[j].Name, fb.locals[j]))
			}
			continue
		}
		fa := ta.frames[top]
		for j, x := range fb.proc.Locals {
			if fa.locals[j] != fb.locals[j] && !results[slot{i, top, j}] {
				out = append(out, fmt.Sprintf("%s%s=%s", prefix, x.Name, fb.locals[j]))
			}
		}
	}
	return out
}

// slotName is the name of the variable in cell sl of s.
func (c *Checker) slotName(s *state, sl slot) string {
	if sl.thread < 0 {
		return c.prog.Globals[sl.index].Name
	}
	return s.threads[sl.thread].frames[sl.frame].proc.Locals[sl.index].Name
}
