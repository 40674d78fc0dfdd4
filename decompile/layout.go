package decompile

import (
	"bmc/ir"
)

// layout orders the nodes: from the entry along the flow, then every node
// not placed yet, in node order.
func (pf *procFmt) layout() []*stmt {
	nodes := pf.pr.Nodes
	pf.analyze()
	pf.done = make([]bool, len(nodes))
	var body []*stmt
	start := pf.pr.Entry
	for start >= 0 && pf.err == nil {
		out, exit := pf.chain(start, -1, false)
		body = append(body, out...)
		if exit >= 0 {
			body = pf.appendGoto(body, exit)
		}
		start = -1
		for i := range nodes {
			if !pf.done[i] {
				start = i
				break
			}
		}
	}
	return body
}

// analyze finds, per node, the sources of the edges into it except back
// edges (from nodes it dominates), and the post-dominator tree. A node
// whose forward predecessors are all printed can follow the last one,
// even inside a nested block: the others jump to it, and back edges
// close a while loop or jump too. The immediate post-dominator of a test
// is where its branches meet.
func (pf *procFmt) analyze() {
	succs := ir.Successors(pf.pr)
	dom := ir.Dominators(succs, pf.pr.Entry)
	pf.reachable = dom.Reachable
	pf.fwd = make([][]int, len(succs))
	for u, ss := range succs {
		for _, t := range ss {
			if !dom.Dominates(t, u) {
				pf.fwd[t] = append(pf.fwd[t], u)
			}
		}
	}
	pf.pdom = ir.PostDominators(pf.pr)
}

// chain prints node n and its successors for as long as they can follow
// by falling through. It stops before stop (reached by falling through)
// and returns the node the last statement continues at when that node
// cannot follow (the caller adds a goto), or -1. Nested chains (inside if
// and while bodies and branch blocks) take only nodes whose other forward
// predecessors are printed already.
func (pf *procFmt) chain(n, stop int, nested bool) ([]*stmt, int) {
	if stop >= 0 {
		pf.stops = append(pf.stops, stop)
		defer func() { pf.stops = pf.stops[:len(pf.stops)-1] }()
	}
	var out []*stmt
	for pf.err == nil {
		pf.done[n] = true
		code, cont, how := pf.node(n, stop, nested)
		out = append(out, code...)
		switch {
		case cont < 0:
			return out, -1
		case cont == stop:
			return out, stop
		case !pf.claimable(cont, nested):
			if how == soft {
				return out, -1
			}
			return out, cont
		}
		n = cont
	}
	return out, -1
}

// claimable reports whether node n can be printed next. Inside nested
// blocks it must not be where an enclosing block ends, and its other
// forward predecessors must be printed already.
func (pf *procFmt) claimable(n int, nested bool) bool {
	if pf.done[n] {
		return false
	}
	for _, s := range pf.stops {
		if s == n {
			return false
		}
	}
	for _, u := range pf.fwd[n] {
		if !pf.done[u] && (nested || pf.reachable[u]) {
			return false
		}
	}
	return true
}

// appendGoto continues list at node or branch key x.
func (pf *procFmt) appendGoto(list []*stmt, x int) []*stmt {
	pf.refs[x] = true
	if k := len(list); k > 0 && list[k-1].skip {
		// A skip followed by a goto is the goto: one step either way.
		last := list[k-1]
		last.kind, last.jumps, last.skip = kGoto, []int{x}, false
		return list
	}
	return append(list, &stmt{kind: kGoto, node: -1, key: -1, jumps: []int{x}})
}

// block prints a nested chain from n; it ends by falling through to stop
// (falls) or with a jump.
func (pf *procFmt) block(n, stop int) (out []*stmt, falls bool) {
	out, exit := pf.chain(n, stop, true)
	if exit >= 0 && exit == stop {
		return out, true
	}
	if exit >= 0 {
		out = pf.appendGoto(out, exit)
	}
	return out, false
}

// continuation says how the code of a node continues at its successor.
type continuation uint8

const (
	hard continuation = iota // falls through: the successor follows or is jumped to
	soft                     // jumps there anyway; placing it next is optional
)

// node prints node n. It returns the statements and the node the last one
// continues at (-1: none).
func (pf *procFmt) node(n, stop int, nested bool) ([]*stmt, int, continuation) {
	nd := pf.pr.Nodes[n]
	out := nd.Out
	for _, e := range out {
		pf.checkEdge(e)
	}
	if pf.err != nil {
		return nil, -1, hard
	}
	switch {
	case len(out) == 0:
		// No step is possible here, which is what assume(F) does.
		s := simple("assume(F)")
		s.node = n
		return []*stmt{s}, -1, hard
	case len(out) == 1:
		code := pf.edgeCode(out[0])
		code[0].node = n
		return code, out[0].To, hard
	}
	plainSkips := true
	for _, e := range out {
		plainSkips = plainSkips && e.Kind == ir.Skip && e.Atomic == ir.NoMark && guardOf(e) == nil
	}
	if plainSkips {
		s := &stmt{kind: kGoto, node: n, key: -1}
		for _, e := range out {
			s.jumps = append(s.jumps, e.To)
			pf.refs[e.To] = true
		}
		return []*stmt{s}, out[0].To, soft
	}
	if c, then, els, ok := ifShape(out); ok {
		return pf.ifNode(n, stop, nested, c, then, els)
	}
	// General choice: goto one block per edge; the last block falls
	// through to its successor.
	s := &stmt{kind: kGoto, node: n, key: -1}
	code := []*stmt{s}
	for i, e := range out {
		key := len(pf.pr.Nodes) + len(pf.branch)
		pf.branch = append(pf.branch, [2]int{n, i + 1})
		s.jumps = append(s.jumps, key)
		pf.refs[key] = true
		ec := pf.edgeCode(e)
		ec[0].key = key
		code = append(code, ec...)
		if i == len(out)-1 || e.To < 0 {
			continue
		}
		if e.To != stop && pf.claimable(e.To, true) {
			b, _ := pf.block(e.To, -1)
			code = append(code, b...)
		} else {
			code = pf.appendGoto(code, e.To)
		}
	}
	return code, out[len(out)-1].To, hard
}

// ifShape recognises two Skip edges with guards c and !c.
func ifShape(out []*ir.Edge) (c *ir.Expr, then, els int, ok bool) {
	if len(out) != 2 {
		return
	}
	a, b := out[0], out[1]
	if a.Kind != ir.Skip || b.Kind != ir.Skip || a.Atomic != ir.NoMark || b.Atomic != ir.NoMark || a.To < 0 || b.To < 0 {
		return
	}
	ga, gb := a.Guard, b.Guard
	if ga == nil || gb == nil {
		return
	}
	if gb.Op == ir.OpNot && exprEqual(gb.X, ga) {
		return ga, a.To, b.To, true
	}
	if ga.Op == ir.OpNot && exprEqual(ga.X, gb) {
		return gb, b.To, a.To, true
	}
	return
}

// maxDepth bounds the nesting of printed blocks (the parser allows 400
// levels of statements and expressions together); deeper code jumps.
const maxDepth = 64

// ifNode prints a test with guards c and !c as an if or while statement.
func (pf *procFmt) ifNode(n, stop int, nested bool, c *ir.Expr, then, els int) ([]*stmt, int, continuation) {
	s := &stmt{kind: kIf, node: n, key: -1, cond: pf.expr(c, exprCtx{nondet: true, decider: true, what: "a branch condition"})}
	switch {
	case then == n:
		// A test that jumps back to itself is an empty while loop.
		s.kind = kWhile
		return []*stmt{s}, els, hard
	case then == els:
		return []*stmt{s}, els, hard
	case pf.depth >= maxDepth || !pf.claimable(then, true) || then == stop:
		s.then = pf.appendGoto(nil, then)
		return []*stmt{s}, els, hard
	}
	pf.depth++
	defer func() { pf.depth-- }()
	tb, tx := pf.chain(then, els, true)
	switch {
	case tx == n:
		s.kind, s.then = kWhile, tb
		return []*stmt{s}, els, hard
	case tx == els || tx < 0:
		s.then = tb
		return []*stmt{s}, els, hard
	case !pf.claimable(els, true) || els == stop || !pf.joins(n, els, tx):
		// The then branch jumps away; the else branch follows the if.
		s.then = pf.appendGoto(tb, tx)
		return []*stmt{s}, els, hard
	}
	// Both branches meet at tx: if-then-else.
	eb, falls := pf.block(els, tx)
	s.then, s.els = tb, eb
	if !falls && tx != stop && !pf.claimable(tx, nested) {
		// Only the then branch goes on, and not by falling through.
		s.then = pf.appendGoto(tb, tx)
		return []*stmt{s}, -1, hard
	}
	return []*stmt{s}, tx, hard
}

// joins reports whether the then branch of test n, which continues at tx,
// and the else branch starting at els meet at tx: tx is where every path
// from n meets, or the else branch cannot reach tx at all (it returns).
// When the else branch passes an enclosing block's end first, it is not
// nested here but follows the if, so that it reaches that end directly.
func (pf *procFmt) joins(n, els, tx int) bool {
	for _, s := range pf.stops {
		if s != tx && pf.pdom.Dominates(s, els) && pf.pdom.Dominates(tx, s) {
			return false
		}
	}
	if pf.pdom.Idom[n] == tx {
		return true
	}
	// Search from els for tx; a long search counts as reaching it.
	seen := map[int]bool{els: true}
	work := []int{els}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if u == tx || len(seen) > 4096 {
			return false
		}
		for _, e := range pf.pr.Nodes[u].Out {
			if t := e.To; t >= 0 && t < len(pf.pr.Nodes) && !seen[t] {
				seen[t] = true
				work = append(work, t)
			}
		}
	}
	return true
}

func guardOf(e *ir.Edge) *ir.Expr {
	if e.Guard != nil && e.Guard.Op == ir.OpConst && e.Guard.Val {
		return nil
	}
	return e.Guard
}

func exprEqual(a, b *ir.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Op == b.Op && a.Val == b.Val && a.Var == b.Var && exprEqual(a.X, b.X) && exprEqual(a.Y, b.Y)
}
