package method

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"bmc/chc"
	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/sat"
	"bmc/seq"
	"bmc/smt"
	"bmc/solver"
)

// summaryOptions are what a run of the summary engine needs.
type summaryOptions struct {
	Solver SolverName // gini: our Spacer; z3: Z3's; bdd: the least model on decision diagrams
	// Replay replays steps of p (the program the clauses encode) with a
	// stack of depth frames; nil: on p itself.
	Replay func(steps []result.ReplayStep, depth int) (*result.Trace, error)
	// Proved, when not nil, receives the clauses and the re-checked
	// summaries of a proof.
	Proved func(sys *chc.System, in *chc.Interpretation)
	// Clauses encodes the question; nil: p's own clauses (encode.Horn).
	Clauses func(ctx context.Context) (*hornClauses, error)
}

// hornClauses are a question as Horn clauses, and how a derivation of
// a query reads as program steps (with the frames they need).
type hornClauses struct {
	sys   *chc.System
	steps func(*chc.Derivation) ([]result.ReplayStep, int, error)
}

// summaryEngine is the engine's name in results and plans.
func summaryEngine(solverName SolverName) string { return "summaries+" + string(solverName) }

// summaries decides a one-thread program at every call depth: its
// clauses (encode.NewHorn) solved by our Spacer on gini, by Z3's, or by
// their least model on decision diagrams (engine.LeastModel). A
// derivation is replayed on the explicit interpreter with the stack it
// needs; an interpretation is re-checked clause by clause on a fresh
// gini solver. Either failing is an internal error, never a verdict.
func summaries(ctx context.Context, p *ir.Program, o summaryOptions) (*result.Result, error) {
	start := time.Now()
	res := &result.Result{Engine: summaryEngine(o.Solver)}
	encoding := o.Clauses
	if encoding == nil {
		encoding = func(ctx context.Context) (*hornClauses, error) {
			h, err := encode.NewHorn(ctx, p)
			if err != nil {
				return nil, err
			}
			return &hornClauses{h.System, h.Steps}, nil
		}
	}
	cl, err := encoding(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return stoppedSummary(ctx, res), nil
		}
		return nil, err
	}
	out, inl, err := solveClauses(ctx, cl.sys, o.Solver, res)
	if err != nil {
		return nil, err
	}
	switch out.Status {
	case solver.Sat:
		err = summaryCounterexample(p, cl, out, o, res)
	case solver.Unsat:
		sys := cl.sys
		if inl != nil {
			sys = inl.System // the summaries are of its predicates
		}
		err = summaryProof(ctx, sys, inl, out, o, res)
	default:
		if ctx.Err() != nil {
			return stoppedSummary(ctx, res), nil
		}
		res.Verdict = result.Unknown
		res.Limits = []result.Limit{result.NewLimit(result.LimitSolver, "(%s)", out.Reason)}
	}
	if err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// solveClauses solves sys with the named solver, and says in res's
// statistics what it took.
func solveClauses(ctx context.Context, sys *chc.System, name SolverName, res *result.Result) (*engine.HornResult, *chc.Inlined, error) {
	var out *engine.HornResult
	var inl *chc.Inlined // the clauses the solver saw, when it saw them inlined
	switch name {
	case SolverZ3:
		fp, err := smt.NewFixedpoint()
		if err != nil {
			return nil, nil, &result.UsageError{Msg: err.Error()}
		}
		out, inl = inlined(sys, func(sys *chc.System) *engine.HornResult {
			return engine.Fixedpoint(ctx, sys, fp, engine.HornOptions{NewSolver: func() solver.Solver { return sat.New() }})
		})
		fp.Close()
	case SolverBDD:
		out = engine.LeastModel(ctx, sys, engine.HornOptions{})
	default:
		out, inl = inlined(sys, func(sys *chc.System) *engine.HornResult {
			return engine.Spacer(ctx, sys, engine.HornOptions{NewSolver: func() solver.Solver { return sat.New() }})
		})
	}
	res.Stats = fmt.Sprintf("%d predicates, %d clauses", len(sys.Preds), len(sys.Clauses))
	if inl != nil && inl.Removed() > 0 {
		res.Stats += fmt.Sprintf(", %d predicates inlined", inl.Removed())
	}
	switch name {
	case SolverGini:
		res.Stats += fmt.Sprintf(", %d levels, %s", out.Levels, out.Stats)
	case SolverBDD:
		res.Stats += fmt.Sprintf(", %d growths of the relations", out.Levels)
	}
	return out, inl, nil
}

// summaryCounterexample checks the derivation out found, reads it back
// as steps of p and replays them: a violation, or an internal error.
func summaryCounterexample(p *ir.Program, cl *hornClauses, out *engine.HornResult, o summaryOptions, res *result.Result) error {
	if err := cl.sys.CheckDerivation(out.Derivation); err != nil {
		return fmt.Errorf("internal error: the %s derivation does not hold: %v", res.Engine, err)
	}
	steps, depth, err := cl.steps(out.Derivation)
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	replay := o.Replay
	if replay == nil {
		replay = func(steps []result.ReplayStep, depth int) (*result.Trace, error) {
			eo := explicit.DefaultOptions()
			eo.Depth = depth
			return explicit.Replay(p, eo, onProgram(p, steps))
		}
	}
	tr, err := replay(steps, depth)
	if err != nil {
		return fmt.Errorf("internal error: the %s counterexample does not replay on the explicit interpreter: %v", res.Engine, err)
	}
	res.Verdict, res.Trace = result.Unsafe, tr
	return nil
}

// summaryProof re-checks the interpretation out found on sys (the
// clauses the solver saw): safe, unknown where it is too large to
// re-check, or an internal error.
func summaryProof(ctx context.Context, sys *chc.System, inl *chc.Inlined, out *engine.HornResult, o summaryOptions, res *result.Result) error {
	var err error
	if order, ok := out.DiagramOrder(); ok {
		// Diagrams' interpretations are re-checked on diagrams: a SAT
		// solver can take minutes on their multiplexer trees.
		err = sys.CheckInterpretationDiagrams(ctx, out.Interpretation, order, 1<<26)
	} else {
		err = sys.CheckInterpretation(ctx, out.Interpretation, func() solver.Solver { return sat.New() })
	}
	switch {
	case err != nil && ctx.Err() != nil:
		stoppedSummary(ctx, res)
		return nil
	case errors.Is(err, chc.ErrNotRechecked):
		// Too large to re-check: no verdict.
		res.Verdict = result.Unknown
		res.Limits = []result.Limit{result.NewLimit(result.LimitSolver, "(%v)", err)}
		return nil
	case err != nil:
		return fmt.Errorf("internal error: %s: %v", res.Engine, err)
	}
	res.Verdict = result.Safe
	if o.Proved != nil {
		o.Proved(sys, out.Interpretation)
	}
	res.Proof = fmt.Sprintf("summaries of %d predicates, re-checked clause by clause", len(sys.Preds))
	if inl != nil && inl.Removed() > 0 {
		res.Proof = fmt.Sprintf("summaries of %d predicates (%d more inlined), re-checked clause by clause", len(sys.Preds), inl.Removed())
	}
	if out.Order != nil {
		res.Proof += " on fresh decision diagrams"
	}
	return nil
}

// inlined solves sys with the predicates of one clause resolved away
// (chc.Inline): both Spacers take two to three times less on the
// context encoding (kind_fig11 at 4 switches: ours 0.75 s to 0.37 s,
// Z3's 3.4 s to 1.5 s); the least model gains nothing, as its
// relations are images already. A derivation comes back on sys, to be
// checked and replayed as encoded; an interpretation is of the inlined
// clauses, and is re-checked on them.
func inlined(sys *chc.System, solve func(*chc.System) *engine.HornResult) (*engine.HornResult, *chc.Inlined) {
	il := chc.Inline(sys)
	out := solve(il.System)
	if out.Status == solver.Sat {
		out.Derivation = il.Expand(out.Derivation)
	}
	return out, il
}

func stoppedSummary(ctx context.Context, res *result.Result) *result.Result {
	res.Verdict = result.Unknown
	res.Limits = []result.Limit{result.Stopped(ctx, "while computing summaries")}
	return res
}

// summariesOf is the interpretation's summaries as text, per predicate,
// for certificates.
func summariesOf(sys *chc.System, in *chc.Interpretation) []string {
	var out []string
	for _, p := range sys.Preds {
		out = append(out, fmt.Sprintf("%s: %s", p.Name, in.Format(p)))
	}
	return out
}

// checkSummaries checks p at every call depth by the summary engine: a
// one-thread program's own clauses (method ""), a concurrent one's within
// the rounds or switches of o through the sequentialization named method
// (eager or lazy). It encodes p with the globals that keep one value
// folded (ir.FoldConstantGlobals: the same executions, so a test that
// can never pass leaves no clause). Its counterexample is replayed on p
// within the bounds and, where the user stated the call depth, must fit
// in it.
func checkSummaries(ctx context.Context, p *ir.Program, o Options, method Seq) (*result.Result, error) {
	q, folded := ir.FoldConstantGlobals(p)
	target, bounds := q, ""
	eo := explicit.DefaultOptions()
	var interleave func([]result.ReplayStep) ([]result.ReplayStep, error)
	so := summaryOptions{Solver: o.Solver}
	switch method {
	case SeqContexts, SeqProduct:
		bd, _ := o.Bounds.Context()
		bounds, eo = bd.String(), o.Bounds.Within(bd).ExplicitOptions()
		var getafixAt [][]bool
		if o.Bounds.GetafixSwitches {
			// Read off the program as written: the fold drops reads.
			getafixAt = ir.GetafixSwitchNodes(p)
			bounds += ", " + explicit.GetafixWords
		}
		so.Clauses = func(ctx context.Context) (*hornClauses, error) {
			cl, err := boundedClauses(ctx, q, method, bd, getafixAt)
			if err != nil && ctx.Err() == nil {
				err = &result.UsageError{Msg: err.Error()}
			}
			return cl, err
		}
	case SeqEager, SeqLazy:
		bd, _ := o.Bounds.Context()
		sp, err := translation(method)(ctx, q, bd)
		switch {
		case err != nil && ctx.Err() != nil:
			return stoppedSummary(ctx, &result.Result{Engine: summaryName(o.Solver, method)}), nil
		case err != nil:
			return nil, &result.UsageError{Msg: err.Error()}
		}
		target, bounds, eo, interleave = sp.Seq, bd.String(), o.Bounds.Within(bd).ExplicitOptions(), sp.Interleave
	}
	// fits says the violation replays within a stated depth; needs is
	// the depth its trace reaches.
	fits, needs := true, 0
	replay := func(steps []result.ReplayStep, depth int) (*result.Trace, error) {
		if interleave != nil {
			var err error
			if steps, err = interleave(steps); err != nil {
				return nil, err
			}
		}
		steps = onProgram(p, steps)
		needs = result.StackDepth(steps)
		if o.DepthStated {
			eo.Depth = o.Bounds.Depth
			if tr, err := explicit.Replay(p, eo, steps); err == nil {
				return tr, nil
			}
			fits = false
		}
		eo.Depth = max(needs, depth, o.Bounds.Depth)
		return explicit.Replay(p, eo, steps)
	}
	so.Replay = replay
	if c := o.Proof.Certificate; c != nil {
		so.Proved = certify(c, method)
	}
	res, err := summaries(ctx, target, so)
	if err != nil {
		return nil, err
	}
	res.Engine = summaryName(o.Solver, method)
	// The summaries hold at every call depth; a violation fits where its
	// trace replays (within a stated depth: fits).
	res.Bounds, res.AnyDepth = bounds, res.Verdict != result.Unsafe
	if res.Verdict == result.Safe && len(folded) > 0 {
		res.Proof = foldedWords(folded) + "; " + res.Proof
	}
	if res.Verdict == result.Unsafe && !fits {
		// A shallower violation may exist: the other engines search
		// within the stated depth.
		res.Verdict, res.Trace = result.Unknown, nil
		res.AnyDepth, res.Depth = false, o.Bounds.Depth
		res.Limits = []result.Limit{result.NewLimit(result.LimitDeeper, "(the violation found needs call depth %d: --depth %d shows it)", needs, needs)}
	}
	return res, nil
}

// certify writes a proof's summaries into c, and which clauses their
// predicates are of: those of the encoding named method.
func certify(c *Certificate, method Seq) func(*chc.System, *chc.Interpretation) {
	return func(sys *chc.System, in *chc.Interpretation) {
		c.Summaries = summariesOf(sys, in)
		switch method {
		case "":
		case SeqContexts, SeqProduct:
			c.Notes = append(c.Notes, "the predicates are those of the "+seqWords(method)+" (bmc export --chc --seq "+string(method)+" prints its clauses)")
		default:
			c.Notes = append(c.Notes, "the predicates are those of the "+seqWords(method)+" (bmc seq --"+string(method)+" prints it)")
		}
	}
}

// foldedWords says which globals ir.FoldConstantGlobals folded.
func foldedWords(folded []*ir.Var) string {
	var names []string
	for i, g := range folded {
		if i == 4 {
			names = append(names, fmt.Sprintf("%d more", len(folded)-i))
			break
		}
		names = append(names, g.Name)
	}
	what := fmt.Sprintf("%d globals (%s) read where they surely hold", len(folded), strings.Join(names, ", "))
	if len(folded) == 1 {
		what = names[0] + " read where it surely holds"
	}
	return what + " the one value every write stores: folded"
}

// boundedClauses are the clauses of the bounded-context question in
// the summary engine's own encoding named method (contexts, product).
func boundedClauses(ctx context.Context, p *ir.Program, method Seq, bd seq.Bound, getafixAt [][]bool) (*hornClauses, error) {
	if method == SeqProduct {
		h, err := encode.NewProduct(ctx, p, bd.Rounds, bd.Switches, getafixAt)
		if err != nil {
			return nil, err
		}
		return &hornClauses{h.System, h.Steps}, nil
	}
	if getafixAt != nil {
		return nil, fmt.Errorf("the context encoding does not take Getafix's switch points: use --seq product")
	}
	h, err := encode.NewContexts(ctx, p, bd.Rounds, bd.Switches)
	if err != nil {
		return nil, err
	}
	return &hornClauses{h.System, h.Steps}, nil
}

// summaryName names the summary engine on a sequentialization.
func summaryName(solverName SolverName, method Seq) string {
	if method == "" {
		return summaryEngine(solverName)
	}
	return summaryEngine(solverName) + ", " + seqWords(method)
}
