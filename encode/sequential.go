package encode

import (
	"context"
	"fmt"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/ts"
)

// sequential is the transition system of a one-thread program: the
// machine on the thread's own latches. Init, when there is one, runs
// first on the same stack; a step from its stop label with one frame (or
// its return) starts main.
type sequential struct {
	machine
	main    *ir.Proc // the thread's entry function
	control *controlReach
}

// oneThread reports why p is not one thread, or nil.
func oneThread(p *ir.Program) error {
	switch n, err := p.Instances(); {
	case err != nil:
		return err
	case n != 1:
		return fmt.Errorf("the program has %d threads", n)
	}
	for _, e := range p.Edges {
		if starts(e) {
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		}
	}
	return nil
}

// Options shape the sequential encoding.
type Options struct {
	Depth int // call stack frames
	// SmallSteps makes every statement a step of its own instead of
	// executing straight-line blocks in one step (to measure what large
	// blocks gain).
	SmallSteps bool
}

// Sequential builds the transition system of a one-thread program (see
// Check). When ctx ends first, the error is its cause.
func Sequential(ctx context.Context, p *ir.Program, o Options) (Model, error) {
	return newSequential(ctx, p, o)
}

func newSequential(ctx context.Context, p *ir.Program, o Options) (en *sequential, err error) {
	defer halt.Recover(&err)
	if err := oneThread(p); err != nil {
		return nil, fmt.Errorf("the bmc engine checks one thread: %v", err)
	}
	if o.Depth < 1 {
		return nil, fmt.Errorf("depth must be at least 1")
	}
	en = &sequential{main: p.Threads[0].Proc}
	en.machine = newMachine(p, newLayout(p, o.SmallSteps, nil), o.Depth, en)
	s := en.sys
	en.newGlobals()
	for _, l := range p.Locks {
		en.mine = append(en.mine, s.NewLatch("lock "+l.Name, ts.Init0))
	}
	start := en.main
	if p.Init != nil {
		start = p.Init
	}
	en.pc, en.locals, _ = en.newStack("", start, en.lay.head(start, start.Entry), false)
	en.newChoice()
	en.encodeBlocks(ctx)
	setNext(ctx, s, en.next)
	bad, ovf := s.Ors(en.bad...), s.Ors(en.ovf...)
	s.AddBad("violation", bad)
	s.AddBad("stack overflow", ovf)
	// A step is one of the block alternatives, feasible; a finished
	// program stays as it is.
	done := en.pcIs(0, pcDone)
	s.AddConstraint(s.Ors(append([]ts.Lit{done}, en.valid...)...))
	en.sealed = true
	en.control = newControlReach(en) // its nodes, before any unrolling is sized
	return en, nil
}

// begin: the step starts by assuming the running function's enforce
// clause on the frame's values, and a block at an error label violates.
//
// Every step ends by assuming the clause of the frame it leaves on top
// (after each edge, on entering a callee, on returning to a caller, when
// main starts), so after the first step this adds nothing; in the initial
// state it is the explicit interpreter's rule that the initial frame
// (init's, or main's without init) satisfies its clause. With it, neither
// a violation nor a step is possible from an initial state that breaks
// the clause.
func (en *sequential) begin(b *block, v *env, sel ts.Lit) {
	v.enforce(b.Proc)
	if b.Proc.Nodes[b.Head].Error {
		en.addBad(sel, v.feas)
	}
}

// initEnds: init ends when it returns or a step starts at its stop label
// with one frame (the explicit interpreter's rule); main's entry frame
// replaces it in that step.
func (en *sequential) initEnds(v *env, sel ts.Lit, at initEnd, from int) ts.Lit {
	if at != initReturns && at != initStands {
		return sel
	}
	s, m := en.sys, en.main
	cond := ts.True
	if from > 0 {
		cond = en.stackEmptyFrom(from)
	}
	end := s.And(sel, cond)
	v = v.clone()
	start := v.enter(m, v.newLocals(m, nil))
	start.enforce(m)
	en.addValid(s.And(end, start.feas))
	en.goOn(start, end, m, m.Entry)
	return s.And(sel, cond.Not())
}

// terminate: the program ends. Nothing runs after it, so the shared state
// needs no update.
func (en *sequential) terminate(_ *env, sel ts.Lit) { en.setPC(0, sel, pcDone) }

func (en *sequential) start(*block, *env, ts.Lit, *ir.Edge) {
	panic("encode: a thread start in a one-thread program") // oneThread excludes it
}

func (en *sequential) System() *ts.System { return en.sys }

func (en *sequential) Limits() []int { return []int{PropOverflow} }

func (en *sequential) Running() ts.Lit { return en.pcIs(0, pcDone).Not() }

func (en *sequential) Fixed(k int) map[int]bool { return en.control.Fixed(k) }

func (en *sequential) Ended(k int) bool { return en.control.Ended(k) }

func (en *sequential) Longest() int { return 0 }
