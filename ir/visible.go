package ir

// Partial-order reduction (the explicit checker, the direct encoding). A node is *invisible* when the step that starts
// there touches only the thread's own unexposed locals and some edge is
// always enabled. Such a step commutes with every step of every other
// thread, so a context switch before it can be moved after it without
// changing what the other threads see or how many switches are used, and
// the invisible steps a descheduled thread would take can be taken
// before the switch. Hence context switches are explored only before
// visible nodes (and after termination); the explicit checker takes a
// thread's invisible steps together with the visible step after them, as
// one move. Every cycle of a procedure's
// graph contains a visible node (the target of a DFS back edge), so no
// thread can postpone switching forever.
//
// VisibleNodes marks, per procedure and node, the nodes whose steps read
// or write globals or locals exposed to other threads by broadcasts (x$),
// take locks, call, return, spawn, fork, end a thread, change atomic mode
// or may be disabled (assume, constrain), the nodes of procedures with an
// enforce clause, and loop heads. The explicit checker and the direct
// encoding offer context switches only there.
func VisibleNodes(p *Program) [][]bool {
	exposed := map[*Var]bool{}
	for _, e := range p.Edges {
		for _, v := range e.PassiveTargets {
			exposed[v] = true
		}
		for _, x := range exprsOf(e) {
			x.Walk(func(x *Expr) {
				if x.Op == OpPassive {
					exposed[x.Var] = true
				}
			})
		}
	}
	shared := func(v *Var) bool { return v != nil && (v.Global || exposed[v]) }
	vis := make([][]bool, len(p.Procs))
	for _, pr := range p.Procs {
		v := make([]bool, len(pr.Nodes))
		for _, n := range LoopHeads(pr) {
			v[n] = true
		}
		for _, n := range pr.Nodes {
			if pr.Enforce != nil || !alwaysEnabled(n) {
				v[n.ID] = true
				continue
			}
			for _, e := range n.Out {
				if edgeVisible(e, shared) {
					v[n.ID] = true
				}
			}
		}
		vis[pr.Index] = v
	}
	return vis
}

func exprsOf(e *Edge) []*Expr {
	out := []*Expr{e.Guard, e.Constrain, e.Cond}
	out = append(out, e.Values...)
	out = append(out, e.PassiveValues...)
	return append(out, e.Args...)
}

func edgeVisible(e *Edge, shared func(*Var) bool) bool {
	switch e.Kind {
	case Skip, Assign, Assert, Havoc:
	default:
		return true
	}
	if e.Atomic != NoMark || e.Constrain != nil || len(e.PassiveTargets) > 0 {
		return true
	}
	for _, v := range e.Targets {
		if shared(v) {
			return true
		}
	}
	visible := false
	for _, x := range exprsOf(e) {
		x.Walk(func(x *Expr) {
			if x.Var != nil && shared(x.Var) {
				visible = true
			}
		})
	}
	return visible
}

// alwaysEnabled reports whether some edge of n can be taken in every
// state: an unguarded edge, or the two complementary tests of a branch.
func alwaysEnabled(n *Node) bool {
	trivial := func(g *Expr) bool { return g == nil || g.Op == OpConst && g.Val }
	for _, e := range n.Out {
		if trivial(e.Guard) && e.Constrain == nil {
			return true
		}
	}
	if len(n.Out) == 2 {
		a, b := n.Out[0].Guard, n.Out[1].Guard
		if a != nil && b != nil && b.Op == OpNot && b.X == a {
			return true
		}
	}
	return false
}
