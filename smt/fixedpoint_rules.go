//go:build !noz3

package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"bmc/solver"
)

// ---------------------------------------------------------------- rules

// Relation declares a relation of arity Boolean arguments. Its Z3 name is
// name, made unique with a suffix if another relation has it already.
func (s *Fixedpoint) Relation(name string, arity int) solver.Rel {
	r := solver.Rel(len(s.rels))
	if arity < 0 {
		s.failf("Relation %q: negative arity %d", name, arity)
		arity = 0
	}
	z3name := name
	if z3name == "" {
		z3name = "rel"
	}
	for k := 1; s.names[z3name]; k++ {
		z3name = fmt.Sprintf("%s#%d", name, k)
	}
	s.names[z3name] = true
	rel := fpRel{name: z3name, arity: arity}
	s.guard("Relation", func() {
		ctx := s.c.z3("Relation")
		cs := C.CString(z3name)
		defer C.free(unsafe.Pointer(cs))
		sym := C.Z3_mk_string_symbol(ctx, cs)
		s.c.check("Relation")
		dom := make([]C.Z3_sort, arity+1) // +1: never empty, &dom[0] is valid
		for i := range dom {
			dom[i] = s.c.boolSort
		}
		decl := C.Z3_mk_func_decl(ctx, sym, C.uint(arity), &dom[0], s.c.boolSort)
		s.c.check("Relation")
		C.Z3_fixedpoint_register_relation(ctx, s.fp, decl)
		s.c.check("Relation")
		id := uint(C.Z3_get_ast_id(ctx, C.Z3_func_decl_to_ast(ctx, decl)))
		s.c.check("Relation")
		rel.decl = decl
		s.relOf[id] = r
	})
	s.rels = append(s.rels, rel)
	return r
}

func (s *Fixedpoint) relation(r solver.Rel) (fpRel, bool) {
	if r < 0 || int(r) >= len(s.rels) {
		return fpRel{}, false
	}
	rel := s.rels[r]
	return rel, rel.decl != nil
}

// Apply is the atom r(args).
func (s *Fixedpoint) Apply(r solver.Rel, args ...solver.Lit) solver.Lit {
	rel, ok := s.relation(r)
	if !ok {
		s.failf("Apply: invalid relation %d", r)
		return s.tru
	}
	if len(args) != rel.arity {
		s.failf("Apply: relation %s has %d arguments, not %d", rel.name, rel.arity, len(args))
		return s.tru
	}
	for _, a := range args {
		if !s.lit("Apply", a) {
			return s.tru
		}
	}
	l := s.tru
	s.guard("Apply", func() {
		ctx := s.c.z3("Apply")
		as := make([]C.Z3_ast, len(args)+1)
		for i, a := range args {
			as[i] = s.nodes[a].t.a
		}
		t := s.c.term("Apply", C.Z3_mk_app(ctx, rel.decl, C.uint(len(args)), &as[0]))
		l = s.add(fpNode{t: t, op: fpAtom, rel: r, args: append([]solver.Lit(nil), args...), atom: true})
	})
	return l
}

// Rule adds the clause "for all vars: body => head". The atoms of body
// must be among its conjuncts (body read as a tree of Ands); they are
// the rule's body atoms, in the order of that tree read left to right.
func (s *Fixedpoint) Rule(vars []solver.Lit, body, head solver.Lit) {
	for _, v := range vars {
		if !s.lit("Rule", v) {
			return
		}
		if s.nodes[v].op != fpVar {
			s.failf("Rule: Lit %d among the variables is not a variable from NewVar", v)
			return
		}
	}
	if !s.lit("Rule", body) || !s.lit("Rule", head) {
		return
	}
	if s.nodes[head].op != fpAtom {
		s.failf("Rule: the head (Lit %d) is not an atom", head)
		return
	}
	rule := fpRule{head: head}
	var spine func(l solver.Lit) bool
	spine = func(l solver.Lit) bool {
		n := &s.nodes[l]
		switch {
		case n.op == fpAnd && n.atom:
			return spine(n.a) && spine(n.b)
		case n.op == fpAtom:
			rule.atoms = append(rule.atoms, l)
		case n.atom:
			s.failf("Rule: an atom of the body is not one of its conjuncts (it is under a negation)")
			return false
		default:
			rule.leaves = append(rule.leaves, l)
		}
		return true
	}
	if !spine(body) {
		return
	}
	for _, a := range append([]solver.Lit{head}, rule.atoms...) {
		for _, x := range s.nodes[a].args {
			if s.nodes[x].atom {
				s.failf("Rule: an argument of an atom is a formula with an atom")
				return
			}
		}
	}
	bound := make(map[solver.Lit]bool, len(vars))
	for _, v := range vars {
		bound[v] = true
	}
	seen := map[solver.Lit]bool{}
	var free solver.Lit
	var walk func(l solver.Lit)
	walk = func(l solver.Lit) {
		if free != 0 || seen[l] {
			return
		}
		seen[l] = true
		n := &s.nodes[l]
		switch n.op {
		case fpVar:
			if !bound[l] {
				free = l
			}
		case fpNot:
			walk(n.a)
		case fpAnd:
			walk(n.a)
			walk(n.b)
		case fpAtom:
			for _, a := range n.args {
				walk(a)
			}
		}
	}
	walk(body)
	walk(head)
	if free != 0 {
		s.failf("Rule: the rule reads variable Lit %d, which is not among its variables", free)
		return
	}
	s.guard("Rule", func() {
		c := s.c
		ctx := c.z3("Rule")
		leaves := make([]Term, len(rule.leaves))
		for i, l := range rule.leaves {
			leaves[i] = s.nodes[l].t
		}
		rule.constraint = c.And(leaves...)
		f := c.Implies(s.nodes[body].t, s.nodes[head].t)
		if len(vars) > 0 {
			apps := make([]C.Z3_app, len(vars))
			for i, v := range vars {
				apps[i] = C.Z3_to_app(ctx, s.nodes[v].t.a)
			}
			f = c.term("Rule", C.Z3_mk_forall_const(ctx, 0, C.uint(len(apps)), &apps[0], 0, nil, f.a))
		}
		C.Z3_fixedpoint_add_rule(ctx, s.fp, f.a, nil)
		c.check("Rule")
		s.rules = append(s.rules, rule)
		s.rels[s.nodes[head].rel].inRule = true
		for _, a := range rule.atoms {
			s.rels[s.nodes[a].rel].inRule = true
		}
	})
}

// ---------------------------------------------------------------- query

// Query decides whether goal, a relation of no arguments, is derivable.
func (s *Fixedpoint) Query(ctx context.Context, goal solver.Rel) solver.Status {
	s.status, s.goal, s.err = solver.Unknown, goal, nil
	s.defs, s.defErr, s.read = nil, nil, false
	if !s.open() {
		s.failf("Query on a closed fixedpoint")
	}
	if s.bad != nil {
		s.err = s.bad
		return solver.Unknown
	}
	rel, ok := s.relation(goal)
	if !ok || rel.arity != 0 {
		s.err = fmt.Errorf("smt: fixedpoint: Query: the goal (relation %d) is not a relation of no arguments", goal)
		return solver.Unknown
	}
	if err := ctx.Err(); err != nil {
		s.err = err
		return solver.Unknown
	}
	var r C.Z3_lbool
	if err := Catch(func() {
		q := s.c.term("Query", C.Z3_mk_app(s.c.z3("Query"), rel.decl, 0, nil))
		r, s.err = s.query(ctx, q.a)
	}); err != nil {
		s.err = err
		return solver.Unknown
	}
	if s.err != nil {
		return solver.Unknown
	}
	switch r {
	case C.Z3_L_TRUE:
		s.status = solver.Sat
	case C.Z3_L_FALSE:
		s.status = solver.Unsat
	default:
		s.err = errors.New("z3: fixedpoint unknown: " + s.reasonUnknown())
	}
	return s.status
}

// query runs Z3_fixedpoint_query, interrupting it when ctx is done, as
// Solver.CheckContext does for checks: Z3 clears its cancel flag when a
// query starts, so the interrupt is repeated until the query returns.
func (s *Fixedpoint) query(ctx context.Context, q C.Z3_ast) (C.Z3_lbool, error) {
	c := s.c
	run := func() (C.Z3_lbool, error) {
		c.beginCheck()
		r := C.Z3_fixedpoint_query(c.ctx, s.fp, q)
		e := c.lastError("Query")
		c.endCheck()
		if e != nil {
			return C.Z3_L_UNDEF, e
		}
		return r, nil
	}
	var r C.Z3_lbool
	var err error
	c.interruptible(ctx, func() { r, err = run() })
	if ctx.Err() != nil && r != C.Z3_L_TRUE && r != C.Z3_L_FALSE {
		return C.Z3_L_UNDEF, ctx.Err()
	}
	return r, err
}

func (s *Fixedpoint) reasonUnknown() string {
	r := C.GoString(C.Z3_fixedpoint_get_reason_unknown(s.c.ctx, s.fp))
	if e := s.c.lastError("ReasonUnknown"); e != nil {
		return e.Msg
	}
	return r
}

// after is an error unless s is open and its last Query returned want.
func (s *Fixedpoint) after(op string, want solver.Status) error {
	if !s.open() {
		return fmt.Errorf("smt: fixedpoint: %s on a closed fixedpoint", op)
	}
	if s.status != want {
		return fmt.Errorf("smt: fixedpoint: %s needs a Query that returned %v, the last returned %v", op, want, s.status)
	}
	return nil
}

// answer is Z3_fixedpoint_get_answer, after a Query that returned want.
func (s *Fixedpoint) answer(op string, want solver.Status) (C.Z3_ast, error) {
	if err := s.after(op, want); err != nil {
		return nil, err
	}
	a := C.Z3_fixedpoint_get_answer(s.c.ctx, s.fp)
	if e := s.c.lastError(op); e != nil {
		return nil, e
	}
	if a == nil {
		return nil, fmt.Errorf("smt: fixedpoint: %s: Z3 gave no answer", op)
	}
	return a, nil
}
