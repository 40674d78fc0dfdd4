package method

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/ir"
	"bmc/result"
	"bmc/solver"
)

// cycleLivelock answers "a livelock within lb?" for a program without
// recursion or thread starts by the fair cycles of its interleaving
// product, every interleaving, on decision diagrams
// (engine.FairCycles). A livelock within lb is a cycle of the product
// (its loop ends in the configuration it began in) through reachable
// states, on which a thread that takes no step is blocked or has
// terminated at every configuration (strong fairness) or at one (weak):
// with no such cycle at all, there is no livelock within any bound,
// which answers the question. Where one exists it may need more rounds
// than lb, and the engines within the bound decide. Without the
// rounds, and with the fixpoint's images of one thread's steps, this
// proves the absence where the searches within lb do not end (the
// ordered philosophers from N = 6 at --lasso 2,2).
func cycleLivelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound, progress io.Writer) (*result.Result, error) {
	start := time.Now()
	frames, _ := threadFrames(p, o.Bounds.Depth)
	res := &result.Result{Engine: "fair cycles+bdd, direct interleaving product", Verdict: result.Unknown, Lasso: true,
		Bounds: lb.String(), Depth: o.Bounds.Depth}
	// The instances in their own order, not the symmetry-broken one:
	// the cycles are those of the program as written.
	m, err := encode.Direct(ctx, p, encode.DirectOptions{Depth: frames, Switches: -1, NoSymmetry: true})
	if err != nil {
		if ctx.Err() != nil {
			res.Limits = []result.Limit{result.Stopped(ctx, "while encoding")}
			return res, nil
		}
		return nil, err
	}
	sm := m.(encode.Scheduled)
	fairness := map[result.Fairness]engine.Fairness{result.StrongFairness: engine.StrongFairness,
		result.WeakFairness: engine.WeakFairness, result.NoFairness: engine.NoFairness}[lb.Fairness]
	cy := engine.FairCycles(ctx, m.System(), engine.CycleTask{
		Threads:   &engine.Threads{Sched: sm.Scheduler(), Care: sm.Care(), PC: sm.ProgramCounters()},
		Enabled:   sm.Enabled(),
		Recurring: sm.Recurring(),
		Waiting:   sm.Waiting(),
		Stutter:   sm.Terminated(),
		Fairness:  fairness,
		Progress:  progress,
	})
	res.Elapsed = time.Since(start)
	switch cy.Status {
	case solver.Unsat:
		res.Verdict = result.Safe
		res.Proof = fmt.Sprintf("no %s cycle on any interleaving, among %.0f reachable states", fairWords(lb.Fairness), cy.Reached)
	case solver.Sat:
		res.Limits = []result.Limit{result.NewLimit(result.LimitBeyondBound, "(a %s cycle on some interleaving, which may need a longer stem or loop)", fairWords(lb.Fairness))}
	default:
		res.Limits = []result.Limit{stopped(ctx, cy.Reason)}
	}
	return res, nil
}

// fairWords words a fairness for "a ... cycle".
func fairWords(f result.Fairness) string {
	switch f {
	case result.StrongFairness:
		return "strongly fair"
	case result.WeakFairness:
		return "weakly fair"
	}
	return "reachable"
}
