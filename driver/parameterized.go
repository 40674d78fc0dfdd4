package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"bmc/cover"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// everyThreadCount words the question of a parameterized program.
const everyThreadCount = "every number of threads"

// parameterized says whether the question is about every number of
// threads: the user asked (--max-threads '*'), or the program can start
// unboundedly many and the user stated no thread bound and pinned no
// engine that needs one.
func parameterized(p *ir.Program, o Options, pin pins) bool {
	if o.Bounds.AnyThreads {
		return true
	}
	return !o.ThreadsStated && pin.engine == "" && pin.seq == "" && p.ThreadsUnbounded()
}

// parameterizedSafety plans bmc check for every number of threads:
// coverability decides every interleaving; under a context bound its
// proof holds a fortiori, and a violation it finds is searched for
// within the bound with the threads it needs. The explicit engine runs
// beside it within --max-threads: a violation it finds is a violation
// for some number of threads.
func (pl *Plan) parameterizedSafety(p *ir.Program, o Options, pin pins) error {
	err := cover.Supported(p)
	var un *cover.Unsupported
	switch {
	case errors.As(err, &un) && pin.engine == "coverability":
		return &UsageError{fmt.Sprintf("%s: %s", un.Pos, un.Reason)}
	case err != nil && o.Bounds.AnyThreads:
		return &UsageError{fmt.Sprintf("--max-threads '*' needs coverability, which does not take this program: %v", err)}
	case err != nil:
		return nil // the bounded plan, within --max-threads
	}
	pl.Question = "a violation within " + o.Bounds.words() + ", " + everyThreadCount
	pl.anyThreads = true
	pl.add("coverability", 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return checkCoverability(ctx, p, o)
	})
	if pin.engine == "" {
		bo := o
		bo.Bounds.AnyThreads = false
		pl.add("explicit", 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkExplicit(ctx, p, bo)
		})
	}
	return nil
}

// checkCoverability runs the coverability engine and has its violation
// replayed on the explicit interpreter with the threads it needs.
func checkCoverability(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	out, err := cover.Check(ctx, p, cover.DefaultOptions())
	if err != nil {
		return nil, err
	}
	res := &result.Result{Engine: "coverability", Verdict: out.Verdict, AnyDepth: true,
		Bounds: "every interleaving, " + everyThreadCount,
		Stats:  fmt.Sprintf("%d thread states beside shared states, %d minimal elements", out.Pairs, out.Elements)}
	bd, bounded := contextBound(o.Bounds)
	switch out.Verdict {
	case result.Safe:
		res.Proof = fmt.Sprintf("backward coverability fixpoint after %d steps back", out.Rounds)
		if bounded {
			res.Bounds = fmt.Sprintf("%s (so within %s), %s", "every interleaving", bd, everyThreadCount)
		}
		return res, nil
	case result.Unknown:
		kind := result.LimitStates
		if ctx.Err() != nil {
			return &result.Result{Engine: res.Engine, Verdict: result.Unknown, Bounds: res.Bounds, Stats: res.Stats,
				Limits: []result.Limit{result.Stopped(ctx, "coverability")}}, nil
		}
		res.Limits = []result.Limit{result.NewLimit(kind, "(%s)", out.Stopped)}
		return res, nil
	}
	eo := o.Bounds.explicitOptions()
	eo.MaxThreads = max(out.Threads, 1)
	eo.Depth = max(eo.Depth, out.Depth)
	if bounded {
		// The schedule may need more rounds or switches than asked: the
		// explicit engine searches within the bound with as many threads.
		c, err := explicit.New(out.Program, eo)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		r := c.Run(ctx)
		r.Engine = "coverability, then explicit"
		if r.Verdict == result.Unsafe {
			r.Bounds = fmt.Sprintf("%s, %s", r.Bounds, threadWords(out))
			return r, nil
		}
		res.Verdict = result.Unknown
		res.Limits = []result.Limit{result.NewLimit(result.LimitThreads,
			"(a violation needs %s in some interleaving; none within %s with that many)", result.Plural(out.Threads, "thread"), bd)}
		res.Advice = "more rounds or switches, or more threads (--max-threads)"
		return res, nil
	}
	eo.Switches, eo.Rounds = -1, 0
	tr, err := explicit.Replay(out.Program, eo, onProgram(out.Program, out.Steps))
	if err != nil {
		return nil, fmt.Errorf("coverability's violation does not replay: %w", err)
	}
	tr.Threads = out.Roles
	res.Trace = tr
	res.Bounds = "every interleaving, " + threadWords(out)
	return res, nil
}

// threadWords says how many threads a violation needs and what each is.
func threadWords(out *cover.Outcome) string {
	roles := make([]string, len(out.Roles))
	for i, r := range out.Roles {
		roles[i] = fmt.Sprintf("%d: %s", i, r)
	}
	return fmt.Sprintf("%s (%s)", result.Plural(out.Threads, "thread"), strings.Join(roles, "; "))
}
