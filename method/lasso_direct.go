package method

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/solver"
)

// directLivelock decides the livelock question of Livelock on the direct
// interleaving product (encode.DirectLasso) instead of the lasso
// translation. Unless the user stated the step bound, BMC (which finds
// a livelock in the fewest steps) races a proof engine (which shows
// there is none, or finds one too), each on its own copy of the system.
// The livelock is replayed on the explicit interpreter before it is
// returned, as the translation's is.
func directLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, progress io.Writer) (*result.Result, error) {
	start := time.Now()
	eo := o.Bounds.ExplicitOptions()
	lo, exact := lassoOptions(p, o.Bounds.Depth, lb)
	// stopped is the answer when ctx ends while encoding.
	stopped := func() *result.Result {
		return &result.Result{Engine: "bmc+" + string(o.Solver), Verdict: result.Unknown, Bounds: lb.String(), Lasso: true,
			Limits: []result.Limit{result.Stopped(ctx, "while encoding")}}
	}
	first, err := encode.DirectLasso(ctx, p, lo)
	switch {
	case err != nil && ctx.Err() != nil:
		return stopped(), nil
	case err != nil:
		return nil, &result.UsageError{Msg: fmt.Sprintf("--lasso --seq direct: %v", err)}
	}
	po := bmcOptions{Depth: o.Bounds.Depth, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, UntilEnded: untilEnded,
		Proof: &o.Proof, Solver: o.Solver, Progress: progress}
	// run decides the question on m by check, or (bmc) by lassoBMC; m
	// nil is a copy of the system of its own, as the engines that race
	// each need one (the witness is read by adding nodes to it).
	run := func(ctx context.Context, m encode.LassoModel, po bmcOptions, bmc bool) (*result.Result, error) {
		if m == nil {
			var err error
			if m, err = encode.DirectLasso(ctx, p, lo); err != nil {
				if ctx.Err() != nil {
					return stopped(), nil
				}
				return nil, err
			}
		}
		s, err := newSolver(ctx, o.Solver)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		r := &lassoReader{LassoModel: m}
		po.Replay = func(steps []result.ReplayStep) (*result.Trace, error) {
			return explicit.ReplayLasso(p, lb, eo, steps, r.loop)
		}
		if bmc {
			return lassoBMC(ctx, p, r, s, po)
		}
		return check(ctx, p, r, wordLimits(m, exact, o.Bounds.Depth, 0), s, po)
	}
	var res *result.Result
	if o.StepsStated {
		res, err = run(ctx, first, po, false)
	} else {
		if po.Progress != nil {
			po.Progress = &lockedWriter{w: po.Progress} // the engines report side by side
		}
		// BMC races the proof engine asked for; where the plan leaves
		// the method to it, improved k-induction and PDR, of which
		// neither is the faster on all programs (PDR last: its answer is
		// the one kept when none decides).
		proof := po
		proof.ProveOnly = true
		engines := []func(context.Context) (*result.Result, error){
			func(ctx context.Context) (*result.Result, error) { return run(ctx, first, po, true) },
		}
		if unwindingAllowed(&o.Proof) {
			kind := proof
			kind.Proof = &ProofOptions{Method: "kind", MaxK: o.Proof.MaxK}
			engines = append(engines, func(ctx context.Context) (*result.Result, error) { return run(ctx, nil, kind, false) })
		}
		engines = append(engines, func(ctx context.Context) (*result.Result, error) { return run(ctx, nil, proof, false) })
		res, err = raceAll(ctx, engines)
	}
	if err != nil {
		return nil, err
	}
	res.Engine += ", direct interleaving product"
	res.Bounds, res.Depth, res.Lasso = lb.String(), o.Bounds.Depth, true
	res.Elapsed = time.Since(start)
	return res, nil
}

// lassoOptions are the options of encode.DirectLasso for lb with calls
// depth frames deep; exact says the stacks are as deep as any call chain
// of p needs (see stackFrames).
func lassoOptions(p *ir.Program, depth int, lb result.LassoBound) (encode.DirectLassoOptions, bool) {
	frames, exact := threadFrames(p, depth)
	return encode.DirectLassoOptions{Depth: frames, Stem: lb.Stem, Loop: lb.Loop, Fairness: lb.Fairness}, exact
}

// EncodeLivelock is the livelock question of p within lb on the direct
// product (encode.DirectLasso), as bmc export writes it: the property
// PropViolation is a livelock, and the system has it as a justice
// property too. Idle steps are kept: a spin loop is made of them.
func EncodeLivelock(ctx context.Context, p *ir.Program, depth int, lb result.LassoBound) (encode.Model, error) {
	lo, _ := lassoOptions(p, depth, lb)
	m, err := encode.DirectLasso(ctx, p, lo)
	if err != nil && ctx.Err() == nil {
		return nil, &result.UsageError{Msg: err.Error()}
	}
	return m, err
}

// raceAll races the methods as race does: the first verdict, or the
// last method's answer.
func raceAll(ctx context.Context, methods []func(context.Context) (*result.Result, error)) (*result.Result, error) {
	if len(methods) == 1 {
		return methods[0](ctx)
	}
	return race(ctx, 0, methods[0], func(ctx context.Context) (*result.Result, error) { return raceAll(ctx, methods[1:]) })
}

// lassoStride is how many steps lassoBMC's bound grows by: the queries
// that refute a livelock cost the most, and a larger stride asks fewer
// of them (seed 19 of TestLivelockDifferential at 2,1: 1.2 s at 8,
// 16, 24 against 59 s for every bound up to 24).
const lassoStride = 8

// lassoBMC looks for a livelock of m with BMC at bounds lassoStride
// apart, up to po.MaxSteps: a query at bound k covers every shorter
// path, as the property of encode.DirectLasso holds from the closing
// frame on. It finds a livelock or leaves the question open.
func lassoBMC(ctx context.Context, p *ir.Program, m encode.Model, s solver.Solver, po bmcOptions) (*result.Result, error) {
	start := time.Now()
	sys := m.System()
	b := engine.NewBMC(sys, s)
	target := sys.Bad[encode.PropViolation].Lit
	res := &result.Result{Engine: "bmc+" + s.Name(), Verdict: result.Unknown}
	for k := min(lassoStride, po.MaxSteps); ; k = min(k+lassoStride, po.MaxSteps) {
		res.Bound = k
		res.Stats = fmt.Sprintf("bound %d, %d latches, %d inputs, %d nodes", k, len(sys.Latches()), len(sys.Inputs()), sys.NumVars())
		switch b.Query(ctx, k, b.U.At(target, k)) {
		case solver.Sat:
			return counterexample(p, m, &engine.Outcome{Status: solver.Sat, Bound: k, Witness: b.Witness(k)}, res, po)
		case solver.Unknown:
			res.Limits = append(res.Limits, stopped(ctx, fmt.Sprintf("at bound %d", k)))
			return res, nil
		}
		if po.Progress != nil {
			fmt.Fprintf(po.Progress, "bmc: bound %d: no livelock (%s, %.1fs)\n", k, s.Name(), time.Since(start).Seconds())
		}
		if k == po.MaxSteps {
			res.StepsCut = true
			res.Limits = append(res.Limits, result.NewLimit(result.LimitSteps, "(executions longer than %d steps were not explored)", k))
			return res, nil
		}
	}
}

// lassoReader reads a livelock's steps for check and keeps where its
// loop begins for the replay, which check calls next with the steps
// alone.
type lassoReader struct {
	encode.LassoModel
	loop int
}

func (r *lassoReader) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	steps, loop, err := r.Lasso(values, k)
	r.loop = loop
	return steps, err
}
