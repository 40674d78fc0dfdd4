package method

import (
	"context"
	"fmt"
	"io"

	"bmc/cover"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// Counted is the counter abstraction of the stated thread counts: every
// interleaving, searched over configurations that count the threads in
// each thread state (cover.Reach; with the solver bdd, on decision
// diagrams: cover.ReachDiagrams). Safe on every interleaving is safe
// within any bound; a violation answers a bounded question only where
// it replays within the bound.
func Counted(p *ir.Program, o Options) Method {
	name := "counter abstraction, every interleaving"
	if o.Solver == SolverBDD {
		name = "counter abstraction+bdd, every interleaving"
	}
	return Method{Name: name, Questions: both, Cores: 1,
		Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkCounted(ctx, p, o)
		},
		fits: func(context.Context) error { return placedErr(p, cover.CountedSupported(p)) }}
}

// checkCounted runs the counted search and replays its violation on the
// explicit interpreter, within the question's bound when it has one.
func checkCounted(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	reach, engine := cover.Reach, "counter abstraction"
	if o.Solver == SolverBDD {
		reach, engine = cover.ReachDiagrams, "counter abstraction+bdd"
	}
	out, err := reach(ctx, p, coverOptions(o))
	if err != nil {
		return nil, err
	}
	const every = "every interleaving"
	res := &result.Result{Engine: engine, Verdict: out.Verdict, AnyDepth: !out.Deeper, Bounds: every, Depth: o.Bounds.Depth,
		Stats: fmt.Sprintf("%d counted configurations, %d thread states beside shared states moved from", out.Configurations, out.Pairs)}
	bd, bounded := o.Bounds.Context()
	switch out.Verdict {
	case result.Safe:
		res.Proof = fmt.Sprintf("exhaustive search, %d counted configurations", out.Configurations)
		if bounded {
			res.Bounds = fmt.Sprintf("%s (so within %s)", every, bd)
		}
		return res, nil
	case result.Unknown:
		if ctx.Err() != nil {
			return &result.Result{Engine: res.Engine, Verdict: result.Unknown, Bounds: res.Bounds, Stats: res.Stats,
				Limits: []result.Limit{result.Stopped(ctx, res.Engine)}}, nil
		}
		res.Limits = []result.Limit{coverOpen(ctx, out, o, res.Engine)}
		return res, nil
	}
	if r := tooDeep(out, o, res); r != nil {
		return r, nil
	}
	eo := o.Bounds.ExplicitOptions()
	eo.Depth = max(eo.Depth, out.Depth)
	steps := onProgram(out.Program, out.Steps)
	if bounded {
		tr, err := explicit.Replay(out.Program, eo, steps)
		if err == nil {
			tr.Threads = out.Roles
			res.Trace, res.Bounds = tr, bd.String()
			return res, nil
		}
		eo.Switches, eo.Rounds = -1, 0
		if _, err2 := explicit.Replay(out.Program, eo, steps); err2 != nil {
			return nil, fmt.Errorf("the counter abstraction's violation does not replay: %w", err2)
		}
		res.Verdict, res.Bounds = result.Unknown, bd.String()
		res.Limits = []result.Limit{{Kind: result.LimitBeyondBound, Detail: "(a violation on some interleaving, which replays only with more: " + err.Error() + ")"}}
		return res, nil
	}
	eo.Switches, eo.Rounds = -1, 0
	tr, err := explicit.Replay(out.Program, eo, steps)
	if err != nil {
		return nil, fmt.Errorf("the counter abstraction's violation does not replay: %w", err)
	}
	tr.Threads = out.Roles
	res.Trace = tr
	return res, nil
}
