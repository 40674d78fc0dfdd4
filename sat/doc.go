// Package sat implements solver.Solver on top of the gini SAT solver
// (github.com/go-air/gini).
//
// Formulas are and-inverter circuits kept in a gini logic.C, which gives
// structural hashing and constant folding for free. A solver.Lit is the
// circuit's z.Lit converted to int32; since logic.C numbers its nodes with the
// same variables the SAT solver uses, no translation table is needed.
//
// The circuit is handed to the SAT solver lazily: a gate's clauses go to
// gini only when an assertion, a clause or an assumption reads it, and a
// tree of conjunctions whose inner gates nothing else reads becomes one
// gate (one long clause and a binary clause per conjunct, no variable for
// the inner gates). Value evaluates the gates gini has no clauses for.
// Queries run in the caller's goroutine, in time slices while a context
// may end them; short-lived clauses live under gini's recyclable
// activation literals (Activation, Under, Release).
//
// After Simplify (solver.Simplifier: a whole program asserted as one
// formula), the first Solve races two ginis, after a short try of the
// plain formula alone: one on the formula as it is, one on the formula
// preprocessed by unit propagation, subsumption, and bounded variable
// elimination with gate detection (simplify.go); the first answer
// counts, and the gini that gave it serves the later Solves. Model values of the eliminated variables are
// rebuilt from the clauses removed with them, and a later clause or
// assumption that reads one brings its clauses back, so the solver stays
// incremental.
//
// It is one of the two backends at the bottom of bmc's pipeline, lang ->
// ir -> seq/moped -> encode -> ts -> engine -> solver -> sat/smt (run by
// package driver, wrapped by the command cmd/bmc): driver and cmd/bmc
// pick it, the engines see only solver.Solver. Of bmc's packages it
// imports only solver.
package sat
