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

// Spacer is a solver.Fixedpoint backed by Z3's fixedpoint engine with its
// Spacer strategy, on a Context of its own.
//
// Its Lits index a table of Boolean Terms, as the adapter's do; Not and
// And are cached and folded (And with true, with itself, with its
// negation), so building the same formula twice gives the same Lit.
// Variables from NewVar are fresh Z3 constants, which Rule binds with a
// universal quantifier; relations are Z3 functions from Booleans to Bool,
// registered with the engine.
//
// Misuse never panics: a Lit or Rel that Spacer did not make, an Apply
// with the wrong number of arguments, a rule whose head is no atom, whose
// body has an atom that is not one of its conjuncts (under a negation,
// say), or that reads a variable missing from its vars, and any Z3 error
// while building are recorded; the Builder methods return a placeholder
// (the Lit true), Rule drops the rule, and every Query from then on
// returns Unknown with the first such error as Err.
//
// The engine runs with Z3's rule transformations that would hide a
// relation switched off (see spacerParams), so that the interpretation
// Z3 reports defines every relation that takes part in a rule and the
// derivations it reports are made of the declared relations only.
type Spacer struct {
	c  *Context
	fp C.Z3_fixedpoint

	nodes []fpNode // nodes[l] is Lit l; nodes[0] is unused
	ands  map[[2]solver.Lit]solver.Lit
	tru   solver.Lit

	rels  []fpRel
	relOf map[uint]solver.Rel // a relation's Z3 declaration (ast id) -> Rel
	names map[string]bool     // the Z3 names the relations have
	rules []fpRule

	bad error // the first misuse, see Spacer

	status solver.Status // of the last Query
	goal   solver.Rel    // of the last Query
	err    error         // why the last Query gave Unknown

	defs   map[solver.Rel]fpDef // the interpretation, after Unsat, read once
	defErr error                // why it could not be read
	read   bool                 // defs and defErr are set
	chk    *Solver              // matches derivation nodes to rules
}

// fpNode is a formula: the constant true, a variable, a negation, a
// conjunction or an atom.
type fpNode struct {
	t    Term
	op   fpOp
	a, b solver.Lit   // the operands of a negation (a) or conjunction
	rel  solver.Rel   // the relation of an atom
	args []solver.Lit // the arguments of an atom
	not  solver.Lit   // the negation, once built
	atom bool         // the formula contains an atom
}

type fpOp int8

const (
	fpTrue fpOp = iota
	fpVar
	fpNot
	fpAnd
	fpAtom
)

type fpRel struct {
	decl   C.Z3_func_decl
	name   string
	arity  int
	inRule bool // some rule mentions it
}

// fpRule is a rule as Rule was given it, for reading derivations: its
// head, its body's atoms in order, and the rest of its body.
type fpRule struct {
	head       solver.Lit
	atoms      []solver.Lit
	leaves     []solver.Lit // the body's conjuncts that are no atoms
	constraint Term         // their conjunction
}

// fpDef is a relation's formula in Z3's interpretation: body, over de
// Bruijn variables, where variable k stands for argument pos[k].
type fpDef struct {
	body C.Z3_ast
	pos  map[uint]int
}

var _ solver.Fixedpoint = (*Spacer)(nil)

// spacerParams are the fixedpoint parameters Spacer sets. Without the
// xform ones, Z3 inlines relations into others (inline_eager,
// inline_linear), drops the arguments and relations the query does not
// need (slice, coi), replaces relations by ones with fewer arguments
// (compress_unbound) and drops rules without a way back to the
// interpretation (subsumption_checker): derivations would then name
// relations that were never declared, or skip declared ones, and the
// interpretation would leave relations out. ctrl_c false keeps Z3's
// SIGINT handler away from the Go runtime's (see noCtrlC).
var spacerParams = []struct {
	key string
	val any // bool or string (a symbol)
}{
	{"engine", "spacer"},
	{"ctrl_c", false},
	{"xform.slice", false},
	{"xform.inline_linear", false},
	{"xform.inline_eager", false},
	{"xform.coi", false},
	{"xform.compress_unbound", false},
	{"xform.subsumption_checker", false},
}

// NewFixedpoint returns a Spacer as a solver.Fixedpoint; the build without
// Z3 has the same function, which returns ErrNoZ3.
func NewFixedpoint() (solver.Fixedpoint, error) {
	s, err := NewSpacer()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// NewSpacer returns a Spacer with a Context of its own.
//
// Z3 4.8.12's Spacer reports its derivations (Z3_fixedpoint_get_answer
// after a derivable query) without proof generation in the context, so
// the Context is an ordinary one: proofs would slow down every SMT query
// Spacer makes.
func NewSpacer() (*Spacer, error) {
	c, err := NewContext()
	if err != nil {
		return nil, err
	}
	s := &Spacer{
		c:     c,
		nodes: []fpNode{{}},
		ands:  map[[2]solver.Lit]solver.Lit{},
		relOf: map[uint]solver.Rel{},
		names: map[string]bool{},
	}
	if err := Catch(func() {
		ctx := c.z3("NewFixedpoint")
		s.fp = C.Z3_mk_fixedpoint(ctx)
		c.check("NewFixedpoint")
		if s.fp == nil {
			panic(&Error{Op: "NewFixedpoint", Code: Exception, Msg: "Z3 returned no fixedpoint"})
		}
		C.Z3_fixedpoint_inc_ref(ctx, s.fp)
		c.check("NewFixedpoint")
		s.setParams()
		s.tru = s.add(fpNode{t: c.True(), op: fpTrue})
	}); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Spacer) setParams() {
	const op = "NewFixedpoint"
	ctx := s.c.ctx
	p := C.Z3_mk_params(ctx)
	s.c.check(op)
	C.Z3_params_inc_ref(ctx, p)
	defer C.Z3_params_dec_ref(ctx, p)
	sym := func(str string) C.Z3_symbol {
		cs := C.CString(str)
		defer C.free(unsafe.Pointer(cs))
		return C.Z3_mk_string_symbol(ctx, cs)
	}
	for _, kv := range spacerParams {
		switch v := kv.val.(type) {
		case bool:
			C.Z3_params_set_bool(ctx, p, sym(kv.key), C.bool(v))
		case string:
			C.Z3_params_set_symbol(ctx, p, sym(kv.key), sym(v))
		}
		s.c.check(op)
	}
	C.Z3_fixedpoint_set_params(ctx, s.fp, p)
	s.c.check(op)
}

// Name is "z3".
func (s *Spacer) Name() string { return "z3" }

// Close frees the fixedpoint engine and its Context. Closing twice is
// harmless; any use afterwards is a misuse (Query reports it).
func (s *Spacer) Close() {
	if s.c == nil || s.c.ctx == nil {
		return
	}
	if s.fp != nil {
		C.Z3_fixedpoint_dec_ref(s.c.ctx, s.fp)
		s.fp = nil
	}
	s.chk = nil
	s.defs, s.defErr, s.read = nil, nil, false
	s.status = solver.Unknown
	s.c.Close()
}

// Err is why the last Query returned Unknown: a misuse before it (see
// Spacer), the context's error, a Z3 error or Z3's reason for giving up.
// It is nil after Sat or Unsat.
func (s *Spacer) Err() error { return s.err }

// fail records the first misuse.
func (s *Spacer) fail(err error) {
	if s.bad == nil {
		s.bad = err
	}
}

func (s *Spacer) failf(format string, args ...any) {
	s.fail(fmt.Errorf("smt: fixedpoint: "+format, args...))
}

// guard runs f, recording a Z3 error it panics with, and reports whether
// f returned normally. A closed Spacer is a misuse too.
func (s *Spacer) guard(op string, f func()) bool {
	if !s.open() {
		s.failf("%s on a closed fixedpoint", op)
		return false
	}
	if err := Catch(f); err != nil {
		s.fail(err)
		return false
	}
	return true
}

// open reports whether s is not closed.
func (s *Spacer) open() bool { return s.c != nil && s.c.ctx != nil && s.fp != nil }

// lastError is the error of the last Z3 call, if s is open.
func (s *Spacer) lastError(op string) error {
	if !s.open() {
		return nil
	}
	if e := s.c.lastError(op); e != nil {
		return e
	}
	return nil
}

func (s *Spacer) valid(a solver.Lit) bool { return a > 0 && int(a) < len(s.nodes) }

// lit checks that a is a Lit of s, recording a misuse when it is not.
func (s *Spacer) lit(op string, a solver.Lit) bool {
	if !s.valid(a) {
		s.failf("%s: invalid Lit %d", op, a)
		return false
	}
	return true
}

func (s *Spacer) add(n fpNode) solver.Lit {
	s.nodes = append(s.nodes, n)
	return solver.Lit(len(s.nodes) - 1)
}

// ---------------------------------------------------------------- builder

// True is the constant true.
func (s *Spacer) True() solver.Lit { return s.tru }

// NewVar is a fresh Boolean constant, to be bound by Rule.
func (s *Spacer) NewVar() solver.Lit {
	l := s.tru
	s.guard("NewVar", func() {
		ctx := s.c.z3("NewVar")
		prefix := C.CString("v")
		defer C.free(unsafe.Pointer(prefix))
		t := s.c.term("NewVar", C.Z3_mk_fresh_const(ctx, prefix, s.c.boolSort))
		l = s.add(fpNode{t: t, op: fpVar})
	})
	return l
}

// Not is ¬a; Not(Not(a)) is a.
func (s *Spacer) Not(a solver.Lit) solver.Lit {
	if !s.lit("Not", a) {
		return s.tru
	}
	if n := s.nodes[a].not; n != 0 {
		return n
	}
	l := s.tru
	s.guard("Not", func() {
		t := s.c.Not(s.nodes[a].t)
		l = s.add(fpNode{t: t, op: fpNot, a: a, not: a, atom: s.nodes[a].atom})
		s.nodes[a].not = l
	})
	return l
}

// And is a ∧ b.
func (s *Spacer) And(a, b solver.Lit) solver.Lit {
	if !s.lit("And", a) || !s.lit("And", b) {
		return s.tru
	}
	switch {
	case a == b, b == s.tru:
		return a
	case a == s.tru:
		return b
	case s.nodes[a].not == b:
		return s.Not(s.tru)
	}
	if f := s.nodes[s.tru].not; f != 0 && (a == f || b == f) {
		return f
	}
	key := [2]solver.Lit{a, b}
	if l, ok := s.ands[key]; ok {
		return l
	}
	l := s.tru
	s.guard("And", func() {
		t := s.c.And(s.nodes[a].t, s.nodes[b].t)
		l = s.add(fpNode{t: t, op: fpAnd, a: a, b: b, atom: s.nodes[a].atom || s.nodes[b].atom})
		s.ands[key] = l
	})
	return l
}

// ---------------------------------------------------------------- rules

// Relation declares a relation of arity Boolean arguments. Its Z3 name is
// name, made unique with a suffix if another relation has it already.
func (s *Spacer) Relation(name string, arity int) solver.Rel {
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

func (s *Spacer) relation(r solver.Rel) (fpRel, bool) {
	if r < 0 || int(r) >= len(s.rels) {
		return fpRel{}, false
	}
	rel := s.rels[r]
	return rel, rel.decl != nil
}

// Apply is the atom r(args).
func (s *Spacer) Apply(r solver.Rel, args ...solver.Lit) solver.Lit {
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
func (s *Spacer) Rule(vars []solver.Lit, body, head solver.Lit) {
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
func (s *Spacer) Query(ctx context.Context, goal solver.Rel) solver.Status {
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
func (s *Spacer) query(ctx context.Context, q C.Z3_ast) (C.Z3_lbool, error) {
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

func (s *Spacer) reasonUnknown() string {
	r := C.GoString(C.Z3_fixedpoint_get_reason_unknown(s.c.ctx, s.fp))
	if e := s.c.lastError("ReasonUnknown"); e != nil {
		return e.Msg
	}
	return r
}

// after is an error unless s is open and its last Query returned want.
func (s *Spacer) after(op string, want solver.Status) error {
	if !s.open() {
		return fmt.Errorf("smt: fixedpoint: %s on a closed fixedpoint", op)
	}
	if s.status != want {
		return fmt.Errorf("smt: fixedpoint: %s needs a Query that returned %v, the last returned %v", op, want, s.status)
	}
	return nil
}

// answer is Z3_fixedpoint_get_answer, after a Query that returned want.
func (s *Spacer) answer(op string, want solver.Status) (C.Z3_ast, error) {
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

// ---------------------------------------------------------------- reading Z3's terms

// app is a's application and declaration kind, ok false if a is no
// application.
func (s *Spacer) app(a C.Z3_ast) (C.Z3_app, C.Z3_decl_kind, bool) {
	ctx := s.c.ctx
	if C.Z3_get_ast_kind(ctx, a) != C.Z3_APP_AST {
		return nil, 0, false
	}
	p := C.Z3_to_app(ctx, a)
	return p, C.Z3_get_decl_kind(ctx, C.Z3_get_app_decl(ctx, p)), true
}

func (s *Spacer) args(p C.Z3_app) []C.Z3_ast {
	ctx := s.c.ctx
	n := int(C.Z3_get_app_num_args(ctx, p))
	as := make([]C.Z3_ast, n)
	for i := range as {
		as[i] = C.Z3_get_app_arg(ctx, p, C.uint(i))
	}
	return as
}

func (s *Spacer) id(a C.Z3_ast) uint { return uint(C.Z3_get_ast_id(s.c.ctx, a)) }

func (s *Spacer) str(a C.Z3_ast) string {
	str := C.GoString(C.Z3_ast_to_string(s.c.ctx, a))
	s.c.lastError("String")
	const max = 200
	if len(str) > max {
		str = str[:max] + "..."
	}
	return str
}

// atomRel is the relation a is an atom of, ok false if it is none.
func (s *Spacer) atomRel(a C.Z3_ast) (solver.Rel, C.Z3_app, bool) {
	p, kind, ok := s.app(a)
	if !ok || kind != C.Z3_OP_UNINTERPRETED {
		return 0, nil, false
	}
	ctx := s.c.ctx
	r, ok := s.relOf[uint(C.Z3_get_ast_id(ctx, C.Z3_func_decl_to_ast(ctx, C.Z3_get_app_decl(ctx, p))))]
	return r, p, ok
}

func (s *Spacer) declName(p C.Z3_app) string {
	ctx := s.c.ctx
	return C.GoString(C.Z3_get_symbol_string(ctx, C.Z3_get_decl_name(ctx, C.Z3_get_app_decl(ctx, p))))
}

// isProof reports whether a is a proof step (a Z3_OP_PR_* application).
func (s *Spacer) isProof(a C.Z3_ast) bool {
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
func (s *Spacer) Derivation() (*solver.Derivation, error) {
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

func (s *Spacer) derivation(root C.Z3_ast) (*solver.Derivation, error) {
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
	s    *Spacer
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
func (s *Spacer) match(d *solver.Derivation, premises []*solver.Derivation) ([]*solver.Derivation, error) {
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

func (s *Spacer) atomString(d *solver.Derivation) string {
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
func (s *Spacer) derives(rule *fpRule, d *solver.Derivation, premises []*solver.Derivation, assign []int) (bool, error) {
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
	s    *Spacer
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
func (s *Spacer) Interpretation(r solver.Rel, b solver.Builder, args []solver.Lit) (solver.Lit, error) {
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

func (s *Spacer) interpretation(r solver.Rel, b solver.Builder, args []solver.Lit) (solver.Lit, error) {
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
func (s *Spacer) readDefs(a C.Z3_ast) (map[solver.Rel]fpDef, error) {
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
func (s *Spacer) splitDef(f C.Z3_ast) (atom, phi C.Z3_ast, ok bool) {
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
func (s *Spacer) foreignDef(f C.Z3_ast) bool {
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
	s    *Spacer
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
