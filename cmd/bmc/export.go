package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"bmc/driver"
	"bmc/encode"
	"bmc/engine"
	"bmc/ir"
	"bmc/sat"
	"bmc/solver"
	"bmc/ts"
)

type exportFlags struct {
	aiger, binary bool
	dimacs, smt2  int
	depth         int
	target        string
	property      string
	limits        limitFlags
}

func newExport(stdout, stderr io.Writer) *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export (--aiger [--binary] | --dimacs K | --smt2 K) prog.bpl",
		Short: "Write the verification problem for other tools",
		Long: `Write the problem bmc solves for a sequential program, so that other solvers
and model checkers can check the identical problem:

  --aiger      the transition system in AIGER format (ASCII, or binary with
               --binary); output 0 is the violation property, output 1 stack
               overflow; constraints are folded into the outputs.
  --dimacs K   "a violation within K steps" as CNF (satisfiable = unsafe).
  --smt2 K     the same as SMT-LIB 2 (QF_UF).

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
	fl.IntVar(&f.depth, "depth", 16, "call stack bound (frames)")
	fl.StringVar(&f.target, "target", "", "error label, replacing error, ERROR and SLIC_ERROR")
	fl.StringVar(&f.property, "property", "violation", "with --dimacs/--smt2: violation or overflow")
	f.limits.register(fl, "the whole run, loading the program included")
	return cmd
}

func runExport(cmd *cobra.Command, path string, f *exportFlags, stdout, stderr io.Writer) error {
	ctx, stop := driver.Limit(context.Background(), f.limits.timeout, int64(f.limits.maxMemory))
	defer stop()
	fl := cmd.Flags()
	formats := 0
	for _, name := range []string{"aiger", "dimacs", "smt2"} {
		if fl.Changed(name) {
			formats++
		}
	}
	switch {
	case formats != 1:
		return usageErr("bmc export: give exactly one of --aiger, --dimacs K, --smt2 K")
	case fl.Changed("binary") && !f.aiger:
		return usageErr("bmc export: --binary goes with --aiger")
	case fl.Changed("property") && f.aiger:
		return usageErr("bmc export: --property goes with --dimacs or --smt2: the AIGER file has both properties as outputs")
	case fl.Changed("dimacs") && f.dimacs < 0, fl.Changed("smt2") && f.smt2 < 0:
		return usageErr("bmc export: the number of steps K must not be negative")
	case f.depth < 1:
		return usageErr("bmc export: --depth must be at least 1, got %d", f.depth)
	}
	if err := f.limits.validate("bmc export"); err != nil {
		return err
	}
	prop := encode.PropViolation
	switch f.property {
	case "violation":
	case "overflow":
		prop = encode.PropOverflow
	default:
		return usageErr("bmc export: --property must be violation or overflow, got %q", f.property)
	}
	p, err := loadProgram(ctx, path, ir.Options{Target: f.target}, stderr)
	if err != nil {
		return gaveUp("bmc export", err)
	}
	en, err := encode.Sequential(ctx, p, encode.Options{Depth: f.depth})
	switch {
	case endedBy(ctx, err):
		return gaveUp("bmc export", limitErr(ctx, "encoding"))
	case err != nil:
		return usageErr("bmc export: %v", err)
	}
	if f.aiger {
		return en.System().WriteAIGER(stdout, f.binary)
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
		size = "about " + driver.FormatBytes(int64(need))
	}
	return usageErr("bmc export: %s %d: the unrolling of %d steps of a transition system of %d nodes needs %s of memory, more than the memory limit of %s: give a smaller K or a larger --max-memory",
		format, k, k, sys.NumVars(), size, driver.FormatBytes(maxMemory))
}
