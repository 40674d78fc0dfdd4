package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"bmc/driver"
	"bmc/internal/budget"
	"bmc/ir"
	"bmc/method"
	"bmc/moped"
	"bmc/result"
	"bmc/seq"
)

type compareFlags struct {
	boundFlags
	maxStates   int
	timeout     time.Duration
	maxMemory   byteSize
	moped       string
	engines     []string
	json, quiet bool
}

func newCompare(stdout, stderr io.Writer) *cobra.Command {
	var f compareFlags
	cmd := &cobra.Command{
		Use:   "compare (-k K | --switches N) [flags] prog.bpl",
		Short: "Check a program with every engine, and with Moped, and compare the verdicts",
		Long: `Check the program within K round-robin rounds (-k) or N context switches
(--switches) with every method of bmc check's plan table that takes it
(the methods of the plans for each --engine, --seq and --solver: the
explicit engine, BMC on each sequentialization and the interleaving
product, the summary engine on each encoding, the engines on decision
diagrams, coverability and the linear interfaces where they apply),
and with Moped 1.0.15 on our eager and lazy sequential programs printed
for it (bmc seq --for moped), when it is on the PATH or named by
--moped. The runs go one after the other, each under --timeout; one
table shows each method's verdict and time. A one-thread program needs
no bound: one context covers every execution.

Moped and the summary engine have no call depth bound: they may decide
a program on which the other engines stop at --depth.

Exit status: 0 every decided verdict agrees (at least one decided), 4 two
decided verdicts disagree or a run failed (both answers are shown: a bug
in bmc or in Moped), 3 no run decided, 2 bad input or usage. With --json,
one JSON document on standard output.`,
		Args: exactlyOneFile,
		RunE: onFile(func(cmd *cobra.Command, path string) error {
			return runCompare(cmd, path, &f, stdout, stderr)
		}),
	}
	fl := cmd.Flags()
	f.boundFlags.register(fl, contextBound|depthBound|threadsBound|targetBound, "call stack bound per thread for bmc's engines (frames; Moped has none)")
	fl.IntVar(&f.maxStates, "max-states", 5_000_000, "explicit engine: give up after this many states")
	fl.DurationVar(&f.timeout, "timeout", time.Minute, "give up each run after this long (an unknown verdict); 0 means no limit")
	f.maxMemory = byteSize(driver.DefaultMaxMemory())
	fl.Var(&f.maxMemory, "max-memory", "end bmc's runs (unknown) when bmc grows beyond `SIZE`, and refuse (exit 2) what cannot fit (Moped's memory is its own); 0 means no limit")
	fl.Lookup("max-memory").DefValue = fmt.Sprintf("half of this machine's memory (%s)", budget.FormatBytes(int64(f.maxMemory)))
	fl.StringVar(&f.moped, "moped", "", "the Moped executable (default: moped on the PATH, left out when there is none)")
	fl.StringSliceVar(&f.engines, "engines", nil, "only the runs whose names hold every word of one of these, e.g. summaries,moped or \"bmc eager\" (default: all)")
	fl.BoolVar(&f.json, "json", false, "print the comparison, or the errors, as one JSON document")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	return cmd
}

func runCompare(cmd *cobra.Command, path string, f *compareFlags, stdout, stderr io.Writer) error {
	const name = "bmc compare"
	fl := cmd.Flags()
	if err := f.boundFlags.validate(name, fl); err != nil {
		return err
	}
	switch {
	case f.maxStates < 1:
		return usageErr("%s: --max-states must be at least 1, got %d", name, f.maxStates)
	case f.timeout < 0:
		return usageErr("%s: --timeout must not be negative, got %s", name, f.timeout)
	}
	var notes []string
	exe := f.moped
	if exe == "" {
		exe = "moped"
	}
	exe, err := moped.Find(exe)
	switch {
	case err != nil && f.moped != "":
		return usageErr("%s: --moped: %v", name, err)
	case err != nil:
		notes = append(notes, "Moped is not on the PATH, so only bmc's own engines are compared (--moped PATH names it; docs/USAGE.md, \"Comparing with Moped\", says how to build it)")
	}
	ctx, stop := driver.Limit(context.Background(), 0, int64(f.maxMemory))
	defer stop()
	opts := ir.Options{Target: f.target}
	if f.threads != "" {
		tc, err := ir.ParseThreads(f.threads)
		if err != nil {
			return usageErr("%s: %v", name, err)
		}
		opts.Threads = tc
	}
	p, err := loadProgram(ctx, path, opts, stderr)
	if err != nil {
		return gaveUp(name, err)
	}
	bd := seq.Bound{Rounds: f.rounds, Switches: f.switches}
	if !fl.Changed("rounds") && !fl.Changed("switches") {
		threads := 0
		for _, t := range p.Threads {
			threads += t.Count
		}
		if threads != 1 {
			return usageHint(name, "%s: give a bound for a concurrent program: -k K or --switches N", name)
		}
		bd = seq.Bound{Rounds: 1} // one thread: one context is every execution
	}
	ex := method.DefaultBounds()
	ex.Depth, ex.MaxStates = f.depth, f.maxStates
	co := driver.CompareOptions{Bound: bd, Bounds: ex, DepthStated: fl.Changed("depth"), Timeout: f.timeout, Moped: exe, Engines: f.engines}
	if !f.quiet {
		co.Progress = stderr
		for _, n := range notes {
			fmt.Fprintf(stderr, "compare: %s\n", n)
		}
	}
	runs, err := driver.Compare(ctx, p, co)
	var ue *result.UsageError
	switch {
	case errors.As(err, &ue):
		return usageErr("%s: %v", name, err)
	case err != nil:
		return internalErr("%s: %v", name, err)
	}
	c := comparison{File: path, Bounds: bd.String(), Notes: notes}
	if fl.Changed("depth") || p.Recursive() {
		// The call depth bounds the question (without recursion the
		// engines search the program's deepest stack).
		c.Bounds += fmt.Sprintf(", call depth %d", f.depth)
	}
	c.judge(runs)
	if f.json {
		if err := c.writeJSON(stdout); err != nil {
			return err
		}
	} else {
		c.writeText(stdout)
	}
	switch c.Verdict {
	case "safe", "unsafe":
		return nil
	case "unknown":
		return &exitError{code: exitUnknown}
	}
	return &exitError{code: exitInternal}
}

// comparison is the outcome of bmc compare.
type comparison struct {
	File    string       `json:"file"`
	Bounds  string       `json:"bounds"`
	Runs    []compareRun `json:"runs"`
	Verdict string       `json:"verdict"` // safe, unsafe, unknown, disagree or error
	Why     string       `json:"why,omitempty"`
	Notes   []string     `json:"notes,omitempty"`
}

type compareRun struct {
	Engine  string  `json:"engine"`
	Verdict string  `json:"verdict"`
	Seconds float64 `json:"seconds"`
	Detail  string  `json:"detail,omitempty"`
}

// judge sets the verdict: the one every decided run gives, disagree when
// two decided runs differ, error when a run failed, unknown when none
// decided.
func (c *comparison) judge(runs []driver.Run) {
	by := map[string][]string{}
	var failed []string
	for _, r := range runs {
		c.Runs = append(c.Runs, compareRun{Engine: r.Engine, Verdict: r.Verdict, Seconds: r.Elapsed.Seconds(), Detail: r.Detail})
		switch {
		case r.Decided():
			by[r.Verdict] = append(by[r.Verdict], r.Engine)
		case r.Verdict == "error":
			failed = append(failed, r.Engine)
		}
	}
	decided := len(by["safe"]) + len(by["unsafe"])
	switch {
	case len(by["safe"]) > 0 && len(by["unsafe"]) > 0:
		c.Verdict = "disagree"
		c.Why = fmt.Sprintf("safe (%s) against unsafe (%s): a bug in bmc or in Moped", strings.Join(by["safe"], ", "), strings.Join(by["unsafe"], ", "))
	case len(failed) > 0:
		c.Verdict = "error"
		c.Why = fmt.Sprintf("%s failed to answer", strings.Join(failed, ", "))
	case decided == 0:
		c.Verdict = "unknown"
		c.Why = "no run decided within its limits"
	case len(by["safe"]) > 0:
		c.Verdict = "safe"
		c.Why = fmt.Sprintf("%d of %d runs decided, all safe", decided, len(runs))
	default:
		c.Verdict = "unsafe"
		c.Why = fmt.Sprintf("%d of %d runs decided, all unsafe", decided, len(runs))
	}
}

func (c *comparison) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s within %s:\n", c.File, c.Bounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  engine\tverdict\ttime\tdetail")
	for _, r := range c.Runs {
		fmt.Fprintf(tw, "  %s\t%s\t%.2fs\t%s\n", r.Engine, r.Verdict, r.Seconds, r.Detail)
	}
	tw.Flush()
	for _, n := range c.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	switch c.Verdict {
	case "safe", "unsafe":
		fmt.Fprintf(w, "%s: the verdicts agree: %s (%s)\n", c.File, c.Verdict, c.Why)
	case "unknown":
		fmt.Fprintf(w, "%s: unknown: %s\n", c.File, c.Why)
	default:
		fmt.Fprintf(w, "%s: %s: %s\n", c.File, c.Verdict, c.Why)
	}
}

func (c *comparison) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
