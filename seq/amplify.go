package seq

import (
	"context"
	"fmt"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
)

// Amplify returns L^K of "K-induction with amplification"
// (kinduction-with-amplification, §4.1-4.2, Figs. 6 and 8-10): a
// sequential program that first generates a state at BASE, the start of
// a round with the first thread about to run (the initialization phase),
// and then simulates K round-robin rounds from it (the simulation
// phase, the eager translation with one context per thread and round).
// Its assertion fails exactly when some state of the envelope reaches a
// violation within K rounds; L^K and L^(K+1) are the two programs whose
// sets at BASE obligation (7) compares.
//
// The initialization phase runs each thread's code in isolation, from
// the last thread's entry down to the first's, with data ignored: an
// assignment is a skip, a condition goes either way, an assertion is
// passed over, a call calls the callee's initialization copy. At any
// node it may stop: the thread's stack is then built, and the node calls
// the previous thread's initialization (the first thread calls base).
// Base guesses every copy of the shared state (the globals at BASE are
// arbitrary, as are the locals, which are never assigned), sets the lock
// bits from their holders and ends the phase. The frames of the
// initialization copies are then uncovered one by one: each jumps to the
// simulation code of its own node (every initialization copy holds its
// procedure's simulation code too), or returns at once when its thread's
// rounds are over, which uncovers the next thread's stack. Threads keep
// what the paper leaves out: locks (an acquisition in the initialization
// phase waits for no holder, so each lock has one holder at most) and
// atomic sections (the mode each thread's stack is in).
func Amplify(ctx context.Context, p *ir.Program, k int) (sp *Program, err error) {
	if err := Supported(p); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("the bound must be at least 1 round")
	}
	defer halt.Recover(&err)
	bd := Bound{Rounds: k}
	b := newBuilder(p, bd, true)
	b.ctx = ctx
	b.amp = &amplifyVars{}
	b.declare()
	b.amplifyMain()
	return &Program{Seq: b.out, Orig: p, Method: AmplifyTranslation, Bound: bd, Threads: b.instNames,
		origins: b.origins, ctx: b.cx, err: b.errVar, runs: b.runs, contexts: b.C}, nil
}

// amplifyVars are the variables and procedures of Amplify's two phases.
type amplifyVars struct {
	initialize *ir.Var   // the initialization phase is under way
	atBase     []*ir.Var // per instance: its stack is inside an atomic section
	// prev is what a thread's initialization calls when it stops: the
	// previous thread's bottom initialization copy, or base.
	prev *ir.Proc
}

// amplifyMain builds main and base and every thread's code: main starts
// the initialization with the last thread and, when the simulation has
// unwound every stack, asserts that no violation happened (each context
// switch has checked that the guesses hold).
func (b *builder) amplifyMain() {
	a := b.amp
	a.initialize = b.global("initialize", ir.True)
	for i := range b.instances {
		a.atBase = append(a.atBase, b.global("atomic_at_base_"+b.instNames[i], ir.False))
	}
	a.prev = b.base()
	for i, entry := range b.instances {
		b.entries = append(b.entries, b.cloneThread(i, entry))
	}
	m := b.newProc("main", nil)
	b.out.Threads = []ir.ThreadSpec{{Proc: m, Count: 1}}
	begin := b.node(m, lang.Pos{}, "begin")
	m.Entry = begin
	after := b.node(m, lang.Pos{}, "simulated")
	b.edge(&ir.Edge{Proc: m, From: begin, To: after, Kind: ir.Call, Callee: a.prev, Args: nondet(a.prev.Params), Stmt: a.prev.Name + "()"}, origin{thread: -1})
	end := b.node(m, lang.Pos{}, "end")
	b.edge(&ir.Edge{Proc: m, From: after, To: end, Kind: ir.Assert, Cond: not(ref(b.errVar)), Stmt: "assert(!violated)"}, origin{thread: -1})
	b.edge(&ir.Edge{Proc: m, From: end, To: -1, Kind: ir.Return, Stmt: "end"}, origin{thread: -1})
}

// base is Fig. 9's base: the end of the initialization phase, at label
// BASE. The copies of the shared state start arbitrary (declare); the
// lock bits among them are set from the holders the threads' stacks
// have.
func (b *builder) base() *ir.Proc {
	pr := b.newProc("base", nil)
	at := b.node(pr, lang.Pos{}, "BASE")
	pr.Nodes[at].Labels = []string{"BASE"}
	pr.Entry = at
	targets, values := []*ir.Var{b.amp.initialize}, []*ir.Expr{ff}
	for l, lh := range b.lockHeld {
		held := ff
		for _, h := range b.held[l] {
			held = or(held, ref(h))
		}
		for k, s := range b.shared {
			if s == lh {
				targets, values = append(targets, b.copies[0][k]), append(values, held)
			}
		}
	}
	done := b.node(pr, lang.Pos{}, "simulation")
	b.edge(assign(pr, at, done, nil, targets, values, lang.Pos{}, "initialize := F"), origin{thread: -1})
	b.edge(&ir.Edge{Proc: pr, From: done, To: -1, Kind: ir.Return, Stmt: "return"}, origin{thread: -1})
	return pr
}

// initCopies builds the initialization copies of the procedures a
// thread runs (order: its callees; entry: its bottom frame), each with
// the procedure's simulation code beside the initialization nodes, and
// makes the bottom copy the next thread's prev.
func (t *threadCode) initCopies(order []*ir.Proc, entry *ir.Proc) {
	b := t.b
	prefix := b.instNames[t.inst]
	copies := map[*ir.Proc]*ir.Proc{}
	for _, p := range order {
		copies[p] = b.newProc(prefix+"_"+p.Name+"_init", p)
	}
	bottom := b.newProc(prefix+"_"+entry.Name+"_thread_init", entry)
	for _, p := range order {
		t.fill(p, copies[p], false)
		t.initPhase(p, copies[p], copies, false)
	}
	t.fill(entry, bottom, true)
	t.initPhase(entry, bottom, copies, true)
	b.amp.prev = bottom
}

// initPhase adds to c, which fill made the simulation code of p, the
// initialization nodes of p (Fig. 10): one per node of p, the entry
// among them.
func (t *threadCode) initPhase(p, c *ir.Proc, copies map[*ir.Proc]*ir.Proc, bottom bool) {
	b, a := t.b, t.b.amp
	halt.Point(b.ctx)
	prev := a.prev
	init := make([]int, len(p.Nodes))
	for _, n := range p.Nodes {
		init[n.ID] = b.node(c, n.Pos, "init: "+n.Stmt)
	}
	entry := init[p.Entry]
	if outer := t.outer[c]; outer != nil {
		at := a.atBase[t.inst]
		x := b.node(c, p.Pos, "init: atomic call")
		b.edge(assign(c, x, entry, nil, []*ir.Var{outer, at}, []*ir.Expr{ref(at), tt}, p.Pos, "init: atomic_outer, atomic_at_base := atomic_at_base, T"), origin{thread: t.inst})
		entry = x
	}
	c.Entry = entry
	ended := -1 // the thread has ended in the initialization phase
	endNode := func(pos lang.Pos) int {
		if ended < 0 {
			ended = b.node(c, pos, "init: thread ended")
			t.stopAt(p, c, prev, ended, t.endedNode(c))
		}
		return ended
	}
	for _, n := range p.Nodes {
		t.stopAt(p, c, prev, init[n.ID], n.ID)
		for _, e := range n.Out {
			t.initStep(p, c, e, init, copies, bottom, endNode)
		}
	}
}

// stopAt lets the initialization stop at node from of c (a copy of p):
// the thread's stack is built, the previous threads' are built by prev,
// and when they have run their rounds this frame resumes as the thread's
// first context at node sim of the simulation code.
func (t *threadCode) stopAt(p, c, prev *ir.Proc, from, sim int) {
	b, a := t.b, t.b.amp
	pos := c.Nodes[from].Pos
	call := b.node(c, pos, "init: the top frame")
	b.edge(control(c, from, call, nil, pos, "init: stop here"), origin{thread: t.inst})
	back := b.node(c, pos, "simulate "+b.instNames[t.inst])
	b.edge(&ir.Edge{Proc: c, From: call, To: back, Kind: ir.Call, Callee: prev, Args: nondet(prev.Params), Pos: pos, Stmt: prev.Name + "()"}, origin{thread: t.inst})
	firsts := make([]*ir.Expr, b.C)
	var targets []*ir.Var
	var values []*ir.Expr
	for d := range firsts {
		firsts[d] = b.first(d, t.inst)
		targets, values = append(targets, b.cx[d]), append(values, firsts[d])
	}
	b.load(firsts, &targets, &values)
	targets, values = append(targets, b.done, b.atomic), append(values, ff, ref(a.atBase[t.inst]))
	entered := b.node(c, pos, "entered")
	b.edge(assign(c, back, entered, nil, targets, values, pos, "enter "+b.instNames[t.inst]), origin{thread: t.inst})
	t.resume(p, c, entered, sim, nil)
	t.mark(c, sim)
}

// resume goes from node from of c (a copy of p) to node to of its
// simulation code under guard, assuming p's enforce clause there as the
// simulation does after every step.
func (t *threadCode) resume(p, c *ir.Proc, from, to int, guard *ir.Expr) {
	b := t.b
	pos := c.Nodes[from].Pos
	if p.Enforce != nil {
		mid := b.node(c, pos, "enforce")
		b.edge(control(c, from, mid, guard, pos, "resume"), origin{thread: t.inst})
		from, guard = mid, p.Enforce
	}
	b.edge(control(c, from, to, guard, pos, "resume"), origin{thread: t.inst})
}

// initStep adds to c (a copy of p) the initialization step of e, Fig.
// 10's tau_i: data
// ignored (no guard, no assignment, no assertion), a call to the
// callee's initialization copy, a return without values; locks and
// atomic marks kept (per thread, in the held bits and atomicAtBase).
func (t *threadCode) initStep(p, c *ir.Proc, e *ir.Edge, init []int, copies map[*ir.Proc]*ir.Proc, bottom bool, endNode func(lang.Pos) int) {
	b, a := t.b, t.b.amp
	from, pos, stmt := init[e.From], e.Pos, "init: "+e.Stmt
	o := origin{thread: t.inst}
	to := func() int { return init[e.To] }
	var targets []*ir.Var
	var values []*ir.Expr
	if e.Atomic != ir.NoMark {
		targets, values = append(targets, a.atBase[t.inst]), append(values, ir.Const(e.Atomic == ir.AtomicBegin))
	}
	switch e.Kind {
	case ir.Skip, ir.Assign, ir.Havoc, ir.Assert:
		b.edge(update(c, from, to(), nil, targets, values, pos, stmt), o)
	case ir.Call:
		back := b.node(c, pos, "init: back from "+e.Callee.Name)
		callee := copies[e.Callee]
		b.edge(&ir.Edge{Proc: c, From: from, To: back, Kind: ir.Call, Callee: callee, Args: nondet(callee.Params), Pos: pos, Stmt: "init: " + callee.Name + "()"}, o)
		// Still initializing: the callee returned within the phase.
		b.edge(update(c, back, to(), ref(a.initialize), targets, values, pos, stmt), o)
		// Simulating: this frame is uncovered; its thread goes on here
		// unless its rounds are over.
		b.edge(control(c, back, t.bailNode(c), and(not(ref(a.initialize)), ref(b.done)), pos, "thread_done"), o)
		t.resume(p, c, back, e.To, and(not(ref(a.initialize)), not(ref(b.done))))
		t.mark(c, e.To)
	case ir.Return:
		if bottom {
			b.edge(update(c, from, endNode(pos), nil, targets, values, pos, stmt), o)
			return
		}
		if outer := t.outer[c]; outer != nil {
			targets, values = []*ir.Var{a.atBase[t.inst]}, []*ir.Expr{ref(outer)}
		}
		mid := b.node(c, pos, stmt)
		b.edge(update(c, from, mid, nil, targets, values, pos, stmt), o)
		b.edge(&ir.Edge{Proc: c, From: mid, To: -1, Kind: ir.Return, Values: nondet(c.Returns), Pos: pos, Stmt: "init: return"}, o)
	case ir.EndThread:
		b.edge(update(c, from, endNode(pos), nil, targets, values, pos, stmt), o)
	case ir.Acquire, ir.TryAcquire:
		held := b.held[e.Lock.Index]
		free := tt
		for _, h := range held {
			free = and(free, not(ref(h)))
		}
		targets, values = append(targets, held[t.inst]), append(values, tt)
		b.edge(assign(c, from, to(), free, targets, values, pos, stmt), o)
		if e.Kind == ir.TryAcquire {
			b.edge(update(c, from, to(), nil, targets[:len(targets)-1], values[:len(values)-1], pos, stmt+" (failed)"), o)
		}
	case ir.Release:
		targets, values = append(targets, b.held[e.Lock.Index][t.inst]), append(values, ff)
		b.edge(assign(c, from, to(), nil, targets, values, pos, stmt), o)
	default:
		panic("seq: unsupported edge kind " + e.Kind.String()) // Supported rejects the rest
	}
}

// update is an assignment of targets, or a skip when there are none.
func update(pr *ir.Proc, from, to int, guard *ir.Expr, targets []*ir.Var, values []*ir.Expr, pos lang.Pos, stmt string) *ir.Edge {
	if len(targets) == 0 {
		return control(pr, from, to, guard, pos, stmt)
	}
	return assign(pr, from, to, guard, targets, values, pos, stmt)
}
