package method

import (
	"bmc/chc"
	"bmc/internal/budget"
	"bmc/result"
	"context"
	"fmt"

	"bmc/encode"
	"bmc/ir"
	"bmc/seq"
)

// Encode builds the transition system that check and prove decide for
// p, frame by frame (never a whole-program formula), for another tool to
// decide the same question (bmc export): a one-thread program's
// sequential encoding; for a concurrent program, with method direct (or
// auto) the interleaving product within the rounds or switches of b
// (every interleaving without either), and with method eager or lazy
// the sequential encoding of that sequentialization within them. Without
// recursion the stacks hold just the frames the calls need, as in check;
// otherwise b.Depth. As in check, the idle steps that close a loop are
// left out (encoded). Errors are *UsageError for requests that do not
// fit the program.
func Encode(ctx context.Context, p *ir.Program, method Seq, b Bounds) (encode.Model, error) {
	p = encoded(p, false, nil)
	bounded := b.Rounds > 0 || b.Switches >= 0
	if encode.Supported(p, encode.KindSequential, b.Depth) == nil {
		if m := method; m != "" {
			return nil, &result.UsageError{Msg: fmt.Sprintf("--seq %s is for a concurrent program; this one has one thread", m)}
		}
		frames, _ := stackFrames(p, []*ir.Proc{p.Threads[0].Proc}, b.Depth)
		return encode.Sequential(ctx, p, encode.Options{Depth: frames})
	}
	bd := seq.Bound{Rounds: b.Rounds, Switches: b.Switches}
	if bd.Rounds > 0 {
		bd.Switches = 0
	}
	switch exportMethod(method) {
	case SeqDirect:
		if err := encode.Supported(p, encode.KindDirect, b.Depth); err != nil {
			return nil, &result.UsageError{Msg: err.Error()}
		}
		o := encode.DirectOptions{Switches: -1, MaxThreads: b.MaxThreads}
		if bounded {
			o.Rounds, o.Switches = bd.Rounds, b.Within(bd).Switches
		}
		m, _, err := directModel(ctx, p, o, b.Depth)
		return m, err
	case SeqEager, SeqLazy:
		if !bounded {
			return nil, &result.UsageError{Msg: fmt.Sprintf("--seq %s needs a bound: -k K or --switches N", method)}
		}
		if err := seq.Supported(p); err != nil {
			return nil, &result.UsageError{Msg: fmt.Sprintf("the program cannot be sequentialized: %v; use --seq direct", err)}
		}
		if err := SeqFits(p, bd, budget.MemoryLimit(ctx)); err != nil {
			return nil, err
		}
		sp, err := translation(method)(ctx, p, bd)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, &result.UsageError{Msg: err.Error()}
		}
		// The sequential program's main calls each thread's code: one
		// frame more than the user's depth, as in check.
		frames, _ := stackFrames(sp.Seq, []*ir.Proc{sp.Seq.Threads[0].Proc}, b.Depth+1)
		return encode.Sequential(ctx, sp.Seq, encode.Options{Depth: frames})
	}
	if method.Horn() {
		return nil, &result.UsageError{Msg: "--seq " + string(method) + " is the summary engine's encoding: it is written by --chc, not as a transition system"}
	}
	return nil, &result.UsageError{Msg: fmt.Sprintf("unknown sequentialization %q (available: auto, eager, lazy, direct)", method)}
}

// EncodeHorn is the clause system the summary engine decides for p
// (bmc export --chc): a one-thread program's own, a concurrent one's
// within the rounds or switches of b by the encoding named method (the
// context encoding, or the eager or lazy sequentialization; auto: the
// plan's, summaryMethod).
func EncodeHorn(ctx context.Context, p *ir.Program, method Seq, b Bounds) (*chc.System, error) {
	p, _ = ir.FoldConstantGlobals(p) // as checkSummaries encodes it
	if encode.Supported(p, encode.KindSequential, b.Depth) == nil {
		if m := method; m != "" {
			return nil, &result.UsageError{Msg: fmt.Sprintf("--seq %s is for a concurrent program; this one has one thread", m)}
		}
		h, err := encode.NewHorn(ctx, p)
		if err != nil {
			return nil, err
		}
		return h.System, nil
	}
	bd, bounded := b.Context()
	m := method
	switch {
	case !bounded:
		return nil, &result.UsageError{Msg: "--chc needs a bound for a concurrent program: -k K or --switches N"}
	case m == "":
		m = SummarySeq
	case m == SeqDirect:
		return nil, &result.UsageError{Msg: "--chc takes the context encoding or the eager or lazy sequentialization, not --seq direct"}
	}
	if m.Horn() {
		cl, err := boundedClauses(ctx, p, m, bd, nil)
		if err != nil {
			if ctx.Err() == nil {
				err = &result.UsageError{Msg: err.Error()}
			}
			return nil, err
		}
		return cl.sys, nil
	}
	if err := ConcurrentFits(ctx, p, m, bd, b.Depth); err != nil {
		return nil, &result.UsageError{Msg: err.Error()}
	}
	sp, err := translation(m)(ctx, p, bd)
	if err != nil {
		return nil, err
	}
	h, err := encode.NewHorn(ctx, sp.Seq)
	if err != nil {
		return nil, err
	}
	return h.System, nil
}
