package solver

import "context"

// Lit is a solver's handle for a Boolean formula. Handles are only
// meaningful to the solver that made them; the zero Lit is never valid.
type Lit int32

// Builder makes formulas. Implementations share equal subformulas where
// they can (structural hashing), so building the same And twice is cheap.
type Builder interface {
	True() Lit        // the constant true; False is Not(True())
	NewVar() Lit      // a fresh unconstrained Boolean variable
	Not(a Lit) Lit    // negation
	And(a, b Lit) Lit // conjunction
}

// Status is the outcome of Solve.
type Status int

const (
	Unknown Status = iota // interrupted (context done) or the solver gave up
	Sat
	Unsat
)

func (s Status) String() string { return [...]string{"unknown", "sat", "unsat"}[s] }

// Solver decides conjunctions of asserted formulas under assumptions. It is
// incremental: formulas may be built and asserted between calls to Solve.
type Solver interface {
	Builder
	// Name is "gini" or "z3".
	Name() string
	// Assert adds a permanently.
	Assert(a Lit)
	// AddClause adds the disjunction of lits permanently. A SAT solver
	// takes it as one clause, with no gate for the disjunction, so that
	// an engine that adds many short-lived clauses (each under its own
	// activation literal, then retired by a unit) does not grow the
	// circuit every query must carry.
	AddClause(lits ...Lit)
	// Activation returns a literal that switches on the clauses added
	// under it (Under) in the queries that assume it. Engines that ask
	// many queries, each with clauses of its own (IC3's relative
	// induction, its frames), use them.
	Activation() Lit
	// Under adds the disjunction of lits as a clause that holds in the
	// queries that assume act, a literal from Activation.
	Under(act Lit, lits ...Lit)
	// Release removes the clauses under act for good. It reports whether
	// the solver reclaimed them and act (gini recycles both); otherwise
	// they stay, switched off, and an engine that releases many may want
	// a fresh solver now and then.
	Release(act Lit) (reclaimed bool)
	// Solve decides the asserted formulas together with the assumptions,
	// which hold for this call only. It returns Unknown when ctx is done
	// first.
	Solve(ctx context.Context, assumptions ...Lit) Status
	// Value is a's value in the model found by the last Solve that
	// returned Sat; a may be any Lit built before that Solve.
	Value(a Lit) bool
	// Failed returns, after a Solve that returned Unsat, a subset of its
	// assumptions that is already unsatisfiable with the assertions
	// (a core); nil when the assertions alone are unsatisfiable.
	Failed() []Lit
	// Close releases the solver's resources.
	Close()
}

// Simplifier is a Solver that can simplify a formula given whole before
// solving it (gini's binding: variable elimination). Z3 does so of its
// own accord on a first check without assumptions.
type Simplifier interface {
	// Simplify makes the next Solve simplify what has been asserted, if
	// the solver has not solved anything yet. The solver stays
	// incremental: formulas built and asserted later may read anything.
	Simplify()
}

// Temporary adds the clause lits under a new activation literal, which
// it returns.
func Temporary(s Solver, lits ...Lit) Lit {
	act := s.Activation()
	s.Under(act, lits...)
	return act
}

// Or returns a | b.
func Or(b Builder, x, y Lit) Lit { return b.Not(b.And(b.Not(x), b.Not(y))) }

// Implies returns x => y.
func Implies(b Builder, x, y Lit) Lit { return b.Not(b.And(x, b.Not(y))) }

// Xor returns x ^ y.
func Xor(b Builder, x, y Lit) Lit { return Or(b, b.And(x, b.Not(y)), b.And(b.Not(x), y)) }

// Ite returns c ? x : y.
func Ite(b Builder, c, x, y Lit) Lit { return Or(b, b.And(c, x), b.And(b.Not(c), y)) }

// Ands returns the conjunction of xs (true when empty).
func Ands(b Builder, xs ...Lit) Lit {
	r := b.True()
	for _, x := range xs {
		r = b.And(r, x)
	}
	return r
}

// Ors returns the disjunction of xs (false when empty).
func Ors(b Builder, xs ...Lit) Lit {
	r := b.Not(b.True())
	for _, x := range xs {
		r = Or(b, r, x)
	}
	return r
}
