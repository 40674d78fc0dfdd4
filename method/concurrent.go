package method

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
)

// untilEnded is how far the unrolling of a sequentialization may go
// beyond --max-steps when that covers every execution of the sequential
// program (each thread run is a bounded sequence of steps when the
// threads have no loops).
const untilEnded = 2000

// checkConcurrent checks a concurrent program with BMC on a
// sequentialization within the bound asked for. The executions within a
// smaller bound are among them, so "no violation" there covers every
// smaller bound with one search (one proof, on a looping program). A
// violation is then reported at the smallest bound that has one: the
// smaller bounds are searched from the least (1 round or 0 switches) up.
// When a limit cut the search short (the call depth, the step bound), the
// smaller bounds are searched too, to say up to which one every
// execution was covered.
func checkConcurrent(ctx context.Context, p *ir.Program, o Options, method Seq, progress io.Writer) (*result.Result, error) {
	b := &boundSearch{ctx: ctx, p: p, q: encoded(p, o.StepsStated, progress), o: o, method: method, progress: progress,
		start: time.Now(), lo: 0, hi: o.Bounds.Switches}
	if o.Bounds.Rounds > 0 {
		b.lo, b.hi = 1, o.Bounds.Rounds
	}
	top, err := b.run(b.hi)
	switch {
	case err != nil:
		return nil, err
	case top.Verdict == result.Unsafe:
		top, err = b.smallestViolation(top)
	case top.Incomplete():
		// A timeout or the memory limit: nothing more can be searched.
		top.Bounds = b.bound(b.hi).String()
	case top.Verdict == result.Unknown:
		top, err = b.coveredBelow(top)
	default:
		top.Bounds = b.bound(b.hi).String() + b.safeWords(top)
	}
	if err != nil {
		return nil, err
	}
	top.Depth, top.Elapsed = o.Bounds.Depth, time.Since(b.start)
	return top, nil
}

// boundSearch is BMC on a concurrent program within each context bound
// from lo to hi, rounds or switches as the options ask.
type boundSearch struct {
	ctx      context.Context
	p, q     *ir.Program // q: p or encoded(p)
	o        Options
	method   Seq
	progress io.Writer
	start    time.Time
	lo, hi   int
}

// bound is the context bound k: rounds or switches.
func (b *boundSearch) bound(k int) seq.Bound {
	if b.o.Bounds.Rounds > 0 {
		return seq.Bound{Rounds: k}
	}
	return seq.Bound{Switches: k}
}

// run checks within bound k.
func (b *boundSearch) run(k int) (*result.Result, error) {
	bd := b.bound(k)
	res, err := checkBound(b.ctx, b.p, b.q, b.o, b.method, bd, false, b.progress)
	if err != nil {
		return nil, err
	}
	if res.Engine == "" {
		res.Engine = "bmc+" + string(b.o.Solver)
	}
	res.Engine = bmcEngine(res.Engine, b.method)
	if b.progress != nil {
		fmt.Fprintf(b.progress, "bmc: %s: %s (%s, %.1fs)\n", bd, describe(res), b.method, time.Since(b.start).Seconds())
	}
	if res.Verdict == result.Unknown && res.StepsCut {
		// Say whose steps: the sequential program's are not the user's
		// statements.
		of := "the sequential program"
		if b.method == SeqDirect {
			of = "the interleaving product"
		}
		for i, l := range res.Limits {
			if l.Kind == result.LimitSteps {
				res.Limits[i].Detail = fmt.Sprintf("(executions of %s longer than %d steps were not explored)", of, b.o.MaxSteps)
			}
		}
	}
	return res, nil
}

// smallestViolation is the violation at the smallest bound that has
// one: at most the switches the trace of top takes.
func (b *boundSearch) smallestViolation(top *result.Result) (*result.Result, error) {
	res, at, note := top, b.hi, "the smallest bound with a violation"
	if b.o.Bounds.Rounds == 0 && top.Trace != nil && top.Trace.Switches < b.hi {
		at = top.Trace.Switches
	}
	for k := b.lo; k < at; k++ {
		r, err := b.run(k)
		if err != nil {
			return nil, err
		}
		if r.Verdict == result.Unsafe {
			res, at = r, k
			break
		}
		if r.Verdict == result.Unknown {
			note = fmt.Sprintf("smaller bounds were not fully searched: %s", r.LimitText())
			break
		}
	}
	res.ContextBound = at
	res.Bounds = fmt.Sprintf("%s (%s)", b.bound(at), note)
	return res, nil
}

// coveredBelow words an open answer at the bound with the smaller
// bound up to which every execution was covered.
func (b *boundSearch) coveredBelow(top *result.Result) (*result.Result, error) {
	covered := b.lo - 1
	for k := b.lo; k < b.hi; k++ {
		r, err := b.run(k)
		if err != nil {
			return nil, err
		}
		if r.Verdict != result.Safe {
			break
		}
		covered = k
	}
	top.Bounds = b.bound(b.hi).String() + coveredNote(covered, b.lo, b.bound)
	return top, nil
}

// safeWords says which executions a safe answer covers.
func (b *boundSearch) safeWords(top *result.Result) string {
	switch {
	case top.StepsCut:
		// Only a step bound the user stated cuts a "safe" short.
		return fmt.Sprintf(", executions of up to %d steps of the sequential program", b.o.MaxSteps)
	case top.Proof != "":
		return ", executions of any length"
	}
	return fmt.Sprintf(", every execution (each ends within %d steps of the sequential program)", top.Bound)
}

// checkBound checks p within one bound bd by BMC on the encoding named
// by method (eager, lazy or direct) of q, which is p or encoded(p), and a
// proof engine where BMC cannot cover every execution (proveOnly: the
// proof engine alone). The counterexample is mapped back to an
// interleaving and replayed on p within bd.
func checkBound(ctx context.Context, p, q *ir.Program, o Options, method Seq, bd seq.Bound, proveOnly bool, progress io.Writer) (*result.Result, error) {
	s, err := newSolver(ctx, o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	eo := o.Bounds.Within(bd)
	po := bmcOptions{Depth: o.Bounds.Depth, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, UntilEnded: untilEnded,
		Proof: &o.Proof, Solver: o.Solver, Progress: progress, ProveOnly: proveOnly, IdleCut: q != p}
	if method == SeqDirect {
		po.Replay = func(steps []result.ReplayStep) (*result.Trace, error) {
			return explicit.Replay(p, eo.ExplicitOptions(), onProgram(p, steps))
		}
		return bmcDirect(ctx, q, s, po, encode.DirectOptions{Rounds: bd.Rounds, Switches: eo.Switches, MaxThreads: o.Bounds.MaxThreads, NoSymmetry: o.Bounds.NoSymmetry})
	}
	sp, err := translation(method)(ctx, q, bd)
	switch {
	case err != nil && ctx.Err() != nil:
		return &result.Result{Engine: "bmc+" + s.Name(), Verdict: result.Unknown, Limits: []result.Limit{result.Stopped(ctx, "while sequentializing")}}, nil
	case err != nil:
		return nil, &result.UsageError{Msg: err.Error()}
	}
	po.MainFrame, po.Unwind = true, !o.Frames
	po.Replay = func(steps []result.ReplayStep) (*result.Trace, error) {
		cs, err := sp.Interleave(steps)
		if err != nil {
			return nil, err
		}
		return explicit.Replay(p, eo.ExplicitOptions(), onProgram(p, cs))
	}
	return bmc(ctx, sp.Seq, s, po)
}

// bmcEngine adds the encoding named method to the name of an engine
// (bmc+gini, or pdr+gini after it), as results name it.
func bmcEngine(engine string, method Seq) string {
	return engine + ", " + seqWords(method)
}

// translation is the sequentialization named method: eager or lazy.
func translation(method Seq) func(context.Context, *ir.Program, seq.Bound) (*seq.Program, error) {
	if method == SeqEager {
		return seq.Eager
	}
	return seq.Lazy
}

// Loops reports whether p has executions of any length once the idle
// steps that close a loop are left out (encoded), as BMC encodes it.
func Loops(p *ir.Program) bool { return loops(encoded(p, false, nil)) }

// loops reports whether some procedure of p has a loop or some thread
// can recurse: executions of any length.
func loops(p *ir.Program) bool {
	for _, pr := range p.Procs {
		if len(ir.LoopHeads(pr)) > 0 {
			return true
		}
	}
	for _, t := range p.Threads {
		if ir.CallDepth(t.Proc) < 0 {
			return true
		}
	}
	return false
}

// Within is o with the context bound bd.
func (o Bounds) Within(bd seq.Bound) Bounds {
	o.Rounds, o.Switches = bd.Rounds, bd.Switches
	if bd.Rounds > 0 {
		o.Switches = -1
	}
	return o
}

// coveredNote says up to which smaller bound every execution was covered.
func coveredNote(covered, lo int, bound func(int) seq.Bound) string {
	if covered < lo {
		return ""
	}
	return fmt.Sprintf(" (every execution within %s covered)", bound(covered))
}

func describe(r *result.Result) string {
	switch r.Verdict {
	case result.Unsafe:
		return "violation"
	case result.Unknown:
		return "unknown"
	}
	return "no violation"
}
