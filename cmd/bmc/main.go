package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"bmc/driver"
	"bmc/ir"
	"bmc/lang"
	"bmc/method"
	"bmc/result"
)

// Exit statuses, as documented in the README.
const (
	exitSafe      = 0
	exitViolation = 10
	exitBadInput  = 2
	exitUnknown   = 3
	exitInternal  = 4 // a bug in bmc, e.g. a counterexample that does not replay
)

// exitError carries an exit status, and what to say about it, through
// cobra.
type exitError struct {
	code int
	msg  string         // "" when the output has said it all (a verdict)
	list lang.ErrorList // errors in the program text, each with its position
	hint string         // a line after msg on stderr, not part of the message
	file string         // the program, when the run got as far as naming one
}

func (e *exitError) Error() string {
	if len(e.list) > 0 {
		return e.list.Error()
	}
	return e.msg
}

func usageErr(format string, args ...any) error {
	return &exitError{code: exitBadInput, msg: fmt.Sprintf(format, args...)}
}

// usageHint is a usage error followed by the pointer to the command's help.
func usageHint(cmd string, format string, args ...any) error {
	return &exitError{code: exitBadInput, msg: fmt.Sprintf(format, args...), hint: fmt.Sprintf("Run '%s --help' for usage.", cmd)}
}

func internalErr(format string, args ...any) error {
	return &exitError{code: exitInternal, msg: fmt.Sprintf(format, args...)}
}

// gcPercent is the garbage collector's target (GOGC) unless the
// environment sets one: the engines keep large live sets (states,
// formulas) and allocate fast, and a collection when the heap has grown
// by 4 times the live data instead of once costs memory but far less
// collection work (bmc check of flags5 at 3 rounds 1.2x faster than
// with GOGC=100, with twice the memory, docs/BENCHMARKS.md
// "Bounded safety"); the memory limit (driver.Limit) still bounds the heap.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if exe, err := os.Executable(); err == nil {
		command = append([]string{exe}, os.Args[1:]...)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is this process's command line when it runs as bmc (not in a
// test), so that check and prove run the candidates of their plan as
// processes of their own (method.Options.Command).
var command []string

// run executes one command line and returns its exit status. With
// `check --json` every failure is also a JSON document on stdout, so
// that a caller reading JSON always gets one.
func run(args []string, stdout, stderr io.Writer) (code int) {
	asJSON := jsonRequested(args)
	defer func() {
		// A panic is a bug in bmc: exit status 4, with the stack for the
		// bug report, never a crash without an answer.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s", debug.Stack())
			code = report(internalErr("bmc: internal error: %v", r), asJSON, stdout, stderr)
		}
	}()
	injectFault(args)
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	return report(root.Execute(), asJSON, stdout, stderr)
}

// report prints err, if any, and returns the exit status it stands for.
func report(err error, asJSON bool, stdout, stderr io.Writer) int {
	if err == nil {
		return exitSafe
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		// Cobra's own errors: unknown command, wrong argument count.
		ee = &exitError{code: exitBadInput, msg: "bmc: " + err.Error(), hint: "Run 'bmc --help' for usage."}
	}
	if asJSON && (ee.code == exitBadInput || ee.code == exitInternal) && ee.Error() != "" {
		// (An empty message: the output, a JSON document, has said it.)
		if werr := writeJSONError(stdout, ee); werr != nil {
			fmt.Fprintf(stderr, "bmc: %v\n", werr)
		}
		return ee.code
	}
	for _, e := range ee.list {
		fmt.Fprintln(stderr, e)
	}
	if ee.msg != "" {
		fmt.Fprintln(stderr, ee.msg)
	}
	if ee.hint != "" {
		fmt.Fprintln(stderr, ee.hint)
	}
	return ee.code
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "bmc",
		Short:         "Model checker for concurrent Boolean programs",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// CommandPath: "bmc" for the root, "bmc check" for a command.
		return usageHint(c.CommandPath(), "%s: %v", c.CommandPath(), err)
	})
	root.AddCommand(newCheck(stdout, stderr), newCompare(stdout, stderr), newFmt(stdout, stderr), newExport(stdout, stderr), newSeq(stdout, stderr), newProve(stdout, stderr),
		newBatch(stdout, stderr), newReport(stdout, stderr))
	return root
}

// limitError says that the time or memory limit ended a run before it
// had an answer.
type limitError struct{ limit result.Limit }

func (e *limitError) Error() string { return e.limit.String() }

// limitErr is the error of ctx, which has ended, during what.
func limitErr(ctx context.Context, what string) *limitError {
	return &limitError{limit: result.Stopped(ctx, "while "+what)}
}

// endedBy reports whether err is a construction's answer to the end of
// ctx (its cause), rather than an error of its own.
func endedBy(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(err, context.Cause(ctx))
}

// loadOptions are the front end's options from the flags --target and
// --threads of the command named cmd.
func loadOptions(cmd, target, threads string) (ir.Options, error) {
	opts := ir.Options{Target: target}
	if threads != "" {
		tc, err := ir.ParseThreads(threads)
		if err != nil {
			return opts, usageErr("%s: %v", cmd, err)
		}
		opts.Threads = tc
	}
	return opts, nil
}

// loadProgram reads, parses, checks and lowers a program, printing
// warnings. When ctx ends first, the error is a *limitError.
func loadProgram(ctx context.Context, path string, opts ir.Options, stderr io.Writer) (*ir.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr("bmc: %v", err)
	}
	p, warnings, err := ir.Load(ctx, path, src, opts)
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	var se *ir.SourceError
	switch {
	case errors.As(err, &se):
		return nil, sourceErr(se.List)
	case endedBy(ctx, err):
		return nil, limitErr(ctx, "loading the program")
	case err != nil:
		return nil, usageErr("%s: %v", path, err) // an option that does not fit the program
	}
	return p, nil
}

func sourceErr(list lang.ErrorList) error {
	return &exitError{code: exitBadInput, list: list}
}

// gaveUp turns a *limitError into the exit of a command without verdicts
// (seq, export): status 3, as for an unknown verdict. Other errors pass.
func gaveUp(cmd string, err error) error {
	var le *limitError
	if errors.As(err, &le) {
		return &exitError{code: exitUnknown, msg: fmt.Sprintf("%s: gave up: %s", cmd, le)}
	}
	return err
}

func newFmt(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "fmt prog.bpl",
		Short: "Print the program in normalized syntax",
		Args:  exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := os.ReadFile(args[0])
			if err != nil {
				return usageErr("bmc: %v", err)
			}
			f, err := lang.ParseFile(context.Background(), args[0], src)
			if err != nil {
				return sourceErr(err.(lang.ErrorList))
			}
			info, err := lang.Check(context.Background(), f)
			for _, w := range info.Warnings {
				fmt.Fprintln(stderr, w)
			}
			if err != nil {
				return sourceErr(err.(lang.ErrorList))
			}
			_, err = stdout.Write(lang.Format(f))
			return err
		},
	}
}

// onFile is the RunE of a command on one program file: an exit error
// names the file, for a JSON error document.
func onFile(run func(cmd *cobra.Command, path string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := run(cmd, args[0])
		if ee, ok := err.(*exitError); ok {
			ee.file = args[0]
		}
		return err
	}
}

func exactlyOneFile(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageHint("bmc "+cmd.Name(), "bmc %s: expected one program file, got %d arguments", cmd.Name(), len(args))
	}
	return nil
}

type checkFlags struct {
	boundFlags
	engine      string
	solver      string
	maxSteps    int
	frames      bool
	quiet       bool
	verbose     bool
	cores       int
	maxStates   int
	json        bool
	limits      limitFlags
	noReduction bool
	noSymmetry  bool
	switchAt    string // --switch-points: any or getafix
	seq         string
	lasso       string // --lasso k1,k2: the livelock search
	fairness    string
	lassoBound  result.LassoBound // lasso and fairness, parsed by validate
	pictures    traceFlags        // --trace-svg, --trace-html
}

func newCheck(stdout, stderr io.Writer) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [flags] prog.bpl",
		Short: "Search for an assertion failure, a reachable error label, or a livelock",
		Long: `Search for an assertion failure or a reachable error label (error, ERROR,
SLIC_ERROR, or the label given by --target) within the given bounds.

With --lasso k1,k2, search instead for a livelock: a fair execution that,
after a stem of k1 round-robin rounds, repeats a loop of k2 rounds forever
(it ends the loop in the configuration it started it from). --fairness
says what fair means: strong (default: a thread that takes no step in the
loop has terminated or waits in acquire on a lock held throughout the
loop), weak (... held at some point of the loop) or none. The bmc engine
decides the MUTANT lasso translation (or, with --seq direct, the lasso on
the interleaving product); --engine explicit searches the configurations.

Without --engine and --seq, the engines race on the machine's cores and
the first decisive answer wins (--verbose prints the plan).

Exit status: 0 no violation (no livelock) within the bounds, 10 violation
(livelock) found (trace printed), 2 bad input or usage, 3 unknown (a limit
cut the search short), 4 internal error. With --json, every outcome is one
JSON document on standard output, errors included ("verdict": "error").

--trace-svg FILE and --trace-html FILE draw the trace of a violation or
livelock: one lane per thread, time downward, context switches as arrows,
lock holds as bars, the shared variables each step changes, a livelock's
loop boxed; the HTML page shows the source lines on hover.`,
		Args: exactlyOneFile,
		RunE: onFile(func(cmd *cobra.Command, path string) error {
			return runCheck(cmd, path, &f, stdout, stderr)
		}),
	}
	fl := cmd.Flags()
	registerChoice(fl, &f.engine, method.EngineChoice, "engine")
	registerChoice(fl, &f.seq, method.SeqChoice, "encoding of a concurrent program; any but auto pins the engine it belongs to (eager, lazy, direct: bmc; contexts, product: summaries)")
	registerChoice(fl, &f.solver, method.SolverChoice, "solver of the bmc and summary engines (not stated: the summary engine races gini and bdd)")
	fl.IntVar(&f.maxSteps, "max-steps", 50, "bmc engine: transitions to unroll (one per straight-line block)")
	fl.BoolVar(&f.frames, "frames", false, "bmc engine: unroll time frames even for a loop-free, non-recursive program (which is otherwise encoded whole)")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fl.BoolVar(&f.verbose, "verbose", false, "print the plan (the engines raced, on how many cores) on stderr before it runs")
	registerCores(fl, &f.cores)
	f.boundFlags.register(fl, contextBound|depthBound|threadsBound|targetBound|maxThreadsBound, depthHelp)
	fl.IntVar(&f.maxStates, "max-states", 5_000_000, "explicit engine: give up (exit 3) after this many states")
	fl.BoolVar(&f.json, "json", false, "print the result, or the errors, as one JSON document")
	f.limits.register(fl, "the whole run, loading the program included")
	fl.BoolVar(&f.noReduction, "no-reduction", false, "explicit engine: consider a context switch before every step (cross-checks the partial-order reduction)")
	fl.BoolVar(&f.noSymmetry, "no-symmetry", false, "explicit engine: keep states that differ only by a permutation of a thread group's instances, or by a rotation of a ring of threads, apart (cross-checks the symmetry reductions)")
	registerChoice(fl, &f.switchAt, method.SwitchPointChoice, "where a thread may be switched out (getafix: explicit engine and --seq product, with -k or --switches)")
	fl.StringVar(&f.lasso, "lasso", "", "search for a livelock: a stem of k1 rounds, then a loop of k2 rounds repeated forever (k1,k2; k1 >= 0, k2 >= 1)")
	registerChoice(fl, &f.fairness, method.FairnessChoice, "with --lasso: the fairness the loop must meet")
	f.pictures.register(fl)
	return cmd
}

func runCheck(cmd *cobra.Command, path string, f *checkFlags, stdout, stderr io.Writer) error {
	// The limits cover the whole run: reading and loading the program
	// count against the timeout, and the reported time is the run's.
	start := time.Now()
	ctx, stop := driver.Limit(context.Background(), f.limits.timeout, int64(f.limits.maxMemory))
	defer stop()
	fl := cmd.Flags()
	if err := f.validate(fl); err != nil {
		return err
	}
	if err := f.pictures.check("bmc check", fl, path); err != nil {
		return err
	}
	opts, err := loadOptions("bmc check", f.target, f.threads)
	if err != nil {
		return err
	}
	var res *result.Result
	p, err := loadProgram(ctx, path, opts, stderr)
	var le *limitError
	switch {
	case errors.As(err, &le):
		res = f.cutWhileLoading(le, fl)
	case err != nil:
		return err
	default:
		o := method.Options{Engine: method.Engine(f.engine), Solver: method.SolverName(f.solver), Seq: method.Seq(f.seq), MaxSteps: f.maxSteps, StepsStated: fl.Changed("max-steps"),
			Frames: f.frames, ThreadsStated: fl.Changed("max-threads"), DepthStated: fl.Changed("depth"), SolverStated: fl.Changed("solver"),
			Bounds: method.Bounds{Switches: f.switches, Rounds: f.rounds, Depth: f.depth,
				MaxThreads: f.maxThreads.n, AnyThreads: f.maxThreads.any, MaxStates: f.maxStates, NoReduction: f.noReduction,
				NoSymmetry: f.noSymmetry, GetafixSwitches: f.switchAt == "getafix"},
			Cores: f.cores, Command: withoutTraceFlags(command)}
		if !f.quiet {
			o.Progress = stderr
		}
		if f.verbose {
			o.Verbose = stderr
		}
		if fl.Changed("lasso") {
			res, err = driver.Livelock(ctx, p, o, f.lassoBound)
		} else {
			res, err = driver.Check(ctx, p, o)
		}
		var ue *result.UsageError
		switch {
		case errors.As(err, &ue):
			return usageErr("bmc check: %v", err)
		case err != nil:
			return internalErr("bmc: %v", err)
		}
	}
	res.Elapsed = time.Since(start)
	return f.pictures.draw(cmd, res, p, path, printVerdict(res, f.json, stdout, path), stderr)
}

// printVerdict prints res (as JSON with asJSON) and returns the exit
// that stands for its verdict: nil for safe.
func printVerdict(res *result.Result, asJSON bool, stdout io.Writer, path string) error {
	if asJSON {
		if err := res.WriteJSON(stdout, path); err != nil {
			return err
		}
	} else {
		res.WriteText(stdout, path)
	}
	switch res.Verdict {
	case result.Unsafe:
		return &exitError{code: exitViolation}
	case result.Unknown:
		return &exitError{code: exitUnknown}
	}
	return nil
}

// cutWhileLoading is the unknown result of a run that a limit ended
// before the program was loaded: no engine ran, so the bounds are the
// ones asked for.
func (f *checkFlags) cutWhileLoading(le *limitError, fl *pflag.FlagSet) *result.Result {
	bounds, depth := f.requestedBounds(fl)
	res := &result.Result{Engine: f.engine, Verdict: result.Unknown, Bounds: bounds, Depth: depth,
		Limits: []result.Limit{le.limit}, Stats: "not searched"}
	res.Advice = res.Advise("", false)
	return res
}
