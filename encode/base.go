package encode

// The direct encoding started at BASE, for the inductive case of
// K-induction with amplification (kinduction-with-amplification, §3.2
// and §4.1): instead of init, the system starts in any state of the
// concurrent program at the start of an epoch with the first thread
// about to run (round 0, current thread 0, init done), restricted to the
// envelope. The paper's initialization phase (§4.1, Figs. 6 and 10) runs
// every thread alone with assignments skipped and branches taken either
// way, then gives every local and shared variable a random value: the
// states it can end in are exactly the stacks of program counters that
// the control-flow graph reaches from the thread's entry, with any data.
// For a program without recursion those are finitely many, so here they
// are one formula over the first state's latches (Envelope) rather than
// a phase of the run, and the simulation phase is the direct encoding
// itself, round-robin for Rounds epochs.
//
// A frozen latch Short (chosen freely, never changed) takes the last
// round away: with it, the same system simulates Rounds-1 epochs. So the
// two programs L^K and L^(K+1) of §4.2, whose states at BASE must be
// comparable (the paper's footnote 2), are one system here, and a state
// at BASE is the same latch valuation in both.

import (
	"context"
	"fmt"
	"strings"

	"bmc/ir"
	"bmc/ts"
)

// BaseOptions start the direct encoding at BASE.
type BaseOptions struct {
	// Envelope restricts the first state to stacks the control-flow
	// graph reaches from each thread's entry (Eqn. 9); without it, any
	// well-formed stack (every frame a block head or a call's return
	// site of the procedure its caller calls) starts (Eqn. 8).
	Envelope bool
}

// Base is the direct encoding started at BASE, with the latches and
// conditions the inductive case of amplification reads.
type Base struct {
	Model
	// First is a latch that is true exactly in the first state.
	First ts.Lit
	// Short is a frozen latch: true, the run has one round fewer.
	Short ts.Lit
	// Envelope is the condition on the first state: the stacks it may
	// hold (with or without the envelope), the atomic modes their
	// program counters allow, and each lock held by at most one thread.
	Envelope ts.Lit
	// Sched are the inputs that choose the thread of a step.
	Sched []ts.Lit
}

// BaseSupported reports why p cannot be started at BASE, or nil: the
// envelope is finite only without recursion, and its threads are the
// initial instances only.
func BaseSupported(p *ir.Program) error {
	if err := directSupported(p); err != nil {
		return err
	}
	if p.Recursive() {
		return fmt.Errorf("the program is recursive")
	}
	for _, e := range p.Edges {
		if starts(e) {
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		}
	}
	return nil
}

// DirectBase builds the direct encoding of p for rounds round-robin
// rounds (at least 2) started at BASE, with a stack of depth frames per
// thread (at least the program's call depth). With rounds 0 it counts no
// rounds and keeps no schedule: any thread steps next (the interleaving
// product from BASE), and the order of rounds is its user's to keep;
// Short is then no part of it.
func DirectBase(ctx context.Context, p *ir.Program, rounds, depth int, o BaseOptions) (*Base, error) {
	if err := BaseSupported(p); err != nil {
		return nil, err
	}
	if rounds == 1 || rounds < 0 {
		return nil, fmt.Errorf("the inductive case needs at least 2 rounds")
	}
	d, err := newDirect(ctx, p, DirectOptions{Depth: depth, Rounds: rounds, Switches: -1, Base: &o}, nil)
	if err != nil {
		return nil, err
	}
	return &Base{Model: d, First: d.base.first, Short: d.base.short, Envelope: d.base.envelope, Sched: d.sched}, nil
}

// DirectCare builds the direct encoding of p (without spawns or
// recursion) with a condition that holds in every state a path from an
// initial state passes: init runs, or the envelope's condition holds
// (each thread's stack one the control-flow graph reaches from its
// entry, its atomic mode one the marks allow, each lock with one holder
// at most), which threads start in and no step leaves. The second
// engine of amplification's base case looks only there; sched are the
// inputs that choose the thread of a step.
func DirectCare(ctx context.Context, p *ir.Program, o DirectOptions) (m Model, care ts.Lit, sched []ts.Lit, err error) {
	if err := BaseSupported(p); err != nil {
		return nil, ts.False, nil, err
	}
	d, err := newDirect(ctx, p, o, nil)
	if err != nil {
		return nil, ts.False, nil, err
	}
	return d, d.sys.Or(d.initing, d.envelope(true)), d.sched, nil
}

// baseState is what the direct encoding keeps of BASE.
type baseState struct {
	first, short, envelope ts.Lit
}

// baseLatches makes the latches of BASE and frees the state of the
// program: every global, frame and mode starts anywhere (the envelope
// restricts it), init has run, and the schedule stands at round 0 with
// thread 0 current (their latches start at 0).
func (d *direct) baseLatches() {
	s := d.sys
	free := func(ls ...ts.Lit) {
		for _, l := range ls {
			s.SetInit(l, ts.InitFree)
		}
	}
	free(d.globals...)
	for t := range d.tpc {
		for f := range d.tpc[t] {
			free(d.tpc[t][f]...)
			free(d.tlocals[t][f]...)
		}
		if d.tsaved != nil {
			free(d.tsaved[t]...)
		}
		free(d.tatomic[t])
	}
	for _, own := range d.owns {
		free(own...)
	}
	if d.initing != ts.False {
		s.SetInit(d.initing, ts.Init0)
	}
	d.base.first = s.NewLatch("base", ts.Init1)
	s.SetNext(d.base.first, ts.False)
	d.base.short = s.NewLatch("short", ts.InitFree)
}

// roundsLeftAtBase is the condition that a new round may begin: one
// fewer with Short.
func (d *direct) roundsLeftAtBase() ts.Lit {
	s := d.sys
	n := len(d.count)
	full := d.bitsLess(d.count, constBits(d.opts.Rounds-1, n))
	short := d.bitsLess(d.count, constBits(d.opts.Rounds-2, n))
	return s.And(full, s.Implies(d.base.short, short))
}

// envelope builds the condition on the first state (see Base.Envelope).
func (d *direct) envelope(reachedOnly bool) ts.Lit {
	env := d.stacks(reachedOnly)
	for _, own := range d.owns {
		for t := range own {
			for u := t + 1; u < len(own); u++ {
				env = d.sys.And(env, d.sys.And(own[t], own[u]).Not())
			}
		}
	}
	return env
}

// stacks is the envelope's condition on the threads: each thread's
// stack one the control-flow graph reaches from its entry (with
// reachedOnly; else any), its atomic mode one the marks allow.
func (d *direct) stacks(reachedOnly bool) ts.Lit {
	s, p := d.sys, d.prog
	reached := map[*ir.Proc][]bool{}
	for _, pr := range p.Procs {
		if reachedOnly {
			reached[pr] = ir.Reached(pr)
		} else {
			reached[pr] = make([]bool, len(pr.Nodes))
			for i := range reached[pr] {
				reached[pr][i] = true
			}
		}
	}
	modes := atomicModes(p)
	env := ts.True
	for t, entry := range d.entries {
		pcIs := func(f, v int) ts.Lit { return d.bitsEq(d.tpc[t][f], constBits(v, len(d.tpc[t][f]))) }
		// valid[f][proc]: frames f..0 are a stack whose frame f runs in
		// proc (memoized per frame and procedure).
		valid := map[[2]int]ts.Lit{}
		var frames func(f int, pr *ir.Proc) ts.Lit
		frames = func(f int, pr *ir.Proc) ts.Lit {
			key := [2]int{f, pr.Index}
			if l, ok := valid[key]; ok {
				return l
			}
			l := ts.False
			if f == 0 {
				for _, b := range d.lay.blocks {
					if b.Proc == pr && reached[pr][b.Head] {
						// The atomic modes the head allows.
						m := modes[pr][b.Head]
						mode := ts.True
						switch {
						case m == modeFalse:
							mode = d.tatomic[t].Not()
						case m == modeTrue:
							mode = d.tatomic[t]
						}
						l = s.Or(l, s.And(pcIs(0, b.PC), mode))
					}
				}
			} else {
				for _, n := range pr.Nodes {
					for _, e := range n.Out {
						if e.Kind == ir.Call && !e.Spawn && reached[pr][e.From] {
							l = s.Or(l, s.And(pcIs(f, d.lay.retPC[e.ID]), frames(f-1, e.Callee)))
						}
					}
				}
			}
			valid[key] = l
			return l
		}
		// A stack of n frames (the entry's at n-1, the frames from n
		// empty), or a terminated thread, whatever its deeper frames.
		stacks := s.And(pcIs(0, pcDone), d.tatomic[t].Not())
		for n := 1; n <= d.depth; n++ {
			st := frames(n-1, entry)
			for f := n; f < d.depth; f++ {
				st = s.And(st, pcIs(f, pcEmpty))
			}
			stacks = s.Or(stacks, st)
		}
		env = s.And(env, stacks)
	}
	return env
}

// Atomic modes a node may be reached in, as a set.
const (
	modeFalse = 1 << iota
	modeTrue
)

// atomicModes computes, per procedure and node, the atomic modes a
// thread can be in there when assignments are skipped and branches go
// either way (the initialization phase's view): threads start outside an
// atomic section, a step marked atomic_begin or atomic_end sets the
// mode, an atomic procedure runs atomically (when called), a call of
// another one starts in the caller's mode and comes back in any mode its
// returns leave. It over-approximates: a mode left out would make the
// envelope miss reachable states.
func atomicModes(p *ir.Program) map[*ir.Proc][]int {
	modes := map[*ir.Proc][]int{}
	for _, pr := range p.Procs {
		modes[pr] = make([]int, len(pr.Nodes))
	}
	for _, t := range p.Threads {
		modes[t.Proc][t.Proc.Entry] |= modeFalse
	}
	returns := func(pr *ir.Proc) int {
		m := 0
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Return {
					m |= after(modes[pr][n.ID], e)
				}
			}
		}
		return m
	}
	for changed := true; changed; {
		changed = false
		join := func(pr *ir.Proc, id, m int) {
			if pr.Atomic {
				m |= modeTrue // called: atomic; a thread's entry: as started
			}
			if id >= 0 && modes[pr][id]|m != modes[pr][id] {
				modes[pr][id] |= m
				changed = true
			}
		}
		for _, pr := range p.Procs {
			for _, n := range pr.Nodes {
				m := modes[pr][n.ID]
				if m == 0 {
					continue
				}
				for _, e := range n.Out {
					if e.Kind == ir.Call && !e.Spawn {
						join(e.Callee, e.Callee.Entry, m)
						if e.Callee.Atomic {
							join(pr, e.To, after(m, e))
						} else {
							join(pr, e.To, after(returns(e.Callee), e))
						}
						continue
					}
					join(pr, e.To, after(m, e))
				}
			}
		}
	}
	return modes
}

// after is the modes after edge e taken in modes m.
func after(m int, e *ir.Edge) int {
	switch {
	case m == 0:
		return 0
	case e.Atomic == ir.AtomicBegin:
		return modeTrue
	case e.Atomic == ir.AtomicEnd:
		return modeFalse
	}
	return m
}

// Describe words the first state of a path of b (vals: every variable at
// frame 0), for a counterexample to induction: where each thread stands,
// with the calls it is in, and the globals.
func (b *Base) Describe(vals []bool) string {
	d := b.Model.(*direct)
	var parts []string
	for t, entry := range d.entries {
		var where []string
		for f := 0; f < d.depth; f++ {
			pc := bitsValue(vals, d.tpc[t][f])
			if pc == pcEmpty || pc >= len(d.lay.locs) {
				break
			}
			l := d.lay.locs[pc]
			switch l.Kind {
			case locDone:
				where = append(where, "done")
			case locHead:
				where = append(where, fmt.Sprintf("%s at %s", l.Proc.Name, l.Proc.Nodes[l.Node].Pos))
			case locRetSite:
				where = append(where, fmt.Sprintf("called from %s", l.Call.Pos))
			}
			if l.Kind == locDone {
				break
			}
		}
		parts = append(parts, fmt.Sprintf("thread %d (%s): %s", t, entry.Name, strings.Join(where, ", ")))
	}
	var gs []string
	for i, g := range d.prog.Globals {
		v := "F"
		if ts.Value(vals, d.globals[i]) {
			v = "T"
		}
		gs = append(gs, g.Name+"="+v)
	}
	if len(gs) > 0 {
		parts = append(parts, "globals "+strings.Join(gs, " "))
	}
	return strings.Join(parts, "; ")
}
