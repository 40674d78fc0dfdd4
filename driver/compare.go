package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bmc/internal/budget"
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/method"
	"bmc/moped"
	"bmc/result"
	"bmc/seq"
	"bmc/smt"
)

// CompareOptions are the bounds and limits of a comparison.
type CompareOptions struct {
	Bound seq.Bound
	// Bounds carries the call depth and the explicit engine's limits;
	// its context bound is Bound. DepthStated says the user gave the
	// call depth (Options.DepthStated).
	Bounds      method.Bounds
	DepthStated bool
	// Timeout limits each run (0: none).
	Timeout time.Duration
	// Moped is the Moped executable; "" leaves Moped out.
	Moped string
	// Engines keeps only the runs whose names begin with one of these
	// ("summaries", "moped lazy"); empty keeps all.
	Engines  []string
	Progress io.Writer // one line a finished run; nil: quiet
}

// Run is one engine's answer in a comparison.
type Run struct {
	Engine  string
	Verdict string // safe, unsafe, unknown or error
	Elapsed time.Duration
	Detail  string // what limited an unknown run, an error's message, or statistics
}

// Decided reports whether the run answered safe or unsafe.
func (r Run) Decided() bool { return r.Verdict == "safe" || r.Verdict == "unsafe" }

// Compare checks p within o.Bound with each of our engines that can:
// the explicit engine, BMC on the eager and lazy sequentializations with
// gini and (when built) Z3, the summary engine (on the context encoding)
// with each solver (every call depth), and Moped on our eager and lazy sequential
// programs printed for it, one after the other, each under o.Timeout.
// Every run's verdict comes from its own algorithm; Compare only
// collects them. Moped has no call depth bound, so it can decide a
// program on which our engines stop at the depth bound.
func Compare(ctx context.Context, p *ir.Program, o CompareOptions) ([]Run, error) {
	if err := seq.Supported(p); err != nil {
		return nil, &result.UsageError{Msg: fmt.Sprintf("the program cannot be sequentialized, so only the explicit engine could check it: %v", err)}
	}
	if err := method.SeqFits(p, o.Bound, budget.MemoryLimit(ctx)); err != nil {
		return nil, &result.UsageError{Msg: err.Error()}
	}
	ex := o.Bounds.Within(o.Bound)
	type job struct {
		engine string
		run    func(context.Context) Run
	}
	ours := func(name string, engine method.Engine, sq method.Seq, solver method.SolverName) job {
		opts := method.Options{Engine: engine, Solver: solver, SolverStated: true, Seq: sq, MaxSteps: 50, Bounds: ex, DepthStated: o.DepthStated}
		return job{name, func(ctx context.Context) Run {
			res, err := Check(ctx, p, opts)
			if err != nil {
				return Run{Verdict: "error", Detail: err.Error()}
			}
			r := Run{Verdict: res.Verdict.String(), Detail: res.Stats}
			if res.Verdict == result.Unknown {
				r.Detail = res.LimitText()
			}
			return r
		}}
	}
	jobs := []job{ours("explicit", method.EngineExplicit, "", method.SolverGini)}
	solvers := []method.SolverName{method.SolverGini}
	if smt.Available {
		solvers = append(solvers, method.SolverZ3)
	}
	for _, solver := range solvers {
		for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy} {
			jobs = append(jobs, ours(fmt.Sprintf("bmc %s %s", sq, solver), method.EngineBMC, sq, solver))
		}
	}
	for _, solver := range append(solvers, method.SolverBDD) {
		jobs = append(jobs, ours(fmt.Sprintf("summaries %s %s", method.SummarySeq, solver), method.EngineSummaries, method.SummarySeq, solver))
	}
	if o.Moped != "" {
		for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy} {
			jobs = append(jobs, job{"moped " + string(sq), func(ctx context.Context) Run { return runMoped(ctx, p, o, sq) }})
		}
	}
	if len(o.Engines) > 0 {
		var kept []job
		for _, j := range jobs {
			if slices.ContainsFunc(o.Engines, func(e string) bool { return strings.HasPrefix(j.engine, e) }) {
				kept = append(kept, j)
			}
		}
		for _, e := range o.Engines {
			if !slices.ContainsFunc(jobs, func(j job) bool { return strings.HasPrefix(j.engine, e) }) {
				var names []string
				for _, j := range jobs {
					names = append(names, j.engine)
				}
				return nil, &result.UsageError{Msg: fmt.Sprintf("--engines: no run is named %q (the runs here: %s)", e, strings.Join(names, ", "))}
			}
		}
		jobs = kept
	}
	var runs []Run
	for _, j := range jobs {
		if ctx.Err() != nil {
			// The memory limit of the whole comparison: no run can start.
			runs = append(runs, Run{Engine: j.engine, Verdict: "unknown", Detail: halt.Reason(ctx) + " before it started"})
			continue
		}
		runCtx, cancel := ctx, context.CancelFunc(func() {})
		if o.Timeout > 0 {
			runCtx, cancel = context.WithTimeout(ctx, o.Timeout)
		}
		start := time.Now()
		r := j.run(runCtx)
		cancel()
		r.Engine, r.Elapsed = j.engine, time.Since(start)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "compare: %s: %s (%.2fs)\n", r.Engine, r.Verdict, r.Elapsed.Seconds())
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// runMoped prints the method's sequentialization of p for Moped into a
// temporary file and asks Moped whether its error label is reachable.
func runMoped(ctx context.Context, p *ir.Program, o CompareOptions, sq method.Seq) Run {
	translate := seq.Lazy
	if sq == method.SeqEager {
		translate = seq.Eager
	}
	limited := func(what string) Run {
		return Run{Verdict: "unknown", Detail: halt.Reason(ctx) + " " + what}
	}
	sp, err := translate(ctx, p, o.Bound)
	switch {
	case err != nil && ctx.Err() != nil:
		return limited("while sequentializing")
	case err != nil:
		return Run{Verdict: "error", Detail: err.Error()}
	}
	dir, err := os.MkdirTemp("", "bmc-compare-")
	if err != nil {
		return Run{Verdict: "error", Detail: err.Error()}
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, string(sq)+".bp")
	f, err := os.Create(file)
	if err != nil {
		return Run{Verdict: "error", Detail: err.Error()}
	}
	err = moped.Format(ctx, f, sp.Seq)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return limited("while printing the program for Moped")
	case err != nil:
		return Run{Verdict: "error", Detail: err.Error()}
	}
	reachable, err := moped.Run(ctx, o.Moped, file)
	switch {
	case err != nil && ctx.Err() != nil:
		return limited("(Moped was stopped)")
	case err != nil:
		return Run{Verdict: "error", Detail: err.Error()}
	case reachable:
		return Run{Verdict: "unsafe", Detail: "label " + moped.Label + " reachable"}
	}
	return Run{Verdict: "safe", Detail: "label " + moped.Label + " unreachable, any call depth"}
}
