// Package sat implements solver.Solver on top of the gini SAT solver
// (github.com/go-air/gini).
//
// Formulas are and-inverter circuits kept in a gini logic.C, which gives
// structural hashing and constant folding for free. A solver.Lit is the
// circuit's z.Lit converted to int32; since logic.C numbers its nodes with the
// same variables the SAT solver uses, no translation table is needed.
//
// The circuit is handed to the SAT solver lazily: each Solve first adds the
// Tseitin clauses of every node built since the previous Solve (all of them,
// not only those reachable from assertions, so that Value works for any Lit
// built before the Solve), then the unit clauses of the formulas asserted
// since the previous Solve.
//
// It is one of the two backends at the bottom of bmc's pipeline, lang ->
// ir -> seq/moped -> encode -> ts -> engine -> solver -> sat/smt (run by
// package driver, wrapped by the command cmd/bmc): driver and cmd/bmc
// pick it, the engines see only solver.Solver. Of bmc's packages it
// imports only solver.
package sat
