package chc

import (
	"context"
	"fmt"
	"strings"

	"bmc/solver"
	"bmc/ts"
)

// Interpretation gives each predicate a formula over its arguments, on a
// graph of its own whose inputs are the predicates' formal arguments.
type Interpretation struct {
	AIG     *ts.System
	Formals [][]ts.Lit // per predicate, its arguments' inputs
	Of      []ts.Lit   // per predicate, its formula over them
}

// NewInterpretation returns the interpretation of s's predicates that
// is false everywhere, to be filled in.
func NewInterpretation(s *System) *Interpretation {
	in := &Interpretation{AIG: ts.New(), Formals: make([][]ts.Lit, len(s.Preds)), Of: make([]ts.Lit, len(s.Preds))}
	for i, p := range s.Preds {
		for _, a := range p.Args {
			in.Formals[i] = append(in.Formals[i], in.AIG.NewInput(p.Name+"."+a))
		}
	}
	return in
}

// Builder is in's graph as a solver.Builder, for solvers that build an
// interpretation into one (Fixedpoint.Interpretation); Lit converts its
// literals back, and Formal gives the Builder's literal of an argument.
func (in *Interpretation) Builder() solver.Builder { return aigBuilder{in.AIG} }

// Lit is the graph literal of a literal of Builder.
func (in *Interpretation) Lit(l solver.Lit) ts.Lit { return ts.Lit(l - 2) }

// Formal is Builder's literal for argument i of predicate p.
func (in *Interpretation) Formal(p, i int) solver.Lit { return solver.Lit(in.Formals[p][i] + 2) }

// aigBuilder numbers a graph's literals from 2, as a solver.Lit of 0 is
// never valid.
type aigBuilder struct{ s *ts.System }

func (a aigBuilder) True() solver.Lit            { return solver.Lit(ts.True + 2) }
func (a aigBuilder) NewVar() solver.Lit          { return solver.Lit(a.s.NewInput("aux") + 2) }
func (a aigBuilder) Not(x solver.Lit) solver.Lit { return solver.Lit(ts.Lit(x-2).Not() + 2) }
func (a aigBuilder) And(x, y solver.Lit) solver.Lit {
	return solver.Lit(a.s.And(ts.Lit(x-2), ts.Lit(y-2)) + 2)
}

// Apply builds p's interpretation applied to args (literals of b).
func (in *Interpretation) Apply(b solver.Builder, p *Pred, args []solver.Lit) solver.Lit {
	formal := map[int]solver.Lit{}
	for i, f := range in.Formals[p.Index] {
		formal[f.Var()] = args[i]
	}
	fresh := FreshInputs(b) // an input that is no argument (Builder's aux) is free
	c := NewCopier(in.AIG, b, func(v int) solver.Lit {
		if l, ok := formal[v]; ok {
			return l
		}
		return fresh(v)
	})
	return c.Lit(in.Of[p.Index])
}

// CheckInterpretation re-checks in clause by clause, each on a fresh
// solver from newSolver: the body's atoms, interpreted, and the
// constraint must imply the head's atom, and a query's body must be
// unsatisfiable. It returns an error naming the first clause that fails
// (or the solver's unknown). One solver for all clauses would keep the
// earlier checks' clauses: on interpretations from decision diagrams
// that made the check ten times slower.
func (s *System) CheckInterpretation(ctx context.Context, in *Interpretation, newSolver func() solver.Solver) error {
	for _, c := range s.Clauses {
		if err := s.checkClause(ctx, in, c, newSolver()); err != nil {
			return err
		}
	}
	return nil
}

func (s *System) checkClause(ctx context.Context, in *Interpretation, c *Clause, sv solver.Solver) error {
	defer sv.Close()
	copier := NewCopier(s.AIG, sv, FreshInputs(sv))
	lits := []solver.Lit{copier.Lit(c.Constraint)}
	for _, a := range c.Body {
		lits = append(lits, in.Apply(sv, a.Pred, copier.Lits(a.Args)))
	}
	if c.Head != nil {
		lits = append(lits, sv.Not(in.Apply(sv, c.Head.Pred, copier.Lits(c.Head.Args))))
	}
	act := sv.Activation()
	sv.Under(act, solver.Ands(sv, lits...))
	switch sv.Solve(ctx, act) {
	case solver.Sat:
		return fmt.Errorf("the summaries do not hold: clause %s is violated", c.Name)
	case solver.Unknown:
		return fmt.Errorf("the summaries were not re-checked: %v", context.Cause(ctx))
	}
	return nil
}

// Format writes p's interpretation as a formula over the argument names
// (sum of products of its and-nodes, shared nodes written once as
// definitions), for certificates.
func (in *Interpretation) Format(p *Pred) string {
	names := map[int]string{}
	for i, f := range in.Formals[p.Index] {
		names[f.Var()] = p.Args[i]
	}
	var defs []string
	var lit func(l ts.Lit) string
	done := map[int]string{}
	uses := map[int]int{}
	var count func(v int)
	count = func(v int) {
		uses[v]++
		if uses[v] > 1 || in.AIG.Kind(v) != ts.And {
			return
		}
		a, b := in.AIG.Operands(v)
		count(a.Var())
		count(b.Var())
	}
	count(in.Of[p.Index].Var())
	lit = func(l ts.Lit) string {
		v := l.Var()
		var s string
		switch {
		case v == 0:
			s = "false"
		case in.AIG.Kind(v) != ts.And:
			s = names[v]
			if s == "" {
				s = fmt.Sprintf("aux%d", v)
			}
		default:
			if d, ok := done[v]; ok {
				s = d
			} else {
				a, b := in.AIG.Operands(v)
				s = "(" + lit(a) + " & " + lit(b) + ")"
				if uses[v] > 1 {
					name := fmt.Sprintf("n%d", len(defs))
					defs = append(defs, name+" = "+s)
					s = name
				}
				done[v] = s
			}
		}
		if l.IsNeg() {
			if v == 0 {
				return "true"
			}
			return "!" + s
		}
		return s
	}
	out := lit(in.Of[p.Index])
	if len(defs) == 0 {
		return out
	}
	return out + " where " + strings.Join(defs, ", ")
}
