package chc

import (
	"context"
	"fmt"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// Ground is a derivation as a solver that knows only atoms reports it:
// the predicate (nil: a query) and its arguments' values at each node,
// and the sub-derivations of the body atoms, in an order that need not
// be the clause's.
type Ground struct {
	Pred *Pred
	Args []bool
	Body []*Ground
}

// Complete finds, for each node of g, a clause and values of its
// variables that derive the node's atom from its children's (a query of
// sv per candidate clause), and returns the derivation it makes; a node
// shared in g is completed once, and shared in the derivation.
func (s *System) Complete(ctx context.Context, g *Ground, sv solver.Solver) (*Derivation, error) {
	heads := s.HeadsOf()
	done := map[*Ground]*Derivation{}
	var complete func(g *Ground) (*Derivation, error)
	complete = func(g *Ground) (*Derivation, error) {
		if d, ok := done[g]; ok {
			return d, nil
		}
		i := len(s.Preds)
		if g.Pred != nil {
			i = g.Pred.Index
		}
		for _, c := range heads[i] {
			var order []int
			var vals []bool
			for _, o := range matchings(c, g) {
				v, err := s.solveNode(ctx, c, g, o, sv)
				if err != nil {
					return nil, err
				}
				if v != nil {
					order, vals = o, v
					break
				}
			}
			if vals == nil {
				continue
			}
			d := &Derivation{Clause: c, Values: vals}
			for _, k := range order {
				b, err := complete(g.Body[k])
				if err != nil {
					return nil, err
				}
				d.Body = append(d.Body, b)
			}
			done[g] = d
			return d, nil
		}
		name := "a query"
		if g.Pred != nil {
			name = g.Pred.Name
		}
		return nil, fmt.Errorf("chc: no clause derives the atom of %s from its sub-derivations", name)
	}
	return complete(g)
}

// matchings are the ways to pair c's body atoms with g's children of
// the same predicate: order[i] is the child for body atom i.
func matchings(c *Clause, g *Ground) [][]int {
	if len(c.Body) != len(g.Body) {
		return nil
	}
	var out [][]int
	used := make([]bool, len(g.Body))
	order := make([]int, len(c.Body))
	var pair func(i int)
	pair = func(i int) {
		if i == len(c.Body) {
			out = append(out, slices.Clone(order))
			return
		}
		for k, b := range g.Body {
			if !used[k] && b.Pred == c.Body[i].Pred {
				used[k], order[i] = true, k
				pair(i + 1)
				used[k] = false
			}
		}
	}
	pair(0)
	return out
}

// solveNode returns values of the graph that apply c to g's atoms, or
// nil when none do.
func (s *System) solveNode(ctx context.Context, c *Clause, g *Ground, order []int, sv solver.Solver) ([]bool, error) {
	inputs, _ := s.Vars(c)
	copier := NewCopier(s.AIG, sv, FreshInputs(sv))
	lits := []solver.Lit{copier.Lit(c.Constraint)}
	fix := func(args []ts.Lit, vals []bool) {
		for i, a := range args {
			l := copier.Lit(a)
			if !vals[i] {
				l = sv.Not(l)
			}
			lits = append(lits, l)
		}
	}
	if c.Head != nil {
		fix(c.Head.Args, g.Args)
	}
	for i, a := range c.Body {
		fix(a.Args, g.Body[order[i]].Args)
	}
	act := sv.Activation()
	defer sv.Release(act)
	sv.Under(act, solver.Ands(sv, lits...))
	switch sv.Solve(ctx, act) {
	case solver.Unsat:
		return nil, nil
	case solver.Unknown:
		return nil, fmt.Errorf("chc: reading the derivation: %v", context.Cause(ctx))
	}
	vals := make([]bool, s.AIG.NumVars())
	for _, v := range inputs {
		vals[v] = sv.Value(copier.Lit(ts.Lit(2 * v)))
	}
	s.AIG.Eval(vals)
	return vals, nil
}
