package method

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/solver"
	"bmc/ts"
)

// DefaultMaxK bounds k-induction's k and PDR's frames when the user gives
// no --max-k.
const DefaultMaxK = 200

// ProofOptions choose how an encoded program is proved: the engine and
// its bound on k or frames.
type ProofOptions struct {
	Method ProofMethod // "": the plan's choice
	MaxK   int         // 0: DefaultMaxK
	// Certificate, when not nil, receives the inductive invariant of a
	// proof (see WriteCertificate).
	Certificate *Certificate
	// MaxRounds bounds K of K-induction with amplification (0:
	// DefaultMaxRounds); NoEnvelope starts its inductive case from every
	// well-formed state, not only the envelope's.
	MaxRounds  int
	NoEnvelope bool
}

// Certificate is a proof's inductive invariant over the state bits of
// the system it was found on: the system, named so that its bits can be
// told apart (ts.System latch names), and the invariant's clauses.
type Certificate struct {
	Sys       *ts.System
	Target    ts.Lit
	Invariant [][]ts.Lit
	// Notes say, for a reader, what the bits stand for beyond their names
	// (which variables share a stack slot) and what was proved.
	Notes []string
	// Summaries are, for a proof by the summary engine (no Sys), each
	// predicate's interpretation over its named arguments.
	Summaries []string
}

// prove decides with a proof engine whether executions of m of any length
// reach the violation, and then whether they reach a limit (a full call
// stack, no free thread slot), each only if BMC has not already seen it
// (seen, by index in limits). A violation is replayed as BMC's are; a
// reachable limit leaves the answer unknown, as in BMC.
func prove(ctx context.Context, p *ir.Program, m encode.Model, limits []limit, seen []bool, po ProofOptions, solverName SolverName, opts bmcOptions) (*result.Result, error) {
	sys := m.System()
	res := &result.Result{Engine: proofName(po.Method, solverName)}
	run := proofEngineOn(ctx, m, po, solverName, opts.Progress)
	res.Stats = fmt.Sprintf("%d latches, %d inputs, %d nodes", len(sys.Latches()), len(sys.Inputs()), sys.NumVars())
	res.Bounds, res.Depth = "executions of any length", opts.Depth
	viol := sys.Bad[encode.PropViolation].Lit
	var open []ts.Lit // the limits BMC has not seen
	for i, l := range limits {
		if seen[i] {
			res.Limits = append(res.Limits, l.what)
		} else {
			open = append(open, l.lit)
		}
	}
	if len(res.Limits) > 0 {
		open = nil // the answer is unknown unless there is a violation
	}
	// The encoding cuts an execution short at a limit, so that "no
	// violation" is a proof for the program only if no execution meets
	// one: one proof for the violation or a limit. A path to a limit
	// alone sends the question back for the violation alone.
	target := sys.Ors(append([]ts.Lit{viol}, open...)...)
	pf := run(target)
	if pf.Status == solver.Sat && len(open) > 0 {
		last := pf.Witness.Values(sys, pf.Bound)
		if !ts.Value(last, viol) {
			for _, l := range limits {
				if ts.Value(last, l.lit) {
					res.Limits = append(res.Limits, l.what)
				}
			}
			target = viol
			pf = run(viol)
		}
	}
	switch pf.Status {
	case solver.Sat:
		res.Bound = pf.Bound
		return counterexample(p, m, &engine.Outcome{Status: solver.Sat, Bound: pf.Bound, Witness: pf.Witness}, res, opts)
	case solver.Unknown:
		what := "a violation"
		if target != viol {
			what = "a violation or a limit of the encoding (a full call stack or thread table)"
		}
		return proofOpen(ctx, p, m, pf, res, what, opts.Depth)
	}
	res.Proof = proofStats(pf, po.Method)
	res.Bound = pf.Bound
	if len(res.Limits) > 0 {
		// Say what was proved: the violation is unreachable on every
		// execution the limits do not cut.
		res.Verdict = result.Unknown
		res.Limits = append(res.Limits, result.NewLimit(result.LimitProved, "no violation on any execution that stays within them (proved: %s)", res.Proof))
		res.Proof = ""
		return res, nil
	}
	res.Verdict = result.Safe
	if po.Certificate != nil && po.Method.invariant() {
		// (An empty invariant certifies a target no state can meet.)
		po.Certificate.Sys, po.Certificate.Target, po.Certificate.Invariant = sys, target, pf.Invariant
		po.Certificate.Notes = slotNotes(p)
	}
	return res, nil
}

// proofEngineOn is po's proof engine on m, run for a target.
func proofEngineOn(ctx context.Context, m encode.Model, po ProofOptions, solverName SolverName, progress io.Writer) func(ts.Lit) *engine.Proof {
	sys := m.System()
	task := engine.ProofTask{MaxK: po.MaxK, NewSolver: solverMaker(ctx, solverName), Progress: progress}
	if task.MaxK == 0 {
		task.MaxK = DefaultMaxK
	}
	return func(target ts.Lit) *engine.Proof {
		task.Target = target
		switch po.Method {
		case ProofKind:
			return engine.ImprovedInduction(ctx, sys, task)
		case ProofKindSimple:
			return engine.KInduction(ctx, sys, task)
		case ProofReach:
			if sm, ok := m.(encode.Scheduled); ok {
				task.Threads = &engine.Threads{Sched: sm.Scheduler(), Care: sm.Care(), PC: sm.ProgramCounters()}
			}
			return engine.ForwardReach(ctx, sys, task)
		case ProofViews:
			if sm, ok := m.(encode.Scheduled); ok {
				task.Threads = &engine.Threads{Sched: sm.Scheduler(), Care: sm.Care(), PC: sm.ProgramCounters()}
			}
			return engine.PairViews(ctx, sys, task)
		}
		return engine.PDR(ctx, sys, task)
	}
}

// solverMaker makes the solvers of a proof engine, each named name.
func solverMaker(ctx context.Context, name SolverName) func() solver.Solver {
	return func() solver.Solver {
		s, err := newSolver(ctx, name)
		if err != nil {
			// The name was checked before any engine ran.
			panic(err)
		}
		return s
	}
}

// proofName names the engine of a method with the solver it runs on:
// reachability runs on decision diagrams whatever the solver.
func proofName(method ProofMethod, solver SolverName) string {
	if method == ProofReach || method == ProofViews {
		solver = SolverBDD
	}
	return proofEngine(method) + "+" + string(solver)
}

// proofEngine names the engine of a method (auto: PDR).
func proofEngine(method ProofMethod) string {
	switch method {
	case ProofKind:
		return "k-induction (improved)"
	case ProofKindSimple:
		return "k-induction (simple path)"
	case ProofReach:
		return "reachability"
	case ProofViews:
		return "pairwise views"
	}
	return "pdr"
}

// invariant says whether a proof of m is an inductive invariant over
// single states, which a certificate writes: PDR's (auto's too).
func (m ProofMethod) invariant() bool {
	return m != ProofKind && m != ProofKindSimple && m != ProofReach
}

// proofStats words what a proof rests on.
func proofStats(pf *engine.Proof, method ProofMethod) string {
	lits := 0
	for _, c := range pf.Invariant {
		lits += len(c)
	}
	switch method {
	case ProofKind, ProofKindSimple:
		return fmt.Sprintf("%d-inductive", pf.Bound)
	case ProofReach:
		return fmt.Sprintf("the reachable states are an inductive invariant (%s)", result.Plural(pf.Nodes, "diagram node"))
	case ProofViews:
		return fmt.Sprintf("the views of each pair of threads are an inductive invariant (%s, %s, %d literals)", result.Plural(pf.Views, "pair"), result.Plural(len(pf.Invariant), "clause"), lits)
	}
	return fmt.Sprintf("inductive invariant of %s (%d literals) at frame %d", result.Plural(len(pf.Invariant), "clause"), lits, pf.Bound)
}

// proofOpen is the unknown result of a proof engine that stopped while
// deciding whether what is reachable: its reason, and a counterexample to
// induction, when there is one, as the program's statements (a path from
// a state that need not be reachable: not a bug).
func proofOpen(ctx context.Context, p *ir.Program, m encode.Model, pf *engine.Proof, res *result.Result, what string, depth int) (*result.Result, error) {
	res.Verdict = result.Unknown
	res.Bounds, res.Depth = "executions of any length", depth
	detail := fmt.Sprintf(": no proof that %s is unreachable", what)
	switch {
	case pf.AtMaxK:
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitProofBound, Detail: pf.Reason + detail})
	case pf.Coarse:
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitAbstraction, Detail: "(" + pf.Reason + ")" + detail})
	case ctx.Err() != nil:
		res.Limits = append(res.Limits, result.Stopped(ctx, detail))
	default:
		res.Limits = append(res.Limits, result.Limit{Kind: result.LimitSolver, Detail: "(" + pf.Reason + ")" + detail})
	}
	if pf.CTI != nil {
		sys := m.System()
		k := len(pf.CTI.Latches) - 1
		steps, err := m.Steps(func(i int) []bool { return pf.CTI.Values(sys, i) }, k)
		if err == nil && len(steps) > 0 {
			res.CTI = ctiTrace(p, steps)
		}
	}
	return res, nil
}

// ctiTrace shows the statements of a counterexample to induction with the
// globals each changes. It is not replayed: it starts in a state that
// need not be reachable.
func ctiTrace(p *ir.Program, steps []result.ReplayStep) *result.Trace {
	t := &result.Trace{Violation: "counterexample to induction (not a bug: its first state need not be reachable)"}
	var before []ir.Value
	for _, st := range steps {
		e := st.Edge
		s := result.Step{Thread: fmt.Sprintf("%d", st.Thread), Pos: e.Pos, File: p.File, Proc: e.Proc.Name, Stmt: e.Stmt}
		for i, v := range st.Globals {
			if i < len(p.Globals) && (before == nil || before[i] != v) {
				s.Changes = append(s.Changes, fmt.Sprintf("%s=%s", p.Globals[i].Name, v))
			}
		}
		if st.Globals != nil {
			before = st.Globals
		}
		t.Steps = append(t.Steps, s)
	}
	return t
}

// WriteCertificate writes c's invariant for another tool: a comment
// naming every latch of the system with its initial value (numbered from
// 1 in the system's order), then the clauses in DIMACS form over those numbers,
// one per line, ending in 0. Every state reachable from the initial
// states satisfies every clause, no state that satisfies them all is
// bad, and each transition from such a state leads to another one.
// A proof by summaries is written as a line "s name: formula" per
// predicate of the program's Horn clauses (bmc export --chc writes them).
func (c *Certificate) WriteCertificate(w io.Writer) error {
	var b strings.Builder
	if c.Sys == nil {
		fmt.Fprintf(&b, "c bmc certificate: procedure summaries that make every Horn clause of the program valid and every violation underivable\n")
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "c %s\n", n)
		}
		for _, s := range c.Summaries {
			fmt.Fprintf(&b, "s %s\n", s)
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "c bmc certificate: an inductive invariant that excludes the bad states\n")
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "c %s\n", n)
	}
	index := map[int]int{}
	for i, l := range c.Sys.Latches() {
		index[l.Lit.Var()] = i + 1
		fmt.Fprintf(&b, "c latch %d %s init=%s\n", i+1, l.Name, [...]string{ts.Init0: "0", ts.Init1: "1", ts.InitFree: "free"}[l.Init])
	}
	fmt.Fprintf(&b, "p cnf %d %d\n", len(c.Sys.Latches()), len(c.Invariant))
	for _, cl := range c.Invariant {
		for _, l := range cl {
			n := index[l.Var()]
			if l.IsNeg() {
				n = -n
			}
			fmt.Fprintf(&b, "%d ", n)
		}
		b.WriteString("0\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ReadCertificate reads the clauses of a certificate that WriteCertificate
// wrote for sys.
func ReadCertificate(sys *ts.System, text string) ([][]ts.Lit, error) {
	latches := sys.Latches()
	var inv [][]ts.Lit
	header := false
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || f[0] == "c":
			continue
		case f[0] == "p":
			if len(f) != 4 || f[1] != "cnf" || f[2] != fmt.Sprint(len(latches)) {
				return nil, fmt.Errorf("line %d: the header is not \"p cnf %d N\"", i+1, len(latches))
			}
			header = true
			continue
		case !header:
			return nil, fmt.Errorf("line %d: a clause before the header", i+1)
		}
		var cl []ts.Lit
		for _, x := range f {
			var n int
			if _, err := fmt.Sscan(x, &n); err != nil {
				return nil, fmt.Errorf("line %d: %q is not a number", i+1, x)
			}
			if n == 0 {
				break
			}
			if n > len(latches) || -n > len(latches) {
				return nil, fmt.Errorf("line %d: no latch %d", i+1, n)
			}
			l := latches[max(n, -n)-1].Lit
			if n < 0 {
				l = l.Not()
			}
			cl = append(cl, l)
		}
		if f[len(f)-1] != "0" {
			return nil, fmt.Errorf("line %d: a clause must end in 0", i+1)
		}
		inv = append(inv, cl)
	}
	if !header {
		return nil, fmt.Errorf("no header \"p cnf ...\"")
	}
	return inv, nil
}

// slotNotes say which variables of which procedures a stack slot of
// latches (local[f].k) holds, for a certificate's reader.
func slotNotes(p *ir.Program) []string {
	var slots [][]string
	for _, pr := range p.Procs {
		for k, v := range pr.Locals {
			for len(slots) <= k {
				slots = append(slots, nil)
			}
			slots[k] = append(slots[k], pr.Name+"."+v.Name)
		}
	}
	var out []string
	for k, vs := range slots {
		slices.Sort(vs)
		out = append(out, fmt.Sprintf("local[*].%d holds %s", k, strings.Join(vs, ", ")))
	}
	return out
}

// proveSequential proves a one-thread program with the proof engine of
// o.Proof on its own encoding.
func proveSequential(ctx context.Context, p *ir.Program, o Options, progress io.Writer) (*result.Result, error) {
	s, err := newSolver(ctx, o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	q := encoded(p, false, progress)
	return bmc(ctx, q, s, bmcOptions{Depth: o.Bounds.Depth, Proof: &o.Proof, Solver: o.Solver, ProveOnly: true, Progress: progress,
		Replay: sequentialReplay(p, o.Bounds.Depth), IdleCut: q != p})
}

// proveBounded proves a concurrent program within bd with the proof
// engine of o.Proof on the sequentialization named method.
func proveBounded(ctx context.Context, p *ir.Program, o Options, method Seq, bd seq.Bound, progress io.Writer) (*result.Result, error) {
	if bd.Rounds > 0 {
		bd.Switches = 0
	}
	res, err := checkBound(ctx, p, encoded(p, false, progress), o, method, bd, true, progress)
	if res != nil {
		res.Bounds = joinBounds(bd.String(), res.Bounds)
		res.Engine = bmcEngine(res.Engine, method)
	}
	return res, err
}

// checkEveryInterleaving answers a question within a context bound by
// reachability on decision diagrams over the interleaving product
// without the bound: no violation on any interleaving is none within
// the bound (Burns' mutual exclusion with 7 threads at 3 rounds: half a
// billion states in 5 s, where the product with the rounds counted
// takes 18 s and an explicit search within the rounds does not end). A
// violation is reported when it replays within the bound; one that
// needs more leaves the answer unknown.
func checkEveryInterleaving(ctx context.Context, p *ir.Program, o Options, pm ProofMethod, progress io.Writer) (*result.Result, error) {
	o.Proof.Method = pm
	within := o.Bounds.ExplicitOptions()
	res, err := proveProduct(ctx, p, o, progress, &within)
	var beyond *beyondBound
	if errors.As(err, &beyond) {
		return &result.Result{Engine: proofName(pm, "") + ", direct interleaving product", Verdict: result.Unknown,
			Bounds: o.Bounds.Words(), Depth: o.Bounds.Depth,
			Limits: []result.Limit{{Kind: result.LimitBeyondBound, Detail: "(a violation on some interleaving, which replays only with more: " + beyond.Error() + ")"}}}, nil
	}
	if res != nil && res.Verdict != result.Safe {
		// The violation replays within the bound; its steps are the
		// product's, no bound of the question.
		bd, _ := o.Bounds.Context()
		res.Bounds = bd.String()
	}
	return res, err
}

// beyondBound is the error of a replay of a violation that needs more
// context switches or rounds than the question's bound.
type beyondBound struct{ err error }

func (e *beyondBound) Error() string { return e.err.Error() }

// proveProduct proves a concurrent program for every interleaving with
// the proof engine of o.Proof on the interleaving product with no bound
// on the context switches. A violation is replayed within every
// interleaving or, with within, within its bounds (a *beyondBound error
// when it replays only without them).
func proveProduct(ctx context.Context, p *ir.Program, o Options, progress io.Writer, within *explicit.Options) (*result.Result, error) {
	s, err := newSolver(ctx, o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	eo := o.Bounds
	eo.Switches, eo.Rounds = -1, 0
	po := bmcOptions{Depth: o.Bounds.Depth, Proof: &o.Proof, Solver: o.Solver, ProveOnly: true, Progress: progress,
		Replay: func(steps []result.ReplayStep) (*result.Trace, error) {
			if within != nil {
				tr, err := explicit.Replay(p, *within, onProgram(p, steps))
				if err != nil {
					if _, err2 := explicit.Replay(p, eo.ExplicitOptions(), onProgram(p, steps)); err2 == nil {
						return nil, &beyondBound{err}
					}
				}
				return tr, err
			}
			return explicit.Replay(p, eo.ExplicitOptions(), onProgram(p, steps))
		}}
	res, err := bmcDirect(ctx, encoded(p, false, progress), s, po, encode.DirectOptions{Switches: -1, MaxThreads: o.Bounds.MaxThreads, NoSymmetry: o.Bounds.NoSymmetry})
	if res != nil {
		words := "every interleaving (any number of context switches)"
		if bd, ok := o.Bounds.Context(); ok && res.Verdict == result.Safe {
			// Asked within a bound: safe on every interleaving covers it.
			words = fmt.Sprintf("%s, indeed within every interleaving", bd)
		}
		res.Bounds = joinBounds(words, res.Bounds)
		res.Engine += ", direct interleaving product"
	}
	return res, err
}
