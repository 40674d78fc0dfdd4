package seq

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// The lasso translation: the eager construction over the rounds of a stem
// and a loop, extended as in Fig. 2 of mutant-fair-nontermination
// (section 4) so that its assertion fails exactly when the program has a
// fair execution that, after lb.Stem rounds, repeats a loop of lb.Loop
// rounds forever.
//
//   - The shared state that ends the last round must be the guessed state
//     that starts the loop (Fig. 2, lines 22-27), so the guesses chain
//     around the loop.
//   - Each thread snapshots its location and locals when it enters its
//     first loop context and compares them when it leaves its last one.
//     Package fairness inlines the calls first, so the snapshot is the
//     thread's whole stack and the rounds are exactly lb's (Fig. 2 shifts
//     the snapshot to a keyframe instead, at the price of a longer stem).
//   - Fairness (section 3.4): a thread that takes no step in the loop must
//     be terminated or wait in acquire on a lock that is held throughout
//     the loop (strong: the guessed set waited, held when the loop starts
//     and released by nobody in it) or at some point of it (weak: the
//     guessed set sometime, held when the loop starts or acquired in it).
//   - Some step must happen in the loop, and assertions and error labels
//     end an execution instead of reporting a violation: a run that fails
//     is not an infinite one.
//
// Context switches are offered where package seq offers them (after a
// step that touches shared state), and also at every loop head and in
// front of every acquire (lassoSwitchPoints).
type lassoVars struct {
	bound result.LassoBound
	first int // the first context of the loop
	// period (keyframes only, keyframe.go): the loop's contexts, after
	// which they come again as a second period; 0: whole stacks compared.
	period int

	waited   []*ir.Var // strong, per lock: held throughout the loop
	sometime []*ir.Var // weak, per lock: held at some point of the loop
	acquired []*ir.Var // weak, per lock: acquired in the loop
	stepped  *ir.Var   // some thread took a step in the loop
	// The running thread: took a step in the loop; took its snapshot.
	moved, snapped *ir.Var
	snapLoc        [][]*ir.Var // per instance: the snapshot's node, in binary
	snapLocals     [][]*ir.Var // per instance: the snapshot's locals
	snapCtx        [][]*ir.Var // keyframes, per instance: the snapshot's loop context, one-hot
}

// Lasso returns the lasso translation of p for lb. Every thread's code
// must be one procedure without calls (package fairness inlines them).
func Lasso(ctx context.Context, p *ir.Program, lb result.LassoBound) (*Program, error) {
	return lasso(ctx, p, lb, false)
}

// LassoKeyframes returns the lasso translation of p for lb that keeps
// the threads' procedures, recursion included, and compares keyframes
// instead of whole stacks (keyframe.go): a sequential program with
// recursion, for an engine that decides it at every call depth. Its
// assertion fails when p has a livelock whose stem may be up to lb.Loop
// rounds longer than lb.Stem, and holds when p has none within lb at any
// call depth.
func LassoKeyframes(ctx context.Context, p *ir.Program, lb result.LassoBound) (*Program, error) {
	return lasso(ctx, p, lb, true)
}

func lasso(ctx context.Context, p *ir.Program, lb result.LassoBound, keyframes bool) (sp *Program, err error) {
	if err := Supported(p); err != nil {
		return nil, err
	}
	if lb.Stem < 0 || lb.Loop < 1 {
		return nil, fmt.Errorf("the lasso needs a stem of at least 0 rounds and a loop of at least 1")
	}
	for _, t := range p.Threads {
		for _, n := range t.Proc.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Call && !keyframes {
					return nil, fmt.Errorf("%s:%s: thread %s calls %s: the lasso translation needs its calls inlined", p.File, e.Pos, t.Proc.Name, e.Callee.Name)
				}
			}
		}
		if t.Proc.Enforce != nil || t.Proc.Atomic {
			return nil, fmt.Errorf("%s:%s: thread %s has an enforce clause or is atomic", p.File, t.Proc.Pos, t.Proc.Name)
		}
	}
	if keyframes {
		for _, pr := range threadProcs(p) {
			if pr.Enforce != nil || pr.Atomic {
				return nil, fmt.Errorf("%s:%s: procedure %s, which threads call, has an enforce clause or is atomic", p.File, pr.Pos, pr.Name)
			}
		}
	}
	defer halt.Recover(&err)
	rounds := lb.Stem + lb.Loop
	if keyframes {
		rounds += lb.Loop // the second period (keyframe.go)
	}
	bd := Bound{Rounds: rounds}
	b := newBuilder(p, bd, true)
	b.ctx = ctx
	b.lasso = &lassoVars{bound: lb, first: lb.Stem * b.n}
	if keyframes {
		b.lasso.period = lb.Loop * b.n
		b.visible = ir.VisibleNodes(p)
	}
	b.declare()
	b.declareLasso()
	b.lassoMain()
	return &Program{Seq: b.out, Orig: p, Method: LassoTranslation, Bound: bd, Threads: b.instNames,
		origins: b.origins, ctx: b.cx, runs: b.runs, contexts: b.C, loop: b.lasso.first, period: b.lasso.period, lasso: lb}, nil
}

func (b *builder) declareLasso() {
	l := b.lasso
	for _, lk := range b.orig.Locks {
		switch l.bound.Fairness {
		case result.StrongFairness:
			l.waited = append(l.waited, b.global("waited_"+lk.Name, ir.Unknown))
		case result.WeakFairness:
			l.sometime = append(l.sometime, b.global("sometime_"+lk.Name, ir.Unknown))
			l.acquired = append(l.acquired, b.global("acquired_"+lk.Name, ir.False))
		}
	}
	l.stepped = b.global("loop_stepped", ir.False)
	l.moved = b.global("thread_moved", ir.False)
	l.snapped = b.global("thread_snapped", ir.False)
	for i, entry := range b.instances {
		var loc, locals []*ir.Var
		// The clone gets a few control nodes per node (switch points,
		// the end); twice the nodes plus slack bounds its node IDs.
		points, frame := 4*len(entry.Nodes)+8, entry.Locals
		if l.period > 0 {
			points, frame = keyframePoints(entry)
			var cs []*ir.Var
			for m := 0; m < l.bound.Loop; m++ {
				cs = append(cs, b.global(fmt.Sprintf("snap_%s_loop%d", b.instNames[i], m), ir.False))
			}
			l.snapCtx = append(l.snapCtx, cs)
		}
		for k := 0; k < bits.Len(uint(points)); k++ {
			loc = append(loc, b.global(fmt.Sprintf("snap_%s_at%d", b.instNames[i], k), ir.False))
		}
		for _, v := range b.ownState(i, frame) {
			locals = append(locals, b.global(fmt.Sprintf("snap_%s_%s", b.instNames[i], v.Name), ir.False))
		}
		l.snapLoc = append(l.snapLoc, loc)
		l.snapLocals = append(l.snapLocals, locals)
	}
}

// next is the context whose start state context d ends in: the following
// one, or, after the last, the loop's first; -1 when there is none.
func (b *builder) next(d int) int {
	switch {
	case d+1 < b.C:
		return d + 1
	case b.lasso != nil:
		return b.lasso.first
	}
	return -1
}

// inLoop is the condition that instance i runs one of its loop contexts
// (with keyframes: that its period has begun).
func (b *builder) inLoop(i int) *ir.Expr {
	if b.lasso.period > 0 {
		return ref(b.lasso.snapped)
	}
	r := ff
	for c := b.lasso.first; c < b.C; c++ {
		if isConst(b.owner(c, i), true) {
			r = or(r, ref(b.cx[c]))
		}
	}
	return r
}

// heldAt is the condition that some thread holds lock k in copy c.
func (b *builder) heldAt(c, k int) *ir.Expr {
	for j, s := range b.shared {
		if s == b.lockHeld[k] {
			return ref(b.copies[c][j])
		}
	}
	panic("seq: a lock without its bit in the shared state")
}

// lassoMain runs every thread once through all of its contexts, as eager
// does; the assertion at the end fails when the guesses held, the loop
// had a step and the guessed lock sets are right.
func (b *builder) lassoMain() {
	l := b.lasso
	m, cur := b.start()
	for i := range b.instances {
		after := b.node(m, lang.Pos{}, "after "+b.instNames[i])
		firsts := make([]*ir.Expr, b.C)
		for c := range firsts {
			firsts[c] = b.first(c, i)
		}
		b.runThread(m, cur, after, i, tt, firsts, b.cx, nil)
		cur = after
	}
	ok := ref(l.stepped)
	for k := range b.orig.Locks {
		switch l.bound.Fairness {
		case result.StrongFairness:
			ok = and(ok, or(not(ref(l.waited[k])), b.heldAt(l.first, k)))
		case result.WeakFairness:
			ok = and(ok, or(not(ref(l.sometime[k])), b.heldAt(l.first, k), ref(l.acquired[k])))
		}
	}
	fair := b.node(m, lang.Pos{}, "a fair loop")
	b.edge(control(m, cur, fair, ok, lang.Pos{}, "the loop has a step and the guessed lock sets hold"), origin{thread: -1})
	end := b.node(m, lang.Pos{}, "end")
	b.edge(&ir.Edge{Proc: m, From: fair, To: end, Kind: ir.Assert, Cond: ff, Stmt: "assert(no livelock)"}, origin{thread: -1})
	b.edge(&ir.Edge{Proc: m, From: end, To: -1, Kind: ir.Return, Stmt: "end"}, origin{thread: -1})
}

// markLoopSteps makes every step of the thread's original program record
// that it happened in the loop (the thread moved; the loop has a step).
func (t *threadCode) markLoopSteps() {
	b, l := t.b, t.b.lasso
	in := b.inLoop(t.inst)
	targets := []*ir.Var{l.moved, l.stepped}
	values := []*ir.Expr{or(ref(l.moved), in), or(ref(l.stepped), in)}
	clones := []*ir.Proc{t.bottom} // Lasso: threads are single procedures
	if t.keyframes() {
		for c := range t.origin {
			clones = append(clones, c)
		}
		slices.SortFunc(clones, func(x, y *ir.Proc) int { return x.Index - y.Index })
	}
	for _, c := range clones {
		for _, n := range c.Nodes {
			var before []*ir.Edge
			for _, e := range n.Out {
				if e.ID >= len(b.origins) || b.origins[e.ID].edge == nil {
					continue
				}
				if e.Kind == ir.Skip || e.Kind == ir.Assign && e.Constrain == nil {
					e.Kind = ir.Assign
					e.Targets = append(append([]*ir.Var(nil), e.Targets...), targets...)
					e.Values = append(append([]*ir.Expr(nil), e.Values...), values...)
					continue
				}
				before = append(before, e)
			}
			// The other steps are marked as they start: a call need not
			// return, a return has nowhere in the clone to go.
			for _, e := range before {
				mid := b.node(c, e.Pos, e.Stmt)
				n.Out = slices.DeleteFunc(n.Out, func(x *ir.Edge) bool { return x == e })
				b.edge(assign(c, n.ID, mid, e.Guard, targets, values, e.Pos, "thread_moved"), origin{thread: t.inst})
				e.From, e.Guard = mid, nil
				c.Nodes[mid].Out = append(c.Nodes[mid].Out, e)
			}
		}
	}
}

// snapshot adds to e (a switch at node id of the bottom clone into a
// loop context, taken when cond) the snapshot of the thread's location
// and locals.
func (t *threadCode) snapshot(e *ir.Edge, id int, cond *ir.Expr) {
	l := t.b.lasso
	c := t.bottom
	keep := func(v *ir.Var, now *ir.Expr) {
		e.Kind = ir.Assign
		e.Targets = append(e.Targets, v)
		e.Values = append(e.Values, or(and(cond, now), and(not(cond), ref(v))))
	}
	for k, v := range l.snapLoc[t.inst] {
		keep(v, ir.Const(id>>k&1 == 1))
	}
	for k, v := range t.b.ownState(t.inst, c.Locals) {
		keep(l.snapLocals[t.inst][k], ref(v))
	}
	keep(l.snapped, tt)
}

// loopEnd is the extra guard of the end of the thread's contexts at node
// id of the bottom clone: it is back where its snapshot was taken (or it
// never entered the loop and sits where it left the stem), and, if it
// took no step in the loop, it may sit out the loop fairly.
func (t *threadCode) loopEnd(id int, orig *ir.Proc) *ir.Expr {
	l := t.b.lasso
	c := t.bottom
	same := tt
	for k, v := range l.snapLoc[t.inst] {
		same = and(same, eq(ref(v), ir.Const(id>>k&1 == 1)))
	}
	for k, v := range t.b.ownState(t.inst, c.Locals) {
		same = and(same, eq(ref(l.snapLocals[t.inst][k]), ref(v)))
	}
	if id>>len(l.snapLoc[t.inst]) != 0 {
		panic("seq: a node ID beyond the snapshot's bits") // declareLasso sizes them
	}
	idle := t.idleFair(c, id, orig)
	return or(and(not(ref(l.snapped)), idle), and(ref(l.snapped), same, or(ref(l.moved), idle)))
}

// idleFair is the condition that a thread sitting at node id of clone c
// (of procedure orig) through the whole loop is treated fairly: it has
// ended, or (strong) every step it could take acquires a lock held
// throughout the loop, or (weak) one held at some point of it.
func (t *threadCode) idleFair(c *ir.Proc, id int, orig *ir.Proc) *ir.Expr {
	l := t.b.lasso
	if ended, ok := t.ended[c]; l.bound.Fairness == result.NoFairness || ok && id == ended {
		return tt
	}
	if id >= len(orig.Nodes) || len(orig.Nodes[id].Out) == 0 {
		return ff
	}
	r := tt
	for _, e := range orig.Nodes[id].Out {
		if e.Kind != ir.Acquire {
			return ff
		}
		if l.bound.Fairness == result.StrongFairness {
			r = and(r, ref(l.waited[e.Lock.Index]))
		} else {
			r = and(r, ref(l.sometime[e.Lock.Index]))
		}
	}
	return r
}

// noteAcquire (weak fairness) makes a (translated) acquire of lock lk
// record, when it happens in the loop and took the lock (took), that lk
// was held at some point of the loop.
func (t *threadCode) noteAcquire(a *ir.Edge, lk *ir.Lock, took *ir.Expr) {
	l := t.b.lasso
	if l == nil || !t.thread() || l.bound.Fairness != result.WeakFairness {
		return
	}
	v := l.acquired[lk.Index]
	a.Targets = append(a.Targets, v)
	a.Values = append(a.Values, or(ref(v), and(took, t.b.inLoop(t.inst))))
}

// lassoSwitches adds the snapshot to the switches at node id of clone c
// that enter the thread's loop, and the comparison with it to the end of
// its contexts. Threads are single procedures (Lasso), so the bottom
// clone is the only one with switch points.
func (t *threadCode) lassoSwitches(c *ir.Proc, id int, jumps []*ir.Edge, end *ir.Edge) {
	if c != t.bottom {
		panic("seq: a switch point outside the thread's procedure")
	}
	l := t.b.lasso
	start := l.first + t.inst // the thread's first loop context
	for k, e := range jumps {
		if d := k + 1; d >= start && !isConst(e.Guard, false) {
			t.snapshot(e, id, not(ref(l.snapped)))
		}
	}
	if start == t.inst {
		// No stem: the thread starts in the loop. Its first step leaves
		// its entry, a switch point, by the "no switch" edge; snapshot
		// there if no switch took it.
		stay := c.Nodes[id].Out[0]
		t.snapshot(stay, id, not(ref(l.snapped)))
	}
	end.Guard = and(end.Guard, t.loopEnd(id, t.entry))
}

// lassoSwitchPoints are the nodes of thread procedure pr where the lasso
// translation offers a context switch besides those after steps that
// touch shared state: loop heads and the nodes in front of an acquire.
//
// A context of a livelock may end anywhere. Moving its end forward along
// the thread's own next steps to the next switch point changes nothing
// other threads see, and at the loop's start and end it moves the same
// way (the thread continues from the same configuration), so the loop
// still closes; every cycle has a loop head, so the next switch point
// is reached unless the thread then waits for good, which it may do only
// blocked in front of an acquire, or, without fairness, anywhere, where
// stopping at the previous switch point instead leaves it idle as well.
func lassoSwitchPoints(pr *ir.Proc) map[int]bool {
	at := map[int]bool{}
	for _, h := range ir.LoopHeads(pr) {
		at[h] = true
	}
	for _, n := range pr.Nodes {
		for _, e := range n.Out {
			if e.Kind == ir.Acquire {
				at[n.ID] = true
			}
		}
	}
	return at
}

// ownState is the state of instance i besides its location: its
// procedure's locals, and which locks it holds.
func (b *builder) ownState(i int, locals []*ir.Var) []*ir.Var {
	out := append([]*ir.Var(nil), locals...)
	for _, hs := range b.held {
		out = append(out, hs[i])
	}
	return out
}
