// Package corpus reads the third-party benchmark manifests in
// ../shared/bench (MANIFEST.tsv per folder) and the bounds they name, for
// the tests that compare our verdicts with the expected ones.
//
// It is test support, outside bmc's pipeline (lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt). It imports no bmc
// package, so that the tests of any stage may use it.
package corpus
