package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"bmc/batch"
	"bmc/driver"
	"bmc/internal/budget"
	"bmc/result"
)

type batchFlags struct {
	jobs, cpus int
	timeout    time.Duration
	maxMemory  byteSize
	out        string
	resume     bool
}

func newBatch(stdout, stderr io.Writer) *cobra.Command {
	f := &batchFlags{}
	cmd := &cobra.Command{
		Use:   "batch [flags] MANIFEST.tsv... | DIR... | prog.bpl...",
		Short: "Check many programs, a process each, a few at a time, with one JSON record per check",
		Long: `Check many programs, each with bmc check in a process of its own, --jobs
at a time, each on --cpus processors of its own, where its plan races as
many engines as it would alone: a crash, a limit or a fatal error of one
program never stops the batch.

What is checked: each row of a corpus manifest (MANIFEST.tsv), with the
bounds the corpus's verdict sources give (4 round-robin rounds for the
Getafix programs, a thread bound for spawning ones, Boppo's error label)
and the row's expected verdict; each program below a directory (.bp,
.bpl), once per ` + "`// expect: VERDICT FLAGS`" + ` line it begins with, or
once with the defaults.

The output (-o, or standard output) has one JSON line per check: the
document bmc check --json prints, plus "flags", "expected", "exit_status",
"wall_seconds", "peak_memory_bytes" (the check's processes) and
"bmc_version". A progress line per check goes to standard error, and a
summary at the end (verdicts, disagreements with the expected verdicts,
the slowest checks); bmc report prints it again. --resume runs only the
checks the output has no record of, and adds theirs.

Exit status: 0 every decided verdict agrees with the expected one, 10 a
verdict disagrees, 2 bad input or usage, 3 the batch was interrupted.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageHint("bmc batch", "bmc batch: expected manifests, directories or programs")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runBatch(cmd, args, f, stdout, stderr) },
	}
	fl := cmd.Flags()
	fl.IntVar(&f.jobs, "jobs", 0, "checks at once (default the processors over --cpus)")
	fl.IntVar(&f.cpus, "cpus", 1, "processors of each check, on which its plan races as many engines as it would alone")
	fl.DurationVar(&f.timeout, "timeout", 0, "each check's --timeout, e.g. 30s (0: none)")
	fl.Var(&f.maxMemory, "max-memory", "each check's --max-memory, `SIZE` (default half of this machine's memory over --jobs)")
	fl.StringVarP(&f.out, "output", "o", "", "write the records to this file (default standard output)")
	fl.BoolVar(&f.resume, "resume", false, "with -o: run only the checks the file has no record of, and add theirs")
	return cmd
}

func runBatch(cmd *cobra.Command, args []string, f *batchFlags, stdout, stderr io.Writer) error {
	switch {
	case f.jobs < 0:
		return usageErr("bmc batch: --jobs must not be negative, got %d", f.jobs)
	case f.cpus < 0:
		return usageErr("bmc batch: --cpus must not be negative, got %d", f.cpus)
	case f.resume && f.out == "":
		return usageHint("bmc batch", "bmc batch: --resume needs the output file (-o) to resume")
	}
	jobs, err := batch.Jobs(args)
	if err != nil {
		return usageErr("bmc batch: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return internalErr("bmc batch: %v", err)
	}
	cfg := batch.Config{Command: []string{exe}, Jobs: f.jobs, CPUs: f.cpus, Timeout: f.timeout,
		Version: version(), Progress: stderr}
	cfg.Defaults()
	memory := int64(f.maxMemory)
	if !cmd.Flags().Changed("max-memory") {
		memory = driver.DefaultMaxMemory() / int64(cfg.Jobs)
	}
	cfg.MaxMemory = budget.FormatBytes(memory)

	out := stdout
	var earlier []batch.Record
	if f.out != "" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if f.resume {
			var complete int64
			earlier, complete, err = batch.ReadRecords(f.out)
			switch {
			case errors.Is(err, os.ErrNotExist):
			case err != nil:
				return usageErr("bmc batch: %v", err)
			default:
				// Drop a line the interrupted batch left half written.
				if err := os.Truncate(f.out, complete); err != nil {
					return usageErr("bmc batch: %v", err)
				}
			}
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		file, err := os.OpenFile(f.out, flags, 0o644)
		if err != nil {
			return usageErr("bmc batch: %v", err)
		}
		defer file.Close()
		out = file
	}
	done := map[string]bool{}
	for _, r := range earlier {
		done[r.Key()] = true
	}
	var todo []batch.Job
	for _, j := range jobs {
		if !done[j.Key()] {
			todo = append(todo, j)
		}
	}
	if len(earlier) > 0 {
		fmt.Fprintf(stderr, "bmc batch: %d of %d checks recorded in %s already; running the other %d\n", len(jobs)-len(todo), len(jobs), f.out, len(todo))
	}
	timeout := "none"
	if cfg.Timeout > 0 {
		timeout = cfg.Timeout.String()
	}
	fmt.Fprintf(stderr, "bmc batch: %d checks, %d at a time on %s each, --timeout %s, --max-memory %s\n",
		len(todo), cfg.Jobs, result.Plural(cfg.CPUs, "processor"), timeout, cfg.MaxMemory)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	recs, err := batch.Run(ctx, cfg, todo, out)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "bmc batch: interrupted: %d of %d checks recorded; --resume runs the rest\n", len(earlier)+len(recs), len(jobs))
		return &exitError{code: exitUnknown}
	}
	if err != nil {
		return usageErr("bmc batch: writing the records: %v", err)
	}
	s := batch.Summarize(append(earlier, recs...))
	s.WriteText(stderr)
	if len(s.Disagree) > 0 {
		return &exitError{code: exitViolation}
	}
	return nil
}

type reportFlags struct{ svg string }

func newReport(stdout, stderr io.Writer) *cobra.Command {
	f := &reportFlags{}
	cmd := &cobra.Command{
		Use:   "report [flags] results.jsonl",
		Short: "Summarize the records of bmc batch, and draw their cactus plot",
		Long: `Print the summary of a batch's records (bmc batch -o results.jsonl):
the checks by verdict, the disagreements with the expected verdicts, the
checks left undecided, the slowest. With --svg FILE, also draw the cactus
plot: for each verdict, its checks' wall times sorted, on a logarithmic
time axis.

Exit status: 0 every decided verdict agrees with the expected one, 10 a
verdict disagrees, 2 bad input or usage.`,
		Args: exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			recs, _, err := batch.ReadRecords(args[0])
			if err != nil {
				return usageErr("bmc report: %v", err)
			}
			s := batch.Summarize(recs)
			s.WriteText(stdout)
			if f.svg != "" {
				file, err := os.Create(f.svg)
				if err != nil {
					return usageErr("bmc report: %v", err)
				}
				err = batch.Cactus(file, recs)
				if cerr := file.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return usageErr("bmc report: writing %s: %v", f.svg, err)
				}
			}
			if len(s.Disagree) > 0 {
				return &exitError{code: exitViolation}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.svg, "svg", "", "also write the cactus plot to this SVG `FILE`")
	return cmd
}
