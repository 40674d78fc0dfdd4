package chc

import (
	"context"
	"errors"
	"fmt"

	"bmc/bdd"
	"bmc/ts"
)

// ErrNotRechecked is the error of a re-check on diagrams that ran out of
// nodes: it says nothing about the interpretation.
var ErrNotRechecked = errors.New("the summaries were not re-checked")

// DiagramOrder places the variables of a re-check on diagrams (it
// decides only the speed): Input gives each input of the clauses' graph
// its variable, Formal argument k of predicate p its own, and Next a
// variable of no input or argument right after Formal's, where a
// clause's head holds its new value while the body holds the old one.
type DiagramOrder struct {
	Input  func(v int) int
	Formal func(p, k int) int
	Next   func(p, k int) int
}

// CheckInterpretationDiagrams re-checks in clause by clause, as
// CheckInterpretation does, on the decision diagrams of a fresh manager.
// Each predicate's interpretation is built once, over its arguments'
// variables (order.Formal); a clause applies it to its arguments by
// composition (a renaming, in one pass, when the arguments are
// variables in the same order), and its constraint is evaluated as
// written. Interpretations made of decision diagrams (engine.LeastModel)
// are large multiplexer trees that a SAT solver can take minutes to
// refute where diagrams take milliseconds. maxNodes bounds the
// manager's live nodes (0: no bound).
func (s *System) CheckInterpretationDiagrams(ctx context.Context, in *Interpretation, order DiagramOrder, maxNodes int) error {
	m := bdd.New()
	m.MaxNodes = maxNodes
	m.Stop = func() bool { return ctx.Err() != nil }
	defer m.Free()
	// An interpretation read from diagrams has three and-nodes a node.
	m.Reserve(in.AIG.NumVars() / 3)
	r := &diagramCheck{s: s, in: in, m: m, order: order, rel: make([]bdd.Node, len(s.Preds)), built: make([]bool, len(s.Preds)), noRenaming: m.NewSet(nil)}
	// An input of an interpretation that is no argument is free: below
	// every other variable.
	for v := 0; v < s.AIG.NumVars(); v++ {
		if s.AIG.Kind(v) == ts.Input {
			r.free = max(r.free, order.Input(v)+1)
		}
	}
	r.formal = map[int][2]int{}
	for p, fs := range in.Formals {
		for k, f := range fs {
			r.formal[f.Var()] = [2]int{p, k}
			r.free = max(r.free, order.Formal(p, k)+1, order.Next(p, k)+1)
		}
	}
	lastGC := 0
	for _, c := range s.Clauses {
		var holds bool
		switch err := m.Run(func() { holds = r.holds(c) }); {
		case err == bdd.ErrLimit:
			return fmt.Errorf("%w: more than %d nodes at clause %s", ErrNotRechecked, maxNodes, c.Name)
		case err != nil || ctx.Err() != nil:
			return fmt.Errorf("the summaries were not re-checked: %v", context.Cause(ctx))
		case !holds:
			return fmt.Errorf("the summaries do not hold: clause %s is violated", c.Name)
		}
		if m.Nodes() > max(1<<20, 2*lastGC) {
			r.gc()
			lastGC = m.Nodes()
		}
	}
	return nil
}

// diagramCheck is a re-check on diagrams under way.
type diagramCheck struct {
	s     *System
	in    *Interpretation
	m     *bdd.Manager
	order DiagramOrder
	// formal is each argument input of in's graph as (predicate,
	// argument); free the first variable of in's other inputs.
	formal map[int][2]int
	free   int
	memo   GraphMemo // in's graph literals built so far
	// clauseMemo is the clause graph's literals built for the clause
	// under check (its head's inputs are placed at the head's variables).
	clauseMemo GraphMemo
	rel        []bdd.Node // per predicate, its interpretation, once built
	built      []bool
	// applied is an interpretation composed with a body atom's
	// arguments, by predicate and arguments: the clauses from one cut
	// point share them (cleared by gc).
	applied map[string]bdd.Node
	// noRenaming is the empty set, for AndImplies.
	noRenaming bdd.Set
}

// relation is predicate p's interpretation over its arguments' variables.
func (r *diagramCheck) relation(p int) bdd.Node {
	if r.built[p] {
		return r.rel[p]
	}
	r.rel[p] = GraphDiagram(r.m, r.in.AIG, r.in.Of[p], &r.memo, func(v int) bdd.Node {
		if pk, ok := r.formal[v]; ok {
			return r.m.Var(r.order.Formal(pk[0], pk[1]))
		}
		return r.m.Var(r.free + v)
	})
	r.built[p] = true
	return r.rel[p]
}

// gc keeps the interpretations built so far and frees the rest.
func (r *diagramCheck) gc() {
	var roots []*bdd.Node
	for p := range r.rel {
		if r.built[p] {
			roots = append(roots, &r.rel[p])
		}
	}
	r.memo.Clear()
	r.applied = nil
	r.m.GC(roots)
}

// holds tells whether clause c is valid under the interpretation: its
// body implies its head (bdd.AndImplies, which builds neither the
// conjunction nor the image).
//
// The first body atom's interpretation is read on its own variables:
// the clause's inputs passed as its arguments are placed there (or tied
// to them by equations), so that no relation is renamed; the head's
// arguments are placed at the head's variables, or at their next
// variables where the body holds the old value, and the head's
// interpretation is read there. Composing the relations with the
// arguments (if-then-else at every node) cost more than the least
// model itself (SafeStack's product encoding); the other body atoms are
// still composed. The placement is written apart from the least
// model's (engine.lmClause), which this re-checks.
func (r *diagramCheck) holds(c *Clause) bool {
	m := r.m
	plain := func(l ts.Lit) bool { return !l.IsNeg() && r.s.AIG.Kind(l.Var()) == ts.Input }
	at := map[int]int{}     // clause inputs placed at an argument's variable
	taken := map[int]bool{} // variables that hold an argument
	ren := map[int]int{}    // next variables that hold a head's argument, to the head's
	type equation struct {
		at  int
		lit ts.Lit
	}
	var eqs []equation
	if len(c.Body) > 0 {
		a := c.Body[0]
		for k, l := range a.Args {
			f := r.order.Formal(a.Pred.Index, k)
			taken[f] = true
			if _, placed := at[l.Var()]; plain(l) && !placed {
				at[l.Var()] = f
				continue
			}
			eqs = append(eqs, equation{f, l})
		}
	}
	if c.Head != nil {
		p := c.Head.Pred.Index
		for k, l := range c.Head.Args {
			f := r.order.Formal(p, k)
			if v, placed := at[l.Var()]; plain(l) && placed && v == f {
				continue // passed on unchanged
			}
			if taken[f] {
				next := r.order.Next(p, k)
				ren[next] = f
				f = next
			}
			taken[f] = true
			if _, placed := at[l.Var()]; plain(l) && !placed {
				at[l.Var()] = f
				continue
			}
			eqs = append(eqs, equation{f, l})
		}
	}
	memo := &r.clauseMemo
	memo.Clear()
	clauseLit := func(l ts.Lit) bdd.Node {
		return GraphDiagram(m, r.s.AIG, l, memo, func(v int) bdd.Node {
			if f, ok := at[v]; ok {
				return m.Var(f)
			}
			return m.Var(r.order.Input(v))
		})
	}
	apply := func(a *Atom) bdd.Node {
		p := a.Pred.Index
		sub := map[int]bdd.Node{}
		for k, l := range a.Args {
			f := r.order.Formal(p, k)
			if n := clauseLit(l); n != m.Var(f) {
				sub[f] = n
			}
		}
		if len(sub) == 0 {
			return r.relation(p)
		}
		key := fmt.Sprint(p, sub) // fmt prints a map sorted by key
		if n, ok := r.applied[key]; ok {
			return n
		}
		n := m.Compose(r.relation(p), sub)
		if r.applied == nil {
			r.applied = map[string]bdd.Node{}
		}
		r.applied[key] = n
		return n
	}
	body := clauseLit(c.Constraint)
	for _, e := range eqs {
		body = m.And(body, m.Iff(m.Var(e.at), clauseLit(e.lit)))
	}
	for i := 1; i < len(c.Body) && body != bdd.False; i++ {
		body = m.And(body, apply(&c.Body[i]))
	}
	first := bdd.True
	if len(c.Body) > 0 {
		first = r.relation(c.Body[0].Pred.Index)
	}
	if c.Head == nil {
		return m.AndImplies(first, body, bdd.False, r.noRenaming)
	}
	// The head's interpretation read with its variables at the next
	// ones where the clause holds them there.
	var nexts []int
	toNext := map[int]int{}
	for next, f := range ren {
		nexts, toNext[f] = append(nexts, next), next
	}
	set, err := m.NewRenamedSet(nexts, toNext)
	if err != nil {
		panic(fmt.Sprintf("chc: the re-check's order has no next variable right after an argument's: %v", err))
	}
	return m.AndImplies(first, body, r.relation(c.Head.Pred.Index), set)
}

// GraphMemo holds the diagrams of a graph's literals built so far (the
// zero value holds none).
type GraphMemo struct {
	of   []bdd.Node // by literal; -1: not built
	made []ts.Lit   // the literals built, for Clear
}

func (g *GraphMemo) get(l ts.Lit) (bdd.Node, bool) {
	if int(l) >= len(g.of) || g.of[l] < 0 {
		return 0, false
	}
	return g.of[l], true
}

func (g *GraphMemo) set(l ts.Lit, d bdd.Node) {
	for int(l) >= len(g.of) {
		g.of = append(g.of, -1)
	}
	g.of[l] = d
	g.made = append(g.made, l)
}

// Clear forgets every diagram (after the manager's GC renumbered them,
// or to build a graph's literals with other inputs).
func (g *GraphMemo) Clear() {
	for _, l := range g.made {
		g.of[l] = -1
	}
	g.made = g.made[:0]
}

// GraphDiagram is literal l of graph g as a diagram of m, input v being
// input(v); memo holds the diagrams of the graph's literals done so far.
//
// A multiplexer (a or b of two conjunctions whose conditions are one
// literal and its negation, as ts.System.Ite builds it) becomes one
// if-then-else whose branches take the wanted polarity, and a negated
// conjunction the disjunction of its negated operands: an
// interpretation read from decision diagrams is a tree of
// multiplexers, and negating each conjunction on the way (the diagrams
// have no complement edges, so a negation copies its operand) built
// three diagrams for every node of the relation.
func GraphDiagram(m *bdd.Manager, g *ts.System, l ts.Lit, memo *GraphMemo, input func(v int) bdd.Node) bdd.Node {
	// Iteratively: the graphs of long blocks are deep.
	stack := []ts.Lit{l}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		if _, ok := memo.get(x); ok {
			stack = stack[:len(stack)-1]
			continue
		}
		parts, made := graphParts(g, x)
		var ds [3]bdd.Node
		missing := false
		for i, y := range parts {
			d, ok := memo.get(y)
			if !ok {
				stack, missing = append(stack, y), true
			}
			ds[i] = d
		}
		if missing {
			continue
		}
		var d bdd.Node
		switch made {
		case madeConst:
			d = bdd.False
			if x.IsNeg() {
				d = bdd.True
			}
		case madeInput:
			d = input(x.Var())
			if x.IsNeg() {
				d = m.Not(d)
			}
		case madeAnd:
			d = m.And(ds[0], ds[1])
		case madeOr:
			d = m.Or(ds[0], ds[1])
		case madeIte:
			d = m.Ite(ds[0], ds[1], ds[2])
		}
		memo.set(x, d)
		stack = stack[:len(stack)-1]
	}
	d, _ := memo.get(l)
	return d
}

// How graphParts makes a literal's diagram from its parts.
const (
	madeConst = iota
	madeInput
	madeAnd // of the two parts
	madeOr  // of the two parts
	madeIte // condition, then, else
)

// graphParts are the literals literal x's diagram is made of, and how.
func graphParts(g *ts.System, x ts.Lit) ([]ts.Lit, int) {
	v := x.Var()
	switch g.Kind(v) {
	case ts.Const:
		return nil, madeConst
	case ts.And:
	default:
		return nil, madeInput
	}
	a, b := g.Operands(v)
	// v = !(c & t) & !(!c & e), so !v = ite(c, t, e) and v = ite(c, !t, !e).
	if a.IsNeg() && b.IsNeg() && g.Kind(a.Var()) == ts.And && g.Kind(b.Var()) == ts.And {
		p1, p2 := g.Operands(a.Var())
		q1, q2 := g.Operands(b.Var())
		for _, pq := range [4][4]ts.Lit{{p1, p2, q1, q2}, {p1, p2, q2, q1}, {p2, p1, q1, q2}, {p2, p1, q2, q1}} {
			if c, t, nc, e := pq[0], pq[1], pq[2], pq[3]; c == nc.Not() {
				if !x.IsNeg() {
					t, e = t.Not(), e.Not()
				}
				return []ts.Lit{c, t, e}, madeIte
			}
		}
	}
	if x.IsNeg() {
		return []ts.Lit{a.Not(), b.Not()}, madeOr
	}
	return []ts.Lit{a, b}, madeAnd
}
