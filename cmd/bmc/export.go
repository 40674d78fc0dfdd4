package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"bmc/chc"
	"bmc/driver"
	"bmc/encode"
	"bmc/engine"
	"bmc/internal/budget"
	"bmc/method"
	"bmc/result"
	"bmc/sat"
	"bmc/seq"
	"bmc/solver"
	"bmc/ts"
)

type exportFlags struct {
	boundFlags
	aiger, binary bool
	chc           bool
	dimacs, smt2  int
	property      string
	seq           string
	lasso         string
	fairness      string
	livenessOuts  bool
	limits        limitFlags
}

func newExport(stdout, stderr io.Writer) *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export (--aiger [--binary] | --dimacs K | --smt2 K | --chc) [--seq S] [-k K | --switches N | --lasso k1,k2] prog.bpl",
		Short: "Write the verification problem for other tools",
		Long: `Write the transition system bmc decides, so that other solvers and model
checkers can check the identical problem:

  --aiger      the transition system in AIGER format (ASCII, or binary with
               --binary); output 0 is the violation property, then stack
               overflow (and, for the interleaving product of a program that
               starts threads, the thread bound); constraints are folded into
               the outputs.
  --dimacs K   "a violation within K steps" as CNF (satisfiable = unsafe).
  --smt2 K     the same as SMT-LIB 2 (QF_UF).
  --chc        the constrained Horn clauses the summary engine decides
               (bmc check --engine summaries), at every call depth, in
               SMT-LIB 2's HORN logic for CHC solvers (z3, Eldarica,
               Golem): "sat" means safe, "unsat" a violation. A
               concurrent program goes through the context encoding
               (--seq contexts, the default: Getafix's summary
               relation, locks included), the product encoding
               (--seq product: the threads' states side by side, for
               programs without calls or locks) or the eager or lazy
               sequentialization, within -k K or --switches N.

A one-thread program is encoded as bmc check encodes it. A concurrent
program is encoded as the interleaving product (--seq direct, the default),
within -k K rounds or --switches N context switches or, with neither, for
every interleaving; or, with --seq eager or lazy and a bound, as the
sequential program of that sequentialization (the one bmc seq prints),
encoded as bmc check --seq eager or lazy encodes it. Without recursion the
call stacks hold just the frames the calls need, as in bmc check.

With --lasso k1,k2 [--fairness F] the question is a livelock, as bmc check
--lasso asks it, on the interleaving product (bmc check --lasso --seq
direct decides this system): output 0 (the bad property) is "a loop of k2
rounds after a stem of k1 closes on the configuration it began in, and is
fair"; the AIGER file is AIGER 1.9 and says the same as a justice property
(the loop's end, infinitely often) under an invariant constraint, for model
checkers with liveness. ABC does not read AIGER 1.9 justice; for it,
--liveness-outputs writes AIGER 1.0 whose outputs are named as its l2s
command reads them (then: read_aiger f.aig; l2s -s; pdr).

An unrolling that cannot fit in --max-memory is refused before it is built
(exit 2); a run that --timeout or --max-memory ends exits with status 3.`,
		Args: exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd, args[0], &f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.aiger, "aiger", false, "write the transition system as AIGER")
	fl.BoolVar(&f.binary, "binary", false, "with --aiger: binary format (aig) instead of ASCII (aag)")
	fl.IntVar(&f.dimacs, "dimacs", -1, "write the K-step unrolling as DIMACS CNF")
	fl.IntVar(&f.smt2, "smt2", -1, "write the K-step unrolling as SMT-LIB 2")
	fl.BoolVar(&f.chc, "chc", false, "write the Horn clauses of the summary engine (SMT-LIB 2, HORN)")
	f.boundFlags.register(fl, contextBound|depthBound|threadsBound|targetBound|maxThreadsBound, "call stack bound (frames); without recursion the stacks hold just the frames the calls need")
	registerChoice(fl, &f.property, method.PropertyChoice, "with --dimacs/--smt2: the bad state")
	registerChoice(fl, &f.seq, method.SeqChoice, "encoding of a concurrent program (auto: direct; with --chc, contexts; contexts and product go with --chc only)")
	fl.StringVar(&f.lasso, "lasso", "", "the livelock question: a stem of k1 rounds, a loop of k2 rounds")
	registerChoice(fl, &f.fairness, method.FairnessChoice, "with --lasso: the fairness the loop must meet")
	fl.BoolVar(&f.livenessOuts, "liveness-outputs", false, "with --aiger --lasso: the justice property as outputs named assert_fair and assume_fair_* (ABC's l2s)")
	f.limits.register(fl, "the whole run, loading the program included")
	return cmd
}

func runExport(cmd *cobra.Command, path string, f *exportFlags, stdout, stderr io.Writer) error {
	ctx, stop := driver.Limit(context.Background(), f.limits.timeout, int64(f.limits.maxMemory))
	defer stop()
	fl := cmd.Flags()
	if err := checkChoices("export", fl); err != nil {
		return err
	}
	if err := checkApart("export", fl); err != nil {
		return err
	}
	formats := 0
	for _, name := range []string{"aiger", "dimacs", "smt2", "chc"} {
		if fl.Changed(name) {
			formats++
		}
	}
	switch {
	case formats != 1:
		return usageErr("bmc export: give exactly one of --aiger, --dimacs K, --smt2 K, --chc")
	case fl.Changed("binary") && !f.aiger:
		return usageErr("bmc export: --binary goes with --aiger")
	case f.livenessOuts && (!f.aiger || !fl.Changed("lasso")):
		return usageErr("bmc export: --liveness-outputs goes with --aiger --lasso k1,k2")
	case fl.Changed("dimacs") && f.dimacs < 0, fl.Changed("smt2") && f.smt2 < 0:
		return usageErr("bmc export: the number of steps K must not be negative")
	case f.maxThreads.any:
		return usageErr("bmc export: --max-threads must be a number: the system written has a bounded number of threads")
	}
	if err := f.boundFlags.validate("bmc export", fl); err != nil {
		return err
	}
	lb, err := f.validateLasso(fl)
	if err != nil {
		return err
	}
	if err := f.limits.validate("bmc export"); err != nil {
		return err
	}
	prop := encode.PropViolation
	if f.property == "overflow" {
		prop = encode.PropOverflow
	}
	opts, err := loadOptions("bmc export", f.target, f.threads)
	if err != nil {
		return err
	}
	p, err := loadProgram(ctx, path, opts, stderr)
	if err != nil {
		return gaveUp("bmc export", err)
	}
	bounds := method.DefaultBounds()
	bounds.Depth, bounds.MaxThreads, bounds.Rounds, bounds.Switches = f.depth, f.maxThreads.n, f.rounds, f.switches
	if f.chc {
		sys, err := method.EncodeHorn(ctx, p, method.Pin[method.Seq](f.seq), bounds)
		switch {
		case endedBy(ctx, err):
			return gaveUp("bmc export", limitErr(ctx, "encoding"))
		case err != nil:
			return usageErr("bmc export: %v", err)
		}
		fmt.Fprintf(stdout, "; bmc export --chc of %s: sat means no violation at any call depth", path)
		if f.rounds > 0 || f.switches >= 0 {
			fmt.Fprintf(stdout, " within %s", seq.Bound{Rounds: f.rounds, Switches: f.switches})
		}
		fmt.Fprintln(stdout)
		return chc.Write(stdout, sys)
	}
	var en encode.Model
	if fl.Changed("lasso") {
		en, err = method.EncodeLivelock(ctx, p, f.depth, lb)
	} else {
		en, err = method.Encode(ctx, p, method.Pin[method.Seq](f.seq), bounds)
	}
	switch {
	case endedBy(ctx, err):
		return gaveUp("bmc export", limitErr(ctx, "encoding"))
	case err != nil:
		return usageErr("bmc export: %v", err)
	}
	if f.aiger {
		sys := en.System()
		if f.livenessOuts {
			sys = sys.LivenessOutputs(0)
		}
		return sys.WriteAIGER(stdout, f.binary)
	}
	k, format, perNode := f.dimacs, "--dimacs", dimacsBytesPerNode
	if fl.Changed("smt2") {
		k, format, perNode = f.smt2, "--smt2", smt2BytesPerNode
	}
	if err := unrollingFits(en.System(), k, format, perNode, int64(f.limits.maxMemory)); err != nil {
		return err
	}
	// The unrolling is built in one piece (engine.Reach) and does not
	// watch ctx; the limits are checked once it is built.
	if fl.Changed("dimacs") {
		s := sat.New()
		s.Assert(engine.Reach(en.System(), s, prop, k))
		if ctx.Err() != nil {
			return gaveUp("bmc export", limitErr(ctx, "unrolling"))
		}
		return s.WriteDIMACS(stdout)
	}
	b := solver.NewSMT2()
	goal := engine.Reach(en.System(), b, prop, k)
	if ctx.Err() != nil {
		return gaveUp("bmc export", limitErr(ctx, "unrolling"))
	}
	header := fmt.Sprintf("bmc export of %s: %s within %d steps, call depth %d", path, en.System().Bad[prop].Name, k, f.depth)
	switch {
	case fl.Changed("lasso"):
		header += ", " + lb.String()
	case f.rounds > 0 || f.switches >= 0:
		header += ", " + seq.Bound{Rounds: f.rounds, Switches: f.switches}.String()
	}
	return b.Write(stdout, goal, header, "sat means the property is reachable")
}

// Peak memory per node of the transition system per frame of a K-step
// unrolling, DIMACS or SMT-LIB text included: measured as the growth of
// the peak resident size from K = 200 to K = 800 on
// examples/seq_recursion.bpl (703 nodes; 132 and 241 bytes) and from
// K = 1000 to K = 3000 on satabs-boppo/Function1/main.bp of the corpus
// (1356 nodes; SMT-LIB 278 bytes, DIMACS far less, as gini folds most of
// its gates away). The figures are for gates that do not fold: an export
// cannot be stopped once the unrolling is being built, so a refusal errs
// on the side of not starting one that cannot finish.
const (
	dimacsBytesPerNode = 130
	smt2BytesPerNode   = 260
)

// unrollingFits refuses a K-step unrolling of sys (K+1 frames of every
// node) that cannot fit in maxMemory bytes (0: no limit).
func unrollingFits(sys *ts.System, k int, format string, perNode int, maxMemory int64) error {
	if maxMemory <= 0 {
		return nil
	}
	need := (float64(k) + 1) * float64(sys.NumVars()) * float64(perNode)
	if need <= float64(maxMemory) {
		return nil
	}
	size := "more than 1000T"
	if need < 1e15 {
		size = "about " + budget.FormatBytes(int64(need))
	}
	return usageErr("bmc export: %s %d: the unrolling of %d steps of a transition system of %d nodes needs %s of memory, more than the memory limit of %s: give a smaller K or a larger --max-memory",
		format, k, k, sys.NumVars(), size, budget.FormatBytes(maxMemory))
}

// validateLasso reads --lasso and --fairness (the flags that ask
// another question are the table's, driver.Aparts).
func (f *exportFlags) validateLasso(fl *pflag.FlagSet) (result.LassoBound, error) {
	const cmd = "bmc export"
	if !fl.Changed("lasso") {
		if fl.Changed("fairness") {
			return result.LassoBound{}, usageErr("%s: --fairness goes with --lasso k1,k2 (the livelock question)", cmd)
		}
		return result.LassoBound{}, nil
	}
	return parseLasso(cmd, f.lasso, f.fairness)
}
