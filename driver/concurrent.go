package driver

import (
	"context"
	"fmt"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/seq"
)

// untilEnded is how far the unrolling of a sequentialization may go
// beyond --max-steps when that covers every execution of the sequential
// program (each thread run is a bounded sequence of steps when the
// threads have no loops).
const untilEnded = 2000

// checkConcurrent checks a concurrent program with BMC on a
// sequentialization, bound after bound from the smallest (1 round or 0
// switches) to the one asked for, so that a violation is reported at the
// smallest bound that has one.
func checkConcurrent(ctx context.Context, p *ir.Program, o Options) (*explicit.Result, error) {
	start := time.Now()
	method := o.Seq
	if method == "auto" {
		// Measured (docs/BENCHMARKS.md): with gini the eager program is
		// solved fastest on all Bluetooth and permutation cells but
		// three, where lazy is at most 0.2 s faster; direct is orders of
		// magnitude slower on Bluetooth.
		method = "eager"
	}
	translate := seq.Lazy
	if method == "eager" {
		translate = seq.Eager
	}
	lo, hi := 0, o.Explicit.Switches
	if o.Explicit.Rounds > 0 {
		lo, hi = 1, o.Explicit.Rounds
	}
	depth := o.Explicit.Depth
	var res *explicit.Result
	for k := lo; k <= hi; k++ {
		bd := seq.Bound{Switches: k}
		if o.Explicit.Rounds > 0 {
			bd = seq.Bound{Rounds: k}
		}
		s, err := NewSolver(o.Solver)
		if err != nil {
			return nil, err
		}
		eo := o.Explicit
		eo.Rounds, eo.Switches = bd.Rounds, bd.Switches
		if bd.Rounds > 0 {
			eo.Switches = -1
		}
		if method == "direct" {
			res, err = engine.CheckDirect(ctx, p, s, engine.ProgramOptions{Depth: depth, MaxSteps: o.MaxSteps, UntilEnded: untilEnded,
				Replay: func(steps []explicit.ReplayStep) (*explicit.Trace, error) { return explicit.Replay(p, eo, steps) }},
				encode.DirectOptions{Rounds: bd.Rounds, Switches: eo.Switches, MaxThreads: o.Explicit.MaxThreads})
		} else {
			var sp *seq.Program
			if sp, err = translate(p, bd); err != nil {
				s.Close()
				return nil, &UsageError{err.Error()}
			}
			res, err = engine.CheckProgram(ctx, sp.Seq, s, engine.ProgramOptions{
				// main's frame comes on top of the thread's frames.
				Depth: depth + 1, MaxSteps: o.MaxSteps, UntilEnded: untilEnded, Unwind: !o.Frames,
				Replay: func(steps []explicit.ReplayStep) (*explicit.Trace, error) {
					cs, err := sp.Interleave(steps)
					if err != nil {
						return nil, err
					}
					return explicit.Replay(p, eo, cs)
				}})
		}
		s.Close()
		if err != nil {
			return nil, err
		}
		res.Engine = fmt.Sprintf("bmc+%s, %s sequentialization", o.Solver, method)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: %s: %s (%s, %.1fs)\n", bd, describe(res), method, time.Since(start).Seconds())
		}
		switch res.Verdict {
		case explicit.Unsafe:
			res.ContextBound = k
			res.Bounds = fmt.Sprintf("%s (the smallest bound with a violation), call depth %d", bd, depth)
			res.Elapsed = time.Since(start)
			return res, nil
		case explicit.Unknown:
			res.Bounds = fmt.Sprintf("%s, call depth %d", bd, depth)
			res.Elapsed = time.Since(start)
			return res, nil
		}
		res.Bounds = fmt.Sprintf("%s, call depth %d, %s", bd, depth, stepsNote(res.Bounds, res.Bound))
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// stepsNote says whether the unrolling covered every execution of the
// sequential program.
func stepsNote(bounds string, steps int) string {
	if len(bounds) >= 14 && bounds[:14] == "all executions" {
		return fmt.Sprintf("every execution (each ends within %d steps of the sequential program)", steps)
	}
	return fmt.Sprintf("executions of up to %d steps of the sequential program", steps)
}

func describe(r *explicit.Result) string {
	switch r.Verdict {
	case explicit.Unsafe:
		return "violation"
	case explicit.Unknown:
		return "unknown"
	}
	return "no violation"
}
