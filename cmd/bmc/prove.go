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
	"bmc/method"
	"bmc/result"
)

type proveFlags struct {
	boundFlags
	method      string
	maxK        int
	solver      string
	seq         string
	certificate string
	maxStates   int
	maxRounds   int
	noEnvelope  bool
	json        bool
	quiet       bool
	verbose     bool
	cores       int
	limits      limitFlags
	pictures    traceFlags // --trace-svg, --trace-html
}

func newProve(stdout, stderr io.Writer) *cobra.Command {
	var f proveFlags
	cmd := &cobra.Command{
		Use:   "prove [flags] prog.bpl",
		Short: "Prove that no execution, however long, reaches a violation",
		Long: `Prove with k-induction or IC3/PDR that no execution of any length reaches an
assertion failure or error label: a sequential program within the call
depth (proved only when no execution overflows it); a concurrent program
within -k rounds or --switches context switches through a sequentialization
(--seq eager, lazy or direct), or, with neither, for every interleaving
(the interleaving product, any number of context switches).

Methods: kind (Claessen's improved k-induction), kind-simple (k-induction
with simple-path constraints), pdr (IC3/PDR), reach (forward
reachability on decision diagrams, each thread's steps apart; the
reachable states are the invariant, re-checked on fresh diagrams), views
(the reachable states seen through each pair of threads, which read the
other threads' globals as any value, for a concurrent program whose
threads each write globals of their own; the views as clauses are the
invariant, re-checked by a SAT solver; a violation they admit leaves the
answer unknown), auto (pdr, raced with the explicit engine's exhaustive
search of every execution, which answers "proved by exhaustive search"
on a finite program, and for every interleaving with reach and, where
each of three threads or more writes globals of its own, views;
--verbose prints the plan), amplify (K-induction with amplification, for a concurrent program
without recursion: for K = 1..--max-rounds, no violation within K
round-robin rounds, and no state of the envelope that reaches one in K+1
rounds but in none of K; it proves the program for every number of
rounds). A violation is
found as well as proved absent: its trace is replayed before it is printed.
When induction stops at --max-k, the counterexample to induction is shown:
a path from a state that need not be reachable, not a bug.

--trace-svg FILE and --trace-html FILE draw the trace of a violation found
(as bmc check does).

Exit status: 0 proved, 10 violation found (trace printed), 2 bad input or
usage, 3 unknown (the reason is printed), 4 internal error.`,
		Args: exactlyOneFile,
		RunE: onFile(func(cmd *cobra.Command, path string) error {
			return runProve(cmd, path, &f, stdout, stderr)
		}),
	}
	fl := cmd.Flags()
	registerChoice(fl, &f.method, method.MethodChoice, "proof engine")
	fl.IntVar(&f.maxK, "max-k", method.DefaultMaxK, "largest k of k-induction, most frames of PDR")
	registerChoice(fl, &f.solver, method.SolverChoice, "solver of the proof engines")
	registerChoice(fl, &f.seq, method.SeqChoice, "encoding of a concurrent program within -k or --switches (auto: direct where the program fits it, else eager)")
	f.boundFlags.register(fl, contextBound|depthBound|threadsBound|targetBound|maxThreadsBound, depthHelp)
	fl.StringVar(&f.certificate, "certificate", "", "write the inductive invariant of a PDR proof (clauses over the named state bits), or the summaries of a proof by summaries, to `FILE`")
	fl.IntVar(&f.maxRounds, "max-rounds", method.DefaultMaxRounds, "--method amplify: the largest K tried")
	fl.BoolVar(&f.noEnvelope, "no-envelope", false, "--method amplify: start the inductive case from every well-formed state (Eqn. 8), not only the envelope's (Eqn. 9)")
	fl.IntVar(&f.maxStates, "max-states", 5_000_000, "the exhaustive search (explicit engine) gives up after this many states")
	fl.BoolVar(&f.json, "json", false, "print the result, or the errors, as one JSON document")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fl.BoolVar(&f.verbose, "verbose", false, "print the plan (the engines raced, on how many cores) on stderr before it runs")
	registerCores(fl, &f.cores)
	f.limits.register(fl, "the whole run, loading the program included")
	f.pictures.register(fl)
	return cmd
}

func (f *proveFlags) validate(cmd *cobra.Command) error {
	const name = "bmc prove"
	fl := cmd.Flags()
	if err := checkChoices("prove", fl); err != nil {
		return err
	}
	if err := f.boundFlags.validate(name, fl); err != nil {
		return err
	}
	switch {
	case f.maxK < 1:
		return usageErr("%s: --max-k must be at least 1, got %d", name, f.maxK)
	case f.maxStates < 1:
		return usageErr("%s: --max-states must be at least 1, got %d", name, f.maxStates)
	case f.cores < 0:
		return usageErr("%s: --cores must not be negative, got %d", name, f.cores)
	}
	if err := checkApart("prove", fl); err != nil {
		return err
	}
	switch {
	case f.maxRounds < 1:
		return usageErr("%s: --max-rounds must be at least 1, got %d", name, f.maxRounds)
	case (fl.Changed("max-rounds") || f.noEnvelope) && method.ProofMethod(f.method) != method.ProofAmplify:
		return usageErr("%s: --max-rounds and --no-envelope go with --method amplify", name)
	case fl.Changed("seq") && !fl.Changed("rounds") && !fl.Changed("switches"):
		return usageErr("%s: --seq goes with -k or --switches: without a bound every interleaving is proved on the interleaving product", name)
	}
	return f.limits.validate(name)
}

func runProve(cmd *cobra.Command, path string, f *proveFlags, stdout, stderr io.Writer) error {
	start := time.Now()
	ctx, stop := driver.Limit(context.Background(), f.limits.timeout, int64(f.limits.maxMemory))
	defer stop()
	if err := f.validate(cmd); err != nil {
		return err
	}
	if err := f.pictures.check("bmc prove", cmd.Flags(), path); err != nil {
		return err
	}
	opts, err := loadOptions("bmc prove", f.target, f.threads)
	if err != nil {
		return err
	}
	p, err := loadProgram(ctx, path, opts, stderr)
	var le *limitError
	var res *result.Result
	var cert method.Certificate
	switch {
	case errors.As(err, &le):
		res = &result.Result{Engine: f.method, Verdict: result.Unknown, Bounds: "not searched", Limits: []result.Limit{le.limit}}
		res.Advice = res.Advise("", true)
	case err != nil:
		return err
	default:
		o := method.Options{Solver: method.SolverName(f.solver), Seq: method.Seq(f.seq), Proof: method.ProofOptions{Method: method.ProofMethod(f.method), MaxK: f.maxK, MaxRounds: f.maxRounds, NoEnvelope: f.noEnvelope},
			Bounds: method.Bounds{Switches: f.switches, Rounds: f.rounds, Depth: f.depth, MaxThreads: f.maxThreads.n, AnyThreads: f.maxThreads.any, MaxStates: f.maxStates},
			Cores:  f.cores, Command: withoutTraceFlags(command), DepthStated: cmd.Flags().Changed("depth"), SolverStated: cmd.Flags().Changed("solver"),
			ThreadsStated: cmd.Flags().Changed("max-threads")}
		if f.certificate != "" {
			o.Proof.Certificate = &cert
		}
		if !f.quiet {
			o.Progress = stderr
		}
		if f.verbose {
			o.Verbose = stderr
		}
		res, err = driver.Prove(ctx, p, o)
		var ue *result.UsageError
		switch {
		case errors.As(err, &ue):
			return usageErr("bmc prove: %v", err)
		case err != nil:
			return internalErr("bmc: %v", err)
		}
	}
	res.Elapsed = time.Since(start)
	if res.Verdict == result.Safe && f.certificate != "" {
		if err := writeCertificate(f.certificate, &cert, path, res); err != nil {
			return err
		}
	}
	return f.pictures.draw(cmd, res, p, path, printVerdict(res, f.json, stdout, path), stderr)
}

// writeCertificate writes the invariant of a proof to file.
func writeCertificate(file string, cert *method.Certificate, path string, res *result.Result) error {
	switch {
	case cert.Sys == nil && cert.Summaries == nil:
		return internalErr("bmc prove: the proof of %s has no invariant to certify", path)
	case cert.Sys == nil:
		cert.Notes = append([]string{fmt.Sprintf("program %s, %s", path, res.Bounds)}, cert.Notes...)
	default:
		cert.Notes = append([]string{fmt.Sprintf("program %s, %s", path, res.Bounds),
			"the state bits of the transition system bmc built for the proof, in its order, with their initial values"}, cert.Notes...)
	}
	out, err := os.Create(file)
	if err != nil {
		return usageErr("bmc prove: %v", err)
	}
	if err := cert.WriteCertificate(out); err != nil {
		out.Close()
		return internalErr("bmc prove: writing %s: %v", file, err)
	}
	if err := out.Close(); err != nil {
		return internalErr("bmc prove: writing %s: %v", file, err)
	}
	return nil
}
