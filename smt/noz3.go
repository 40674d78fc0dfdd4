//go:build noz3

package smt

import "bmc/solver"

// Available reports whether this build has Z3; it is false with the tag
// noz3.
const Available = false

// Version is "" in a build without Z3.
func Version() string { return "" }

// New returns ErrNoZ3: this build has no Z3.
func New() (solver.Solver, error) { return nil, ErrNoZ3 }

// NewFixedpoint returns ErrNoZ3: this build has no Z3.
func NewFixedpoint() (solver.Fixedpoint, error) { return nil, ErrNoZ3 }
