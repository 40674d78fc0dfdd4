// Package testsolvers lists the solver backends every differential test
// runs: gini always, Z3 when the build has it.
//
// It is test support, outside bmc's pipeline (lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt), for the tests of the
// stages above the backends (engine, seq). It imports solver, sat and
// smt, and only tests import it.
package testsolvers
