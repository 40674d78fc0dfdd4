package method

import (
	"context"
	"fmt"
	"io"
	"sync"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/internal/budget"
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
// violation within K round-robin rounds from the initial state) and the
// inductive case (obligation (7) on the envelope, Eqn. (9), on the
// program started at BASE): by decision diagrams with the solver bdd
// (byRounds), else by the candidate and run solvers (bySolver). A
// violation in the base case is a bug, with its trace; both obligations
// at one K prove the program safe for every number of rounds, hence for
// every interleaving; K beyond --max-rounds leaves it open, with the
// last counterexample to induction.
func proveAmplify(ctx context.Context, p *ir.Program, o Options, progress io.Writer) (*result.Result, error) {
	res := &result.Result{Engine: "k-induction with amplification+" + string(o.Solver), Method: "amplify"}
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
		return nil, &result.UsageError{Msg: "--method amplify: " + err.Error()}
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
	a := &amplifier{ctx: ctx, p: p, o: o, res: res, depth: depth, maxRounds: maxRounds, envelope: envelope, progress: progress,
		opts: encode.BaseOptions{Envelope: !o.Proof.NoEnvelope}}
	if o.Solver == SolverBDD {
		return a.byRounds()
	}
	return a.bySolver()
}

// amplifier is one run of Alg. 1.
type amplifier struct {
	ctx       context.Context
	p         *ir.Program
	o         Options
	res       *result.Result // the answer, filled in as it is found
	depth     int
	maxRounds int
	envelope  string // the words for o.Proof.NoEnvelope
	opts      encode.BaseOptions
	progress  io.Writer
}

// baseCase decides the base case at k: done is the answer when it is a
// violation or stopped; reached counts the states of the diagrams.
func (a *amplifier) baseCase(k int) (base *result.Result, reached float64, done *result.Result, err error) {
	base, reached, err = amplifyBase(a.ctx, a.p, a.o, k, a.depth)
	switch {
	case err != nil && a.ctx.Err() == nil:
		return nil, 0, nil, err // an internal error or a usage error
	case err != nil || base.Verdict == result.Unknown:
		done, err = amplifyStopped(a.ctx, a.res, base, err, k, "the base case")
		return nil, 0, done, err
	case base.Verdict == result.Unsafe:
		base.Engine = a.res.Engine + " (base case: " + base.Engine + ")"
		base.Bounds, base.Depth = result.Plural(k, "round"), a.depth
		return nil, 0, base, nil
	}
	return base, reached, nil, nil
}

// proved completes the answer: proved at k, how, re-checked so.
func (a *amplifier) proved(k int, how, rechecked string, latches int) *result.Result {
	a.res.Verdict = result.Safe
	a.res.K = k
	a.res.Proof = fmt.Sprintf("K-inductive with amplification, K = %d (%s; %s; %s)", k, a.envelope, how, rechecked)
	a.res.Stats = fmt.Sprintf("%d latches at K+1 = %d rounds", latches, k+1)
	return a.res
}

// exhausted is the answer when no K up to the limit is inductive: the
// last counterexample to induction with it.
func (a *amplifier) exhausted(cti *result.Trace) *result.Result {
	res := a.res
	res.Verdict = result.Unknown
	res.K = a.maxRounds
	res.Limits = append(res.Limits, result.Limit{Kind: result.LimitProofBound,
		Detail: fmt.Sprintf("no K up to %d is K-inductive with amplification (%s); the base case holds for %s", a.maxRounds, a.envelope, result.Plural(a.maxRounds, "round"))})
	res.Advice = "a larger --max-rounds, or --method pdr"
	res.CTI = cti
	return res
}

// byRounds is Alg. 1 with the inductive case of every K by
// engine.AmplifyRounds on one system that counts no rounds. The base
// case is decided where the inductive case holds, or at the last K: a
// violation within K rounds is one within every larger K, so checking it
// at each smaller K first would only find it sooner. A proof's inductive
// case is re-checked on the system that counts K+1 rounds, and the last
// counterexample to induction gets its run there.
func (a *amplifier) byRounds() (*result.Result, error) {
	ctx := a.ctx
	rm, err := encode.DirectBase(ctx, a.p, 0, a.depth, a.opts)
	if err != nil {
		return nil, err
	}
	sys := rm.System()
	task := engine.RoundTask{Target: sys.Bad[encode.PropViolation].Lit, First: rm.First, Envelope: rm.Envelope, Sched: rm.Sched, Progress: a.progress}
	var answer *result.Result
	var cti []bool                       // the last counterexample to induction, at K = at
	at, stage := 1, "the inductive case" // what a stop cuts short
	err = engine.AmplifyRounds(ctx, sys, task, false, func(k int, state []bool) (bool, error) {
		at = k
		if state != nil {
			cti = state
			if a.progress != nil {
				fmt.Fprintf(a.progress, "amplify: K=%d: inductive case: %s (by decision diagrams)\n", k, amplifyWords(solver.Sat))
			}
			return k < a.maxRounds, nil
		}
		// The inductive case's re-check needs no base case: it runs
		// beside it, on a core of its own where the run has one free.
		inductive, stop := beside(ctx, func(ctx context.Context) (string, error) {
			return recheckInductive(ctx, a.p, a.o, k, a.depth)
		})
		defer stop()
		base, reached, done, err := a.baseCase(k)
		if done != nil || err != nil {
			stop()
			answer, err = a.fewestRounds(k, done, err)
			return false, err
		}
		if a.progress != nil {
			fmt.Fprintf(a.progress, "amplify: K=%d: inductive case: %s (by decision diagrams), base case holds (%s, %s)\n", k, amplifyWords(solver.Unsat), base.Engine, base.Stats)
		}
		stage = "the re-check of the base case"
		baseHow, err := recheckBase(ctx, a.p, a.o, reached, k, a.depth)
		if err != nil {
			return false, err
		}
		stage = "the re-check of the inductive case"
		inductiveHow, err := inductive()
		if err != nil {
			return false, err
		}
		answer = a.proved(k, "a difference of decision diagrams, round after round", baseHow+", "+inductiveHow, len(sys.Latches()))
		return false, nil
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return amplifyStopped(ctx, a.res, nil, err, at, stage)
	case err != nil:
		return nil, err
	case answer != nil:
		return answer, nil
	}
	if _, _, done, err := a.baseCase(a.maxRounds); done != nil || err != nil {
		return a.fewestRounds(a.maxRounds, done, err)
	}
	trace, err := a.roundsCTI(sys, cti, a.maxRounds)
	if err != nil {
		if ctx.Err() != nil {
			return amplifyStopped(ctx, a.res, nil, err, a.maxRounds, "the counterexample to induction")
		}
		return nil, err
	}
	return a.exhausted(trace), nil
}

// fewestRounds is the answer of the base case at k, done (or err), or,
// when done is a violation, the violation within the fewest rounds: the
// base case is decided at the K the inductive case asks for, and a
// violation found there may need fewer.
func (a *amplifier) fewestRounds(k int, done *result.Result, err error) (*result.Result, error) {
	if err != nil || done.Verdict != result.Unsafe {
		return done, err
	}
	for j := 1; j < k; j++ {
		if _, _, fewer, err := a.baseCase(j); err != nil || fewer != nil && fewer.Verdict == result.Unsafe {
			return fewer, err
		}
	}
	return done, nil
}

// roundsCTI is the counterexample to induction at k whose first state is
// state (of sys, which counts no rounds): its run of k+1 rounds, found on
// the system that counts them from that state, which must have one and
// none of k rounds.
func (a *amplifier) roundsCTI(rsys *ts.System, state []bool, k int) (*result.Trace, error) {
	m, err := encode.DirectBase(a.ctx, a.p, k+1, a.depth, a.opts)
	if err != nil {
		return nil, err
	}
	sys := m.System()
	value := map[string]bool{}
	for i, l := range rsys.Latches() {
		value[l.Name] = state[i]
	}
	var from []ts.Lit
	for _, l := range sys.Latches() {
		if v, ok := value[l.Name]; ok && l.Lit != m.First && l.Lit != m.Short {
			from = append(from, map[bool]ts.Lit{true: l.Lit, false: l.Lit.Not()}[v])
		}
	}
	target := sys.Bad[encode.PropViolation].Lit
	longer := engine.ReachableByDiagrams(a.ctx, sys, target, m.Envelope, m.Sched, false, append(from, m.Short.Not())...)
	shorter := engine.ReachableByDiagrams(a.ctx, sys, target, m.Envelope, m.Sched, false, append(from, m.Short)...)
	switch {
	case a.ctx.Err() != nil:
		return nil, a.ctx.Err()
	case longer.Status != solver.Sat || shorter.Status != solver.Unsat:
		return nil, fmt.Errorf("internal error: the counterexample to induction at K = %d does not re-check on the system that counts rounds (a run of %s: %v; of %s: %v)",
			k, result.Plural(k+1, "round"), longer.Status, result.Plural(k, "round"), shorter.Status)
	}
	return amplifyCTI(a.p, m, longer.Run, k), nil
}

// bySolver is Alg. 1 with the inductive case of each K by the candidate
// and run solvers (engine.AmplifyInduction) on the system that counts
// K+1 rounds, the cubes blocked at one K carried to the next.
func (a *amplifier) bySolver() (*result.Result, error) {
	ctx, o := a.ctx, a.o
	var cti *result.Trace
	var known knownCubes
	for k := 1; k <= a.maxRounds; k++ {
		base, reached, done, err := a.baseCase(k)
		if done != nil || err != nil {
			return done, err
		}
		m, err := encode.DirectBase(ctx, a.p, k+1, a.depth, a.opts)
		if err != nil {
			return nil, err
		}
		sys := m.System()
		task := baseTask(m)
		task.Steps, task.MaxK, task.Progress = amplifySteps, DefaultMaxK, a.progress
		task.Known, task.NewSolver = known.in(sys), solverMaker(ctx, satSolver(o.Solver))
		out := engine.AmplifyInduction(ctx, sys, task)
		if a.progress != nil {
			fmt.Fprintf(a.progress, "amplify: K=%d: base case holds (%s, %s), inductive case: %s (%s, %s)\n", k, base.Engine, base.Stats, amplifyWords(out.Status),
				result.Plural(out.Candidates, "candidate"), result.Plural(len(out.Blocked), "blocked cube"))
		}
		switch out.Status {
		case solver.Unknown:
			return amplifyStopped(ctx, a.res, nil, fmt.Errorf("%s", out.Reason), k, "the inductive case")
		case solver.Sat:
			cti = amplifyCTI(a.p, m, out.CTI, k)
			known.add(sys, out.Blocked)
			continue
		}
		baseHow, err := recheckBase(ctx, a.p, o, reached, k, a.depth)
		inductiveHow := ""
		if err == nil {
			inductiveHow, err = recheckInductiveBySolver(ctx, a.p, o, m, task, out, k, a.depth)
		}
		if err != nil {
			if ctx.Err() != nil {
				return amplifyStopped(ctx, a.res, nil, err, k, "the re-check")
			}
			return nil, err
		}
		return a.proved(k, fmt.Sprintf("%s refuted", result.Plural(out.Candidates, "candidate")), baseHow+", "+inductiveHow, len(sys.Latches())), nil
	}
	return a.exhausted(cti), nil
}

// amplifyBase decides the base case at k rounds within the program's
// call depth (without recursion the stacks fit): by decision diagrams
// on the interleaving product with the solver bdd (the explicit engine
// ran out of states from 6 threads of the flag mutex, where the
// diagrams take a second), else by the explicit engine.
// It gives the number of states the diagrams reached.
func amplifyBase(ctx context.Context, p *ir.Program, o Options, k, depth int) (*result.Result, float64, error) {
	if o.Solver == SolverBDD {
		return baseByDiagrams(ctx, p, o, k, depth, false)
	}
	res, err := baseExplicit(ctx, p, o, k, depth, o.Bounds.MaxStates)
	return res, 0, err
}

// baseExplicit decides the base case at k rounds by the explicit engine,
// within maxStates states (0: its default).
func baseExplicit(ctx context.Context, p *ir.Program, o Options, k, depth, maxStates int) (*result.Result, error) {
	b := o.Bounds
	b.Rounds, b.Switches, b.Depth, b.MaxStates = k, -1, depth, maxStates
	c, err := explicit.New(p, b.ExplicitOptions())
	if err != nil {
		return nil, &result.UsageError{Msg: err.Error()}
	}
	return c.Run(ctx), nil
}

// baseByDiagrams decides the base case at k rounds by decision diagrams
// on the direct encoding within k rounds, forward from the initial state
// (in the diagrams' second variable order with second): a path to the
// violation is read back as the program's steps and replayed on the
// explicit interpreter. It gives the number of states reached.
func baseByDiagrams(ctx context.Context, p *ir.Program, o Options, k, depth int, second bool) (*result.Result, float64, error) {
	b := o.Bounds
	b.Rounds, b.Switches, b.Depth = k, -1, depth
	res := &result.Result{Engine: "decision diagrams", Bounds: result.Plural(k, "round"), Depth: depth}
	d, care, sched, err := encode.DirectCare(ctx, p, encode.DirectOptions{Depth: depth, Rounds: k, Switches: -1})
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, err
		}
		return nil, 0, &result.UsageError{Msg: err.Error()}
	}
	sys := d.System()
	out := engine.ReachableByDiagrams(ctx, sys, sys.Bad[encode.PropViolation].Lit, care, sched, second)
	res.Stats = result.Plural(int(out.States), "state")
	switch out.Status {
	case solver.Unsat:
		res.Verdict = result.Safe
	case solver.Unknown:
		res.Verdict = result.Unknown
		if ctx.Err() != nil {
			res.Limits = append(res.Limits, result.Stopped(ctx, fmt.Sprintf(": the base case at %s was not decided", result.Plural(k, "round"))))
		} else {
			res.Limits = append(res.Limits, result.Limit{Kind: result.LimitSolver, Detail: fmt.Sprintf("(%s): the base case at %s was not decided", out.Reason, result.Plural(k, "round"))})
		}
	case solver.Sat:
		w := out.Run
		steps, err := d.Steps(func(i int) []bool { return w.Values(sys, i) }, len(w.Latches)-1)
		if err != nil {
			return nil, 0, fmt.Errorf("internal error: %v", err)
		}
		tr, err := explicit.Replay(p, b.ExplicitOptions(), onProgram(p, steps))
		if err != nil {
			return nil, 0, fmt.Errorf("internal error: the decision diagrams' counterexample within %s does not replay on the explicit interpreter: %v", result.Plural(k, "round"), err)
		}
		res.Verdict, res.Trace = result.Unsafe, tr
	}
	return res, out.States, nil
}

// recheckStates is as many states as the explicit engine explores when
// it re-checks a base case decided by decision diagrams (half a second
// of work); when the diagrams reached more, they re-check it themselves
// in another variable order.
const recheckStates = 1 << 16

// recheckInductive re-checks the inductive case of a proof at k by
// decision diagrams on the program started at BASE built anew, as the
// encoding that counts K+1 rounds (engine.AmplifyDiagrams, a fixpoint
// of its own over the rounds counted). It says how.
func recheckInductive(ctx context.Context, p *ir.Program, o Options, k, depth int) (string, error) {
	again, err := encode.DirectBase(ctx, p, k+1, depth, encode.BaseOptions{Envelope: !o.Proof.NoEnvelope})
	if err != nil {
		return "", err
	}
	if out := engine.AmplifyDiagrams(ctx, again.System(), baseTask(again), false); out.Status != solver.Unsat {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("internal error: the inductive case at K = %d does not re-check on the system that counts rounds (%v)", k, out.Status)
	}
	return "the inductive case by decision diagrams on the system that counts rounds", nil
}

// recheckInductiveBySolver re-checks the inductive case of a proof at k
// that the candidate and run solvers found on m (task, with the answer
// out): on the program started at BASE built anew, with a fresh solver
// (Z3 when it is built in). It says how.
func recheckInductiveBySolver(ctx context.Context, p *ir.Program, o Options, m *encode.Base, task engine.AmplifyTask, out *engine.Amplified, k, depth int) (string, error) {
	again, err := encode.DirectBase(ctx, p, k+1, depth, encode.BaseOptions{Envelope: !o.Proof.NoEnvelope})
	if err != nil {
		return "", err
	}
	t, fresh := task, baseTask(again)
	t.Target, t.First, t.Short, t.Envelope, t.Sched = fresh.Target, fresh.First, fresh.Short, fresh.Envelope, fresh.Sched
	name := SolverGini
	if smt.Available {
		name = SolverZ3
	}
	s, err := newSolver(ctx, name)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if err := engine.CheckAmplified(ctx, m.System(), again.System(), s, t, out); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("internal error: the inductive case at K = %d does not re-check with %s: %v", k, name, err)
	}
	return "the inductive case by " + string(name), nil
}

// baseTask is the inductive case on m: its violation, its latches First
// and Short, its envelope and the inputs that choose a step's thread.
func baseTask(m *encode.Base) engine.AmplifyTask {
	return engine.AmplifyTask{Target: m.System().Bad[encode.PropViolation].Lit, First: m.First, Short: m.Short, Envelope: m.Envelope, Sched: m.Sched}
}

// beside starts f on a core borrowed from the run, when one is free,
// and gives its answer when asked (waiting for it); with no core free,
// f runs when its answer is asked for. Stop cancels f and waits for it
// to end; the answer is not asked for after it.
func beside(ctx context.Context, f func(context.Context) (string, error)) (answer func() (string, error), stop func()) {
	release, ok := budget.Borrow(ctx)
	if !ok {
		return func() (string, error) { return f(ctx) }, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	type reply struct {
		how string
		err error
	}
	done := make(chan reply, 1)
	go func() {
		defer release()
		how, err := f(ctx)
		done <- reply{how, err}
	}()
	var r *reply
	wait := func() {
		if r == nil {
			x := <-done
			r = &x
		}
	}
	return func() (string, error) {
			wait()
			return r.how, r.err
		}, sync.OnceFunc(func() {
			cancel()
			wait()
		})
}

// recheckBase re-checks the base case at k rounds by another engine: a
// base case the diagrams decided (reaching that many states) by the
// explicit engine where the states fit in recheckStates, else by the
// diagrams in their second variable order; one the explicit engine decided by PDR
// on the interleaving product.
func recheckBase(ctx context.Context, p *ir.Program, o Options, reached float64, k, depth int) (string, error) {
	var again *result.Result
	var err error
	how := "the base case re-checked by "
	switch {
	case o.Solver != SolverBDD:
		ob := o
		ob.Bounds.Depth = depth
		ob.Proof.Method = ProofPDR
		again, err = proveBounded(ctx, p, ob, SeqDirect, seq.Bound{Rounds: k}, nil)
		how += "PDR on the interleaving product"
	case reached <= recheckStates:
		// The explicit engine counts states of its own (the program's
		// variables, its reductions), a few times as many at most.
		again, err = baseExplicit(ctx, p, o, k, depth, 4*recheckStates)
		how += "the explicit engine"
	default:
		again, _, err = baseByDiagrams(ctx, p, o, k, depth, true)
		how += fmt.Sprintf("decision diagrams in another variable order (%s, too many for the explicit engine)", result.Plural(int(reached), "state"))
	}
	switch {
	case err != nil:
		return "", err
	case again.Verdict == result.Safe:
		return how, nil
	case ctx.Err() != nil:
		return "", ctx.Err()
	}
	return "", fmt.Errorf("internal error: the base case at %s does not re-check (%s: %s)", result.Plural(k, "round"), how, again.Verdict)
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
	t.Violation = fmt.Sprintf("counterexample to induction at K = %d (not a bug: its first state need not be reachable): from %s, a run of %s reaches a violation and no run of %s does",
		k, m.Describe(w.Values(sys, 0)), result.Plural(k+1, "round"), result.Plural(k, "round"))
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
	if ue, ok := err.(*result.UsageError); ok {
		return nil, ue
	}
	res.Verdict = result.Unknown
	res.K = k
	detail := fmt.Sprintf(": %s at K = %d was not decided", what, k)
	switch {
	case base != nil && err == nil:
		// The base case's engine says what stopped it (its state limit,
		// the time).
		res.Limits = append(res.Limits, base.Limits...)
		res.Advice = base.Advice
	case ctx.Err() != nil:
		res.Limits = append(res.Limits, result.Stopped(ctx, detail))
	default:
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitSolver, Detail: "(" + err.Error() + ")" + detail})
	}
	return res, nil
}

// satSolver is the solver of the SAT queries (PDR's, the runs of a
// counterexample) of a search with solver name: gini beside decision
// diagrams.
func satSolver(name SolverName) SolverName {
	if name == SolverBDD {
		return SolverGini
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
