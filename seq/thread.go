package seq

import (
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
)

// threadCode clones the procedures one thread instance (or init, inst -1)
// runs and weaves in the control code.
type threadCode struct {
	b      *builder
	inst   int
	clones map[*ir.Proc]*ir.Proc // callable clones
	bottom *ir.Proc              // the clone running as the thread's first frame
	entry  *ir.Proc              // the procedure it is a clone of
	// per clone: nodes offering a context switch, the bail-out node
	// (return at once, the thread's contexts are over), the node where
	// the thread has ended, and eager's violation node.
	switchAt map[*ir.Proc]map[int]bool
	bail     map[*ir.Proc]int
	ended    map[*ir.Proc]int
	violated map[*ir.Proc]int
	outer    map[*ir.Proc]*ir.Var // atomic procedures: the caller's atomic mode
	// The lasso translation with keyframes (keyframe.go): per callable
	// clone, the procedure it clones and its keyframe local; the
	// snapshot points numbered so far.
	origin    map[*ir.Proc]*ir.Proc
	keyframe  map[*ir.Proc]*ir.Var
	points    map[*ir.Proc]map[int]int
	nextPoint int
}

// cloneThread builds the code of instance inst starting in entry and
// returns its bottom clone.
func (b *builder) cloneThread(inst int, entry *ir.Proc) *ir.Proc {
	t := &threadCode{b: b, inst: inst, clones: map[*ir.Proc]*ir.Proc{},
		switchAt: map[*ir.Proc]map[int]bool{}, bail: map[*ir.Proc]int{}, ended: map[*ir.Proc]int{},
		violated: map[*ir.Proc]int{}, outer: map[*ir.Proc]*ir.Var{},
		origin: map[*ir.Proc]*ir.Proc{}, keyframe: map[*ir.Proc]*ir.Var{}, points: map[*ir.Proc]map[int]int{}}
	prefix := "init"
	if inst >= 0 {
		prefix = b.instNames[inst]
	}
	// Clone every procedure the thread can call, then the bottom frame.
	order := callees(entry)
	for _, p := range order {
		t.clones[p] = b.newProc(prefix+"_"+p.Name, p)
		t.origin[t.clones[p]] = p
	}
	t.bottom, t.entry = b.newProc(prefix+"_"+entry.Name+"_thread", entry), entry
	for _, p := range order {
		t.fill(p, t.clones[p], false)
	}
	t.fill(entry, t.bottom, true)
	if b.lasso != nil && t.thread() {
		t.markLoopSteps()
	}
	if b.amp != nil && t.thread() {
		t.initCopies(order, entry)
	}
	switch {
	case inst < 0:
	case b.sizing:
		for _, nodes := range t.switchAt {
			b.switchPoints += int64(len(nodes))
		}
	default:
		t.addSwitches()
	}
	return t.bottom
}

// callees are the procedures that calls from entry reach, each once, in
// the order a depth-first walk first meets them (entry itself only when
// it recurses).
func callees(entry *ir.Proc) []*ir.Proc {
	seen := map[*ir.Proc]bool{}
	var out []*ir.Proc
	var walk func(*ir.Proc)
	walk = func(p *ir.Proc) {
		for _, n := range p.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Call && !seen[e.Callee] {
					seen[e.Callee] = true
					out = append(out, e.Callee)
					walk(e.Callee)
				}
			}
		}
	}
	walk(entry)
	return out
}

func (t *threadCode) thread() bool { return t.inst >= 0 }

func (t *threadCode) mark(c *ir.Proc, node int) {
	if !t.thread() {
		return
	}
	if t.switchAt[c] == nil {
		t.switchAt[c] = map[int]bool{}
	}
	t.switchAt[c][node] = true
}

func (t *threadCode) bailNode(c *ir.Proc) int {
	if n, ok := t.bail[c]; ok {
		return n
	}
	n := t.b.node(c, c.Pos, "return (contexts used up)")
	var vals []*ir.Expr
	for i := 0; i < c.Returns; i++ {
		vals = append(vals, ff)
	}
	t.b.edge(&ir.Edge{Proc: c, From: n, To: -1, Kind: ir.Return, Values: vals, Pos: c.Pos, Stmt: "return"}, origin{thread: t.inst})
	t.bail[c] = n
	return n
}

// endedNode is where a terminated thread waits, offering only switches.
func (t *threadCode) endedNode(c *ir.Proc) int {
	if n, ok := t.ended[c]; ok {
		return n
	}
	n := t.b.node(c, c.Pos, "thread ended")
	t.ended[c] = n
	t.mark(c, n)
	return n
}

// violatedNode (eager) records a violation and ends the thread; whether
// it counts is decided when every thread has confirmed the guesses.
func (t *threadCode) violatedNode(c *ir.Proc) int {
	if n, ok := t.violated[c]; ok {
		return n
	}
	b := t.b
	n := b.node(c, c.Pos, "violation")
	b.edge(assign(c, n, t.bailNode(c), nil, []*ir.Var{b.errVar, b.done}, []*ir.Expr{tt, tt}, c.Pos, "violated, thread_done := T, T"), origin{thread: t.inst})
	t.violated[c] = n
	return n
}

// fill builds clone c of procedure p; bottom: c is the thread's first
// frame, where returning ends the thread (or init).
func (t *threadCode) fill(p, c *ir.Proc, bottom bool) {
	b := t.b
	halt.Point(b.ctx)
	eagerThread := b.eager && t.thread()
	for _, n := range p.Nodes {
		id := b.node(c, n.Pos, n.Stmt)
		c.Nodes[id].Labels = n.Labels
		c.Nodes[id].Error = n.Error && !eagerThread
	}
	// arrive is where a step of p arriving at m goes: through the enforce
	// clause, assumed after every step while p is the top frame.
	assumeAt := map[int]int{}
	arrive := func(m int) int {
		if p.Enforce == nil {
			return m
		}
		if a, ok := assumeAt[m]; ok {
			return a
		}
		a := b.node(c, p.Nodes[m].Pos, "enforce")
		b.edge(control(c, a, m, p.Enforce, p.Pos, "enforce"), origin{thread: t.inst})
		assumeAt[m] = a
		return a
	}
	start := arrive(p.Entry)
	if p.Atomic && t.thread() {
		outer := &ir.Var{Name: "atomic_outer", Index: len(c.Locals), Pos: p.Pos}
		c.Locals = append(c.Locals, outer)
		t.outer[c] = outer
		a := b.node(c, p.Pos, "atomic call")
		b.edge(assign(c, a, start, nil, []*ir.Var{outer, b.atomic}, []*ir.Expr{ref(b.atomic), tt}, p.Pos, "atomic_outer, in_atomic := in_atomic, T"), origin{thread: t.inst})
		start = a
	}
	c.Entry = start
	if bottom {
		t.mark(c, p.Entry)
	} else if t.keyframes() {
		t.addKeyframeLocal(c)
	}
	var lassoSwitch map[int]bool
	if eagerThread && b.lasso != nil {
		lassoSwitch = lassoSwitchPoints(p)
		if t.keyframes() {
			// Where the explicit search switches (keyframe.go).
			for id, v := range b.visible[p.Index] {
				lassoSwitch[id] = lassoSwitch[id] || v
			}
		}
	}
	for _, n := range p.Nodes {
		if n.Error && eagerThread && b.lasso != nil {
			continue // a run that fails ends: it is no infinite one
		}
		if n.Error && eagerThread {
			b.edge(control(c, n.ID, t.violatedNode(c), nil, n.Pos, "error label"), origin{thread: t.inst, errorLabel: true})
			continue
		}
		if eagerThread && b.lasso != nil && lassoSwitch[n.ID] {
			t.mark(c, n.ID)
		}
		if bottom && !t.thread() && n.ID == b.orig.InitStop {
			// init ends at endinit: back to main, which starts the threads.
			b.edge(&ir.Edge{Proc: c, From: n.ID, To: -1, Kind: ir.Return, Pos: n.Pos, Stmt: "endinit"}, origin{thread: -1})
			continue
		}
		for _, e := range n.Out {
			t.step(p, c, e, bottom, arrive)
		}
	}
}

// step translates original edge e of p into clone c.
func (t *threadCode) step(p, c *ir.Proc, e *ir.Edge, bottom bool, arrive func(int) int) {
	b := t.b
	o := origin{thread: t.inst, edge: e}
	vis := e.TouchesShared()
	after := func(m int) int {
		if vis {
			t.mark(c, m)
		}
		return arrive(m)
	}
	cp := *e
	cp.Proc, cp.From, cp.Atomic = c, e.From, ir.NoMark
	var held []*ir.Var
	var lockHeld *ir.Var
	if e.Lock != nil {
		held, lockHeld = b.held[e.Lock.Index], b.lockHeld[e.Lock.Index]
	}
	free := func() *ir.Expr { return not(ref(lockHeld)) }
	switch e.Kind {
	case ir.Skip, ir.Assign, ir.Havoc:
		cp.To = after(e.To)
		t.atomicMark(&cp, e.Atomic, o)
		return
	case ir.Assert:
		if b.lasso != nil && t.thread() {
			b.edge(control(c, e.From, after(e.To), and(e.Guard, e.Cond), e.Pos, e.Stmt), o)
			return
		}
		if !b.eager || !t.thread() {
			cp.To = after(e.To)
			b.edge(&cp, o)
			return
		}
		b.edge(control(c, e.From, after(e.To), and(e.Guard, e.Cond), e.Pos, e.Stmt), o)
		b.edge(control(c, e.From, t.violatedNode(c), and(e.Guard, not(e.Cond)), e.Pos, e.Stmt), origin{thread: t.inst, edge: e, fail: true})
		return
	case ir.Call:
		cp.Callee = t.clones[e.Callee]
		if vis {
			t.mark(cp.Callee, e.Callee.Entry)
		}
		if !t.thread() {
			cp.To = arrive(e.To)
			b.edge(&cp, o)
			return
		}
		// Back from the call: unwind if the thread's contexts are over.
		k := b.node(c, e.Pos, "after call")
		cp.To = k
		b.edge(&cp, o)
		b.edge(control(c, k, t.bailNode(c), ref(b.done), e.Pos, "thread_done"), origin{thread: t.inst})
		t.mark(c, e.To)
		b.edge(control(c, k, arrive(e.To), not(ref(b.done)), e.Pos, "!thread_done"), origin{thread: t.inst})
		if t.keyframes() {
			t.keyframeReturns(c, k, arrive(e.To), e.Pos)
		}
		return
	case ir.Return:
		switch {
		case bottom && t.thread():
			b.edge(assign(c, e.From, t.endedNode(c), e.Guard, []*ir.Var{b.atomic}, []*ir.Expr{ff}, e.Pos, e.Stmt), o)
		case t.outer[c] != nil:
			mid := b.node(c, e.Pos, "atomic return")
			b.edge(assign(c, e.From, mid, e.Guard, []*ir.Var{b.atomic}, []*ir.Expr{ref(t.outer[c])}, e.Pos, "in_atomic := atomic_outer"), origin{thread: t.inst})
			cp.From, cp.Guard = mid, nil
			b.edge(&cp, o)
		case t.keyframes():
			// The keyframe is never returned from (Fig. 2's bottom).
			cp.Guard = and(e.Guard, not(ref(t.keyframe[c])))
			b.edge(&cp, o)
		default:
			b.edge(&cp, o)
		}
		return
	case ir.EndThread:
		b.edge(assign(c, e.From, t.endedNode(c), e.Guard, []*ir.Var{b.atomic}, []*ir.Expr{ff}, e.Pos, e.Stmt), o)
		return
	case ir.Acquire:
		mine := held[t.inst]
		a := assign(c, e.From, after(e.To), and(e.Guard, free()), []*ir.Var{mine, lockHeld}, []*ir.Expr{tt, tt}, e.Pos, e.Stmt)
		t.noteAcquire(a, e.Lock, tt)
		t.atomicMark(a, e.Atomic, o)
		return
	case ir.TryAcquire:
		mine := held[t.inst]
		var targets []*ir.Var
		var values []*ir.Expr
		if len(e.Targets) > 0 && e.Targets[0] != nil {
			targets, values = append(targets, e.Targets[0]), append(values, free())
		}
		targets, values = append(targets, mine, lockHeld), append(values, or(ref(mine), free()), tt)
		a := assign(c, e.From, after(e.To), e.Guard, targets, values, e.Pos, e.Stmt)
		t.noteAcquire(a, e.Lock, free())
		t.atomicMark(a, e.Atomic, o)
		return
	case ir.Release:
		mine := held[t.inst]
		if b.lasso != nil && t.thread() {
			guard := and(e.Guard, ref(mine))
			if l := b.lasso; l.bound.Fairness == result.StrongFairness {
				guard = and(guard, or(not(b.inLoop(t.inst)), not(ref(l.waited[e.Lock.Index]))))
			}
			a := assign(c, e.From, after(e.To), guard, []*ir.Var{mine, lockHeld}, []*ir.Expr{ff, ff}, e.Pos, e.Stmt)
			t.atomicMark(a, e.Atomic, o)
			return
		}
		if b.eager {
			a := assign(c, e.From, after(e.To), and(e.Guard, ref(mine)), []*ir.Var{mine, lockHeld}, []*ir.Expr{ff, ff}, e.Pos, e.Stmt)
			t.atomicMark(a, e.Atomic, o)
			b.edge(control(c, e.From, t.violatedNode(c), and(e.Guard, not(ref(mine))), e.Pos, e.Stmt), origin{thread: t.inst, edge: e, fail: true})
			return
		}
		mid := b.node(c, e.Pos, e.Stmt)
		b.edge(&ir.Edge{Proc: c, From: e.From, To: mid, Guard: e.Guard, Kind: ir.Assert, Cond: ref(mine), Pos: e.Pos, Stmt: e.Stmt},
			origin{thread: t.inst, edge: e, fail: true})
		a := assign(c, mid, after(e.To), nil, []*ir.Var{mine, lockHeld}, []*ir.Expr{ff, ff}, e.Pos, e.Stmt)
		t.atomicMark(a, e.Atomic, o)
		return
	}
	panic("seq: unsupported edge kind " + e.Kind.String()) // Supported rejects the rest
}

// atomicMark adds e with the atomic mode change of its original step
// folded into its assignment (threads only; init runs alone anyway).
func (t *threadCode) atomicMark(e *ir.Edge, mark ir.AtomicMark, o origin) {
	b := t.b
	if mark == ir.NoMark || !t.thread() {
		b.edge(e, o)
		return
	}
	v := ir.Const(mark == ir.AtomicBegin)
	if e.Kind == ir.Skip || e.Kind == ir.Assign && e.Constrain == nil {
		e.Kind = ir.Assign
		e.Targets = append(append([]*ir.Var(nil), e.Targets...), b.atomic)
		e.Values = append(append([]*ir.Expr(nil), e.Values...), v)
		b.edge(e, o)
		return
	}
	to := e.To
	mid := b.node(e.Proc, e.Pos, e.Stmt)
	e.To = mid
	b.edge(e, o)
	b.edge(assign(e.Proc, mid, to, nil, []*ir.Var{b.atomic}, []*ir.Expr{v}, e.Pos, "in_atomic"), origin{thread: t.inst})
}

// addSwitches offers a context switch at every marked node, as a node in
// front of it: either no switch, or a switch to one of the thread's later
// contexts (passing over its own contexts that stay empty), or the end of
// the thread's contexts (unwind). Every way through takes exactly one
// step and the code stays free of cycles, so that the unrolling's control
// reachability sees where each run can be at each step and when all have
// ended.
func (t *threadCode) addSwitches() {
	b := t.b
	for _, c := range b.out.Procs {
		nodes := t.switchAt[c]
		for id := 0; id < len(c.Nodes); id++ {
			if !nodes[id] || c.Nodes[id].Error && b.eager {
				continue
			}
			halt.Point(b.ctx)
			n := c.Nodes[id]
			pos := n.Pos
			cont := b.node(c, pos, n.Stmt)
			for _, e := range n.Out {
				e.From = cont
			}
			c.Nodes[cont].Out, n.Out = n.Out, nil
			b.edge(control(c, id, cont, nil, pos, "no context switch"), origin{thread: t.inst})
			ended := len(c.Nodes[cont].Out) == 0 // the thread has ended: only the end is left
			jumps, end := b.switchEdges(c, id, t.inst)
			var snaps []*ir.Edge
			switch {
			case t.keyframes():
				snaps = t.keyframeSwitches(c, id, jumps, end)
			case b.lasso != nil:
				t.lassoSwitches(c, id, jumps, end)
			}
			if !ended {
				for _, e := range jumps {
					e.To = cont
					b.edge(e, origin{thread: t.inst})
				}
				for _, e := range snaps {
					e.To = cont
					b.edge(e, origin{thread: t.inst, snap: true})
				}
			}
			end.To = t.bailNode(c)
			b.edge(end, origin{thread: t.inst})
		}
	}
}
