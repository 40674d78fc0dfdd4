package method

import (
	"context"
	"fmt"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// checkExplicit runs the explicit engine.
func checkExplicit(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	if _, err := explicit.New(p, o.Bounds.ExplicitOptions()); err != nil {
		return nil, &result.UsageError{Msg: err.Error()}
	}
	return deepened(ctx, o, func(o Options) *result.Result {
		eo := o.Bounds.ExplicitOptions()
		// Within a context bound, the interleavings of few switches
		// first: on every bounded row of the portfolio it stores no more
		// states before a violation (Burns with 7 threads at 3 rounds:
		// 0.1 million where the search by statements stops at its 5
		// million; BENCHMARKS.md, "Twice the threads"), and as many
		// when there is none.
		eo.FewestSwitches = eo.Rounds > 0 || eo.Switches >= 0
		c, _ := explicit.New(p, eo)
		return c.Run(ctx)
	}), nil
}

// maxDeepenedDepth is the deepest call depth deepened tries.
const maxDeepenedDepth = 64

// deepened runs an explicit search, and, when the user stated no call
// depth (the question is about every depth) and only the depth bound cut
// it short, runs it again with twice the depth, up to maxDeepenedDepth:
// a violation or livelock whose stack grows beyond the default depth
// (a keyframe lasso with a deep stem) is found, and a search in which no
// execution reaches the doubled depth holds at every depth.
func deepened(ctx context.Context, o Options, search func(Options) *result.Result) *result.Result {
	res := search(o)
	for !o.DepthStated && o.Bounds.Depth < maxDeepenedDepth && ctx.Err() == nil &&
		res.Verdict == result.Unknown && len(res.Limits) == 1 && res.DepthHit() {
		o.Bounds.Depth = min(2*o.Bounds.Depth, maxDeepenedDepth)
		res = search(o)
	}
	return res
}

// exhaustive is the explicit engine as a proof engine (bmc prove): a
// search that sees every state within the call depth and the bound
// covers executions of any length within them.
func exhaustive(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	res, err := checkExplicit(ctx, p, o)
	if err != nil || res.Verdict != result.Safe {
		return res, err
	}
	res.Proof = fmt.Sprintf("exhaustive search, %d states", res.States)
	res.Bounds = joinBounds("executions of any length", res.Bounds)
	return res, nil
}

// lassoExplicit is the explicit livelock search.
func lassoExplicit(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound) *result.Result {
	return deepened(ctx, o, func(o Options) *result.Result {
		return explicit.LassoSearch(ctx, p, lb, o.Bounds.ExplicitOptions())
	})
}
