// Package corpus finds the third-party benchmark corpus, ../shared/bench
// beside the repository root, and reads its manifests (MANIFEST.tsv per
// folder) and the bounds they name, for the tests that compare our
// verdicts with the expected ones.
//
// Files: corpus.go reads the manifests (Load, LoadManifest, Case,
// Bounds); dir.go finds
// the corpus from any package directory (BenchDir: the nearest go.mod of
// module bmc, then ../shared/bench); testing.go is the tests' entry:
// Dir and Cases for a test that needs the corpus, Optional for one that
// checks other programs too. A missing corpus skips a test, or leaves it
// to its other programs, except under CI (CI=true), where it fails.
//
// It is test support, and the reader of manifests for `bmc batch`
// (package batch), outside bmc's pipeline (lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt). It imports no bmc
// package, so that the tests of any stage may use it; of its non-test
// files only testing.go imports package testing.
package corpus
