package solver

import "context"

// Fixedpoint decides a system of constrained Horn clauses over Booleans
// by itself, the way Z3's Spacer does: the engine declares relations,
// adds rules built with the Builder (an atom, a relation applied to
// arguments, is a formula too) and asks whether a relation of no
// arguments is derivable. It answers with a derivation tree or with an
// interpretation of every relation (a summary), which the caller checks
// on its own before it believes either.
type Fixedpoint interface {
	Builder
	// Name is the backend's name ("z3").
	Name() string
	// Relation declares a relation of arity Boolean arguments.
	Relation(name string, arity int) Rel
	// Apply is the atom r(args).
	Apply(r Rel, args ...Lit) Lit
	// Rule adds the clause "for all vars: body => head", where vars are
	// variables from NewVar (every variable the rule reads), body is a
	// formula that may contain atoms, and head is an atom.
	Rule(vars []Lit, body, head Lit)
	// Query decides whether goal, a relation of arity 0, is derivable:
	// Sat when it is, Unsat when not, Unknown when ctx ends first or the
	// backend gives up (Err then says why).
	Query(ctx context.Context, goal Rel) Status
	// Derivation is, after Query returned Sat, a derivation of the goal.
	Derivation() (*Derivation, error)
	// Interpretation builds into b, after Query returned Unsat, the
	// formula that the solver's interpretation of r gives for the
	// arguments args (literals of b): a set of tuples that contains
	// every derivable one and keeps the goal underivable.
	Interpretation(r Rel, b Builder, args []Lit) (Lit, error)
	// Err is why the last Query gave Unknown, if the backend said.
	Err() error
	Close()
}

// Rel is a relation of a Fixedpoint.
type Rel int32

// Derivation is a tree of ground atoms: Args are the values of Rel's
// arguments, derived by one rule from the atoms of Body (in the order of
// the rule's body; a rule with no atoms in its body is a leaf).
type Derivation struct {
	Rel  Rel
	Args []bool
	Body []*Derivation
}
