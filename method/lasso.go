package method

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"bmc/explicit"
	"bmc/fairness"
	"bmc/ir"
	"bmc/result"
)

// MaxLassoRounds bounds the stem and loop together, as MaxRounds bounds
// the rounds of a safety check.
const MaxLassoRounds = MaxRounds

// translationLivelock decides the livelock question by the MUTANT lasso
// translation (package fairness) with calls inlined to the depth bound,
// decided by BMC with uniform loop unwinding and PDR joining after
// lassoHeadStart. The translation compares whole stacks, so where it had
// to cut recursion at the depth bound its "no livelock" leaves open the
// executions that go deeper and the loops that leave frames behind
// (keyframe lassos): the answer is then unknown (LimitRecursion), or,
// with alone (no explicit search races it), the explicit search's, which
// follows the executions themselves.
func translationLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, alone bool, progress io.Writer) (*result.Result, error) {
	start := time.Now()
	if res := shorterLivelock(ctx, p, o, lb, progress); res != nil {
		res.Elapsed = time.Since(start)
		return res, nil
	}
	res, cut, err := deepeningLivelock(ctx, p, o, lb, progress)
	var refused notTranslated
	switch {
	case errors.As(err, &refused):
		return nil, &result.UsageError{Msg: fmt.Sprintf("--lasso: %v; use --seq direct or --engine explicit", refused.error)}
	case err != nil:
		return nil, err
	}
	if res.Verdict == result.Safe && cut != nil {
		res.Verdict, res.Proof = result.Unknown, ""
		res.Limits = append(res.Limits, result.NewLimit(result.LimitRecursion, "(call depth %d): the recursion at %s:%s can go deeper",
			o.Bounds.Depth, p.File, cut.Pos))
		if alone {
			ex := lassoExplicit(ctx, p, o, lb)
			switch {
			case ex.Verdict != result.Unknown:
				ex.Engine = fmt.Sprintf("explicit, after %s covered the calls within depth %d", res.Engine, o.Bounds.Depth)
				res = ex
			case ex.DepthHit():
				// An execution within the bounds does go that deep.
				res.Limits = ex.Limits
			default:
				res.Limits = append(res.Limits, ex.Limits...)
			}
		}
	}
	res.Bounds, res.Depth = lb.String(), o.Bounds.Depth
	res.Elapsed = time.Since(start)
	return res, nil
}

// shorterLivelock looks for a livelock within a shorter lasso first: a
// stem of s <= k1 rounds and a loop of l rounds that divides k2, with s +
// l at most half of k1 + k2, shortest first. Such a livelock is one
// within k1,k2: its execution goes on around the loop, so k1 - s more
// rounds of it lengthen the stem to k1 and end at a configuration of the
// loop, from which k2 / l turns of the loop (started there) come back to
// it, with the same configurations and steps, hence as fair. The
// translation's formula grows with the rounds and its solving much
// faster (trylock philosophers, N = 10: a livelock within 1,1 in 0.6 s,
// within 2,2 in 30 s; BENCHMARKS.md, "Twice the threads"), and no
// livelock found this way leaves the question to the full bound. It
// returns the livelock found, or nil.
func shorterLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, progress io.Writer) *result.Result {
	for _, b := range shorterLassos(lb) {
		res, _, err := deepeningLivelock(ctx, p, o, b, progress)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if progress != nil {
				fmt.Fprintf(progress, "bmc: the lasso translation within %s: %v\n", b, err)
			}
			continue
		}
		if res.Verdict == result.Unsafe {
			res.Bounds = fmt.Sprintf("%s, so within a stem of %s and a loop of %s", b, result.Plural(lb.Stem, "round"), result.Plural(lb.Loop, "round"))
			res.Depth = o.Bounds.Depth
			return res
		}
		if progress != nil {
			fmt.Fprintf(progress, "bmc: no livelock within %s; on to longer lassos\n", b)
		}
	}
	return nil
}

// shorterLassos are the lassos shorterLivelock tries for lb: stem s <=
// lb.Stem, loop l dividing lb.Loop, 2 (s + l) <= lb.Stem + lb.Loop, by
// s + l and then s.
func shorterLassos(lb result.LassoBound) []result.LassoBound {
	var out []result.LassoBound
	for total := 1; 2*total <= lb.Stem+lb.Loop; total++ {
		for s := 0; s <= min(lb.Stem, total-1); s++ {
			if l := total - s; lb.Loop%l == 0 && (s != lb.Stem || l != lb.Loop) {
				out = append(out, result.LassoBound{Stem: s, Loop: l, Fairness: lb.Fairness})
			}
		}
	}
	return out
}

// deepeningLivelock decides the lasso translation of p with calls
// inlined to the depth bound. Recursion is inlined to depths 2, 4, 8, ...
// first (a livelock found with shallow stacks is a livelock within the
// bound, and the translation grows with the depth); cut is a call that
// the translation at the full bound cut, when it says there is no
// livelock and a cut was needed.
func deepeningLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, progress io.Writer) (*result.Result, *ir.Edge, error) {
	depth := o.Bounds.Depth
	if _, exact := threadFrames(p, depth); !exact {
		depth = min(2, o.Bounds.Depth)
	}
	for {
		res, fp, err := translated(ctx, p, o, lb, depth, progress)
		switch {
		case err != nil:
			return nil, nil, err
		case res.Verdict != result.Safe || fp == nil || len(fp.DepthCut) == 0:
			return res, nil, nil
		case depth == o.Bounds.Depth:
			return res, fp.DepthCut[0], nil
		}
		if progress != nil {
			fmt.Fprintf(progress, "bmc: no livelock with calls inlined to depth %d; recursion goes deeper\n", depth)
		}
		depth = min(2*depth, o.Bounds.Depth)
	}
}

// notTranslated is a program that the lasso translation does not take.
type notTranslated struct{ error }

// translated decides the lasso translation of p (package fairness)
// with calls inlined to depth by BMC with uniform loop unwinding, raced
// with the proof engines; fp is nil when ctx ended while translating.
func translated(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, depth int, progress io.Writer) (*result.Result, *fairness.Program, error) {
	fp, err := fairness.Lasso(ctx, p, lb, depth)
	switch {
	case err != nil && ctx.Err() != nil:
		return &result.Result{Engine: "bmc+" + string(o.Solver), Verdict: result.Unknown,
			Limits: []result.Limit{result.Stopped(ctx, "while translating")}}, nil, nil
	case err != nil:
		return nil, nil, notTranslated{err}
	}
	s, err := newSolver(ctx, o.Solver)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	eo := o.Bounds.ExplicitOptions()
	po := bmcOptions{Depth: depth, MainFrame: true, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, UntilEnded: untilEnded,
		Proof: &o.Proof, Solver: o.Solver, Progress: progress, Unwind: !o.Frames, UniformUnwind: true, HeadStart: lassoHeadStart,
		Replay: func(steps []result.ReplayStep) (*result.Trace, error) {
			ws, loop, err := fp.Witness(steps)
			if err != nil {
				return nil, err
			}
			return explicit.ReplayLasso(p, lb, eo, ws, loop)
		}}
	res, err := bmc(ctx, fp.Seq, s, po)
	return res, fp, err
}
