package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"bmc/encode"
	"bmc/engine"
	"bmc/ir"
	"bmc/sat"
	"bmc/solver"
)

type exportFlags struct {
	aiger, binary bool
	dimacs, smt2  int
	depth         int
	target        string
	property      string
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
  --smt2 K     the same as SMT-LIB 2 (QF_UF).`,
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
	return cmd
}

func runExport(cmd *cobra.Command, path string, f *exportFlags, stdout, stderr io.Writer) error {
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
	case fl.Changed("dimacs") && f.dimacs < 0, fl.Changed("smt2") && f.smt2 < 0:
		return usageErr("bmc export: the number of steps K must not be negative")
	case f.depth < 1:
		return usageErr("bmc export: --depth must be at least 1, got %d", f.depth)
	}
	prop := encode.PropViolation
	switch f.property {
	case "violation":
	case "overflow":
		prop = encode.PropOverflow
	default:
		return usageErr("bmc export: --property must be violation or overflow, got %q", f.property)
	}
	p, err := load(path, ir.Options{Target: f.target}, stderr)
	if err != nil {
		return err
	}
	en, err := encode.Encode(p, f.depth)
	if err != nil {
		return usageErr("bmc export: %v", err)
	}
	header := []string{fmt.Sprintf("bmc export of %s: %s within %%d steps, call depth %d", path, en.Sys.Bad[prop].Name, f.depth)}
	switch {
	case f.aiger:
		return en.Sys.WriteAIGER(stdout, f.binary)
	case fl.Changed("dimacs"):
		s := sat.New()
		s.Assert(engine.Reach(en.Sys, s, prop, f.dimacs))
		return s.WriteDIMACS(stdout)
	default:
		b := solver.NewSMT2()
		goal := engine.Reach(en.Sys, b, prop, f.smt2)
		header[0] = fmt.Sprintf(header[0], f.smt2)
		return b.Write(stdout, goal, header[0], "sat means the property is reachable")
	}
}
