//go:build !noz3

package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"fmt"

	"bmc/solver"
)

// ---------------------------------------------------------------- interpretations

// Interpretation builds into b, after Query returned Unsat, the formula
// that Z3's interpretation gives r, with args for r's arguments.
//
// The interpretation is Z3_fixedpoint_get_answer's formula, a
// conjunction with one definition per relation: "for all x1..xn:
// r(x1, ..., xn) = φ" (or r(...), ¬r(...) for φ true, false; no
// quantifier for a relation of no arguments). φ is over the quantifier's
// de Bruijn variables; which argument a variable stands for is read off
// the atom r(...) of the definition, not assumed (in Z3 4.8.12 argument
// j of n is variable n-1-j, as in any quantifier, whereas
// Z3_fixedpoint_get_cover_delta, not used here, numbers variable j for
// argument j). φ may use true, false, not, and, or, =, xor, ite, => and
// distinct over Booleans; anything else is an error. A relation Z3 does
// not define is false: it leaves out the relations no rule derives, and
// at times one it has found empty (the caller re-checks the answer).
func (s *Fixedpoint) Interpretation(r solver.Rel, b solver.Builder, args []solver.Lit) (solver.Lit, error) {
	var l solver.Lit
	var ierr error
	if err := Catch(func() {
		l, ierr = s.interpretation(r, b, args)
		if e := s.lastError("Interpretation"); e != nil && ierr == nil {
			ierr = e
		}
	}); err != nil {
		return 0, err
	}
	return l, ierr
}

func (s *Fixedpoint) interpretation(r solver.Rel, b solver.Builder, args []solver.Lit) (solver.Lit, error) {
	rel, ok := s.relation(r)
	if !ok {
		return 0, fmt.Errorf("smt: fixedpoint: Interpretation: invalid relation %d", r)
	}
	if len(args) != rel.arity {
		return 0, fmt.Errorf("smt: fixedpoint: Interpretation: relation %s has %d arguments, not %d", rel.name, rel.arity, len(args))
	}
	if err := s.after("Interpretation", solver.Unsat); err != nil {
		return 0, err
	}
	if !s.read {
		a, err := s.answer("Interpretation", solver.Unsat)
		if err != nil {
			return 0, err
		}
		s.defs, s.defErr = s.readDefs(a)
		s.read = true
	}
	if s.defErr != nil {
		return 0, s.defErr
	}
	def, ok := s.defs[r]
	if !ok {
		// Z3 leaves out what no rule derives, and at times a relation
		// it has found empty: false, which the caller re-checks.
		return b.Not(b.True()), nil
	}
	t := &translator{s: s, b: b, def: def, args: args, memo: map[uint]solver.Lit{}}
	return t.lit(def.body)
}

// readDefs reads Z3's interpretation: a conjunction of definitions, each
// "r = φ" (r of no arguments), r, ¬r, or one of these under a universal
// quantifier whose variables are r's arguments. A definition of a
// relation that was not declared (Z3's own, such as query!0) is skipped.
func (s *Fixedpoint) readDefs(a C.Z3_ast) (map[solver.Rel]fpDef, error) {
	ctx := s.c.ctx
	var conj []C.Z3_ast
	if p, kind, ok := s.app(a); ok && kind == C.Z3_OP_AND {
		conj = s.args(p)
	} else if !(ok && kind == C.Z3_OP_TRUE) {
		conj = []C.Z3_ast{a}
	}
	defs := map[solver.Rel]fpDef{}
	for _, f := range conj {
		bound := uint(0)
		body := f
		if C.Z3_get_ast_kind(ctx, f) == C.Z3_QUANTIFIER_AST {
			if !bool(C.Z3_is_quantifier_forall(ctx, f)) {
				return nil, fmt.Errorf("smt: fixedpoint: Z3's interpretation has a definition of an unknown shape: %s", s.str(f))
			}
			bound = uint(C.Z3_get_quantifier_num_bound(ctx, f))
			body = C.Z3_get_quantifier_body(ctx, f)
		}
		atom, phi, ok := s.splitDef(body)
		if !ok {
			if s.foreignDef(body) {
				continue
			}
			return nil, fmt.Errorf("smt: fixedpoint: Z3's interpretation has a definition of an unknown shape: %s", s.str(f))
		}
		rel, p, _ := s.atomRel(atom)
		def := fpDef{body: phi, pos: map[uint]int{}}
		for j, x := range s.args(p) {
			if C.Z3_get_ast_kind(ctx, x) != C.Z3_VAR_AST {
				return nil, fmt.Errorf("smt: fixedpoint: Z3's interpretation defines %s for some arguments only: %s", s.rels[rel].name, s.str(f))
			}
			k := uint(C.Z3_get_index_value(ctx, x))
			if _, dup := def.pos[k]; dup || k >= bound {
				return nil, fmt.Errorf("smt: fixedpoint: Z3's interpretation has a definition of an unknown shape: %s", s.str(f))
			}
			def.pos[k] = j
		}
		if _, dup := defs[rel]; !dup {
			defs[rel] = def
		}
	}
	return defs, nil
}

// splitDef splits "r(x) = φ", "r(x)" or "¬r(x)", for r a declared
// relation, into r(x) and φ.
func (s *Fixedpoint) splitDef(f C.Z3_ast) (atom, phi C.Z3_ast, ok bool) {
	p, kind, isApp := s.app(f)
	if !isApp {
		return nil, nil, false
	}
	switch kind {
	case C.Z3_OP_EQ, C.Z3_OP_IFF:
		as := s.args(p)
		if len(as) != 2 {
			return nil, nil, false
		}
		if _, _, ok := s.atomRel(as[0]); ok {
			return as[0], as[1], true
		}
		if _, _, ok := s.atomRel(as[1]); ok {
			return as[1], as[0], true
		}
	case C.Z3_OP_NOT:
		as := s.args(p)
		if _, _, ok := s.atomRel(as[0]); ok {
			return as[0], C.Z3_mk_false(s.c.ctx), true
		}
	case C.Z3_OP_UNINTERPRETED:
		if _, _, ok := s.atomRel(f); ok {
			return f, C.Z3_mk_true(s.c.ctx), true
		}
	}
	return nil, nil, false
}

// foreignDef reports whether f defines a symbol that is no declared
// relation: "q = φ", "q" or "¬q" for q an uninterpreted application.
func (s *Fixedpoint) foreignDef(f C.Z3_ast) bool {
	p, kind, ok := s.app(f)
	if !ok {
		return false
	}
	switch kind {
	case C.Z3_OP_EQ, C.Z3_OP_IFF, C.Z3_OP_NOT:
		as := s.args(p)
		if len(as) == 0 {
			return false
		}
		f = as[0]
	}
	_, kind, ok = s.app(f)
	if !ok || kind != C.Z3_OP_UNINTERPRETED {
		return false
	}
	_, _, declared := s.atomRel(f)
	return !declared
}

// translator builds a relation's formula into another solver's Builder.
type translator struct {
	s    *Fixedpoint
	b    solver.Builder
	def  fpDef
	args []solver.Lit
	memo map[uint]solver.Lit
}

func (t *translator) lit(a C.Z3_ast) (solver.Lit, error) {
	s := t.s
	id := s.id(a)
	if l, ok := t.memo[id]; ok {
		return l, nil
	}
	l, err := t.build(a)
	if err != nil {
		return 0, err
	}
	t.memo[id] = l
	return l, nil
}

func (t *translator) build(a C.Z3_ast) (solver.Lit, error) {
	s, b := t.s, t.b
	ctx := s.c.ctx
	unsupported := func() (solver.Lit, error) {
		return 0, fmt.Errorf("smt: fixedpoint: Z3's interpretation has a term this reader does not translate: %s", s.str(a))
	}
	switch C.Z3_get_ast_kind(ctx, a) {
	case C.Z3_VAR_AST:
		j, ok := t.def.pos[uint(C.Z3_get_index_value(ctx, a))]
		if !ok {
			return unsupported()
		}
		return t.args[j], nil
	case C.Z3_APP_AST:
	default:
		return unsupported()
	}
	if C.Z3_get_sort_kind(ctx, C.Z3_get_sort(ctx, a)) != C.Z3_BOOL_SORT {
		return unsupported()
	}
	p, kind, _ := s.app(a)
	as := s.args(p)
	xs := make([]solver.Lit, len(as))
	for i, x := range as {
		if C.Z3_get_sort_kind(ctx, C.Z3_get_sort(ctx, x)) != C.Z3_BOOL_SORT {
			return unsupported()
		}
		l, err := t.lit(x)
		if err != nil {
			return 0, err
		}
		xs[i] = l
	}
	fls := b.Not(b.True())
	switch kind {
	case C.Z3_OP_TRUE:
		return b.True(), nil
	case C.Z3_OP_FALSE:
		return fls, nil
	case C.Z3_OP_NOT:
		if len(xs) == 1 {
			return b.Not(xs[0]), nil
		}
	case C.Z3_OP_AND:
		return solver.Ands(b, xs...), nil
	case C.Z3_OP_OR:
		return solver.Ors(b, xs...), nil
	case C.Z3_OP_EQ, C.Z3_OP_IFF:
		if len(xs) >= 2 {
			r := b.True()
			for _, x := range xs[1:] {
				r = b.And(r, b.Not(solver.Xor(b, xs[0], x)))
			}
			return r, nil
		}
	case C.Z3_OP_XOR:
		if len(xs) >= 1 {
			r := xs[0]
			for _, x := range xs[1:] {
				r = solver.Xor(b, r, x)
			}
			return r, nil
		}
	case C.Z3_OP_ITE:
		if len(xs) == 3 {
			return solver.Ite(b, xs[0], xs[1], xs[2]), nil
		}
	case C.Z3_OP_IMPLIES:
		if len(xs) == 2 {
			return solver.Implies(b, xs[0], xs[1]), nil
		}
	case C.Z3_OP_DISTINCT:
		switch len(xs) {
		case 0, 1:
			return b.True(), nil
		case 2:
			return solver.Xor(b, xs[0], xs[1]), nil
		}
		return fls, nil // three Booleans are never pairwise distinct
	}
	return unsupported()
}
