package method

import (
	"context"
	"errors"
	"fmt"

	"bmc/explicit"
	"bmc/fairness"
	"bmc/ir"
	"bmc/result"
)

// keyframeEngine names the summary engine on the lasso translation with
// keyframes.
func keyframeEngine(solverName SolverName) string {
	return summaryEngine(solverName) + ", keyframe translation"
}

// keyframeLivelock decides the livelock question at every call depth:
// the lasso translation with keyframes (fairness.Keyframes, MUTANT's
// section 3.3 and Fig. 2's bottom), a recursive sequential program,
// decided by the summary engine. Its "no livelock" holds at any depth.
// A livelock it finds is replayed on the explicit interpreter, first
// within lb and, failing that, with the translation's longer stem (each
// thread's first period in it): that one is real but says nothing of lb
// itself, so the answer is then unknown and names the longer stem.
func keyframeLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound) (*result.Result, error) {
	name := keyframeEngine(o.Solver)
	fp, err := fairness.Keyframes(ctx, p, lb)
	switch {
	case err != nil && ctx.Err() != nil:
		return stoppedSummary(ctx, &result.Result{Engine: name}), nil
	case err != nil:
		return nil, notTranslated{err}
	}
	eo := o.Bounds.ExplicitOptions()
	// fits says the livelock replays within a stated depth; needs is
	// the depth its trace reaches.
	fits, needs, longer := true, 0, result.LassoBound{}
	replay := func(steps []result.ReplayStep, depth int) (*result.Trace, error) {
		ws, err := fp.Witnesses(steps)
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			needs = max(needs, result.StackDepth(onProgram(p, w.Steps)))
		}
		try := func(depth int) (*result.Trace, error) {
			eo.Depth = depth
			var errs []error
			for i, w := range ws {
				tr, err := explicit.ReplayLasso(p, w.Bound, eo, onProgram(p, w.Steps), w.Loop)
				if err == nil {
					if i > 0 {
						longer = w.Bound
					}
					return tr, nil
				}
				errs = append(errs, fmt.Errorf("within %s: %v", w.Bound, err))
			}
			return nil, errors.Join(errs...)
		}
		if o.DepthStated {
			if tr, err := try(o.Bounds.Depth); err == nil {
				return tr, nil
			}
			fits = false
		}
		return try(max(needs, depth, o.Bounds.Depth))
	}
	res, err := summaries(ctx, fp.Seq, summaryOptions{Solver: o.Solver, Replay: replay})
	if err != nil {
		return nil, err
	}
	res.Engine = name
	res.Bounds, res.AnyDepth = lb.String(), res.Verdict != result.Unsafe
	switch {
	case res.Verdict == result.Unsafe && longer.Loop > 0:
		res.Verdict, res.Trace = result.Unknown, nil
		res.Limits = []result.Limit{result.NewLimit(result.LimitLongerStem,
			"(one with a stem of at most %d rounds exists: --lasso %d,%d shows it)", longer.Stem, longer.Stem, longer.Loop)}
	case res.Verdict == result.Unsafe && !fits:
		res.Verdict, res.Trace = result.Unknown, nil
		res.AnyDepth, res.Depth = false, o.Bounds.Depth
		res.Limits = []result.Limit{result.NewLimit(result.LimitDeeper, "(the livelock found needs call depth %d: --depth %d shows it)", needs, needs)}
	}
	return res, nil
}
