package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"bmc/decompile"
	"bmc/driver"
	"bmc/fairness"
	"bmc/ir"
	"bmc/method"
	"bmc/moped"
	"bmc/seq"
)

type seqFlags struct {
	boundFlags
	eager, lazy bool
	amplify     bool
	forTool     string
	output      string
	lasso       string
	keyframes   bool
	fairness    string
	limits      limitFlags
}

func newSeq(stdout, stderr io.Writer) *cobra.Command {
	var f seqFlags
	cmd := &cobra.Command{
		Use:   "seq (--eager | --lazy) (-k K | --switches N) [--for bmc|moped] [-o FILE] prog.bpl\n  bmc seq --amplify -k K [--for bmc|moped] [-o FILE] prog.bpl\n  bmc seq --lasso k1,k2 [--fairness F] [--keyframes] [--for bmc|moped] [-o FILE] prog.bpl",
		Short: "Print the sequential program that simulates the concurrent one within a bound",
		Long: `Print, as a Boolean program in the classic syntax, the sequentialization bmc
checks for a concurrent program: its violations are exactly those of the
concurrent program within K round-robin rounds (-k) or N context switches
(--switches). Run it through a sequential Boolean-program checker (Moped,
Getafix, or bmc check itself) to compare verdicts.

  --eager   the shared state of every context is guessed up front; each
            thread runs once through all of its contexts (Lal-Reps;
            La Torre, Madhusudan, Parlato, CAV 2009, section 4)
  --lazy    each context re-runs its thread from the start, so only
            reachable states are visited (CAV 2009, section 5)
  --amplify L^K of K-induction with amplification (Figs. 8-10): an
            initialization phase that builds any state of the envelope
            at BASE, the call of base() (each thread's stack walked
            with data ignored, the globals and locals arbitrary), then
            -k K rounds simulated from it eagerly; its assertion fails
            exactly when some state at BASE reaches a violation within
            K rounds.
            bmc prove --method amplify compares such sets for K and K+1
  --lasso k1,k2
            the livelock translation ((P))^{k1,k2} (mutant-fair-
            nontermination, Fig. 2): its assertion fails exactly when
            the program has a livelock with a stem of k1 rounds and a
            loop of k2 rounds, fair as --fairness says (strong, weak or
            none), as bmc check --lasso k1,k2 decides it
  --keyframes
            with --lasso: the translation that keeps the procedures,
            recursion included, and compares keyframes (section 3.3):
            its assertion holds when there is no livelock within k1,k2
            at any call depth, and fails when there is one with a stem
            of at most k1+k2 rounds (a recursive program, for Moped)

  --for bmc    bmc's own syntax (the default): read it with bmc check
  --for moped  only what Moped 1.0.15 reads, with our meaning: every
               violation is a call of a function whose statement carries
               the label error; the header and standard error show the
               Moped command line (YES. means a violation, NO. none;
               Moped has no call depth bound)`,
		Args: exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSeq(cmd, args[0], &f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.eager, "eager", false, "the eager sequentialization")
	fl.BoolVar(&f.lazy, "lazy", false, "the lazy sequentialization")
	fl.BoolVar(&f.amplify, "amplify", false, "with -k: K-induction with amplification's L^K (initialization, then K rounds)")
	f.boundFlags.register(fl, contextBound|depthBound|threadsBound|targetBound, "with --lasso: frames per thread, as deep as recursion is inlined")
	registerChoice(fl, &f.forTool, method.ForChoice, "the tool that reads the program")
	fl.StringVarP(&f.output, "output", "o", "", "write the program to `FILE` instead of standard output")
	fl.StringVar(&f.lasso, "lasso", "", "the livelock translation for a stem of k1 and a loop of k2 rounds (k1,k2)")
	registerChoice(fl, &f.fairness, method.FairnessChoice, "with --lasso: the fairness the loop must meet")
	fl.BoolVar(&f.keyframes, "keyframes", false, "with --lasso: keep the procedures and compare keyframes (any call depth)")
	f.limits.register(fl, "the whole run, loading the program included")
	return cmd
}

func runSeq(cmd *cobra.Command, path string, f *seqFlags, stdout, stderr io.Writer) error {
	ctx, stop := driver.Limit(context.Background(), f.limits.timeout, int64(f.limits.maxMemory))
	defer stop()
	fl := cmd.Flags()
	if err := checkChoices("seq", fl); err != nil {
		return err
	}
	if err := checkApart("seq", fl); err != nil {
		return err
	}
	if err := f.limits.validate("bmc seq"); err != nil {
		return err
	}
	if fl.Changed("lasso") {
		return runSeqLasso(ctx, cmd, path, f, stdout, stderr)
	}
	switch {
	case fl.Changed("fairness"), fl.Changed("depth"), fl.Changed("keyframes"):
		return usageErr("bmc seq: --fairness, --depth and --keyframes go with --lasso k1,k2")
	case f.amplify && (f.eager || f.lazy):
		return usageErr("bmc seq: give exactly one of --eager, --lazy and --amplify")
	case f.amplify && !fl.Changed("rounds"):
		return usageErr("bmc seq: --amplify needs -k K: its simulation is K round-robin rounds")
	case !f.amplify && f.eager == f.lazy:
		return usageErr("bmc seq: give exactly one of --eager, --lazy and --amplify")
	case fl.Changed("rounds") == fl.Changed("switches"):
		return usageErr("bmc seq: give exactly one of -k (rounds) and --switches")
	case fl.Changed("rounds") && (f.rounds < 1 || f.rounds > method.MaxRounds):
		return usageErr("bmc seq: -k must be between 1 and %d, got %d", method.MaxRounds, f.rounds)
	case fl.Changed("switches") && (f.switches < 0 || f.switches > method.MaxSwitches):
		return usageErr("bmc seq: --switches must be between 0 and %d, got %d", method.MaxSwitches, f.switches)
	}
	p, err := f.load(ctx, path, stderr)
	if err != nil {
		return err
	}
	bd := seq.Bound{Rounds: f.rounds, Switches: f.switches}
	if err := method.SeqFits(p, bd, int64(f.limits.maxMemory)); err != nil {
		return usageErr("bmc seq: %v", err)
	}
	translation, translate := seq.LazyTranslation, seq.Lazy
	switch {
	case f.eager:
		translation, translate = seq.EagerTranslation, seq.Eager
	case f.amplify:
		translation, translate = seq.AmplifyTranslation, func(ctx context.Context, p *ir.Program, bd seq.Bound) (*seq.Program, error) {
			return seq.Amplify(ctx, p, bd.Rounds)
		}
	}
	sp, err := translate(ctx, p, bd)
	switch {
	case endedBy(ctx, err):
		return gaveUp("bmc seq", limitErr(ctx, "sequentializing"))
	case err != nil:
		return usageErr("bmc seq: %v", err)
	}
	header := fmt.Sprintf("// bmc seq --%s --for %s: %s within %s, sequentialized\n", translation, f.forTool, path, bd)
	if f.amplify {
		header = fmt.Sprintf("// bmc seq --amplify -k %d --for %s: %s: L^%d of K-induction with amplification; the assertion fails exactly when a state at BASE in the envelope reaches a violation within %s\n",
			f.rounds, f.forTool, path, f.rounds, bd)
	}
	return writeSeq(ctx, sp.Seq, header, f, stdout, stderr)
}

// load checks the flags both translations take and loads the program.
func (f *seqFlags) load(ctx context.Context, path string, stderr io.Writer) (*ir.Program, error) {
	opts, err := loadOptions("bmc seq", f.target, f.threads)
	if err != nil {
		return nil, err
	}
	p, err := loadProgram(ctx, path, opts, stderr)
	if err != nil {
		return nil, gaveUp("bmc seq", err)
	}
	return p, nil
}

// runSeqLasso prints the livelock translation.
func runSeqLasso(ctx context.Context, cmd *cobra.Command, path string, f *seqFlags, stdout, stderr io.Writer) error {
	lb, err := parseLasso("bmc seq", f.lasso, f.fairness)
	if err != nil {
		return err
	}
	if f.depth < 1 {
		return usageErr("bmc seq: --depth must be at least 1, got %d", f.depth)
	}
	p, err := f.load(ctx, path, stderr)
	if err != nil {
		return err
	}
	if f.keyframes {
		fp, err := fairness.Keyframes(ctx, p, lb)
		switch {
		case endedBy(ctx, err):
			return gaveUp("bmc seq", limitErr(ctx, "translating"))
		case err != nil:
			return usageErr("bmc seq: %v", err)
		}
		longer := lb
		longer.Stem += lb.Loop
		header := fmt.Sprintf("// bmc seq --lasso %d,%d --fairness %s --keyframes --for %s: %s; the assertion holds when it has no livelock within %s at any call depth, and fails when it has one within %s\n",
			lb.Stem, lb.Loop, lb.Fairness, f.forTool, path, lb, longer)
		return writeSeq(ctx, fp.Seq, header, f, stdout, stderr)
	}
	fp, err := fairness.Lasso(ctx, p, lb, f.depth)
	switch {
	case endedBy(ctx, err):
		return gaveUp("bmc seq", limitErr(ctx, "translating"))
	case err != nil:
		return usageErr("bmc seq: %v", err)
	}
	header := fmt.Sprintf("// bmc seq --lasso %d,%d --fairness %s --for %s: %s; the assertion fails exactly when it has a livelock within %s, call depth %d\n",
		lb.Stem, lb.Loop, lb.Fairness, f.forTool, path, lb, f.depth)
	if len(fp.DepthCut) > 0 {
		e := fp.DepthCut[0]
		header += fmt.Sprintf("// recursion is inlined to call depth %d: the run ends where it would go deeper (first at %s:%s)\n", f.depth, path, e.Pos)
	}
	return writeSeq(ctx, fp.Seq, header, f, stdout, stderr)
}

// writeSeq prints sequential program q, after header, for the tool of
// --for, to standard output or the file of -o.
func writeSeq(ctx context.Context, q *ir.Program, header string, f *seqFlags, stdout, stderr io.Writer) error {
	var buf bytes.Buffer
	buf.WriteString(header)
	format := func() error { return decompile.Write(ctx, &buf, q) }
	var run string
	if f.forTool == "moped" {
		file := f.output
		if file == "" {
			file = "FILE"
		}
		run = strings.Join(moped.Command("moped", file), " ")
		fmt.Fprintf(&buf, "// for Moped 1.0.15: a violation within the bound is the reachability of label %s\n", moped.Label)
		fmt.Fprintf(&buf, "// run: %s   (YES. a violation, NO. none; Moped has no call depth bound)\n", run)
		format = func() error { return moped.Format(ctx, &buf, q) }
	}
	switch err := format(); {
	case endedBy(ctx, err):
		return gaveUp("bmc seq", limitErr(ctx, "printing"))
	case err != nil:
		return &exitError{code: exitInternal, msg: "bmc seq: " + err.Error()}
	}
	if f.output != "" {
		if err := os.WriteFile(f.output, buf.Bytes(), 0o644); err != nil {
			return usageErr("bmc seq: %v", err)
		}
	} else if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	if run != "" {
		where := ""
		if f.output == "" {
			where = " (FILE: where you saved the output, or give -o FILE)"
		}
		fmt.Fprintf(stderr, "bmc seq: violations reach label %s; check with: %s%s\n", moped.Label, run, where)
	}
	return nil
}
