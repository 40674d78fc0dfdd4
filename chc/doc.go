// Package chc holds systems of constrained Horn clauses over Booleans:
// predicates with Boolean arguments and clauses
//
//	head(args) <- body_1(args_1) & ... & body_n(args_n) & constraint
//
// whose arguments and constraint are literals of one and-inverter graph
// (a ts.System used only for its nodes; its inputs are the clauses'
// variables, universally quantified in each clause). A clause without a
// head is a query: the system is safe when no derivation makes a query's
// body true.
//
// A Boolean program with procedures is a pushdown system, and
// reachability in it is the least model of such clauses: one predicate
// per procedure relates its entry values to its exit values (a summary),
// one per cut point its entry values to the values there (package encode
// builds them). Solvers (package engine) answer with a Derivation, a tree
// of ground atoms that is a counterexample of any call depth (kept as a
// DAG: an atom derived once is one node wherever it is used), or with an
// Interpretation of every predicate that makes every clause valid and
// every query false: the summaries, a proof. Both are checked here, on a
// solver of the caller's choosing, before anything is believed; Write
// prints a system in SMT-LIB's HORN logic for other CHC solvers, and
// Inline resolves away the predicates that one clause defines before a
// solver sees the system.
//
// It imports ts (the graph), and solver and bdd (the checks: an
// interpretation is re-checked on a SAT solver or, when it comes from
// decision diagrams, on diagrams of a fresh manager).
package chc
