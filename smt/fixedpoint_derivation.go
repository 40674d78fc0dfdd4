//go:build !noz3

package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"fmt"

	"bmc/solver"
)

// ---------------------------------------------------------------- reading Z3's terms

// app is a's application and declaration kind, ok false if a is no
// application.
func (s *Fixedpoint) app(a C.Z3_ast) (C.Z3_app, C.Z3_decl_kind, bool) {
	ctx := s.c.ctx
	if C.Z3_get_ast_kind(ctx, a) != C.Z3_APP_AST {
		return nil, 0, false
	}
	p := C.Z3_to_app(ctx, a)
	return p, C.Z3_get_decl_kind(ctx, C.Z3_get_app_decl(ctx, p)), true
}

func (s *Fixedpoint) args(p C.Z3_app) []C.Z3_ast {
	ctx := s.c.ctx
	n := int(C.Z3_get_app_num_args(ctx, p))
	as := make([]C.Z3_ast, n)
	for i := range as {
		as[i] = C.Z3_get_app_arg(ctx, p, C.uint(i))
	}
	return as
}

func (s *Fixedpoint) id(a C.Z3_ast) uint { return uint(C.Z3_get_ast_id(s.c.ctx, a)) }

func (s *Fixedpoint) str(a C.Z3_ast) string {
	str := C.GoString(C.Z3_ast_to_string(s.c.ctx, a))
	s.c.lastError("String")
	const max = 200
	if len(str) > max {
		str = str[:max] + "..."
	}
	return str
}

// atomRel is the relation a is an atom of, ok false if it is none.
func (s *Fixedpoint) atomRel(a C.Z3_ast) (solver.Rel, C.Z3_app, bool) {
	p, kind, ok := s.app(a)
	if !ok || kind != C.Z3_OP_UNINTERPRETED {
		return 0, nil, false
	}
	ctx := s.c.ctx
	r, ok := s.relOf[uint(C.Z3_get_ast_id(ctx, C.Z3_func_decl_to_ast(ctx, C.Z3_get_app_decl(ctx, p))))]
	return r, p, ok
}

func (s *Fixedpoint) declName(p C.Z3_app) string {
	ctx := s.c.ctx
	return C.GoString(C.Z3_get_symbol_string(ctx, C.Z3_get_decl_name(ctx, C.Z3_get_app_decl(ctx, p))))
}

// isProof reports whether a is a proof step (a Z3_OP_PR_* application).
func (s *Fixedpoint) isProof(a C.Z3_ast) bool {
	_, kind, ok := s.app(a)
	return ok && kind >= C.Z3_OP_PR_UNDEF && kind < C.Z3_OP_RA_STORE
}

// ---------------------------------------------------------------- derivations

// Derivation is, after Query returned Sat, a derivation of the goal read
// from the proof Z3 gives (Z3_fixedpoint_get_answer). Spacer's proof in
// Z3 4.8.12 is a tree of hyper-resolution steps, (hyper-res R P1 ... Pk
// A): R proves the rule as Z3 rewrote it, P1..Pk are the steps that
// derive its body atoms and A, the conclusion, is a ground atom; a step
// without premises (or a bare "asserted" fact) is a leaf. The goal's step
// sits near the root, under Z3's wrapper that refutes a fresh relation
// query!N derived from the goal. Every conclusion must be an atom of a
// declared relation with true or false arguments.
//
// Body order: each node's Body is in the order of the body atoms of a
// rule that derives the node, the atoms as Rule found them, reading the
// body as a tree of conjunctions left to right; Body[i] derives the i-th
// atom. Z3's premise order is not that order (it lists R(false) before
// R(true) for a body R(true) ∧ R(false), say), and its proof does not say
// which of the rules a step used, so Derivation finds one: among the
// rules with the node's relation in the head, in the order they were
// added, the first that has the premises' relations among its body atoms
// and an assignment of premises to body atoms (Z3's order tried first)
// for which the rule's variables can take values that make its
// constraint true, its head the node's atom and each body atom its
// premise's atom. Most candidates are settled by propagating argument
// values, the rest by a query to a Z3 solver. Should Z3 merge equal body
// atoms into one premise, that premise serves all of them (the same
// *Derivation at several places); subproofs that Z3 shares are shared as
// well, so the tree may be a DAG. A step that no rule explains, or a
// proof of a shape this reader does not know, is an error.
func (s *Fixedpoint) Derivation() (*solver.Derivation, error) {
	var d *solver.Derivation
	var derr error
	if err := Catch(func() {
		root, err := s.answer("Derivation", solver.Sat)
		if err != nil {
			derr = err
			return
		}
		d, derr = s.derivation(root)
		if e := s.lastError("Derivation"); e != nil && derr == nil {
			derr = e
		}
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return d, nil
}

func (s *Fixedpoint) derivation(root C.Z3_ast) (*solver.Derivation, error) {
	// The goal's step is somewhere near the root: Z3 derives a fresh
	// relation query!0 from the goal and refutes it.
	goal := s.rels[s.goal].decl
	ctx := s.c.ctx
	goalID := uint(C.Z3_get_ast_id(ctx, C.Z3_func_decl_to_ast(ctx, goal)))
	queue := []C.Z3_ast{root}
	seen := map[uint]bool{}
	var step C.Z3_ast
	for len(queue) > 0 && step == nil {
		a := queue[0]
		queue = queue[1:]
		if seen[s.id(a)] || !s.isProof(a) {
			continue
		}
		seen[s.id(a)] = true
		p, _, _ := s.app(a)
		as := s.args(p)
		if len(as) == 0 {
			continue
		}
		if cp, _, ok := s.app(as[len(as)-1]); ok {
			d := C.Z3_get_app_decl(ctx, cp)
			if uint(C.Z3_get_ast_id(ctx, C.Z3_func_decl_to_ast(ctx, d))) == goalID {
				step = a
				break
			}
		}
		queue = append(queue, as[:len(as)-1]...)
	}
	if step == nil {
		return nil, fmt.Errorf("smt: fixedpoint: Z3's proof derives no atom of the goal %s: %s", s.rels[s.goal].name, s.str(root))
	}
	r := &derivReader{s: s, memo: map[uint]*solver.Derivation{}}
	return r.read(step)
}

type derivReader struct {
	s    *Fixedpoint
	memo map[uint]*solver.Derivation
}

// read reads the derivation that the proof step a concludes.
func (r *derivReader) read(a C.Z3_ast) (*solver.Derivation, error) {
	s := r.s
	id := s.id(a)
	if d, ok := r.memo[id]; ok {
		return d, nil
	}
	p, kind, ok := s.app(a)
	if !ok || !s.isProof(a) {
		return nil, fmt.Errorf("smt: fixedpoint: Z3's proof has a premise that is no proof step: %s", s.str(a))
	}
	as := s.args(p)
	if len(as) == 0 {
		return nil, fmt.Errorf("smt: fixedpoint: Z3's proof has a step without a conclusion: %s", s.str(a))
	}
	concl := as[len(as)-1]
	rel, args, err := r.groundAtom(concl)
	if err != nil {
		return nil, err
	}
	d := &solver.Derivation{Rel: rel, Args: args}
	var premises []*solver.Derivation
	switch kind {
	case C.Z3_OP_PR_HYPER_RESOLVE:
		// (hyper-res rule premise... conclusion)
		if len(as) < 2 || !s.isProof(as[0]) {
			return nil, fmt.Errorf("smt: fixedpoint: Z3's proof has a hyper-resolution step of an unknown shape: %s", s.str(a))
		}
		for _, pr := range as[1 : len(as)-1] {
			c, err := r.read(pr)
			if err != nil {
				return nil, err
			}
			premises = append(premises, c)
		}
	case C.Z3_OP_PR_ASSERTED:
		// a fact
	default:
		return nil, fmt.Errorf("smt: fixedpoint: Z3's proof has a step of a kind this reader does not know (%s): %s", s.declName(p), s.str(a))
	}
	body, err := s.match(d, premises)
	if err != nil {
		return nil, err
	}
	d.Body = body
	r.memo[id] = d
	return d, nil
}

// groundAtom reads an atom of a declared relation whose arguments are
// true or false.
func (r *derivReader) groundAtom(a C.Z3_ast) (solver.Rel, []bool, error) {
	s := r.s
	rel, p, ok := s.atomRel(a)
	if !ok {
		return 0, nil, fmt.Errorf("smt: fixedpoint: Z3's proof concludes %s, which is no atom of a declared relation", s.str(a))
	}
	as := s.args(p)
	if len(as) != s.rels[rel].arity {
		return 0, nil, fmt.Errorf("smt: fixedpoint: Z3's proof applies %s to %d arguments", s.rels[rel].name, len(as))
	}
	vals := make([]bool, len(as))
	for i, x := range as {
		switch C.Z3_get_bool_value(s.c.ctx, x) {
		case C.Z3_L_TRUE:
			vals[i] = true
		case C.Z3_L_FALSE:
		default:
			s.c.lastError("Derivation")
			return 0, nil, fmt.Errorf("smt: fixedpoint: Z3's proof concludes %s, whose argument %d is no Boolean value", s.str(a), i)
		}
	}
	return rel, vals, nil
}

// maxMatches bounds the assignments of premises to body atoms that match
// tries per derivation step.
const maxMatches = 256

// match finds a rule that derives d from premises (see Derivation) and
// returns the premises in the order of its body atoms.
func (s *Fixedpoint) match(d *solver.Derivation, premises []*solver.Derivation) ([]*solver.Derivation, error) {
	tries := 0
	for i := range s.rules {
		rule := &s.rules[i]
		if s.nodes[rule.head].rel != d.Rel || len(rule.atoms) < len(premises) || (len(premises) == 0) != (len(rule.atoms) == 0) {
			continue
		}
		m := len(rule.atoms)
		assign := make([]int, m)
		uses := make([]int, len(premises))
		unused := len(premises)
		var found bool
		var err error
		var try func(k int) bool // assigns atoms k.., reports whether to stop
		try = func(k int) bool {
			if m-k < unused {
				return false
			}
			if k == m {
				if tries++; tries > maxMatches {
					err = fmt.Errorf("smt: fixedpoint: gave up matching Z3's derivation step of %s to a rule after %d tries", s.rels[d.Rel].name, maxMatches)
					return true
				}
				found, err = s.derives(rule, d, premises, assign)
				return found || err != nil
			}
			rel := s.nodes[rule.atoms[k]].rel
			// Z3's own order first: premise k, then the others.
			order := make([]int, 0, len(premises))
			if k < len(premises) {
				order = append(order, k)
			}
			for j := range premises {
				if j != k {
					order = append(order, j)
				}
			}
			for _, j := range order {
				if premises[j].Rel != rel {
					continue
				}
				assign[k] = j
				if uses[j] == 0 {
					unused--
				}
				uses[j]++
				stop := try(k + 1)
				uses[j]--
				if uses[j] == 0 {
					unused++
				}
				if stop {
					return true
				}
			}
			return false
		}
		try(0)
		if err != nil {
			return nil, err
		}
		if found {
			body := make([]*solver.Derivation, m)
			for k, j := range assign {
				body[k] = premises[j]
			}
			return body, nil
		}
	}
	return nil, fmt.Errorf("smt: fixedpoint: no rule derives Z3's atom %s from its %d premises", s.atomString(d), len(premises))
}

func (s *Fixedpoint) atomString(d *solver.Derivation) string {
	str := s.rels[d.Rel].name + "("
	for i, v := range d.Args {
		if i > 0 {
			str += ","
		}
		str += fmt.Sprint(v)
	}
	return str + ")"
}

// derives reports whether rule, with body atom k matched to premise
// assign[k], derives d: whether its constraint, its head equal to d's
// atom and its body atoms equal to the premises' are satisfiable. Most
// candidates are settled by propagating the values of the arguments that
// are variables (or negated ones) through the rule's formulas; the rest
// go to a Z3 solver.
func (s *Fixedpoint) derives(rule *fpRule, d *solver.Derivation, premises []*solver.Derivation, assign []int) (bool, error) {
	type fix struct {
		arg solver.Lit
		val bool
	}
	var fixes []fix
	add := func(atom solver.Lit, vals []bool) {
		for i, a := range s.nodes[atom].args {
			fixes = append(fixes, fix{a, vals[i]})
		}
	}
	add(rule.head, d.Args)
	for k, atom := range rule.atoms {
		add(atom, premises[assign[k]].Args)
	}

	// Propagate: a variable argument takes its value.
	e := &evaluator{s: s, val: map[solver.Lit]int8{}}
	for _, f := range fixes {
		l, val := f.arg, f.val
		if n := &s.nodes[l]; n.op == fpNot && s.nodes[n.a].op == fpVar {
			l, val = n.a, !val
		}
		if s.nodes[l].op != fpVar {
			continue
		}
		v := int8(0)
		if val {
			v = 1
		}
		if old, ok := e.vars[l]; ok && old != v {
			return false, nil
		}
		if e.vars == nil {
			e.vars = map[solver.Lit]int8{}
		}
		e.vars[l] = v
	}
	open := false
	for _, f := range fixes {
		switch e.eval(f.arg) {
		case -1:
			open = true
		case 0:
			if f.val {
				return false, nil
			}
		case 1:
			if !f.val {
				return false, nil
			}
		}
	}
	for _, l := range rule.leaves {
		switch e.eval(l) {
		case -1:
			open = true
		case 0:
			return false, nil
		}
	}
	if !open {
		return true, nil
	}

	c := s.c
	if s.chk == nil {
		s.chk = c.NewSimpleSolver()
	}
	fs := []Term{rule.constraint}
	for _, f := range fixes {
		t := s.nodes[f.arg].t
		if !f.val {
			t = c.Not(t)
		}
		fs = append(fs, t)
	}
	s.chk.Push()
	defer s.chk.Pop(1)
	s.chk.Assert(c.And(fs...))
	res, err := s.chk.Check()
	if err != nil {
		return false, err
	}
	switch res {
	case Sat:
		return true, nil
	case Unsat:
		return false, nil
	}
	return false, fmt.Errorf("smt: fixedpoint: matching a derivation step to a rule: z3 unknown: %s", s.chk.ReasonUnknown())
}

// evaluator evaluates formulas without atoms under a partial assignment
// of the variables, in three values: -1 unknown, 0 false, 1 true.
type evaluator struct {
	s    *Fixedpoint
	vars map[solver.Lit]int8
	val  map[solver.Lit]int8
}

func (e *evaluator) eval(l solver.Lit) int8 {
	if v, ok := e.val[l]; ok {
		return v
	}
	n := &e.s.nodes[l]
	var v int8 = -1
	switch n.op {
	case fpTrue:
		v = 1
	case fpVar:
		if x, ok := e.vars[l]; ok {
			v = x
		}
	case fpNot:
		if x := e.eval(n.a); x >= 0 {
			v = 1 - x
		}
	case fpAnd:
		a := e.eval(n.a)
		if a == 0 {
			v = 0
			break
		}
		b := e.eval(n.b)
		switch {
		case b == 0:
			v = 0
		case a == 1 && b == 1:
			v = 1
		}
	}
	e.val[l] = v
	return v
}
