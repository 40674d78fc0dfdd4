// Package solver is the small interface between the engines and the
// decision procedures: gini (package sat) and Z3 (package smt). Engines
// build formulas as and-inverter circuits through a Builder and decide them
// incrementally under assumptions, so nothing solver-specific leaks into
// encode/ or engine/. A Fixedpoint is a backend that decides Horn
// clauses by itself (Z3's Spacer).
//
// In bmc's pipeline, lang -> ir -> seq/moped -> encode -> ts -> engine ->
// solver -> sat/smt (run by package driver, wrapped by the command
// cmd/bmc), it sits between engine and the backends. It imports no bmc
// package, so that both sides depend on it and not on each other.
package solver
