package driver

import (
	"context"
	"fmt"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// checkExplicit runs the explicit engine.
func checkExplicit(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	c, err := explicit.New(p, o.Bounds.explicitOptions())
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	return c.Run(ctx), nil
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
	res.Bounds = "executions of any length, " + res.Bounds
	return res, nil
}

// lassoExplicit is the explicit livelock search.
func lassoExplicit(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound) *result.Result {
	return explicit.LassoSearch(ctx, p, lb, o.Bounds.explicitOptions())
}
