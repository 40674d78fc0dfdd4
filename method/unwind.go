package method

import (
	"context"
	"fmt"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/ir"
	"bmc/result"
	"bmc/solver"
	"bmc/ts"
)

// unwound decides a non-recursive sequential program with loops by
// encoding it whole with its loops unwound (encode.Unwind), the way
// SAT-based checkers of concurrent C unwind threads, but exactly: the
// unwinding of each loop deepens while a further iteration can start in
// a state that no earlier iteration of its activation started in (a
// cut). When no cut can hold, a shortest execution to every reachable
// violation lies within the encoding, so "no violation" covers
// executions of any length. One query per unwinding asks for a violation
// or a cut at once; a model with a cut but no violation is followed by a
// question for a violation on the same solver, so that an unwinding that
// holds one ends the search instead of deepening into a larger query
// (the dining philosophers at N = 8: a third round of 1.7 s avoided).
//
// It returns nil when the unwinding outgrows the encoding's bound on
// locations (or ctx ends while it encodes), so that the caller's other
// method answers.
func unwound(ctx context.Context, p *ir.Program, frames int, solverName SolverName, opts bmcOptions) (*result.Result, error) {
	start := time.Now()
	iterations := map[encode.Loop]int{}
	for round := 1; ; round++ { // an unwinding
		m, err := encode.Unwind(ctx, p, frames, iterations)
		if err != nil {
			return nil, nil
		}
		sys := m.System()
		viol := sys.Bad[encode.PropViolation].Lit
		s, err := newSolver(ctx, solverName)
		if err != nil {
			return nil, err
		}
		cuts := make([]ts.Lit, len(m.Cuts))
		for i, c := range m.Cuts {
			cuts[i] = c.Lit
		}
		target := sys.And(m.Distinct, sys.Or(viol, sys.Ors(cuts...)))
		out := engine.Check(ctx, sys, s, engine.Task{Target: target, Running: ts.False, Whole: true, Prefer: viol})
		s.Close()
		most := 1
		for _, n := range iterations {
			most = max(most, n)
		}
		res := &result.Result{Engine: "bmc+" + s.Name(), Elapsed: time.Since(start),
			Stats: fmt.Sprintf("loops unwound to at most %d iterations in %s, %d inputs, %d nodes", most, result.Plural(round, "unwinding"), len(sys.Inputs()), sys.NumVars())}
		switch out.Status {
		case solver.Unknown:
			res.Verdict = result.Unknown
			res.Limits = []result.Limit{stopped(ctx, fmt.Sprintf("with the loops unwound to at most %d iterations", most))}
			return res, nil
		case solver.Unsat:
			res.Verdict = result.Safe
			res.Bounds, res.Depth = "executions of any length", opts.Depth
			res.Proof = fmt.Sprintf("every loop unwound until no further iteration starts in a new state (at most %d iterations)", most)
			return res, nil
		}
		vals := out.Witness.Values(sys, 0)
		if ts.Value(vals, viol) {
			r, err := counterexample(p, m, out, res, opts)
			if r != nil {
				r.Elapsed = time.Since(start)
			}
			return r, err
		}
		// One more iteration for each loop the model goes beyond. (Looking
		// for every such loop in one round costs a query as hard as the
		// last round's, which must show that none is left.)
		for _, c := range m.Cuts {
			switch {
			case opts.UniformUnwind:
				iterations[c.Loop] = most + 1
			case ts.Value(vals, c.Lit):
				iterations[c.Loop] = max(1, iterations[c.Loop]) + 1
			}
		}
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "bmc: loops unwound to at most %d iterations: a further iteration can start in a new state (%.1fs)\n", most, time.Since(start).Seconds())
		}
	}
}
