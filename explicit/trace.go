package explicit

import (
	"fmt"
	"strings"

	"bmc/ir"
	"bmc/lang"
)

// Trace is a counterexample: the steps from an initial state to the
// violation, in the program's own source lines.
type Trace struct {
	Violation string   // what went wrong
	File      string   // where it went wrong
	Pos       lang.Pos //
	Steps     []Step
	Switches  int // context switches in the trace
}

// Step is one line of a trace: a statement executed by a thread, or a
// scheduling event (Event non-empty) such as a context switch.
type Step struct {
	Thread  string   `json:"thread"`
	Event   string   `json:"event,omitempty"`
	File    string   `json:"file,omitempty"`
	Pos     lang.Pos `json:"-"`
	Proc    string   `json:"function,omitempty"`
	Stmt    string   `json:"statement,omitempty"`
	Changes []string `json:"changes,omitempty"` // "x=T", "lock m held by adder#1"
}

// fail reports a violation of the step being executed (c.executing) from the
// state being expanded; v is that state with the values the step read.
func (c *Checker) fail(v *state, msg string) {
	e := c.prog.Edges[c.executing.edge]
	c.found = true
	c.trace = c.buildTrace(c.cur, c.executing, v, msg, c.prog.File, e.Pos)
}

// failAt reports a violation in state s, reached from c.cur by rec.
func (c *Checker) failAt(s *state, rec stepRec, msg, file string, pos lang.Pos) {
	c.found = true
	c.trace = c.buildTrace(c.cur, rec, s, msg, file, pos)
}

func (c *Checker) buildTrace(last int32, final stepRec, finalState *state, msg, file string, pos lang.Pos) *Trace {
	var ids []int32
	for id := last; id >= 0; id = c.parents[id] {
		ids = append(ids, id)
	}
	// states[i] is reached from states[i-1] by recs[i], in execution order.
	var states []*state
	var recs []stepRec
	for i := len(ids) - 1; i >= 0; i-- {
		states = append(states, decode(c.prog, []byte(c.keys[ids[i]])))
		recs = append(recs, c.steps[ids[i]])
	}
	if c.replay != nil {
		states = append([]*state(nil), c.replay.states...)
		recs = append([]stepRec(nil), c.replay.recs...)
	}
	if len(states) == 0 || final.kind != recStart {
		states = append(states, finalState)
		recs = append(recs, final)
	}
	start := states[0].clone()
	c.concretize(states, recs)

	names := threadNames(finalState)
	tr := &Trace{Violation: msg, File: file, Pos: pos}
	var initial []string
	for i, g := range c.prog.Globals {
		if start.globals[i] == ir.Unknown && states[0].globals[i] != ir.Unknown {
			initial = append(initial, fmt.Sprintf("%s=%s", g.Name, states[0].globals[i]))
		}
	}
	if len(initial) > 0 {
		tr.Steps = append(tr.Steps, Step{Event: "initial values: " + strings.Join(initial, " ")})
	}
	for i := 1; i < len(states); i++ {
		c.describe(tr, states[i-1], states[i], recs[i], names)
	}
	return tr
}

// concretize replaces, going backwards, every arbitrary value (ir.Unknown)
// that a later state knows by that value, unless the step in between
// wrote the variable. The search keeps values symbolic until they are
// read; a trace shows them where they were chosen.
func (c *Checker) concretize(states []*state, recs []stepRec) {
	for i := len(states) - 2; i >= 0; i-- {
		a, b := states[i], states[i+1]
		written := c.written(a, b, recs[i+1])
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
				for k := range fa[d].locals {
					learn(slot{t, d, k})
				}
			}
		}
	}
}

// written returns the variable cells that the move from a to b assigns.
func (c *Checker) written(a, b *state, rec stepRec) map[slot]bool {
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
				if x != nil {
					w[b.varSlot(x, t)] = true
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

// describe appends the trace lines for the move from a to b by rec.
func (c *Checker) describe(tr *Trace, a, b *state, rec stepRec, names []string) {
	switch rec.kind {
	case recSwitch:
		t := int(rec.thread)
		var ev string
		switch {
		case c.opts.Rounds > 0 && b.used != a.used:
			ev = fmt.Sprintf("round %d of %d begins: %s runs", b.used+1, c.opts.Rounds, name(names, b, t))
		case c.opts.Rounds > 0:
			ev = fmt.Sprintf("context switch: %s runs (round %d)", name(names, b, t), b.used+1)
		case a.cur < 0:
			ev = fmt.Sprintf("%s runs first", name(names, b, t))
		default:
			ev = fmt.Sprintf("context switch %d of %d: %s runs", b.used, c.opts.Switches, name(names, b, t))
		}
		if a.cur >= 0 {
			tr.Switches++
		}
		tr.Steps = append(tr.Steps, Step{Thread: name(names, b, t), Event: ev})
		return
	case recStep:
		t := int(rec.thread)
		e := c.prog.Edges[rec.edge]
		// In unbounded mode a change of running thread is implicit; mark it.
		if c.opts.Rounds == 0 && c.opts.Switches < 0 && !a.init {
			if last := lastStep(tr); last != nil && last.Thread != "init" && last.Thread != name(names, a, t) {
				tr.Switches++
				tr.Steps = append(tr.Steps, Step{Thread: name(names, a, t), Event: fmt.Sprintf("context switch: %s runs", name(names, a, t))})
			}
		}
		tr.Steps = append(tr.Steps, Step{
			Thread: name(names, a, t), File: c.prog.File, Pos: e.Pos, Proc: e.Proc.Name,
			Stmt: e.Stmt, Changes: c.changes(a, b, t, names),
		})
		if a.init && !b.init {
			var started []string
			for i := range b.threads {
				started = append(started, name(names, b, i))
			}
			tr.Steps = append(tr.Steps, Step{Thread: "init", Event: "init done; threads start: " + strings.Join(started, ", ")})
		}
	}
}

// lastStep is the last executed statement of the trace so far, or nil.
func lastStep(tr *Trace) *Step {
	for i := len(tr.Steps) - 1; i >= 0; i-- {
		if tr.Steps[i].Event == "" {
			return &tr.Steps[i]
		}
	}
	return nil
}

// changes lists what a step changed: globals, locks, and the locals of
// the thread's current frame (and of other threads, for broadcasts).
func (c *Checker) changes(a, b *state, t int, names []string) []string {
	var out []string
	for i, g := range c.prog.Globals {
		if a.globals[i] != b.globals[i] {
			out = append(out, fmt.Sprintf("%s=%s", g.Name, b.globals[i]))
		}
	}
	for i, l := range c.prog.Locks {
		if a.locks[i] != b.locks[i] {
			if b.locks[i] < 0 {
				out = append(out, fmt.Sprintf("lock %s free", l.Name))
			} else {
				out = append(out, fmt.Sprintf("lock %s held by %s", l.Name, name(names, b, int(b.locks[i]))))
			}
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
		fb := &tb.frames[top]
		if top >= len(ta.frames) || ta.frames[top].proc != fb.proc {
			// A new frame: show its parameters.
			for j := 0; j < fb.proc.Params; j++ {
				out = append(out, fmt.Sprintf("%s%s=%s", prefix, fb.proc.Locals[j].Name, fb.locals[j]))
			}
			continue
		}
		fa := &ta.frames[top]
		for j, x := range fb.proc.Locals {
			if fa.locals[j] != fb.locals[j] {
				out = append(out, fmt.Sprintf("%s%s=%s", prefix, x.Name, fb.locals[j]))
			}
		}
	}
	return out
}
