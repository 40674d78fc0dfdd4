package engine

import (
	"context"
	"fmt"

	"bmc/chc"
	"bmc/solver"
)

// Fixedpoint decides sys with a solver of Horn clauses of its own (Z3's
// Spacer behind solver.Fixedpoint): every clause becomes a rule over its
// variables, every query a rule deriving a relation "error" of no
// arguments, which is asked for. A derivation, which such a solver gives
// as ground atoms only, is completed clause by clause on a solver from
// o.NewSolver; an interpretation is read back per predicate.
func Fixedpoint(ctx context.Context, sys *chc.System, fp solver.Fixedpoint, o HornOptions) *HornResult {
	rels := make([]solver.Rel, len(sys.Preds))
	for i, p := range sys.Preds {
		rels[i] = fp.Relation(fmt.Sprintf("p%d", i), p.Arity())
	}
	errRel := fp.Relation("error", 0)
	for _, c := range sys.Clauses {
		inputs, _ := sys.Vars(c)
		vars := map[int]solver.Lit{}
		var list []solver.Lit
		for _, v := range inputs {
			vars[v] = fp.NewVar()
			list = append(list, vars[v])
		}
		cp := chc.NewCopier(sys.AIG, fp, func(v int) solver.Lit { return vars[v] })
		body := cp.Lit(c.Constraint)
		for _, a := range c.Body {
			body = fp.And(body, fp.Apply(rels[a.Pred.Index], cp.Lits(a.Args)...))
		}
		head := fp.Apply(errRel)
		if c.Head != nil {
			head = fp.Apply(rels[c.Head.Pred.Index], cp.Lits(c.Head.Args)...)
		}
		fp.Rule(list, body, head)
		if err := context.Cause(ctx); err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error()}
		}
	}
	switch fp.Query(ctx, errRel) {
	case solver.Sat:
		d, err := fp.Derivation()
		if err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error()}
		}
		g, err := ground(sys, rels, errRel, d)
		if err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error()}
		}
		s := o.NewSolver()
		defer s.Close()
		full, err := sys.Complete(ctx, g, s)
		if err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error()}
		}
		return &HornResult{Status: solver.Sat, Derivation: full}
	case solver.Unsat:
		in := chc.NewInterpretation(sys)
		for i, p := range sys.Preds {
			formals := make([]solver.Lit, p.Arity())
			for k := range formals {
				formals[k] = in.Formal(i, k)
			}
			l, err := fp.Interpretation(rels[i], in.Builder(), formals)
			if err != nil {
				return &HornResult{Status: solver.Unknown, Reason: err.Error()}
			}
			in.Of[i] = in.Lit(l)
		}
		return &HornResult{Status: solver.Unsat, Interpretation: in}
	}
	reason := "the fixedpoint solver gave up"
	if err := fp.Err(); err != nil {
		reason = err.Error()
	}
	if err := context.Cause(ctx); err != nil {
		reason = err.Error()
	}
	return &HornResult{Status: solver.Unknown, Reason: reason}
}

// ground maps a solver's derivation onto sys's predicates, a shared
// sub-derivation onto a shared one.
func ground(sys *chc.System, rels []solver.Rel, errRel solver.Rel, d *solver.Derivation) (*chc.Ground, error) {
	pred := map[solver.Rel]*chc.Pred{}
	for i, r := range rels {
		pred[r] = sys.Preds[i]
	}
	done := map[*solver.Derivation]*chc.Ground{}
	var conv func(d *solver.Derivation) (*chc.Ground, error)
	conv = func(d *solver.Derivation) (*chc.Ground, error) {
		if g, ok := done[d]; ok {
			return g, nil
		}
		g := &chc.Ground{Args: d.Args}
		done[d] = g
		if d.Rel != errRel {
			g.Pred = pred[d.Rel]
			if g.Pred == nil {
				return nil, fmt.Errorf("the derivation names relation %d, not declared", d.Rel)
			}
		}
		for _, b := range d.Body {
			c, err := conv(b)
			if err != nil {
				return nil, err
			}
			g.Body = append(g.Body, c)
		}
		return g, nil
	}
	if d.Rel != errRel {
		return nil, fmt.Errorf("the derivation ends in relation %d, not in the query", d.Rel)
	}
	return conv(d)
}
