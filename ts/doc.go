// Package ts is the transition system every sequential question is
// reduced to: an and-inverter graph over inputs and latches, with initial
// values and next-state functions for the latches, bad-state properties,
// and constraints that every step taken must satisfy: a path s0..sk
// reaches a bad state when bad holds at sk and the constraints hold at
// s0..s(k-1). For questions about infinite paths it also has justice
// properties and fairness constraints: an infinite path on which the
// constraints always hold is fair when each fairness constraint holds
// infinitely often on it, and a fair path satisfies a justice property
// when each of the property's literals holds infinitely often on it. It
// is the form AIGER 1.9 describes, so the same system is unrolled for gini
// or Z3 and exported for hardware model checkers.
//
// In bmc's pipeline, lang -> ir -> seq/moped -> encode -> ts -> engine ->
// solver -> sat/smt (run by package driver, wrapped by the command
// cmd/bmc), encode builds the system and engine decides it. It imports no
// bmc package.
package ts
