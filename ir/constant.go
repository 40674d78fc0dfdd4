package ir

import "maps"

// Globals that keep one value.
//
// Boolean abstractions often keep a predicate that the program can only
// ever set to one value: SafeStack's `stack_value` bits are written F
// everywhere (init included), and every path to its error label tests
// them for T; Fig. 11 of the K-induction paper sets y to F before the
// test `y = T` that guards its error. When every write of a global
// stores the same constant c, the global is c from its first write on,
// under every schedule. So a read of it is c where a write surely came
// first: everywhere in the threads when the global holds c when they
// start (its initial value, or init writes c on every path to its end),
// and otherwise after a write of the procedure's own on every path from
// its entry to the read. The copy has exactly p's executions, step for
// step: a test that can never pass becomes the constant false, a step
// that read only such globals no longer reads shared state (so the
// encodings offer no context switch after it), and an error label
// guarded by such a test is seen to be unreachable without a search.

// ConstantGlobals returns the globals of p that hold one value, given
// in the map, in every state in which a thread (not init) runs: every
// write of one stores that constant (writeConstants), and the global
// holds it when init ends.
func ConstantGlobals(p *Program) map[*Var]bool {
	return heldAtStart(p, writeConstants(p))
}

// heldAtStart are the globals of value (writeConstants) that hold their
// value when init ends.
func heldAtStart(p *Program, value map[*Var]bool) map[*Var]bool {
	written := initWrites(p, value)
	out := map[*Var]bool{}
	for _, g := range p.Globals {
		if v, ok := value[g]; ok && (g.Init == valueOf(v) || written[g]) {
			out[g] = v
		}
	}
	return out
}

// writeConstants are the globals every step that writes one stores one
// constant into, by a plain assignment, with that constant; a global
// never written has its initial value, when it has one.
func writeConstants(p *Program) map[*Var]bool {
	value := map[*Var]bool{}
	varies := map[*Var]bool{}
	for _, e := range p.Edges {
		for i, t := range e.Targets {
			if t == nil || !t.Global || varies[t] {
				continue
			}
			if e.Kind != Assign || e.Constrain != nil || i >= len(e.Values) || e.Values[i].Op != OpConst {
				varies[t] = true
				continue
			}
			if v, seen := value[t]; seen && v != e.Values[i].Val {
				varies[t] = true
				continue
			}
			value[t] = e.Values[i].Val
		}
	}
	for _, g := range p.Globals {
		if _, seen := value[g]; !seen && !varies[g] && g.Init != Unknown {
			value[g] = g.Init == True
		}
	}
	for g := range varies {
		delete(value, g)
	}
	return value
}

func valueOf(b bool) Value {
	if b {
		return True
	}
	return False
}

// initWrites are the globals of consts init assigns on every path from
// its entry to where it ends (its return, InitStop, or a node without
// steps). Without init, none.
func initWrites(p *Program, consts map[*Var]bool) map[*Var]bool {
	pr := p.Init
	if pr == nil {
		return nil
	}
	in := mustWrite(pr, p.InitStop, consts)
	var all map[*Var]bool
	for n, node := range pr.Nodes {
		if in[n] == nil {
			continue
		}
		ended := n == p.InitStop || len(node.Out) == 0
		for _, e := range node.Out {
			ended = ended || e.Kind == Return
		}
		if !ended {
			continue
		}
		if all == nil {
			all = maps.Clone(in[n])
		}
		for g := range all {
			if !in[n][g] {
				delete(all, g)
			}
		}
	}
	return all
}

// mustWrite gives, per node of pr, the globals of consts that pr's own
// steps write on every path from its entry to the node (nil: a node not
// reached). A path ends at stop (-1: none).
func mustWrite(pr *Proc, stop int, consts map[*Var]bool) []map[*Var]bool {
	in := make([]map[*Var]bool, len(pr.Nodes))
	in[pr.Entry] = map[*Var]bool{}
	work := []int{pr.Entry}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n == stop {
			continue
		}
		for _, e := range pr.Nodes[n].Out {
			out := maps.Clone(in[n])
			if e.Kind == Assign {
				for _, t := range e.Targets {
					if _, ok := consts[t]; ok {
						out[t] = true
					}
				}
			}
			// A fork's copy starts at ForkTo with the history so far.
			for _, m := range []int{e.To, forkTo(e)} {
				if m < 0 || m >= len(pr.Nodes) {
					continue // a return or a thread's end
				}
				old := in[m]
				if old == nil {
					in[m] = maps.Clone(out)
					work = append(work, m)
					continue
				}
				shrunk := false
				for g := range old {
					if !out[g] {
						delete(old, g)
						shrunk = true
					}
				}
				if shrunk {
					work = append(work, m)
				}
			}
		}
	}
	return in
}

// FoldConstantGlobals returns a copy of p in which every read of a
// global that keeps one value where a write surely came first (see
// above) is replaced by that value and the expressions are simplified,
// and the globals some read of which it replaced; p itself when there
// is none. Steps keep their IDs, so a step of the copy names the step of
// p with the same ID.
func FoldConstantGlobals(p *Program) (*Program, []*Var) {
	value := writeConstants(p)
	if len(value) == 0 {
		return p, nil
	}
	everywhere := heldAtStart(p, value)
	// Init reads a global before it writes it; so may what init calls.
	inInit := map[*Proc]bool{}
	if p.Init != nil {
		work := []*Proc{p.Init}
		inInit[p.Init] = true
		for len(work) > 0 {
			pr := work[len(work)-1]
			work = work[:len(work)-1]
			for _, nd := range pr.Nodes {
				for _, e := range nd.Out {
					if e.Kind == Call && !e.Spawn && e.Callee != nil && !inInit[e.Callee] {
						inInit[e.Callee] = true
						work = append(work, e.Callee)
					}
				}
			}
		}
	}
	q := p.clone()
	used := map[*Var]bool{}
	// fold replaces x's reads of consts, noting the globals it replaced.
	fold := func(x *Expr, consts map[*Var]bool) *Expr {
		x.Walk(func(y *Expr) {
			if _, ok := consts[y.Var]; ok && y.Op == OpVar {
				used[y.Var] = true
			}
		})
		return foldExpr(x, consts)
	}
	for i, pr := range p.Procs {
		stop := -1
		if pr == p.Init {
			stop = p.InitStop
		}
		written := mustWrite(pr, stop, value)
		held := map[*Var]bool{} // the values at every node, before pr's own writes
		if !inInit[pr] {
			held = everywhere
		}
		for _, nd := range pr.Nodes {
			consts := held
			if len(written[nd.ID]) > 0 {
				consts = maps.Clone(held)
				for g := range written[nd.ID] {
					consts[g] = value[g]
				}
			}
			if len(consts) == 0 {
				continue
			}
			f := func(x *Expr) *Expr { return fold(x, consts) }
			for _, e := range nd.Out {
				c := q.Edges[e.ID]
				c.Guard, c.Constrain, c.Cond = f(c.Guard), f(c.Constrain), f(c.Cond)
				c.Values = foldAll(c.Values, f)
				c.Args = foldAll(c.Args, f)
				c.PassiveValues = foldAll(c.PassiveValues, f)
			}
		}
		if pr.Enforce != nil && !inInit[pr] {
			q.Procs[i].Enforce = fold(pr.Enforce, held)
		}
	}
	if len(used) == 0 {
		return p, nil
	}
	var folded []*Var
	for _, g := range p.Globals {
		if used[g] {
			folded = append(folded, g)
		}
	}
	return q, folded
}

func foldAll(xs []*Expr, f func(*Expr) *Expr) []*Expr {
	var out []*Expr
	for i, x := range xs {
		y := f(x)
		if y != x && out == nil {
			out = append(make([]*Expr, 0, len(xs)), xs[:i]...)
		}
		if out != nil {
			out = append(out, y)
		}
	}
	if out == nil {
		return xs
	}
	return out
}

// foldExpr is x with the variables of consts (read as current values)
// replaced by their values and the constants propagated; x itself when
// nothing changes.
func foldExpr(x *Expr, consts map[*Var]bool) *Expr {
	if x == nil {
		return nil
	}
	isConst := func(y *Expr, v bool) bool { return y.Op == OpConst && y.Val == v }
	switch x.Op {
	case OpVar:
		if v, ok := consts[x.Var]; ok {
			return Const(v)
		}
		return x
	case OpConst, OpNondet, OpPrimed, OpPassive:
		return x
	case OpNot:
		a := foldExpr(x.X, consts)
		if a.Op == OpConst {
			return Const(!a.Val)
		}
		if a == x.X {
			return x
		}
		return Not(a)
	}
	a, b := foldExpr(x.X, consts), foldExpr(x.Y, consts)
	switch x.Op {
	case OpAnd:
		switch {
		case isConst(a, false) || isConst(b, false):
			return Const(false)
		case isConst(a, true):
			return b
		case isConst(b, true):
			return a
		}
	case OpOr:
		switch {
		case isConst(a, true) || isConst(b, true):
			return Const(true)
		case isConst(a, false):
			return b
		case isConst(b, false):
			return a
		}
	case OpImplies:
		switch {
		case isConst(a, false) || isConst(b, true):
			return Const(true)
		case isConst(a, true):
			return b
		case isConst(b, false):
			return foldExpr(Not(a), consts)
		}
	case OpXor, OpEq:
		// x ^ c and x = c: the one a negation of the other.
		same := x.Op == OpEq
		switch {
		case a.Op == OpConst && b.Op == OpConst:
			return Const((a.Val == b.Val) == same)
		case a.Op == OpConst:
			a, b = b, a
			fallthrough
		case b.Op == OpConst:
			if b.Val == same {
				return a
			}
			return foldExpr(Not(a), consts)
		}
	case OpChoose:
		// schoose[a, b]: true when a, else false when b, else either.
		switch {
		case isConst(a, true):
			return Const(true)
		case isConst(a, false) && isConst(b, true):
			return Const(false)
		case isConst(a, false) && isConst(b, false):
			return &Expr{Op: OpNondet}
		}
	}
	if a == x.X && b == x.Y {
		return x
	}
	return Binary(x.Op, a, b)
}
