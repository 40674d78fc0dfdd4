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

// CheckInterpretationDiagrams re-checks in clause by clause, as
// CheckInterpretation does, on the decision diagrams of a fresh manager:
// each clause's constraint and its atoms' interpretations applied to
// their arguments, the formulas evaluated as written. Interpretations
// made of decision diagrams (engine.LeastModel) are large multiplexer
// trees that a SAT solver can take minutes to refute where diagrams
// take milliseconds. level gives each input of the clauses' graph its
// variable (the order only decides the speed); maxNodes bounds each
// clause's diagrams (0: no bound).
func (s *System) CheckInterpretationDiagrams(ctx context.Context, in *Interpretation, level func(v int) int, maxNodes int) error {
	for _, c := range s.Clauses {
		m := bdd.New()
		m.MaxNodes = maxNodes
		m.Stop = func() bool { return ctx.Err() != nil }
		var holds bool
		switch err := m.Run(func() { holds = s.holdsOn(m, in, c, level) }); {
		case err == bdd.ErrLimit:
			return fmt.Errorf("%w: clause %s needs more than %d nodes", ErrNotRechecked, c.Name, maxNodes)
		case err != nil || ctx.Err() != nil:
			return fmt.Errorf("the summaries were not re-checked: %v", context.Cause(ctx))
		case !holds:
			return fmt.Errorf("the summaries do not hold: clause %s is violated", c.Name)
		}
	}
	return nil
}

// holdsOn tells whether clause c is valid under in, on m.
func (s *System) holdsOn(m *bdd.Manager, in *Interpretation, c *Clause, level func(v int) int) bool {
	inputs, _ := s.Vars(c)
	aux := 0 // the interpretation's free inputs go below the clause's
	for _, v := range inputs {
		aux = max(aux, level(v)+1)
	}
	memo := map[int]bdd.Node{}
	clauseLit := func(l ts.Lit) bdd.Node {
		return GraphDiagram(m, s.AIG, l, memo, func(v int) bdd.Node { return m.Var(level(v)) })
	}
	apply := func(a *Atom) bdd.Node {
		formal := map[int]bdd.Node{}
		for k, f := range in.Formals[a.Pred.Index] {
			formal[f.Var()] = clauseLit(a.Args[k])
		}
		return GraphDiagram(m, in.AIG, in.Of[a.Pred.Index], map[int]bdd.Node{}, func(v int) bdd.Node {
			if n, ok := formal[v]; ok {
				return n
			}
			return m.Var(aux + v) // an input of no argument is free
		})
	}
	body := clauseLit(c.Constraint)
	for i := range c.Body {
		if body == bdd.False {
			return true
		}
		body = m.And(body, apply(&c.Body[i]))
	}
	if c.Head != nil && body != bdd.False {
		body = m.And(body, m.Not(apply(c.Head)))
	}
	return body == bdd.False
}

// GraphDiagram is literal l of graph g as a diagram of m, input v being
// input(v); memo holds the graph's nodes done so far.
func GraphDiagram(m *bdd.Manager, g *ts.System, l ts.Lit, memo map[int]bdd.Node, input func(v int) bdd.Node) bdd.Node {
	// Iteratively: the graphs of long blocks are deep.
	stack := []int{l.Var()}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		if _, ok := memo[v]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		switch g.Kind(v) {
		case ts.Const:
			memo[v] = bdd.False
		case ts.And:
			a, b := g.Operands(v)
			na, oka := memo[a.Var()]
			nb, okb := memo[b.Var()]
			if !oka || !okb {
				if !oka {
					stack = append(stack, a.Var())
				}
				if !okb {
					stack = append(stack, b.Var())
				}
				continue
			}
			if a.IsNeg() {
				na = m.Not(na)
			}
			if b.IsNeg() {
				nb = m.Not(nb)
			}
			memo[v] = m.And(na, nb)
		default:
			memo[v] = input(v)
		}
		stack = stack[:len(stack)-1]
	}
	n := memo[l.Var()]
	if l.IsNeg() {
		return m.Not(n)
	}
	return n
}
