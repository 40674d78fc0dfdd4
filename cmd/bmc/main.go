// Command bmc is a model checker for concurrent, possibly recursive
// Boolean programs. This file only wires flags to the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"bmc/driver"
	"bmc/explicit"
	"bmc/ir"
	"bmc/lang"
)

// Exit statuses, as documented in the README.
const (
	exitSafe      = 0
	exitViolation = 10
	exitBadInput  = 2
	exitUnknown   = 3
	exitInternal  = 4 // a bug in bmc, e.g. a counterexample that does not replay
)

// exitError carries an exit status through cobra.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &exitError{code: exitBadInput, msg: fmt.Sprintf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitSafe
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	}
	// Cobra's own errors: unknown command or flag, wrong argument count.
	fmt.Fprintf(stderr, "bmc: %v\nRun 'bmc --help' for usage.\n", err)
	return exitBadInput
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "bmc",
		Short:         "Model checker for concurrent Boolean programs",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("bmc %s: %v\nRun 'bmc %s --help' for usage.", c.Name(), err, c.Name())
	})
	root.AddCommand(newCheck(stdout, stderr), newFmt(stdout, stderr), newExport(stdout, stderr), newSeq(stdout, stderr))
	return root
}

// load reads, parses, checks and lowers a program, printing warnings.
func load(path string, opts ir.Options, stderr io.Writer) (*ir.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr("bmc: %v", err)
	}
	p, warnings, err := ir.Load(path, src, opts)
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	var se *ir.SourceError
	switch {
	case errors.As(err, &se):
		return nil, sourceErr(se.List)
	case err != nil:
		return nil, usageErr("%s: %v", path, err) // an option that does not fit the program
	}
	return p, nil
}

func sourceErr(list lang.ErrorList) error {
	msg := ""
	for i, e := range list {
		if i > 0 {
			msg += "\n"
		}
		msg += e.Error()
	}
	return &exitError{code: exitBadInput, msg: msg}
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
			f, err := lang.ParseFile(args[0], src)
			if err != nil {
				return sourceErr(err.(lang.ErrorList))
			}
			info, err := lang.Check(f)
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

func exactlyOneFile(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageErr("bmc %s: expected one program file, got %d arguments\nRun 'bmc %s --help' for usage.", cmd.Name(), len(args), cmd.Name())
	}
	return nil
}

type checkFlags struct {
	engine      string
	solver      string
	maxSteps    int
	frames      bool
	quiet       bool
	target      string
	threads     string
	rounds      int
	switches    int
	depth       int
	maxThreads  int
	maxStates   int
	json        bool
	timeout     time.Duration
	noReduction bool
	seq         string
}

func newCheck(stdout, stderr io.Writer) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [flags] prog.bpl",
		Short: "Search for an assertion failure or a reachable error label",
		Long: `Search for an assertion failure or a reachable error label (error, ERROR,
SLIC_ERROR, or the label given by --target) within the given bounds.

Exit status: 0 no violation within the bounds, 10 violation found (trace
printed), 2 bad input or usage, 3 unknown (timeout or a limit was reached).`,
		Args: exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, args[0], &f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.engine, "engine", "auto", "engine: bmc (bounded model checking; concurrent programs through a sequentialization, with -k or --switches), explicit (explicit-state search), or auto (bmc for one thread or when --seq is given, else explicit)")
	fl.StringVar(&f.seq, "seq", "auto", "bmc engine on concurrent programs: eager, lazy, direct, or auto (eager)")
	fl.StringVar(&f.solver, "solver", "gini", "solver for the bmc engine: gini or z3")
	fl.IntVar(&f.maxSteps, "max-steps", 50, "bmc engine: transitions to unroll (one per straight-line block)")
	fl.BoolVar(&f.frames, "frames", false, "bmc engine: unroll time frames even for a loop-free, non-recursive program (which is otherwise encoded whole)")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fl.StringVar(&f.target, "target", "", "error label to reach, replacing error, ERROR and SLIC_ERROR")
	fl.StringVar(&f.threads, "threads", "", "thread instances, e.g. adder=2,stopper=1 (name=* for unboundedly many)")
	fl.IntVarP(&f.rounds, "rounds", "k", 0, "bound: K round-robin rounds")
	fl.IntVar(&f.switches, "switches", -1, "bound: at most N context switches")
	fl.Lookup("switches").DefValue = "none" // -1 means unbounded
	fl.IntVar(&f.depth, "depth", 16, "call stack bound per thread (frames; the entry frame is 1)")
	fl.IntVar(&f.maxThreads, "max-threads", 4, "bound on threads created by spawning or for name=* counts")
	fl.IntVar(&f.maxStates, "max-states", 5_000_000, "explicit engine: give up (exit 3) after this many states")
	fl.BoolVar(&f.json, "json", false, "print the result as JSON")
	fl.DurationVar(&f.timeout, "timeout", 0, "give up (exit 3) after this long, e.g. 30s; 0 means no limit")
	fl.BoolVar(&f.noReduction, "no-reduction", false, "explicit engine: consider a context switch before every step (cross-checks the partial-order reduction)")
	return cmd
}

func runCheck(cmd *cobra.Command, path string, f *checkFlags, stdout, stderr io.Writer) error {
	fl := cmd.Flags()
	if f.maxSteps < 0 {
		return usageErr("bmc check: --max-steps must not be negative, got %d", f.maxSteps)
	}
	if fl.Changed("rounds") && fl.Changed("switches") {
		return usageErr("bmc check: give either -k (rounds) or --switches, not both")
	}
	if fl.Changed("rounds") && f.rounds < 1 {
		return usageErr("bmc check: -k must be at least 1, got %d", f.rounds)
	}
	if fl.Changed("switches") && f.switches < 0 {
		return usageErr("bmc check: --switches must be at least 0, got %d", f.switches)
	}
	if f.depth < 1 {
		return usageErr("bmc check: --depth must be at least 1, got %d", f.depth)
	}
	if f.maxThreads < 1 || f.maxThreads > 1000 {
		return usageErr("bmc check: --max-threads must be between 1 and 1000, got %d", f.maxThreads)
	}
	if f.maxStates < 1 {
		return usageErr("bmc check: --max-states must be at least 1, got %d", f.maxStates)
	}
	if f.timeout < 0 {
		return usageErr("bmc check: --timeout must not be negative")
	}
	opts := ir.Options{Target: f.target}
	if f.threads != "" {
		tc, err := ir.ParseThreads(f.threads)
		if err != nil {
			return usageErr("bmc check: %v", err)
		}
		opts.Threads = tc
	}
	p, err := load(path, opts, stderr)
	if err != nil {
		return err
	}
	o := driver.Options{Engine: f.engine, Solver: f.solver, Seq: f.seq, MaxSteps: f.maxSteps, Frames: f.frames, Timeout: f.timeout,
		Explicit: explicit.Options{Switches: f.switches, Rounds: f.rounds, Depth: f.depth,
			MaxThreads: f.maxThreads, MaxStates: f.maxStates, NoReduction: f.noReduction}}
	if !f.quiet {
		o.Progress = stderr
	}
	res, err := driver.Check(context.Background(), p, o)
	var ue *driver.UsageError
	switch {
	case errors.As(err, &ue):
		return usageErr("bmc check: %v", err)
	case err != nil:
		return &exitError{code: exitInternal, msg: "bmc: " + err.Error()}
	}
	if f.json {
		if err := res.WriteJSON(stdout, path); err != nil {
			return err
		}
	} else {
		res.WriteText(stdout, path)
	}
	switch res.Verdict {
	case explicit.Unsafe:
		return &exitError{code: exitViolation}
	case explicit.Unknown:
		return &exitError{code: exitUnknown}
	}
	return nil
}
