//go:build !noz3

package smt

import (
	"context"
	"errors"
	"fmt"

	"bmc/solver"
)

// Z3 is a solver.Solver backed by Z3. Its Lits index a table of Boolean
// Terms; Not and And are cached, so building the same formula twice gives
// the same Lit. A Z3 error while building or asserting (which would be a
// bug: the adapter makes only Boolean terms) panics with an *Error; a Z3
// error while solving makes Solve return Unknown, and Err tells it.
type Z3 struct {
	c *Context
	s *Solver

	terms []Term       // terms[l] is Lit l's term; terms[0] is unused
	kinds []litKind    // what terms[l] is
	not   []solver.Lit // not[l] is Not(l) once built, else 0
	ands  map[[2]solver.Lit]solver.Lit
	tru   solver.Lit
	vars  int
	gates int                 // named conjunctions
	proxy map[solver.Lit]Term // assumption proxies, see Solve

	model  *Model // of the last Solve, if it returned Sat
	values []int8 // Value's memo for model: 0 unknown, 1 false, 2 true
	failed []solver.Lit
	err    error
}

type litKind int8

const (
	other   litKind = iota
	atom            // a variable from NewVar
	negAtom         // the negation of one
)

var _ solver.Solver = (*Z3)(nil)

// New returns a Z3 solver as a solver.Solver; the build without Z3 has the
// same function, which returns ErrNoZ3.
func New() (solver.Solver, error) {
	z, err := NewZ3()
	if err != nil {
		return nil, err
	}
	return z, nil
}

// NewZ3 returns a Z3 solver.
func NewZ3() (*Z3, error) {
	c, err := NewContext()
	if err != nil {
		return nil, err
	}
	z := &Z3{
		c:     c,
		terms: []Term{{}},
		kinds: []litKind{other},
		not:   []solver.Lit{0},
		ands:  map[[2]solver.Lit]solver.Lit{},
		proxy: map[solver.Lit]Term{},
	}
	if err := Catch(func() {
		z.s = c.NewSolver()
		z.tru = z.add(c.True(), other)
	}); err != nil {
		c.Close()
		return nil, err
	}
	return z, nil
}

// Name is "z3".
func (z *Z3) Name() string { return "z3" }

// Close frees the Z3 context with all its terms, solver and model.
func (z *Z3) Close() {
	z.model = nil
	z.c.Close()
}

// Context is the Z3 context underneath.
func (z *Z3) Context() *Context { return z.c }

// Solver is the Z3 solver underneath, for instance to print the
// assertions with ToSMT2.
func (z *Z3) Solver() *Solver { return z.s }

// Term is the Z3 term of a.
func (z *Z3) Term(a solver.Lit) Term { return z.terms[z.index(a)] }

// Err says why the last Solve returned Unknown: the context's error, a Z3
// error, or Z3's reason for giving up. It is nil after Sat or Unsat.
func (z *Z3) Err() error { return z.err }

func (z *Z3) index(a solver.Lit) int {
	if a <= 0 || int(a) >= len(z.terms) {
		panic(fmt.Sprintf("smt: invalid Lit %d", a))
	}
	return int(a)
}

func (z *Z3) add(t Term, k litKind) solver.Lit {
	z.terms = append(z.terms, t)
	z.kinds = append(z.kinds, k)
	z.not = append(z.not, 0)
	return solver.Lit(len(z.terms) - 1)
}

// True is the constant true.
func (z *Z3) True() solver.Lit { return z.tru }

// NewVar is a fresh Boolean constant.
func (z *Z3) NewVar() solver.Lit {
	z.vars++
	return z.add(z.c.Const(fmt.Sprintf("v%d", z.vars)), atom)
}

// Not is ¬a; Not(Not(a)) is a.
func (z *Z3) Not(a solver.Lit) solver.Lit {
	i := z.index(a)
	if n := z.not[i]; n != 0 {
		return n
	}
	k := other
	if z.kinds[i] == atom {
		k = negAtom
	}
	n := z.add(z.c.Not(z.terms[i]), k)
	z.not[i], z.not[n] = n, a
	return n
}

// And is a ∧ b.
func (z *Z3) And(a, b solver.Lit) solver.Lit {
	z.index(a)
	z.index(b)
	if a > b {
		a, b = b, a
	}
	switch {
	case a == b, b == z.tru:
		return a
	case a == z.tru:
		return b
	case z.not[a] == b:
		return z.Not(z.tru)
	}
	f := z.not[z.tru]
	if f != 0 && (a == f || b == f) {
		return f
	}
	key := [2]solver.Lit{a, b}
	if l, ok := z.ands[key]; ok {
		return l
	}
	// Name the conjunction with a fresh constant and assert its
	// definition, as Tseitin's encoding does: Z3 then never receives a
	// deep term (asserting one unrolled frame as a single term is slow),
	// and every And can be assumed directly.
	z.gates++
	g := z.c.Const(fmt.Sprintf("g%d", z.gates))
	z.s.Assert(z.c.Iff(g, z.c.And(z.terms[a], z.terms[b])))
	l := z.add(g, atom)
	z.ands[key] = l
	return l
}

// Assert adds a permanently.
func (z *Z3) Assert(a solver.Lit) { z.s.Assert(z.terms[z.index(a)]) }

// AddClause asserts the disjunction of lits (Z3 shares equal terms).
func (z *Z3) AddClause(lits ...solver.Lit) { z.Assert(solver.Ors(z, lits...)) }

// Activation returns a fresh constant to assume.
func (z *Z3) Activation() solver.Lit { return z.NewVar() }

// Under asserts the clause lits or not act.
func (z *Z3) Under(act solver.Lit, lits ...solver.Lit) {
	z.AddClause(append(lits, z.Not(act))...)
}

// Release switches the clauses under act off by asserting act false;
// Z3 keeps them.
func (z *Z3) Release(act solver.Lit) bool {
	z.Assert(z.Not(act))
	return false
}

// assumption is the term to hand Z3 for the assumption a: a's own term if
// it is a variable or a negated one, else a fresh constant p, made once
// for a, with p ⇒ a asserted.
func (z *Z3) assumption(a solver.Lit) Term {
	i := z.index(a)
	if z.kinds[i] != other {
		return z.terms[i]
	}
	if p, ok := z.proxy[a]; ok {
		return p
	}
	p := z.c.Const(fmt.Sprintf("a!%d", len(z.proxy)+1))
	z.s.Assert(z.c.Implies(p, z.terms[i]))
	z.proxy[a] = p
	return p
}

// Solve decides the assertions under the assumptions. It returns Unknown
// when ctx is done first, when Z3 gives up, or on a Z3 error; Err says
// which.
func (z *Z3) Solve(ctx context.Context, assumptions ...solver.Lit) solver.Status {
	if z.model != nil {
		z.model.Close()
		z.model = nil
	}
	z.values = z.values[:0]
	z.failed = nil
	z.err = nil

	terms := make([]Term, 0, len(assumptions))
	owner := make(map[Term]solver.Lit, len(assumptions)) // Z3 term -> caller's Lit
	for _, a := range assumptions {
		t := z.assumption(a)
		if _, dup := owner[t]; dup {
			continue
		}
		owner[t] = a
		terms = append(terms, t)
	}

	r, err := z.s.CheckContext(ctx, terms...)
	switch {
	case err != nil:
		z.err = err
		return solver.Unknown
	case r == Sat:
		z.model = z.s.Model()
		return solver.Sat
	case r == Unsat:
		z.failed = z.core(assumptions, owner)
		return solver.Unsat
	}
	z.err = errors.New("z3: unknown: " + z.s.ReasonUnknown())
	return solver.Unknown
}

// core maps Z3's unsat core back to the caller's assumptions, in their
// order. Should Z3 name a term that is not one of the assumptions, it
// falls back to all the assumptions, which are a core too.
func (z *Z3) core(assumptions []solver.Lit, owner map[Term]solver.Lit) []solver.Lit {
	core := z.s.UnsatCore()
	if len(core) == 0 {
		return nil
	}
	in := make(map[solver.Lit]bool, len(core))
	for _, t := range core {
		a, ok := owner[t]
		if !ok {
			return append([]solver.Lit(nil), assumptions...)
		}
		in[a] = true
	}
	var failed []solver.Lit
	for _, a := range assumptions {
		if in[a] {
			failed = append(failed, a)
			delete(in, a)
		}
	}
	return failed
}

// Value is a's value in the model of the last Solve, which must have
// returned Sat (it is false otherwise). Z3 evaluates a's term with model
// completion, so variables the model leaves open count as false.
func (z *Z3) Value(a solver.Lit) bool {
	i := z.index(a)
	if z.model == nil {
		return false
	}
	if i < len(z.values) && z.values[i] != 0 {
		return z.values[i] == 2
	}
	v, err := z.model.EvalBool(z.terms[i])
	if err != nil {
		panic(err)
	}
	if i >= len(z.values) {
		z.values = append(z.values, make([]int8, len(z.terms)-len(z.values))...)
	}
	z.values[i] = 1
	if v {
		z.values[i] = 2
	}
	return v
}

// Failed is, after a Solve that returned Unsat, the assumptions in Z3's
// unsat core, which are unsatisfiable with the assertions; nil when the
// assertions alone are unsatisfiable.
func (z *Z3) Failed() []solver.Lit { return z.failed }
