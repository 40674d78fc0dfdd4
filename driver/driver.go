// Package driver picks the engine and solver for a check, so that the
// command line stays thin: it maps options to the explicit checker or to
// bounded model checking with gini or Z3.
package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/sat"
	"bmc/seq"
	"bmc/smt"
	"bmc/solver"
)

// Engines, solvers and sequentializations by name.
var (
	Engines = []string{"auto", "bmc", "explicit"}
	Solvers = []string{"gini", "z3"}
	Seqs    = []string{"auto", "eager", "lazy", "direct"}
)

// Largest bounds accepted: the sequentializations grow with the number of
// contexts (copies of the shared state per context).
const (
	MaxRounds   = 32
	MaxSwitches = 64
)

// Options are a check's engine, solver and bounds.
type Options struct {
	Engine   string // auto: bmc for one thread or a bounded check, explicit otherwise
	Solver   string
	Seq      string // concurrent programs on the bmc engine: auto, eager, lazy or direct
	MaxSteps int
	// Frames unrolls the transition relation frame by frame even where
	// the program (or its sequentialization) is loop-free and
	// non-recursive and could be encoded whole (encode.Unwind).
	Frames   bool
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
	if o.Seq == "" {
		o.Seq = "auto"
	}
	if !slices.Contains(Seqs, o.Seq) {
		return nil, &UsageError{fmt.Sprintf("unknown sequentialization %q (available: %s)", o.Seq, strings.Join(Seqs, ", "))}
	}
	if o.Explicit.Rounds > MaxRounds {
		return nil, &UsageError{fmt.Sprintf("-k must be at most %d, got %d", MaxRounds, o.Explicit.Rounds)}
	}
	if o.Explicit.Switches > MaxSwitches {
		return nil, &UsageError{fmt.Sprintf("--switches must be at most %d, got %d", MaxSwitches, o.Explicit.Switches)}
	}
	sequential := encode.Sequential(p)
	bounded := o.Explicit.Rounds > 0 || o.Explicit.Switches >= 0
	concurrentBMC := func() error {
		if !bounded {
			return fmt.Errorf("the bmc engine needs a bound for a concurrent program: -k K or --switches N")
		}
		if o.Seq == "direct" {
			if err := encode.DirectSupported(p); err != nil {
				return fmt.Errorf("%v; use --engine explicit", err)
			}
			return nil
		}
		if err := seq.Supported(p); err != nil {
			return fmt.Errorf("the program cannot be sequentialized: %v; use --engine explicit", err)
		}
		return nil
	}
	switch eng {
	case "auto":
		// Concurrent programs go to BMC only when a sequentialization is
		// asked for: on the examples and the corpus the explicit search
		// is still faster (docs/BENCHMARKS.md).
		eng = "explicit"
		if sequential == nil {
			eng = "bmc"
		} else if o.Seq != "auto" {
			if err := concurrentBMC(); err != nil {
				return nil, &UsageError{err.Error()}
			}
			eng = "bmc"
		}
	case "bmc":
		if sequential != nil {
			if err := concurrentBMC(); err != nil {
				return nil, &UsageError{err.Error()}
			}
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
	if sequential != nil {
		return checkConcurrent(ctx, p, o)
	}
	s, err := NewSolver(o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return engine.CheckProgram(ctx, p, s, engine.ProgramOptions{
		Depth: o.Explicit.Depth, MaxSteps: o.MaxSteps, Unwind: !o.Frames, Progress: o.Progress})
}
