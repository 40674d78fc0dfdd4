package seq

import (
	"fmt"

	"bmc/ir"
	"bmc/lang"
)

// The lasso translation with keyframes (LassoKeyframes): the threads keep
// their procedures, recursion included, and a thread's loop need not come
// back to its whole stack, only to a keyframe (mutant-fair-nontermination,
// section 3.3): a frame that, once the thread's period has begun, is
// never returned from (Fig. 2's local bottom, guessed at each call, which
// forbids the frame's return). Frames below it are never on top again, so
// a period that starts with the keyframe on top and ends with a frame of
// the same procedure, location and locals on top, above it, can repeat
// forever.
//
// Where the thread's period begins. Take a livelock of the program whose
// loop starts after lb.Stem rounds, and a thread that moves in it. Let
// the keyframe be the lowest frame the thread returns to in the loop's
// first pass (its top frame at the loop's start if it returns below none).
// From the moment that frame is on top, it is never returned from, and one
// pass later the same frame (by the loop's periodicity) is on top, one
// frame of it per pass. That moment is the loop's start or just after a
// return, so the snapshot is offered there: on a switch into one of the
// thread's loop contexts, at the thread's start when it has no stem, and
// after each return in a loop context. The check that the period closes is
// offered at the same points one pass later, in the second period: the
// contexts of the loop once more (lb.Loop more rounds), whose shared
// states are the first period's (the same copies), so that the part of
// the thread's first pass before its keyframe may differ from what it
// does later (Fig. 2 gives each thread a shift and a longer stem for the
// same reason). When it closes (same point, locals, locks and loop
// context) the thread's contexts are over: what it does after the
// keyframe in the first period is what it does then in every pass.
//
// So the translation's assertion fails when the program has a livelock
// whose stem is lb.Stem rounds and the first period, and holds when it
// has none within lb at any call depth (seq.Program.InterleaveLasso reads
// a failing run as that longer lasso, and as one within lb where each
// thread's period starts with the loop).
//
// Where contexts end. With whole stacks compared, a context's end moves
// along the thread's next steps to the next switch point of Lasso, at the
// loop's start and end alike. A keyframe is compared with a frame that
// may have been reached differently, possibly through a call, so the
// threads switch where the explicit search does (ir.VisibleNodes: before
// every step other threads can see and every call and return, and at
// loop heads), which keeps the contexts' ends where the search has them.
//
// A thread that takes no step in its period never takes the snapshot: its
// contexts end in its stem or first period, idle, as in Lasso.

// keyframePoints bounds, for the thread starting in entry, the points
// where the snapshot can be taken (switch points and the nodes after
// calls of the procedures it runs, one number each), and gives a frame
// as wide as its widest procedure's locals, to size the snapshot.
func keyframePoints(entry *ir.Proc) (int, []*ir.Var) {
	points, widest := 0, 0
	for _, p := range append(callees(entry), entry) { // the callable clones, the bottom one
		points += len(p.Nodes) + 1 // its nodes and the node where the thread ended
		widest = max(widest, len(p.Locals))
		for _, n := range p.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Call {
					points++ // the node after the call
				}
			}
		}
	}
	frame := make([]*ir.Var, widest)
	for k := range frame {
		frame[k] = &ir.Var{Name: fmt.Sprintf("local%d", k), Index: k}
	}
	return points, frame
}

// threadProcs are the procedures p's threads run, their own and those
// they call.
func threadProcs(p *ir.Program) []*ir.Proc {
	seen := map[*ir.Proc]bool{}
	var out []*ir.Proc
	for _, t := range p.Threads {
		for _, pr := range append([]*ir.Proc{t.Proc}, callees(t.Proc)...) {
			if !seen[pr] {
				seen[pr] = true
				out = append(out, pr)
			}
		}
	}
	return out
}

// keyframes reports whether t's snapshot is a keyframe's.
func (t *threadCode) keyframes() bool {
	return t.thread() && t.b.lasso != nil && t.b.lasso.period > 0
}

// addKeyframeLocal gives clone c (not the bottom one, which returns to
// nobody) the local saying its frame may be the keyframe and so never
// returns; like every local it starts with any value.
func (t *threadCode) addKeyframeLocal(c *ir.Proc) {
	v := &ir.Var{Name: "keyframe", Index: len(c.Locals), Pos: c.Pos, Init: ir.Unknown}
	c.Locals = append(c.Locals, v)
	t.keyframe[c] = v
}

// mayBeKeyframe is the condition that clone c's frame may be the keyframe.
func (t *threadCode) mayBeKeyframe(c *ir.Proc) *ir.Expr {
	if c == t.bottom {
		return tt
	}
	return ref(t.keyframe[c])
}

// frame is the state the snapshot keeps of clone c's frame: its original
// procedure's locals and the locks the thread holds.
func (t *threadCode) frame(c *ir.Proc) []*ir.Var {
	n := len(t.entry.Locals)
	if c != t.bottom {
		n = len(t.origin[c].Locals)
	}
	return t.b.ownState(t.inst, c.Locals[:n])
}

// point numbers node id of clone c among the thread's snapshot points.
func (t *threadCode) point(c *ir.Proc, id int) int {
	if t.points[c] == nil {
		t.points[c] = map[int]int{}
	}
	n, ok := t.points[c][id]
	if !ok {
		n = t.nextPoint
		t.nextPoint++
		t.points[c][id] = n
		if n>>len(t.b.lasso.snapLoc[t.inst]) != 0 {
			panic("seq: more snapshot points than keyframePoints counted")
		}
	}
	return n
}

// ownLoopContexts are the contexts of t's thread in period p (0: the
// first, 1: the second), one per round of the loop.
func (t *threadCode) ownLoopContexts(p int) []int {
	l, b := t.b.lasso, t.b
	var out []int
	for m := 0; m < l.bound.Loop; m++ {
		out = append(out, l.first+p*l.period+m*b.n+t.inst)
	}
	return out
}

// inPeriod is the condition that t's thread runs a context of period p;
// at is the one-hot loop context it runs (false outside period p).
func (t *threadCode) inPeriod(p int) (in *ir.Expr, at []*ir.Expr) {
	in = ff
	for _, d := range t.ownLoopContexts(p) {
		in = or(in, ref(t.b.cx[d]))
		at = append(at, ref(t.b.cx[d]))
	}
	return in, at
}

// takeSnapshot adds to e the snapshot at node id of clone c, in the loop
// context the one-hot at says (of the first period).
func (t *threadCode) takeSnapshot(e *ir.Edge, c *ir.Proc, id int, at []*ir.Expr) {
	l := t.b.lasso
	set := func(v *ir.Var, x *ir.Expr) {
		e.Kind = ir.Assign
		e.Targets = append(e.Targets, v)
		e.Values = append(e.Values, x)
	}
	pt := t.point(c, id)
	for k, v := range l.snapLoc[t.inst] {
		set(v, ir.Const(pt>>k&1 == 1))
	}
	for k, v := range t.frame(c) {
		set(l.snapLocals[t.inst][k], ref(v))
	}
	for m, v := range l.snapCtx[t.inst] {
		set(v, at[m])
	}
	set(l.snapped, tt)
}

// closes is the condition that the thread's period closes at node id of
// clone c, in the second period's loop context the one-hot at says: it is
// at the snapshot's point, in the snapshot's loop context, with its
// locals and locks, and it moved (or may sit there fairly).
func (t *threadCode) closes(c *ir.Proc, id int, at []*ir.Expr, orig *ir.Proc) *ir.Expr {
	l := t.b.lasso
	same := ref(l.snapped)
	pt := t.point(c, id)
	for k, v := range l.snapLoc[t.inst] {
		same = and(same, eq(ref(v), ir.Const(pt>>k&1 == 1)))
	}
	for k, v := range t.frame(c) {
		same = and(same, eq(ref(l.snapLocals[t.inst][k]), ref(v)))
	}
	for m, v := range l.snapCtx[t.inst] {
		same = and(same, eq(ref(v), at[m]))
	}
	idle := ff
	if orig != nil {
		idle = t.idleFair(c, id, orig)
	}
	return and(same, or(ref(l.moved), idle))
}

// closeEdge is the edge from node id of clone c that ends the thread's
// contexts because its period closed (guard: where and how it closes).
func (t *threadCode) closeEdge(c *ir.Proc, id int, guard *ir.Expr, pos lang.Pos) {
	b := t.b
	b.edge(assign(c, id, t.bailNode(c), guard, []*ir.Var{b.done}, []*ir.Expr{tt}, pos, "the period closes at a keyframe"),
		origin{thread: t.inst})
}

// keyframeSwitches adds, at switch point id of clone c, the snapshot as
// an alternative of each switch into a loop context of the first period
// (and of staying at the thread's start when it has no stem), the closing
// of the period at each switch into one of the second, and to the end of
// the contexts the condition that the thread never took the snapshot,
// sits idle and ends before the second period. It returns the snapshot
// alternatives of the jumps, for the caller to add beside them.
func (t *threadCode) keyframeSwitches(c *ir.Proc, id int, jumps []*ir.Edge, end *ir.Edge) (snaps []*ir.Edge) {
	b, l := t.b, t.b.lasso
	orig := t.origin[c]
	if c == t.bottom {
		orig = t.entry
	}
	first, second := t.ownLoopContexts(0), t.ownLoopContexts(1)
	oneHot := func(d int, ctxs []int) []*ir.Expr {
		var at []*ir.Expr
		for _, x := range ctxs {
			at = append(at, ir.Const(x == d))
		}
		return at
	}
	notSnapped := not(ref(l.snapped))
	for k, e := range jumps {
		d := k + 1
		if isConst(e.Guard, false) {
			continue
		}
		for m := range first {
			if d == first[m] {
				snap := *e
				snap.Guard = and(e.Guard, notSnapped, t.mayBeKeyframe(c))
				snap.Targets = append([]*ir.Var(nil), e.Targets...)
				snap.Values = append([]*ir.Expr(nil), e.Values...)
				snap.Stmt = e.Stmt + ", keyframe snapshot"
				t.takeSnapshot(&snap, c, id, oneHot(d, first))
				snaps = append(snaps, &snap)
			}
			if d == second[m] {
				t.closeEdge(c, id, and(e.Guard, t.closes(c, id, oneHot(d, second), orig)), c.Nodes[id].Pos)
			}
		}
	}
	if c == t.bottom && id == t.entry.Entry && l.first == 0 {
		// No stem: the thread starts in its first loop context.
		stay := c.Nodes[id].Out[0]
		snap := control(c, id, stay.To, and(ref(b.cx[first[0]]), notSnapped), stay.Pos, "keyframe snapshot")
		t.takeSnapshot(snap, c, id, oneHot(first[0], first))
		b.edge(snap, origin{thread: t.inst, snap: true})
	}
	inSecond, _ := t.inPeriod(1)
	end.Guard = and(end.Guard, notSnapped, not(inSecond), t.idleFair(c, id, orig))
	return snaps
}

// keyframeReturns adds, at node k of clone c (just after a call returned
// and the thread goes on to node to), the snapshot as an alternative in a
// loop context of the first period and the closing of the period in one
// of the second.
func (t *threadCode) keyframeReturns(c *ir.Proc, k, to int, pos lang.Pos) {
	b, l := t.b, t.b.lasso
	going := not(ref(b.done))
	in1, at1 := t.inPeriod(0)
	snap := control(c, k, to, and(going, in1, not(ref(l.snapped)), t.mayBeKeyframe(c)), pos, "keyframe snapshot")
	t.takeSnapshot(snap, c, k, at1)
	b.edge(snap, origin{thread: t.inst, snap: true})
	in2, at2 := t.inPeriod(1)
	t.closeEdge(c, k, and(going, in2, t.closes(c, k, at2, nil)), pos)
}
