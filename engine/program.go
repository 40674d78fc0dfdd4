package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/ir"
	"bmc/solver"
)

// ProgramOptions bound a BMC run on a program.
type ProgramOptions struct {
	Depth      int // call stack frames
	MaxSteps   int // transitions (large blocks) to unroll
	SmallSteps bool
	Progress   io.Writer
	// Replay turns a counterexample (steps of p) into the trace shown;
	// nil replays it on p itself. A sequentialization maps it back to
	// the concurrent program here.
	Replay func(steps []explicit.ReplayStep) (*explicit.Trace, error)
}

// CheckProgram runs bounded model checking on a sequential program with
// solver s. A counterexample is replayed on the explicit interpreter
// before it is returned; one that does not replay is an internal error.
func CheckProgram(ctx context.Context, p *ir.Program, s solver.Solver, opts ProgramOptions) (*explicit.Result, error) {
	start := time.Now()
	// Without recursion the deepest call chain bounds the stack: encoding
	// just that many frames makes an overflow impossible, and leaves the
	// solver no overflow to refute (a counting argument it finds hard).
	frames, exact := opts.Depth, false
	if d := callDepth(p); d > 0 && d <= opts.Depth {
		frames, exact = d, true
	}
	en, err := encode.EncodeWith(p, encode.Options{Depth: frames, SmallSteps: opts.SmallSteps})
	if err != nil {
		return nil, err
	}
	b := NewBMC(en.Sys, s)
	res := &explicit.Result{
		Engine: "bmc+" + s.Name(),
		Bounds: fmt.Sprintf("%d steps, call depth %d", opts.MaxSteps, opts.Depth),
	}
	defer func() { res.Elapsed = time.Since(start) }()
	stats := func(k int) string {
		return fmt.Sprintf("bound %d, %d latches, %d inputs, %d nodes", k, len(en.Sys.Latches()), len(en.Sys.Inputs()), en.Sys.NumVars())
	}
	// One query per bound asks for a violation or a stack overflow; only
	// after an overflow has been seen are violations searched alone.
	bad, ovf := en.Sys.Bad[encode.PropViolation].Lit, en.Sys.Bad[encode.PropOverflow].Lit
	overflow := exact // no overflow to look for
	for k := 0; k <= opts.MaxSteps; k++ {
		res.Stats, res.Bound = stats(k), k
		target := b.U.At(bad, k)
		if !overflow {
			target = solver.Or(s, target, b.U.At(ovf, k))
		}
		st := b.Query(ctx, k, target)
		if st == solver.Sat && !overflow && !s.Value(b.U.At(bad, k)) {
			overflow = true
			st = b.Query(ctx, k, b.U.At(bad, k))
		}
		if opts.Progress != nil && time.Since(start) > time.Second {
			fmt.Fprintf(opts.Progress, "bmc: bound %d: %s (%s, %.1fs)\n", k, map[solver.Status]string{
				solver.Unsat: "no violation", solver.Sat: "violation", solver.Unknown: "interrupted"}[st], s.Name(), time.Since(start).Seconds())
		}
		switch st {
		case solver.Unknown:
			res.Verdict = explicit.Unknown
			res.Limits = []string{fmt.Sprintf("timeout at bound %d", k)}
			return res, nil
		case solver.Sat:
			w := b.Witness(k)
			steps, err := en.Steps(func(i int) []bool { return w.Values(en.Sys, i) }, k)
			if err != nil {
				return nil, fmt.Errorf("internal error: %v", err)
			}
			replay := opts.Replay
			if replay == nil {
				replay = func(steps []explicit.ReplayStep) (*explicit.Trace, error) {
					eo := explicit.DefaultOptions()
					eo.Depth = opts.Depth
					return explicit.Replay(p, eo, steps)
				}
			}
			tr, err := replay(steps)
			if err != nil {
				return nil, fmt.Errorf("internal error: the %s counterexample at bound %d does not replay on the explicit interpreter: %v", res.Engine, k, err)
			}
			res.Verdict, res.Trace = explicit.Unsafe, tr
			res.Bounds = fmt.Sprintf("%d steps, call depth %d", k, opts.Depth)
			return res, nil
		}
	}
	if overflow && !exact {
		res.Verdict = explicit.Unknown
		res.Limits = []string{fmt.Sprintf("depth bound reached (call depth %d)", opts.Depth)}
		return res, nil
	}
	// Does any execution run longer than the bound?
	if _, st := b.Search(ctx, en.Running(), opts.MaxSteps, opts.MaxSteps); st == solver.Unsat {
		res.Bounds = fmt.Sprintf("all executions (each ends within %d steps), call depth %d", opts.MaxSteps, opts.Depth)
	}
	res.Verdict = explicit.Safe
	return res, nil
}

// callDepth is the most frames the program's stack can hold (init and the
// thread), or -1 with recursion.
func callDepth(p *ir.Program) int {
	d := ir.CallDepth(p.Threads[0].Proc)
	if p.Init != nil && d > 0 {
		if i := ir.CallDepth(p.Init); i < 0 {
			d = -1
		} else {
			d = max(d, i)
		}
	}
	return d
}
