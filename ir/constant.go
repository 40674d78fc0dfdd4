package ir

// Globals that never change once the threads run.
//
// Boolean abstractions often keep a predicate that the program can only
// ever set to one value: SafeStack's `stack_value` bits are written F
// everywhere (init included), and every path to its error label tests
// them for T. When every write of a global stores the same constant c
// and the global holds c when the threads start (its initial value, or
// init writes c on every path to its end), the global is c in every
// state a thread sees, under every schedule, so a thread's read of it
// can be replaced by c. The copy has exactly p's executions, step for
// step: a test that can never pass becomes the constant false, a step
// that read only such globals no longer reads shared state (so the
// encodings offer no context switch after it), and an error label
// guarded by such a test is seen to be unreachable without a search.

// ConstantGlobals returns the globals of p that hold one value, given
// in the map, in every state in which a thread (not init) runs: every
// step of every procedure that writes one stores that constant, by a
// plain assignment, and the global holds it when init ends.
func ConstantGlobals(p *Program) map[*Var]bool {
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
	written := initWrites(p)
	out := map[*Var]bool{}
	for _, g := range p.Globals {
		v, seen := value[g]
		switch {
		case varies[g]:
		case !seen && g.Init != Unknown:
			out[g] = g.Init == True // never written
		case seen && (g.Init == valueOf(v) || written[g]):
			out[g] = v
		}
	}
	return out
}

func valueOf(b bool) Value {
	if b {
		return True
	}
	return False
}

// initWrites are the globals init assigns on every path from its entry
// to where it ends (its return, InitStop, or a node without steps):
// by then the global holds the value every write stores. Without init,
// none.
func initWrites(p *Program) map[*Var]bool {
	pr := p.Init
	if pr == nil {
		return nil
	}
	// Forward must-analysis: in[n] the globals assigned on every path
	// from the entry to n (nil: n not reached yet, the top element).
	in := make([]map[*Var]bool, len(pr.Nodes))
	in[pr.Entry] = map[*Var]bool{}
	work := []int{pr.Entry}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n == p.InitStop {
			continue // init ends here; what follows never runs
		}
		for _, e := range pr.Nodes[n].Out {
			if e.To < 0 || e.To >= len(pr.Nodes) || e.Kind == Call && e.Spawn {
				continue
			}
			out := map[*Var]bool{}
			for g := range in[n] {
				out[g] = true
			}
			if e.Kind == Assign {
				for _, t := range e.Targets {
					if t != nil && t.Global {
						out[t] = true
					}
				}
			}
			old := in[e.To]
			if old == nil {
				in[e.To] = out
				work = append(work, e.To)
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
				work = append(work, e.To)
			}
		}
	}
	var ends []map[*Var]bool
	for n, node := range pr.Nodes {
		if in[n] == nil {
			continue
		}
		ended := n == p.InitStop || len(node.Out) == 0
		for _, e := range node.Out {
			ended = ended || e.Kind == Return
		}
		if ended {
			ends = append(ends, in[n])
		}
	}
	all := map[*Var]bool{}
	for i, end := range ends {
		for g := range end {
			if i == 0 {
				all[g] = true
			}
		}
		for g := range all {
			if !end[g] {
				delete(all, g)
			}
		}
	}
	return all
}

// FoldConstantGlobals returns a copy of p in which every read of a
// constant global (ConstantGlobals) outside init and the procedures
// init calls is replaced by its value and the expressions are
// simplified, and the globals folded; p itself when there is none.
// Steps keep their IDs, so a step of the copy names the step of p with
// the same ID.
func FoldConstantGlobals(p *Program) (*Program, []*Var) {
	consts := ConstantGlobals(p)
	if len(consts) == 0 {
		return p, nil
	}
	var folded []*Var
	for _, g := range p.Globals {
		if _, ok := consts[g]; ok {
			folded = append(folded, g)
		}
	}
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
	f := func(x *Expr) *Expr { return foldExpr(x, consts) }
	for _, e := range q.Edges {
		if inInit[p.Edges[e.ID].Proc] {
			continue
		}
		e.Guard, e.Constrain, e.Cond = f(e.Guard), f(e.Constrain), f(e.Cond)
		e.Values = foldAll(e.Values, f)
		e.Args = foldAll(e.Args, f)
		e.PassiveValues = foldAll(e.PassiveValues, f)
	}
	for i, pr := range q.Procs {
		if !inInit[p.Procs[i]] {
			pr.Enforce = f(pr.Enforce)
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
