package driver

import (
	"context"
	"fmt"
	"io"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/smt"
	"bmc/solver"
	"bmc/ts"
)

// DefaultMaxRounds bounds K of K-induction with amplification when the
// user gives no --max-rounds.
const DefaultMaxRounds = 8

// amplifySteps is how long the runs are that the inductive case searches
// by bounded model checking before PDR decides.
const amplifySteps = 12

// proveAmplify is Alg. 1 of "K-induction with amplification"
// (kinduction-with-amplification, §4.2) for a concurrent program without
// recursion: for K = 1, 2, ... the base case (obligation (6): no
// violation within K round-robin rounds from the initial state, by the
// explicit engine) and then the inductive case (obligation (7) on the
// envelope, Eqn. (9): engine.AmplifyInduction on the program started at
// BASE). A violation in the base case is a bug, with its trace; both
// obligations at one K prove the program safe for every number of
// rounds, hence for every interleaving; K beyond --max-rounds leaves it
// open, with the last counterexample to induction.
func proveAmplify(ctx context.Context, p *ir.Program, o Options, progress io.Writer) (*result.Result, error) {
	res := &result.Result{Engine: "k-induction with amplification+" + o.Solver, Method: "amplify"}
	if p.Recursive() {
		// §4.2 decides the inductive case of a recursive program by
		// containment of regular sets of stack configurations, which is
		// not built.
		res.Verdict = result.Unknown
		res.Bounds = "every number of round-robin rounds"
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitProofBound,
			Detail: "--method amplify does not prove recursive programs (the containment check of the paper's §4.2 on regular sets of stack configurations is not built)"})
		res.Advice = "--method summaries proves recursive programs at every call depth within a bound on rounds or switches"
		return res, nil
	}
	if err := encode.BaseSupported(p); err != nil {
		return nil, &UsageError{"--method amplify: " + err.Error()}
	}
	depth := 1 // without recursion, every stack fits
	for _, t := range p.Threads {
		depth = max(depth, callDepth(p, t.Proc))
	}
	maxRounds := o.Proof.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	envelope := "the envelope (Eqn. 9)"
	if o.Proof.NoEnvelope {
		envelope = "no envelope (Eqn. 8)"
	}
	res.Bounds = "every number of round-robin rounds, hence every interleaving"
	var cti *result.Trace
	var known knownCubes
	for k := 1; k <= maxRounds; k++ {
		base, err := amplifyBase(ctx, p, o, k, depth)
		if err != nil || base.Verdict == result.Unknown {
			return amplifyStopped(ctx, res, base, err, k, "the base case")
		}
		if base.Verdict == result.Unsafe {
			base.Engine = res.Engine + " (base case: " + base.Engine + ")"
			base.Bounds = fmt.Sprintf("%d rounds, call depth %d", k, depth)
			return base, nil
		}
		m, err := encode.DirectBase(ctx, p, k+1, depth, encode.BaseOptions{Envelope: !o.Proof.NoEnvelope})
		if err != nil {
			return nil, err
		}
		sys := m.System()
		task := engine.AmplifyTask{Target: sys.Bad[encode.PropViolation].Lit, First: m.First, Short: m.Short, Envelope: m.Envelope, Sched: m.Sched,
			Steps: amplifySteps, MaxK: DefaultMaxK, Progress: progress, Known: known.in(sys), NewSolver: solverMaker(ctx, satSolver(o.Solver))}
		var out *engine.Amplified
		if o.Solver == "bdd" {
			out = engine.AmplifyDiagrams(ctx, sys, task, false)
		} else {
			out = engine.AmplifyInduction(ctx, sys, task)
		}
		if progress != nil {
			how := "by decision diagrams"
			if o.Solver != "bdd" {
				how = fmt.Sprintf("%s, %s", result.Plural(out.Candidates, "candidate"), result.Plural(len(out.Blocked), "blocked cube"))
			}
			fmt.Fprintf(progress, "amplify: K=%d: base case holds (%s), inductive case: %s (%s)\n", k, base.Stats, amplifyWords(out.Status), how)
		}
		switch out.Status {
		case solver.Unknown:
			return amplifyStopped(ctx, res, nil, fmt.Errorf("%s", out.Reason), k, "the inductive case")
		case solver.Sat:
			cti = amplifyCTI(p, m, out.CTI, k)
			known.add(sys, out.Blocked)
			continue
		}
		if err := recheckAmplified(ctx, p, o, m, task, out, k, depth); err != nil {
			if ctx.Err() != nil {
				return amplifyStopped(ctx, res, nil, err, k, "the re-check")
			}
			return nil, err
		}
		res.Verdict = result.Safe
		res.K = k
		how := "a difference of decision diagrams"
		if o.Solver != "bdd" {
			how = fmt.Sprintf("%s refuted", result.Plural(out.Candidates, "candidate"))
		}
		res.Proof = fmt.Sprintf("K-inductive with amplification, K = %d (%s; %s; base and inductive case re-checked)", k, envelope, how)
		res.Stats = fmt.Sprintf("%d latches at K+1 = %d rounds", len(sys.Latches()), k+1)
		return res, nil
	}
	res.Verdict = result.Unknown
	res.K = maxRounds
	res.Limits = append(res.Limits, result.Limit{Kind: result.LimitProofBound,
		Detail: fmt.Sprintf("no K up to %d is K-inductive with amplification (%s); the base case holds for %d rounds", maxRounds, envelope, maxRounds)})
	res.Advice = "a larger --max-rounds, or --method pdr"
	res.CTI = cti
	return res, nil
}

// amplifyBase decides the base case at k rounds by the explicit engine,
// within the program's call depth (without recursion the stacks fit).
func amplifyBase(ctx context.Context, p *ir.Program, o Options, k, depth int) (*result.Result, error) {
	b := o.Bounds
	b.Rounds, b.Switches, b.Depth = k, -1, depth
	c, err := explicit.New(p, b.explicitOptions())
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	return c.Run(ctx), nil
}

// recheckAmplified re-checks a proof at k: the base case by PDR on the
// interleaving product within k rounds (another engine than the explicit
// one that decided it), the inductive case on the program started at
// BASE built anew, with a fresh solver (Z3 when it is built in).
func recheckAmplified(ctx context.Context, p *ir.Program, o Options, m *encode.Base, task engine.AmplifyTask, out *engine.Amplified, k, depth int) error {
	if err := recheckBase(ctx, p, o, k, depth); err != nil {
		return err
	}
	again, err := encode.DirectBase(ctx, p, k+1, depth, encode.BaseOptions{Envelope: !o.Proof.NoEnvelope})
	if err != nil {
		return err
	}
	t := task
	sys := again.System()
	t.Target, t.First, t.Short, t.Envelope, t.Sched = sys.Bad[encode.PropViolation].Lit, again.First, again.Short, again.Envelope, again.Sched
	if o.Solver == "bdd" {
		// The diagrams again, on the system built anew, with the
		// variables in the reverse order.
		if again := engine.AmplifyDiagrams(ctx, sys, t, true); again.Status != solver.Unsat {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("internal error: the inductive case at K = %d does not re-check with the variables reversed (%v)", k, again.Status)
		}
		return nil
	}
	name := "gini"
	if smt.Available {
		name = "z3"
	}
	s, err := newSolver(ctx, name)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := engine.CheckAmplified(ctx, m.System(), sys, s, t, out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("internal error: the inductive case at K = %d does not re-check with %s: %v", k, name, err)
	}
	return nil
}

// recheckBase re-checks the base case at k rounds on the interleaving
// product: by decision diagrams with the solver bdd, else by PDR.
func recheckBase(ctx context.Context, p *ir.Program, o Options, k, depth int) error {
	verdict := "safe"
	if o.Solver == "bdd" {
		d, care, sched, err := encode.DirectCare(ctx, p, encode.DirectOptions{Depth: depth, Rounds: k, Switches: -1})
		if err != nil {
			return err
		}
		sys := d.System()
		st, reason := engine.ReachableByDiagrams(ctx, sys, sys.Bad[encode.PropViolation].Lit, care, sched)
		if st != solver.Unsat {
			verdict = fmt.Sprintf("%v %s", st, reason)
		}
	} else {
		ob := o
		ob.Bounds.Depth = depth
		ob.Proof.Method = "pdr"
		base, err := proveBounded(ctx, p, ob, "direct", seq.Bound{Rounds: k}, nil)
		if err != nil {
			return err
		}
		verdict = base.Verdict.String()
	}
	switch {
	case verdict == "safe":
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("internal error: the base case at %d rounds does not re-check on the interleaving product (%s)", k, verdict)
}

// amplifyCTI is the counterexample to induction at k: the state at BASE
// and its run of k+1 rounds to the violation, as the program's steps.
func amplifyCTI(p *ir.Program, m *encode.Base, w *engine.Witness, k int) *result.Trace {
	sys := m.System()
	n := len(w.Latches) - 1
	steps, err := m.Steps(func(i int) []bool { return w.Values(sys, i) }, n)
	if err != nil {
		return nil
	}
	t := ctiTrace(p, steps)
	t.Violation = fmt.Sprintf("counterexample to induction at K = %d (not a bug: its first state need not be reachable): from %s, a run of %d rounds reaches a violation and no run of %d rounds does",
		k, m.Describe(w.Values(sys, 0)), k+1, k)
	return t
}

// amplifyWords words the inductive case's answer.
func amplifyWords(st solver.Status) string {
	switch st {
	case solver.Unsat:
		return "holds"
	case solver.Sat:
		return "a counterexample to induction"
	}
	return "stopped"
}

// amplifyStopped is the unknown answer of a search that stopped at k.
func amplifyStopped(ctx context.Context, res, base *result.Result, err error, k int, what string) (*result.Result, error) {
	if base != nil && err == nil {
		base.Engine = res.Engine + " (base case: " + base.Engine + ")"
		return base, nil
	}
	if ue, ok := err.(*UsageError); ok {
		return nil, ue
	}
	res.Verdict = result.Unknown
	res.K = k
	detail := fmt.Sprintf(": %s at K = %d was not decided", what, k)
	if ctx.Err() != nil {
		res.Limits = append(res.Limits, result.Stopped(ctx, detail))
	} else {
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitSolver, Detail: "(" + err.Error() + ")" + detail})
	}
	return res, nil
}

// satSolver is the solver of the SAT queries (PDR's, the runs of a
// counterexample) of a search with solver name: gini beside decision
// diagrams.
func satSolver(name string) string {
	if name == "bdd" {
		return "gini"
	}
	return name
}

// knownCubes are the cubes blocked at smaller K, by latch name (the
// systems of two K differ in the width of their round counter, false at
// BASE in both), with their runs.
type knownCubes []knownCube

type knownCube struct {
	lits   []namedLit
	inputs [][]bool
}

type namedLit struct {
	latch string
	value bool
}

// add keeps the cubes of sys, those it was given among them.
func (kc *knownCubes) add(sys *ts.System, cubes []engine.AmplifyCube) {
	name := map[int]string{}
	for _, l := range sys.Latches() {
		name[l.Lit.Var()] = l.Name
	}
	*kc = (*kc)[:0]
	for _, c := range cubes {
		k := knownCube{inputs: c.Inputs}
		for _, l := range c.Lits {
			k.lits = append(k.lits, namedLit{name[l.Var()], !l.IsNeg()})
		}
		*kc = append(*kc, k)
	}
}

// in is the cubes over sys's latches, each without the literals of
// latches sys does not have.
func (kc knownCubes) in(sys *ts.System) []engine.AmplifyCube {
	latch := map[string]ts.Lit{}
	for _, l := range sys.Latches() {
		latch[l.Name] = l.Lit
	}
	var out []engine.AmplifyCube
	for _, k := range kc {
		c := engine.AmplifyCube{Inputs: k.inputs}
		for _, nl := range k.lits {
			if l, ok := latch[nl.latch]; ok {
				if !nl.value {
					l = l.Not()
				}
				c.Lits = append(c.Lits, l)
			}
		}
		out = append(out, c)
	}
	return out
}
