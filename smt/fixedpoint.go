//go:build !noz3

package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"fmt"
	"unsafe"

	"bmc/solver"
)

// Fixedpoint is a solver.Fixedpoint backed by Z3's fixedpoint engine with
// its Spacer strategy, on a Context of its own. (Our own Spacer, on gini,
// is engine.Spacer.)
//
// Its Lits index a table of Boolean Terms, as the adapter's do; Not and
// And are cached and folded (And with true, with itself, with its
// negation), so building the same formula twice gives the same Lit.
// Variables from NewVar are fresh Z3 constants, which Rule binds with a
// universal quantifier; relations are Z3 functions from Booleans to Bool,
// registered with the engine.
//
// Misuse never panics: a Lit or Rel that Fixedpoint did not make, an Apply
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
type Fixedpoint struct {
	c  *Context
	fp C.Z3_fixedpoint

	nodes []fpNode // nodes[l] is Lit l; nodes[0] is unused
	ands  map[[2]solver.Lit]solver.Lit
	tru   solver.Lit

	rels  []fpRel
	relOf map[uint]solver.Rel // a relation's Z3 declaration (ast id) -> Rel
	names map[string]bool     // the Z3 names the relations have
	rules []fpRule

	bad error // the first misuse, see Fixedpoint

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

var _ solver.Fixedpoint = (*Fixedpoint)(nil)

// spacerParams are the fixedpoint parameters Fixedpoint sets. Without the
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

// NewFixedpoint returns a Fixedpoint as a solver.Fixedpoint; the build without
// Z3 has the same function, which returns ErrNoZ3.
func NewFixedpoint() (solver.Fixedpoint, error) {
	s, err := newFixedpoint()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newFixedpoint returns a Fixedpoint with a Context of its own.
//
// Z3 4.8.12's Spacer reports its derivations (Z3_fixedpoint_get_answer
// after a derivable query) without proof generation in the context, so
// the Context is an ordinary one: proofs would slow down every SMT query
// Spacer makes.
func newFixedpoint() (*Fixedpoint, error) {
	c, err := NewContext()
	if err != nil {
		return nil, err
	}
	s := &Fixedpoint{
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

func (s *Fixedpoint) setParams() {
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
func (s *Fixedpoint) Name() string { return "z3" }

// Close frees the fixedpoint engine and its Context. Closing twice is
// harmless; any use afterwards is a misuse (Query reports it).
func (s *Fixedpoint) Close() {
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
// Fixedpoint), the context's error, a Z3 error or Z3's reason for giving up.
// It is nil after Sat or Unsat.
func (s *Fixedpoint) Err() error { return s.err }

// fail records the first misuse.
func (s *Fixedpoint) fail(err error) {
	if s.bad == nil {
		s.bad = err
	}
}

func (s *Fixedpoint) failf(format string, args ...any) {
	s.fail(fmt.Errorf("smt: fixedpoint: "+format, args...))
}

// guard runs f, recording a Z3 error it panics with, and reports whether
// f returned normally. A closed Fixedpoint is a misuse too.
func (s *Fixedpoint) guard(op string, f func()) bool {
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
func (s *Fixedpoint) open() bool { return s.c != nil && s.c.ctx != nil && s.fp != nil }

// lastError is the error of the last Z3 call, if s is open.
func (s *Fixedpoint) lastError(op string) error {
	if !s.open() {
		return nil
	}
	if e := s.c.lastError(op); e != nil {
		return e
	}
	return nil
}

func (s *Fixedpoint) valid(a solver.Lit) bool { return a > 0 && int(a) < len(s.nodes) }

// lit checks that a is a Lit of s, recording a misuse when it is not.
func (s *Fixedpoint) lit(op string, a solver.Lit) bool {
	if !s.valid(a) {
		s.failf("%s: invalid Lit %d", op, a)
		return false
	}
	return true
}

func (s *Fixedpoint) add(n fpNode) solver.Lit {
	s.nodes = append(s.nodes, n)
	return solver.Lit(len(s.nodes) - 1)
}

// ---------------------------------------------------------------- builder

// True is the constant true.
func (s *Fixedpoint) True() solver.Lit { return s.tru }

// NewVar is a fresh Boolean constant, to be bound by Rule.
func (s *Fixedpoint) NewVar() solver.Lit {
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
func (s *Fixedpoint) Not(a solver.Lit) solver.Lit {
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
func (s *Fixedpoint) And(a, b solver.Lit) solver.Lit {
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
