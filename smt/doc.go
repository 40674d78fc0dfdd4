// Package smt connects bmc to the Z3 theorem prover.
//
// It has two layers. The lower one (z3.go) is a thin cgo binding to the C
// API of the system's libz3: a Context makes Terms (Booleans and
// bit-vectors), a Solver decides them incrementally (push/pop, assumptions,
// unsat cores) and a Model evaluates them. The upper one (adapter.go) is
// Z3, which implements solver.Solver on top of the binding so that the
// engines can use Z3 in place of gini. Beside them, fixedpoint.go's
// Fixedpoint implements solver.Fixedpoint on Z3's fixedpoint engine (Spacer),
// which decides Horn clauses over Booleans by itself and reports a
// derivation or an interpretation of the relations: the engine and its
// formulas in fixedpoint.go, its rules and query in fixedpoint_rules.go,
// the derivations read from Z3's proof in fixedpoint_derivation.go, the
// interpretation in fixedpoint_interpretation.go.
//
// Both need libz3 (Debian: libz3-dev) and cgo. Building with the tag noz3
// leaves them out: New then returns ErrNoZ3 and Available is false, so that
// callers compile and run the same way in either build.
//
// It is one of the two backends at the bottom of bmc's pipeline, lang ->
// ir -> seq/moped -> encode -> ts -> engine -> solver -> sat/smt (run by
// package driver, wrapped by the command cmd/bmc): driver picks it, the
// engines see only solver.Solver. Of bmc's packages it imports only
// solver.
package smt
