package ir

// MayViolate reports whether p's control flow lets a violation happen
// at all: whether an error node, an assertion whose condition is not
// the constant true, or a release (an error when the lock is not held)
// lies on a path of steps none of whose guards is the constant false,
// from init, the threads, the procedures they call and the threads they
// start. It looks at no values but constants, so false means that no
// execution violates p, under any schedule; after FoldConstantGlobals
// it sees what the fold cut off (SafeStack's error paths, whose tests
// read only globals every write sets to false).
func MayViolate(p *Program) bool {
	seen := map[*Proc]bool{}
	var work []*Proc
	reach := func(pr *Proc) {
		if pr != nil && !seen[pr] {
			seen[pr] = true
			work = append(work, pr)
		}
	}
	reach(p.Init)
	for _, t := range p.Threads {
		reach(t.Proc)
	}
	for len(work) > 0 {
		pr := work[len(work)-1]
		work = work[:len(work)-1]
		if procMayViolate(pr, reach) {
			return true
		}
	}
	return false
}

// procMayViolate walks pr's nodes from its entry (and from each fork's
// target), passing every step whose guard is not constantly false, and
// reports a violation it may reach; reach takes the procedures called
// or started on the way.
func procMayViolate(pr *Proc, reach func(*Proc)) bool {
	seen := make([]bool, len(pr.Nodes))
	stack := []int{pr.Entry}
	seen[pr.Entry] = true
	visit := func(n int) {
		if n >= 0 && n < len(seen) && !seen[n] {
			seen[n] = true
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		nd := pr.Nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if nd.Error {
			return true
		}
		for _, e := range nd.Out {
			if v, known := e.Guard.constant(); e.Guard != nil && known && !v {
				continue
			}
			switch e.Kind {
			case Assert:
				if v, known := e.Cond.constant(); !known || !v {
					return true
				}
			case Release:
				return true
			case Call:
				reach(e.Callee)
			case Fork:
				visit(e.ForkTo)
			}
			visit(e.To)
		}
	}
	return false
}

// constant is e's value where it has one whatever the variables and
// nondeterministic choices (known), as three-valued logic gives it: a
// conjunction with a false operand is false, and so on.
func (e *Expr) constant() (v, known bool) {
	if e == nil {
		return true, true
	}
	switch e.Op {
	case OpConst:
		return e.Val, true
	case OpNot:
		x, ok := e.X.constant()
		return !x, ok
	case OpChoose:
		// schoose[X, Y]: true where X holds, else false where Y holds,
		// else either.
		x, okx := e.X.constant()
		y, oky := e.Y.constant()
		switch {
		case okx && x:
			return true, true
		case okx && oky && y:
			return false, true
		}
		return false, false
	case OpAnd, OpOr, OpXor, OpEq, OpImplies:
		x, okx := e.X.constant()
		y, oky := e.Y.constant()
		if okx && oky {
			return e.Op.Apply(x, y), true
		}
		switch {
		case e.Op == OpAnd && (okx && !x || oky && !y):
			return false, true
		case e.Op == OpOr && (okx && x || oky && y):
			return true, true
		case e.Op == OpImplies && (okx && !x || oky && y):
			return true, true
		}
	}
	return false, false
}
