package driver

import (
	"context"
	"errors"
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
	res, cut, err := deepeningLivelock(ctx, p, o, lb, eo)
	var refused notTranslated
	switch {
	case errors.As(err, &refused) && o.Seq == "auto":
		// The translation does not take every program (atomic procedures,
		// enforce clauses); the interleaving product takes more.
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: %v; deciding the lasso on the interleaving product instead\n", refused.error)
		}
		res, derr := directLivelock(ctx, p, o, lb, eo)
		if derr != nil {
			return nil, &UsageError{fmt.Sprintf("--lasso: %v; use --engine explicit", refused.error)}
		}
		return res, nil
	case errors.As(err, &refused):
		return nil, &UsageError{fmt.Sprintf("--lasso: %v; use --seq direct or --engine explicit", refused.error)}
	case err != nil:
		return nil, err
	}
	if res.Verdict == result.Safe && cut != nil {
		// Recursion would go deeper than the bound: the translation
		// covers only executions within it. The explicit search follows
		// the executions themselves and says whether any reaches the
		// bound; it decides within the run's state and time limits.
		if ex := explicit.LassoSearch(ctx, p, lb, eo); ex.Verdict != result.Unknown {
			ex.Engine = fmt.Sprintf("explicit, after %s covered the calls within depth %d", res.Engine, o.Bounds.Depth)
			res = ex
		} else {
			res.Verdict, res.Proof = result.Unknown, ""
			res.Limits = append(res.Limits, fmt.Sprintf("depth bound reached (call depth %d): the recursion at %s:%s can go deeper", o.Bounds.Depth, p.File, cut.Pos))
			if ex.DepthHit() {
				// An execution within the bounds does go that deep.
				res.Advice = Advise(ex, "")
			} else {
				res.Limits = append(res.Limits, ex.Limits...)
				res.Advice = "a larger --depth, or --engine explicit with a larger --max-states or --timeout, which says whether the depth is ever exceeded"
			}
		}
	}
	res.Bounds, res.Lasso = lb.String()+fmt.Sprintf(", call depth %d", o.Bounds.Depth), true
	res.Elapsed = time.Since(start)
	return res, nil
}

// deepeningLivelock decides the lasso translation of p with calls
// inlined to the depth bound. Recursion is inlined to depths 2, 4, 8, ...
// first (a livelock found with shallow stacks is a livelock within the
// bound, and the translation grows with the depth); cut is a call that
// the translation at the full bound cut, when it says there is no
// livelock and a cut was needed.
func deepeningLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, eo explicit.Options) (*result.Result, *ir.Edge, error) {
	depth := o.Bounds.Depth
	if _, exact := threadFrames(p, depth); !exact {
		depth = min(2, o.Bounds.Depth)
	}
	for {
		res, fp, err := translationLivelock(ctx, p, o, lb, eo, depth)
		switch {
		case err != nil:
			return nil, nil, err
		case res.Verdict != result.Safe || fp == nil || len(fp.DepthCut) == 0:
			return res, nil, nil
		case depth == o.Bounds.Depth:
			return res, fp.DepthCut[0], nil
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: no livelock with calls inlined to depth %d; recursion goes deeper\n", depth)
		}
		depth = min(2*depth, o.Bounds.Depth)
	}
}

// notTranslated is a program that the lasso translation does not take.
type notTranslated struct{ error }

// translationLivelock decides the lasso translation of p (package
// fairness) with calls inlined to depth by BMC with uniform loop
// unwinding, raced with the proof engines; fp is nil when ctx ended
// while translating.
func translationLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, eo explicit.Options, depth int) (*result.Result, *fairness.Program, error) {
	fp, err := fairness.Lasso(ctx, p, lb, depth)
	switch {
	case err != nil && ctx.Err() != nil:
		return &result.Result{Engine: "bmc+" + o.Solver, Verdict: result.Unknown,
			Limits: []string{halt.Reason(ctx) + " while translating"}}, nil, nil
	case err != nil:
		return nil, nil, notTranslated{err}
	}
	s, err := NewSolver(o.Solver)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	po := BMCOptions{Depth: depth, MainFrame: true, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, UntilEnded: untilEnded,
		Proof: &o.Proof, Solver: o.Solver, Progress: o.Progress, Unwind: !o.Frames, UniformUnwind: true, HeadStart: lassoHeadStart,
		Replay: func(steps []result.ReplayStep) (*result.Trace, error) {
			ws, loop, err := fp.Witness(steps)
			if err != nil {
				return nil, err
			}
			return explicit.ReplayLasso(p, lb, eo, ws, loop)
		}}
	res, err := BMC(ctx, fp.Seq, s, po)
	return res, fp, err
}
