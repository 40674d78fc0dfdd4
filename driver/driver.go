// Package driver picks the engine and solver for a check, so that the
// command line stays thin: it maps options to the explicit checker or to
// bounded model checking with gini or Z3.
package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/sat"
	"bmc/smt"
	"bmc/solver"
)

// Engines and solvers by name.
var (
	Engines = []string{"auto", "bmc", "explicit"}
	Solvers = []string{"gini", "z3"}
)

// Options are a check's engine, solver and bounds.
type Options struct {
	Engine   string // auto: bmc for one thread, explicit otherwise
	Solver   string
	MaxSteps int
	Timeout  time.Duration
	Progress io.Writer // nil: quiet
	Explicit explicit.Options
}

// UsageError is a request that cannot be carried out as asked.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// NewSolver returns the named solver.
func NewSolver(name string) (solver.Solver, error) {
	switch name {
	case "gini":
		return sat.New(), nil
	case "z3":
		s, err := smt.New()
		if errors.Is(err, smt.ErrNoZ3) {
			return nil, &UsageError{err.Error()}
		}
		return s, err
	}
	return nil, &UsageError{fmt.Sprintf("unknown solver %q (available: gini, z3)", name)}
}

// Check runs the chosen engine on p. Errors are *UsageError for requests
// that do not fit the program, others internal.
func Check(ctx context.Context, p *ir.Program, o Options) (*explicit.Result, error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	eng := o.Engine
	sequential := encode.Sequential(p)
	switch eng {
	case "auto":
		eng = "explicit"
		if sequential == nil {
			eng = "bmc"
		}
	case "bmc":
		if sequential != nil {
			return nil, &UsageError{fmt.Sprintf("the bmc engine checks one thread for now (%v); use --engine explicit", sequential)}
		}
	case "explicit":
	default:
		return nil, &UsageError{fmt.Sprintf("unknown engine %q (available: auto, bmc, explicit)", o.Engine)}
	}
	if eng == "explicit" {
		c, err := explicit.New(p, o.Explicit)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		return c.Run(ctx), nil
	}
	s, err := NewSolver(o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return engine.CheckProgram(ctx, p, s, engine.ProgramOptions{
		Depth: o.Explicit.Depth, MaxSteps: o.MaxSteps, Progress: o.Progress})
}
