package driver

import (
	"context"
	"fmt"
	"time"

	"bmc/explicit"
	"bmc/fairness"
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
)

// MaxLassoRounds bounds the stem and loop together, as MaxRounds bounds
// the rounds of a safety check.
const MaxLassoRounds = MaxRounds

// lassoHeadStart is how long the unwinding of the lasso translation runs
// before the proof engine joins it (BMCOptions.HeadStart). The threads'
// loops close within a few iterations in every livelock test and example
// (the unwinding answered all of them first, within 3 s), so the proof
// engine is there for loops that do not, and joins once the unwinding
// has taken longer than the benchmarks' largest rows.
const lassoHeadStart = 2 * time.Second

// Livelock searches p for a livelock within lb: a fair execution that
// after lb.Stem rounds repeats a loop of lb.Loop rounds forever. The bmc
// engine (auto) decides the lasso translation of package fairness, or
// with --seq direct the lasso on the interleaving product; the explicit
// engine searches the configurations. A livelock is shown only
// after its stem and loop replay on the explicit interpreter, the loop
// closing and meeting the fairness.
func Livelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound) (*result.Result, error) {
	ctx, stop := Limit(ctx, o.Timeout, o.MaxMemory)
	defer stop()
	if err := o.complete(); err != nil {
		return nil, err
	}
	switch {
	case lb.Stem < 0 || lb.Loop < 1:
		return nil, &UsageError{fmt.Sprintf("--lasso needs a stem of at least 0 rounds and a loop of at least 1, got %d,%d", lb.Stem, lb.Loop)}
	case lb.Stem+lb.Loop > MaxLassoRounds:
		return nil, &UsageError{fmt.Sprintf("--lasso: stem and loop must be at most %d rounds together, got %d", MaxLassoRounds, lb.Stem+lb.Loop)}
	case o.Seq != "auto" && o.Seq != "eager" && o.Seq != "direct":
		return nil, &UsageError{fmt.Sprintf("--lasso takes its own translation or the direct product; --seq %s does not apply", o.Seq)}
	}
	if _, err := p.Instances(); err != nil {
		return nil, &UsageError{fmt.Sprintf("--lasso: %v", err)}
	}
	eo := o.Bounds.explicitOptions()
	if o.Engine == "explicit" {
		res := explicit.LassoSearch(ctx, p, lb, eo)
		res.Lasso, res.Advice = true, Advise(res, "")
		return res, nil
	}
	if o.Seq == "direct" {
		return directLivelock(ctx, p, o, lb, eo)
	}
	start := time.Now()
	fp, err := fairness.Lasso(ctx, p, lb, o.Bounds.Depth)
	switch {
	case err != nil && ctx.Err() != nil:
		return &result.Result{Engine: "bmc+" + o.Solver, Verdict: result.Unknown, Bounds: lb.String(), Lasso: true,
			Limits: []string{halt.Reason(ctx) + " while translating"}}, nil
	case err != nil:
		return nil, &UsageError{fmt.Sprintf("--lasso: %v; use --engine explicit", err)}
	}
	s, err := NewSolver(o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	po := BMCOptions{Depth: o.Bounds.Depth, MainFrame: true, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, UntilEnded: untilEnded,
		Proof: &o.Proof, Solver: o.Solver, Progress: o.Progress, Unwind: !o.Frames, UniformUnwind: true, HeadStart: lassoHeadStart,
		Replay: func(steps []result.ReplayStep) (*result.Trace, error) {
			ws, loop, err := fp.Witness(steps)
			if err != nil {
				return nil, err
			}
			return explicit.ReplayLasso(p, lb, eo, ws, loop)
		}}
	res, err := BMC(ctx, fp.Seq, s, po)
	if err != nil {
		return nil, err
	}
	res.Bounds, res.Lasso = lb.String()+fmt.Sprintf(", call depth %d", o.Bounds.Depth), true
	if res.Verdict == result.Safe && len(fp.DepthCut) > 0 {
		// Recursion deeper than the bound was cut, as the explicit engine
		// cuts it: the answer covers only what is within the depth.
		e := fp.DepthCut[0]
		res.Verdict, res.Proof = result.Unknown, ""
		res.Limits = append(res.Limits, fmt.Sprintf("depth bound reached (call depth %d): the recursion at %s:%s can go deeper", o.Bounds.Depth, p.File, e.Pos))
		res.Advice = "a larger --depth, or --engine explicit, which says whether the depth is ever exceeded"
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
