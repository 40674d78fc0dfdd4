package driver

import (
	"context"
	"time"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// complete checks every name of o, whether or not an engine of the
// plan will read it (engine: the engine's too), and reads Auto as the
// plan's choice ("").
func complete(o *method.Options, engine bool) error {
	if engine {
		if err := method.EngineChoice.Check(string(o.Engine)); err != nil && o.Engine != "" {
			return err
		}
	}
	for _, c := range []struct {
		choice method.Choice
		value  string
	}{{method.SolverChoice, string(o.Solver)}, {method.SeqChoice, string(o.Seq)}, {method.MethodChoice, string(o.Proof.Method)}} {
		if err := c.choice.Check(c.value); err != nil && (c.value != "" || c.choice.Default != method.Auto) {
			return err
		}
	}
	o.Engine = method.Pin[method.Engine](string(o.Engine))
	o.Seq = method.Pin[method.Seq](string(o.Seq))
	o.Proof.Method = method.Pin[method.ProofMethod](string(o.Proof.Method))
	return nil
}

// Check searches p for a violation within o's bounds. Errors are
// *UsageError for requests that do not fit the program, others internal.
func Check(ctx context.Context, p *ir.Program, o method.Options) (*result.Result, error) {
	return run(ctx, p, o, method.Safety, result.LassoBound{})
}

// Prove proves p safe for executions of any length: a sequential program
// within the call depth; a concurrent one within the rounds or switches
// of o.Bounds or, with neither, for every interleaving. The depth bound
// counts as shown sufficient only when no execution overflows it. Errors
// are *UsageError for requests that do not fit the program, others
// internal.
func Prove(ctx context.Context, p *ir.Program, o method.Options) (*result.Result, error) {
	return run(ctx, p, o, method.Proof, result.LassoBound{})
}

// Livelock searches p for a livelock within lb: a fair execution that
// after lb.Stem rounds repeats a loop of lb.Loop rounds forever
// (docs/SEMANTICS.md, "Livelocks"). A livelock is shown only after its
// stem and loop replay on the explicit interpreter, the loop coming back
// and meeting the fairness.
func Livelock(ctx context.Context, p *ir.Program, o method.Options, lb result.LassoBound) (*result.Result, error) {
	return run(ctx, p, o, method.Livelock, lb)
}

// run makes the plan for question q and runs it within o's limits.
func run(ctx context.Context, p *ir.Program, o method.Options, q method.Question, lb result.LassoBound) (*result.Result, error) {
	start := time.Now()
	ctx, stop := Limit(ctx, o.Timeout, o.MaxMemory)
	defer stop()
	pl, err := makePlan(ctx, p, o, q, lb)
	if err != nil {
		return nil, err
	}
	if cp, ok := thisCandidate(); ok {
		return pl.serve(ctx, cp, o.Progress)
	}
	if o.Verbose != nil {
		pl.WriteTo(o.Verbose)
	}
	res, err := pl.run(ctx, o.Progress)
	if err != nil {
		return nil, err
	}
	res.Lasso = q == method.Livelock
	wordDepth(res, p, o)
	if res.Verdict == result.Unknown && res.Advice == "" {
		within := ""
		if bd, ok := o.Bounds.Context(); ok && q == method.Safety {
			within = bd.String()
		}
		res.Advice = res.Advise(within, q == method.Proof)
	}
	if res.Verdict == result.Unknown && pl.note != "" {
		res.Advice += "; " + pl.note
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
