package method

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/internal/budget"
	"bmc/ir"
	"bmc/result"
	"bmc/solver"
	"bmc/ts"
)

// bmcOptions bound a BMC run on a program.
type bmcOptions struct {
	Depth int // call stack frames, as the user gave them
	// MainFrame adds a frame under the user's Depth for the
	// sequentialization's main, which calls each thread's code.
	MainFrame bool
	MaxSteps  int // transitions (large blocks) to unroll
	// StepsStated says that MaxSteps is part of the question asked: a
	// search it cuts short is then "safe within MaxSteps steps". Otherwise
	// such a search is unknown, with Result.StepsCut set, because an
	// execution longer than the bound was not explored.
	StepsStated bool
	SmallSteps  bool
	// UntilEnded, when larger than MaxSteps, unrolls up to this many
	// steps instead if the encoding shows that every execution has ended
	// by then (control reachability; the direct product's longest run),
	// so that the result covers every execution.
	UntilEnded int
	// Unwind encodes a loop-free, non-recursive program whole
	// (encode.Whole) instead of unrolling its transition relation; other
	// programs are unrolled as usual.
	Unwind   bool
	Progress io.Writer
	// Proof, when not nil, decides what BMC leaves open on a program whose
	// executions may be longer than the step bound (when the user did not
	// state the bound): a proof engine on the same encoding, with solvers
	// named by Solver. A program none of whose executions is longer than
	// the bound allows is then proved directly, without BMC first.
	Proof  *ProofOptions
	Solver SolverName
	// ProveOnly runs the proof engine without BMC first (bmc prove).
	ProveOnly bool
	// IdleCut says that p is encoded(asked), a copy of the program asked
	// about without the idle steps that close its loops: where every
	// execution of p ends, the executions of any length of the program
	// asked about are covered (its loops only wait).
	IdleCut bool
	// UniformUnwind deepens every loop by one iteration when a model
	// shows that some loop needs another (Unwind), instead of only the
	// loops it shows: fewer, larger queries, for programs whose loops all
	// run about equally often (the threads of the lasso translation).
	UniformUnwind bool
	// HeadStart is how long the unwinding (which decides a looping
	// program when its loops close within a few iterations) runs alone
	// before the proof engine joins the race (see race), on a core of its
	// own when one is free: running both from the start would halve the
	// speed of the one that usually answers first.
	HeadStart time.Duration
	// Replay turns a counterexample (steps of p) into the trace shown;
	// nil replays it on p itself. A sequentialization maps it back to
	// the concurrent program here.
	Replay func(steps []result.ReplayStep) (*result.Trace, error)
}

// limit is a property that cuts executions short (encode.Model.Limits)
// with the limit that reports it.
type limit struct {
	lit  ts.Lit
	what result.Limit
}

// bmc runs bounded model checking on a sequential program with solver
// s. A counterexample is replayed on the explicit interpreter before it
// is returned; one that does not replay is an internal error.
func bmc(ctx context.Context, p *ir.Program, s solver.Solver, opts bmcOptions) (*result.Result, error) {
	depth := opts.Depth
	if opts.MainFrame {
		depth++
	}
	frames, exact := stackFrames(p, []*ir.Proc{p.Threads[0].Proc}, depth)
	unrolled := func(ctx context.Context) (*result.Result, error) {
		m, err := encode.Sequential(ctx, p, encode.Options{Depth: frames, SmallSteps: opts.SmallSteps})
		if err != nil {
			return halted(ctx, s, opts, err)
		}
		return check(ctx, p, m, wordLimits(m, exact, opts.Depth, 0), s, opts)
	}
	switch {
	case opts.Unwind && exact && encode.Supported(p, encode.KindWhole, frames) == nil:
		m, err := encode.Whole(ctx, p, frames)
		if err != nil {
			return halted(ctx, s, opts, err)
		}
		return check(ctx, p, m, wordLimits(m, exact, opts.Depth, 0), s, opts)
	case opts.Unwind && exact && unwinds(opts) && encode.Supported(p, encode.KindUnwound, frames) == nil:
		if opts.Progress != nil {
			opts.Progress = &lockedWriter{w: opts.Progress} // both methods report
		}
		return race(ctx, opts.HeadStart, func(ctx context.Context) (*result.Result, error) {
			return unwound(ctx, p, frames, SolverName(s.Name()), opts)
		}, unrolled)
	}
	return unrolled(ctx)
}

// checkSequential checks a one-thread program by BMC: a loop-free one
// encoded whole, a looping one unwound until the unwinding provably
// suffices (raced with a proof engine) or unrolled up to the step bound
// with a proof engine behind it, unless the user stated the bound.
func checkSequential(ctx context.Context, p *ir.Program, o Options, progress io.Writer) (*result.Result, error) {
	s, err := newSolver(ctx, o.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	q := encoded(p, o.StepsStated, progress)
	return bmc(ctx, q, s, bmcOptions{Depth: o.Bounds.Depth, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, Unwind: !o.Frames,
		Progress: progress, Proof: &o.Proof, Solver: o.Solver, IdleCut: q != p, Replay: sequentialReplay(p, o.Bounds.Depth)})
}

// lockedWriter serializes the writes of goroutines to one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// race runs two exact methods on one question side by side and returns
// the first verdict, stopping the other; without one, the second
// method's answer (the first gives nil when it cannot decide the
// question at all). An error of either is returned. The second starts
// after the first has run alone for head, on a core borrowed from the
// run (see cores) as soon as one is free, or on the first's core once
// the first has stopped without a verdict.
func race(ctx context.Context, head time.Duration, first, second func(context.Context) (*result.Result, error)) (*result.Result, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	type answer struct {
		res *result.Result
		err error
	}
	decided := func(a answer) bool { return a.err != nil || a.res != nil && a.res.Verdict != result.Unknown }
	firsts := make(chan answer, 1)
	go func() {
		a := answer{}
		a.res, a.err = first(ctx)
		if decided(a) {
			stop()
		}
		firsts <- a
	}()
	wait := time.NewTimer(head)
	defer wait.Stop()
	var a *answer // the first's answer, once in
	select {
	case x := <-firsts:
		if decided(x) {
			return x.res, x.err
		}
		a = &x
	case <-wait.C:
	case <-ctx.Done():
	}
	if a == nil {
		// Wait for a core of its own, or for the first to stop.
		cores, cancel := budget.Borrowed(ctx)
		defer cancel()
		select {
		case x := <-firsts:
			if decided(x) {
				return x.res, x.err
			}
			a = &x
		case release, ok := <-cores:
			if ok {
				defer release()
			}
		}
	}
	b := answer{}
	b.res, b.err = second(ctx)
	if a == nil {
		if decided(b) && ctx.Err() == nil {
			stop()
			<-firsts
			return b.res, b.err
		}
		x := <-firsts
		a = &x
	}
	if decided(*a) {
		return a.res, a.err
	}
	return b.res, b.err
}

// bmcDirect runs bounded model checking on the direct interleaving
// encoding of a concurrent program within the rounds or switches of b
// (its Depth and SmallSteps come from opts).
func bmcDirect(ctx context.Context, p *ir.Program, s solver.Solver, opts bmcOptions, b encode.DirectOptions) (*result.Result, error) {
	b.SmallSteps = opts.SmallSteps
	m, exact, err := directModel(ctx, p, b, opts.Depth)
	if err != nil {
		return halted(ctx, s, opts, err)
	}
	return check(ctx, p, m, wordLimits(m, exact, opts.Depth, b.MaxThreads), s, opts)
}

// unwinds says whether BMC decides a looping program by unwinding its
// loops (encode.Unwind): when it is to cover executions of any length
// and the plan leaves the method to it (unwindingAllowed).
func unwinds(opts bmcOptions) bool {
	return unwindingAllowed(opts.Proof) && !opts.ProveOnly && !opts.StepsStated
}

// directModel is the interleaving product of p within b, its stacks of
// just the frames the calls need without recursion (exact), else depth.
func directModel(ctx context.Context, p *ir.Program, b encode.DirectOptions, depth int) (m encode.Model, exact bool, err error) {
	b.Depth, exact = threadFrames(p, depth)
	m, err = encode.Direct(ctx, p, b)
	return m, exact, err
}

// halted is the result of a check whose encoding err ended: unknown when
// ctx ended it, else the error.
func halted(ctx context.Context, s solver.Solver, opts bmcOptions, err error) (*result.Result, error) {
	if ctx.Err() == nil {
		return nil, err
	}
	return &result.Result{Engine: "bmc+" + s.Name(), Verdict: result.Unknown,
		Depth: opts.Depth, Limits: []result.Limit{result.Stopped(ctx, "while encoding")}}, nil
}

// stopped is the limit of a solver query that ended without an answer:
// the end of ctx (result.Stopped), or the solver's giving up while ctx
// lives; detail follows the words.
func stopped(ctx context.Context, detail string) result.Limit {
	if ctx.Err() == nil {
		return result.Limit{Kind: result.LimitSolver, Detail: detail}
	}
	return result.Stopped(ctx, detail)
}

// stackFrames is how many frames a thread's stack needs: without
// recursion the deepest call chain from the entries bounds it, and
// encoding just that many makes an overflow impossible (exact) and leaves
// the solver no overflow to refute (a counting argument it finds hard);
// otherwise depth.
func stackFrames(p *ir.Program, entries []*ir.Proc, depth int) (frames int, exact bool) {
	deepest := 0
	for _, e := range entries {
		d := callDepth(p, e)
		if d <= 0 || d > depth {
			return depth, false
		}
		deepest = max(deepest, d)
	}
	return deepest, true
}

// threadFrames is stackFrames for the stacks of p's threads.
func threadFrames(p *ir.Program, depth int) (frames int, exact bool) {
	var entries []*ir.Proc
	for _, t := range p.Threads {
		entries = append(entries, t.Proc)
	}
	return stackFrames(p, entries, depth)
}

// wordLimits words m's limits for a call depth and a thread bound. With an
// exact stack (stackFrames) no call finds it full.
func wordLimits(m encode.Model, exact bool, depth, threads int) []limit {
	var out []limit
	for _, i := range m.Limits() {
		bad := m.System().Bad[i].Lit
		switch {
		case i == encode.PropOverflow && !exact:
			out = append(out, limit{bad, result.NewLimit(result.LimitDepth, "(call depth %d)", depth)})
		case i == encode.PropThreadBound:
			out = append(out, limit{bad, result.NewLimit(result.LimitThreads, "(%s)", result.Plural(threads, "thread"))})
		}
	}
	return out
}

// check runs BMC (engine.Check) on the encoded program m and words the
// outcome: a witness is read back as steps of p and replayed before it
// is returned; a search that a limit or the step bound cut short is
// unknown unless the user stated the bound.
func check(ctx context.Context, p *ir.Program, m encode.Model, limits []limit, s solver.Solver, opts bmcOptions) (*result.Result, error) {
	start := time.Now()
	sys := m.System()
	res := &result.Result{Engine: "bmc+" + s.Name()}
	defer func() { res.Elapsed = time.Since(start) }()
	if opts.Proof != nil && (opts.ProveOnly || !opts.StepsStated && !endsWithin(m, max(opts.MaxSteps, opts.UntilEnded))) {
		// Some executions are longer than any step bound BMC could reach
		// (loops, recursion): its bounded search would decide nothing
		// that the proof engine does not (PDR finds every violation BMC
		// would, though its trace need not be a shortest one).
		return prove(ctx, p, m, limits, make([]bool, len(limits)), *opts.Proof, opts.Solver, opts)
	}
	task := engine.Task{Target: sys.Bad[encode.PropViolation].Lit, Running: m.Running(), MaxSteps: opts.MaxSteps,
		Ended: m.Ended, Fixed: m.Fixed, Whole: m.Longest() > 0, Progress: opts.Progress}
	for k := opts.MaxSteps + 1; k <= opts.UntilEnded; k++ {
		// Every execution ends within a few more steps: search them all.
		if m.Ended(k) {
			task.MaxSteps = k
			break
		}
	}
	for _, l := range limits {
		task.Limits = append(task.Limits, l.lit)
	}
	out := engine.Check(ctx, sys, s, task)
	res.Bound = out.Bound
	res.Stats = fmt.Sprintf("bound %d, %d latches, %d inputs, %d nodes", out.Bound, len(sys.Latches()), len(sys.Inputs()), sys.NumVars())
	res.Bounds, res.Depth = fmt.Sprintf("%d steps", out.Bound), opts.Depth
	for i, l := range limits {
		if out.Seen[i] {
			res.Limits = append(res.Limits, l.what)
		}
	}
	switch out.Status {
	case solver.Unknown:
		res.Verdict = result.Unknown
		res.Limits = append(res.Limits, stopped(ctx, fmt.Sprintf("at bound %d", out.Bound)))
		return res, nil
	case solver.Sat:
		return counterexample(p, m, out, res, opts)
	}
	switch {
	case out.Ended:
		if n := m.Longest(); n > 0 {
			res.Bound = n
		}
		res.Bounds = fmt.Sprintf("all executions (each ends within %d steps)", res.Bound)
		if opts.IdleCut {
			res.Bounds = "executions of any length"
			res.Proof = fmt.Sprintf("without the idle steps that close its loops, every execution ends within %d steps", res.Bound)
		}
	case opts.StepsStated:
		res.StepsCut = true
	case opts.Proof != nil:
		pr, err := prove(ctx, p, m, limits, out.Seen, *opts.Proof, opts.Solver, opts)
		if pr != nil {
			pr.Engine = fmt.Sprintf("%s to %d steps, then %s", res.Engine, out.Bound, pr.Engine)
		}
		return pr, err
	default:
		// The verdict rule: a bound the user did not give decides nothing.
		res.StepsCut = true
		res.Limits = append(res.Limits, result.NewLimit(result.LimitSteps, "(executions longer than %d steps were not explored)", out.Bound))
	}
	res.Verdict = result.Safe
	if len(res.Limits) > 0 {
		res.Verdict = result.Unknown
	}
	return res, nil
}

// counterexample reads the witness of out back as steps of p, has them
// replayed (opts.Replay, or on p itself) and completes res with the trace.
func counterexample(p *ir.Program, m encode.Model, out *engine.Outcome, res *result.Result, opts bmcOptions) (*result.Result, error) {
	k, w := out.Bound, out.Witness
	steps, err := m.Steps(func(i int) []bool { return w.Values(m.System(), i) }, k)
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	replay := opts.Replay
	if replay == nil {
		replay = sequentialReplay(p, opts.Depth)
	}
	tr, err := replay(steps)
	if err != nil {
		return nil, fmt.Errorf("internal error: the %s counterexample at bound %d does not replay on the explicit interpreter: %w", res.Engine, k, err)
	}
	res.Verdict, res.Trace = result.Unsafe, tr
	if m.Longest() > 0 {
		res.Bound = len(steps)
	}
	// The steps are part of the question only where the user stated
	// the bound; otherwise they are the trace's length, which it shows.
	res.Bounds, res.Depth = "", opts.Depth
	if opts.StepsStated {
		res.Bounds = fmt.Sprintf("%d steps", res.Bound)
	}
	return res, nil
}

// sequentialReplay replays the counterexamples of a one-thread program
// encoded from p (p itself or encoded(p)) on p, within the call depth.
func sequentialReplay(p *ir.Program, depth int) func([]result.ReplayStep) (*result.Trace, error) {
	return func(steps []result.ReplayStep) (*result.Trace, error) {
		eo := explicit.DefaultOptions()
		eo.Depth = depth
		return explicit.Replay(p, eo, onProgram(p, steps))
	}
}

// endsWithin reports whether every execution of m has ended after at
// most n steps, as far as the encoding can tell from control flow alone.
func endsWithin(m encode.Model, n int) bool {
	if m.Longest() > 0 {
		return true
	}
	for k := 0; k <= n; k++ {
		if m.Ended(k) {
			return true
		}
	}
	return false
}

// callDepth is the most frames a thread starting in entry can hold (or
// init, which runs on the first thread's stack), or -1 with recursion.
func callDepth(p *ir.Program, entry *ir.Proc) int {
	d := ir.CallDepth(entry)
	if p.Init != nil && d > 0 {
		if i := ir.CallDepth(p.Init); i < 0 {
			d = -1
		} else {
			d = max(d, i)
		}
	}
	return d
}

// Serialized is w written to by one goroutine at a time: for the
// progress of methods that run side by side.
func Serialized(w io.Writer) io.Writer { return &lockedWriter{w: w} }
