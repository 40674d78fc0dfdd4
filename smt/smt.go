// Package smt connects bmc to the Z3 theorem prover.
//
// It has two layers. The lower one (z3.go) is a thin cgo binding to the C
// API of the system's libz3: a Context makes Terms (Booleans and
// bit-vectors), a Solver decides them incrementally (push/pop, assumptions,
// unsat cores) and a Model evaluates them. The upper one (adapter.go) is
// Z3, which implements solver.Solver on top of the binding so that the
// engines can use Z3 in place of gini.
//
// Both need libz3 (Debian: libz3-dev) and cgo. Building with the tag noz3
// leaves them out: New then returns ErrNoZ3 and Available is false, so that
// callers compile and run the same way in either build.
package smt

import "errors"

// ErrNoZ3 is the error New returns in a build without Z3.
var ErrNoZ3 = errors.New("bmc was built without Z3 (build tag noz3); rebuild without -tags noz3 and with libz3-dev installed")
