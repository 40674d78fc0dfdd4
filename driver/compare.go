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
	// Engines keeps only the runs whose names hold every word of one of
	// these ("summaries", "bmc eager", "moped lazy"); empty keeps all.
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

// compareJob is one run of a comparison.
type compareJob struct {
	engine string
	run    func(context.Context) Run
}

// Compare checks p within o.Bound with every method of the plan table
// that takes it, and with Moped on our eager and lazy sequential
// programs printed for it, one after the other, each under o.Timeout.
// The methods are those of the plans of bmc check for every pin of the
// vocabulary (each engine, encoding and solver, and none), each once.
// Every run's verdict comes from its own algorithm; Compare only
// collects them. Moped and the summary engine have no call depth
// bound, so they can decide a program on which the others stop at it.
func Compare(ctx context.Context, p *ir.Program, o CompareOptions) ([]Run, error) {
	var jobs []compareJob
	for _, m := range compareMethods(ctx, p, o) {
		jobs = append(jobs, compareJob{m.Name, func(ctx context.Context) Run { return runMethod(ctx, m) }})
	}
	if len(jobs) == 0 {
		return nil, &result.UsageError{Msg: "no method takes this program within the bound"}
	}
	// Moped reads our sequential programs.
	if o.Moped != "" && seq.Supported(p) == nil && method.SeqFits(p, o.Bound, budget.MemoryLimit(ctx)) == nil {
		for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy} {
			jobs = append(jobs, compareJob{"moped " + string(sq), func(ctx context.Context) Run { return runMoped(ctx, p, o, sq) }})
		}
	}
	jobs, err := keepEngines(jobs, o.Engines)
	if err != nil {
		return nil, err
	}
	var runs []Run
	for _, j := range jobs {
		runs = append(runs, runJob(ctx, j, o))
	}
	return runs, nil
}

// compareMethods are the methods of bmc check's plans within o's bounds
// for every pin of the vocabulary, in the order the plans list them,
// each once: solvers gini (the plan may add bdd beside it), z3 when
// built, and bdd.
func compareMethods(ctx context.Context, p *ir.Program, o CompareOptions) []method.Method {
	solvers := []method.SolverName{method.SolverGini}
	if smt.Available {
		solvers = append(solvers, method.SolverZ3)
	}
	solvers = append(solvers, method.SolverBDD)
	bounds := o.Bounds.Within(o.Bound)
	var out []method.Method
	seen := map[string]bool{}
	for _, solver := range solvers {
		for _, engine := range method.EngineChoice.Names() {
			for _, sq := range method.SeqChoice.Names() {
				opts := method.Options{Engine: method.Engine(engine), Seq: method.Seq(sq), Solver: solver, SolverStated: solver != method.SolverGini,
					MaxSteps: 50, Bounds: bounds, DepthStated: o.DepthStated}
				pl, err := makePlan(ctx, p, opts, method.Safety, result.LassoBound{})
				if err != nil {
					continue // a pin the program does not take
				}
				for _, c := range pl.Candidates {
					if !seen[c.Name] {
						seen[c.Name] = true
						out = append(out, c.Method)
					}
				}
			}
		}
	}
	return out
}

// runMethod runs m and words its answer as a comparison's run.
func runMethod(ctx context.Context, m method.Method) Run {
	res, err := m.Run(ctx, nil)
	if err != nil {
		return Run{Verdict: "error", Detail: err.Error()}
	}
	r := Run{Verdict: res.Verdict.String(), Detail: res.Stats}
	if res.Verdict == result.Unknown {
		r.Detail = res.LimitText()
	}
	return r
}

// keepEngines keeps the jobs whose names hold every word of one of
// engines (all of them when there are none); an entry that names no job
// is a usage error.
func keepEngines(jobs []compareJob, engines []string) ([]compareJob, error) {
	if len(engines) == 0 {
		return jobs, nil
	}
	names := func(e string) func(compareJob) bool {
		return func(j compareJob) bool {
			for _, w := range strings.Fields(e) {
				if !strings.Contains(j.engine, w) {
					return false
				}
			}
			return true
		}
	}
	var kept []compareJob
	for _, j := range jobs {
		if slices.ContainsFunc(engines, func(e string) bool { return names(e)(j) }) {
			kept = append(kept, j)
		}
	}
	for _, e := range engines {
		if !slices.ContainsFunc(jobs, names(e)) {
			var all []string
			for _, j := range jobs {
				all = append(all, j.engine)
			}
			return nil, &result.UsageError{Msg: fmt.Sprintf("--engines: no run is named %q (the runs here: %s)", e, strings.Join(all, "; "))}
		}
	}
	return kept, nil
}

// runJob runs j under o's timeout and reports it.
func runJob(ctx context.Context, j compareJob, o CompareOptions) Run {
	if ctx.Err() != nil {
		// The memory limit of the whole comparison: no run can start.
		return Run{Engine: j.engine, Verdict: "unknown", Detail: halt.Reason(ctx) + " before it started"}
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
	return r
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
