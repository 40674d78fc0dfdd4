package method

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"bmc/cover"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// everyThreadCount words the question of a parameterized program.
const EveryThreadCount = "every number of threads"

// Placed is err with the position in p of the construct a parameterized
// engine does not take.
func Placed(p *ir.Program, err error) string {
	if un := (*cover.Unsupported)(nil); errors.As(err, &un) {
		return fmt.Sprintf("%s:%s: %s", p.File, un.Pos, un.Reason)
	}
	return err.Error()
}

// coverOptions bounds the parameterized engines' sets by --max-states,
// which their "state limit" answers advise raising, and recursive
// threads by the call depth.
func coverOptions(o Options) cover.Options {
	opts := cover.DefaultOptions()
	if o.Bounds.MaxStates > 0 {
		opts.MaxPairs, opts.MaxElements, opts.MaxConfigurations = o.Bounds.MaxStates, o.Bounds.MaxStates, o.Bounds.MaxStates
	}
	if o.Bounds.Depth > 0 {
		opts.Depth = o.Bounds.Depth
	}
	return opts
}

// coverOpen is the limit of a parameterized engine's open answer.
func coverOpen(ctx context.Context, out *cover.Outcome, o Options, engine string) result.Limit {
	switch {
	case ctx.Err() != nil:
		return result.Stopped(ctx, engine)
	case out.Deeper:
		return result.NewLimit(result.LimitDepth, "(call depth %d: %s)", coverOptions(o).Depth, out.Stopped)
	case out.Unmatched > 0:
		return result.NewLimit(result.LimitUnmatched, "(%s)", out.Stopped)
	}
	return result.NewLimit(result.LimitStates, "(%s)", out.Stopped)
}

// tooDeep is the answer to a violation that needs more frames than the
// call depth the user stated (threads that do not recurse are not cut
// at the depth), or nil.
func tooDeep(out *cover.Outcome, o Options, res *result.Result) *result.Result {
	if !o.DepthStated || out.Depth <= o.Bounds.Depth {
		return nil
	}
	res.Verdict = result.Unknown
	res.Limits = []result.Limit{result.NewLimit(result.LimitDeeper, "(the violation found needs %s, the call depth is %d)", result.Plural(out.Depth, "frame"), o.Bounds.Depth)}
	return res
}

// checkCoverability runs the coverability engine and has its violation
// replayed on the explicit interpreter with the threads it needs.
func checkCoverability(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	out, err := cover.Check(ctx, p, coverOptions(o))
	if err != nil {
		return nil, err
	}
	res := &result.Result{Engine: "coverability", Verdict: out.Verdict, AnyDepth: !out.Deeper, AnyThreads: true, Method: "coverability",
		Bounds: "every interleaving, " + EveryThreadCount,
		Stats:  fmt.Sprintf("%d thread states beside shared states, %d minimal elements", out.Pairs, out.Elements)}
	bd, bounded := o.Bounds.Context()
	switch out.Verdict {
	case result.Safe:
		res.Proof = fmt.Sprintf("backward coverability fixpoint after %d steps back", out.Rounds)
		if bounded {
			res.Bounds = fmt.Sprintf("%s (so within %s), %s", "every interleaving", bd, EveryThreadCount)
		}
		return res, nil
	case result.Unknown:
		if ctx.Err() != nil {
			return &result.Result{Engine: res.Engine, Verdict: result.Unknown, Bounds: res.Bounds, Stats: res.Stats,
				Limits: []result.Limit{result.Stopped(ctx, "coverability")}}, nil
		}
		res.Limits = []result.Limit{coverOpen(ctx, out, o, "coverability")}
		return res, nil
	}
	if r := tooDeep(out, o, res); r != nil {
		return r, nil
	}
	eo := o.Bounds.ExplicitOptions()
	eo.MaxThreads = max(out.Threads, 1)
	eo.Depth = max(eo.Depth, out.Depth)
	if bounded {
		// The schedule may need more rounds or switches than asked: the
		// explicit engine searches within the bound with as many threads.
		c, err := explicit.New(out.Program, eo)
		if err != nil {
			return nil, &result.UsageError{Msg: err.Error()}
		}
		r := c.Run(ctx)
		r.Engine = "coverability, then explicit"
		if r.Verdict == result.Unsafe {
			r.AnyThreads, r.Threads = true, out.Threads
			r.Bounds = fmt.Sprintf("%s, %s", r.Bounds, result.Plural(out.Threads, "thread"))
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
	res.Trace, res.Threads = tr, out.Threads
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

// checkRounds decides the question within o.Bounds.Rounds rounds for
// every number of threads by linear interfaces, and has a violation
// replayed on the explicit interpreter within those rounds with the
// threads it needs.
func checkRounds(ctx context.Context, p *ir.Program, o Options, k int) (*result.Result, error) {
	out, err := cover.CheckRounds(ctx, p, k, coverOptions(o))
	if err != nil {
		return nil, err
	}
	res := &result.Result{Engine: "linear interfaces", Verdict: out.Verdict, AnyDepth: !out.Deeper, AnyThreads: true,
		Method: "linear interfaces", K: k,
		Bounds: fmt.Sprintf("%s, %s", result.Plural(k, "round-robin round"), EveryThreadCount),
		Stats:  fmt.Sprintf("%d linear interfaces", out.Elements)}
	switch out.Verdict {
	case result.Safe:
		return res, nil
	case result.Unknown:
		res.Limits = []result.Limit{coverOpen(ctx, out, o, "linear interfaces")}
		return res, nil
	}
	if r := tooDeep(out, o, res); r != nil {
		return r, nil
	}
	eo := o.Bounds.ExplicitOptions()
	eo.MaxThreads, eo.Depth = max(out.Threads, 1), max(eo.Depth, out.Depth)
	eo.Rounds, eo.Switches = k, -1
	tr, err := explicit.Replay(out.Program, eo, onProgram(out.Program, out.Steps))
	if err != nil {
		return nil, fmt.Errorf("the linear interfaces' violation does not replay: %w", err)
	}
	tr.Threads = out.Roles
	res.Trace, res.Threads = tr, out.Threads
	res.Bounds = fmt.Sprintf("%s, %s", result.Plural(k, "round-robin round"), threadWords(out))
	return res, nil
}

// proveByRounds asks the question for every schedule and every number
// of threads by linear interfaces: k = 1, 2, ... rounds until a
// violation within k rounds, or none and the adequacy check shows that
// k rounds reach every reachable configuration (a proof), or the time
// ends. Where threads start threads the game does not apply: it looks
// for violations only.
func proveByRounds(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	last := &result.Result{Engine: "linear interfaces with adequacy", Verdict: result.Unknown, AnyThreads: true,
		Bounds: "every interleaving, " + EveryThreadCount}
	noGame := cover.AdequacySupported(p)
	if noGame != nil {
		last.Engine = "linear interfaces"
	}
	var open *result.Result // the last round bound left open by violations that do not match
	for k := 1; k <= MaxRounds; k++ {
		res, err := checkRounds(ctx, p, o, k)
		if err != nil || res.Verdict == result.Unsafe {
			return res, err
		}
		if res.Verdict == result.Unknown {
			if ctx.Err() == nil && len(res.Limits) == 1 && res.Limits[0].Kind == result.LimitUnmatched {
				open = res // more rounds may find a violation that matches
				continue
			}
			if last.K == 0 && open == nil {
				return res, nil
			}
			last.Limits = res.Limits
			break
		}
		last.K, open = k, nil
		if noGame != nil {
			continue
		}
		verdict, why, err := cover.Adequate(ctx, p, k, coverOptions(o))
		if err != nil {
			return nil, err
		}
		if verdict == result.Safe {
			res.Engine, res.Method, res.K = last.Engine, "linear interfaces with adequacy", k
			res.Bounds = last.Bounds
			res.Proof = fmt.Sprintf("no violation within %s, and the adequacy check shows that %s reach every reachable configuration",
				result.Plural(k, "round"), result.Plural(k, "round"))
			return res, nil
		}
		if verdict == result.Unknown {
			last.Limits = []result.Limit{result.NewLimit(result.LimitStates, "(the adequacy check at %d rounds: %s)", k, why)}
			if ctx.Err() != nil {
				last.Limits = []result.Limit{result.Stopped(ctx, fmt.Sprintf("the adequacy check at %s", result.Plural(k, "round")))}
			}
			last.Advice = fmt.Sprintf("safe within %s for every number of threads; a longer --timeout", result.Plural(k, "round"))
			return last, nil
		}
	}
	if ctx.Err() != nil {
		last.Limits = []result.Limit{result.Stopped(ctx, fmt.Sprintf("linear interfaces after %s", result.Plural(last.K, "round")))}
	} else if len(last.Limits) == 0 && noGame == nil {
		last.Limits = []result.Limit{result.NewLimit(result.LimitStates, "(no adequacy up to %s)", result.Plural(last.K, "round"))}
	} else if len(last.Limits) == 0 {
		last.Limits = []result.Limit{result.NewLimit(result.LimitStates, "(%s, no adequacy check)", result.Plural(last.K, "round"))}
	}
	if open != nil {
		last.Limits = append(last.Limits, open.Limits...)
	}
	last.Advice = "more rounds or a longer --timeout"
	if last.K > 0 {
		last.Advice = fmt.Sprintf("safe within %s for every number of threads; %s", result.Plural(last.K, "round"), last.Advice)
	}
	if noGame != nil {
		last.Advice += fmt.Sprintf("; the adequacy check, which proves every number of rounds, does not take this program (%s)", Placed(p, noGame))
	}
	return last, nil
}
