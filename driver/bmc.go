package driver

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
	"bmc/solver"
	"bmc/ts"
)

// BMCOptions bound a BMC run on a program.
type BMCOptions struct {
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
	// (encode.Unwind) instead of unrolling its transition relation; other
	// programs are unrolled as usual.
	Unwind   bool
	Progress io.Writer
	// Replay turns a counterexample (steps of p) into the trace shown;
	// nil replays it on p itself. A sequentialization maps it back to
	// the concurrent program here.
	Replay func(steps []result.ReplayStep) (*result.Trace, error)
}

// model is an encoded program as the BMC loop needs it.
type model struct {
	sys     *ts.System
	steps   func(values func(i int) []bool, k int) ([]result.ReplayStep, error)
	running ts.Lit
	// limits are properties that cut executions short (a full stack, no
	// free thread slot): reaching one makes "no violation" inconclusive.
	limits []limit
	// fixed gives per frame node values known on every valid path (nil:
	// none); ended(k) says that every execution has ended after k steps
	// (nil: not known).
	fixed  func(k int) map[int]bool
	ended  func(k int) bool
	frames int // call depth as the user asked for it
	// unwound, when positive, says that frame 0 is the whole program and
	// its longest execution has this many statements.
	unwound int
}

type limit struct {
	lit  ts.Lit
	what string
}

// BMC runs bounded model checking on a sequential program with
// solver s. A counterexample is replayed on the explicit interpreter
// before it is returned; one that does not replay is an internal error.
func BMC(ctx context.Context, p *ir.Program, s solver.Solver, opts BMCOptions) (*result.Result, error) {
	depth := opts.Depth
	if opts.MainFrame {
		depth++
	}
	frames, exact := stackFrames(p, []*ir.Proc{p.Threads[0].Proc}, depth)
	if opts.Unwind && exact && encode.Unwindable(p, frames) == nil {
		u, err := encode.Unwind(ctx, p, frames)
		if err != nil {
			return halted(ctx, s, opts, err)
		}
		m := &model{sys: u.Sys, steps: u.Steps, running: ts.False, frames: opts.Depth, unwound: max(u.Longest, 1),
			ended: func(int) bool { return true }}
		return check(ctx, p, m, s, opts)
	}
	en, err := encode.EncodeWith(ctx, p, encode.Options{Depth: frames, SmallSteps: opts.SmallSteps})
	if err != nil {
		return halted(ctx, s, opts, err)
	}
	reach := en.ControlReach()
	m := &model{sys: en.Sys, steps: en.Steps, running: en.Running(), fixed: reach.Fixed, ended: reach.Ended, frames: opts.Depth}
	if !exact {
		m.limits = append(m.limits, overflow(en.Sys, opts.Depth))
	}
	return check(ctx, p, m, s, opts)
}

// BMCDirect runs bounded model checking on the direct interleaving
// encoding of a concurrent program within the rounds or switches of b
// (its Depth and SmallSteps come from opts).
func BMCDirect(ctx context.Context, p *ir.Program, s solver.Solver, opts BMCOptions, b encode.DirectOptions) (*result.Result, error) {
	var entries []*ir.Proc
	for _, t := range p.Threads {
		entries = append(entries, t.Proc)
	}
	var exact bool
	b.Depth, exact = stackFrames(p, entries, opts.Depth)
	b.SmallSteps = opts.SmallSteps
	d, err := encode.EncodeDirect(ctx, p, b)
	if err != nil {
		return halted(ctx, s, opts, err)
	}
	m := &model{sys: d.Sys, steps: d.Steps, running: d.Running(), frames: opts.Depth}
	if n := d.StepBound(); n >= 0 {
		m.ended = func(k int) bool { return k >= n }
	}
	if !exact {
		m.limits = append(m.limits, overflow(d.Sys, opts.Depth))
	}
	m.limits = append(m.limits, limit{d.Sys.Bad[encode.PropThreadBound].Lit, fmt.Sprintf("thread bound reached (%d threads)", b.MaxThreads)})
	return check(ctx, p, m, s, opts)
}

// halted is the result of a check whose encoding err ended: unknown when
// ctx ended it, else the error.
func halted(ctx context.Context, s solver.Solver, opts BMCOptions, err error) (*result.Result, error) {
	if ctx.Err() == nil {
		return nil, err
	}
	return &result.Result{Engine: "bmc+" + s.Name(), Verdict: result.Unknown,
		Bounds: fmt.Sprintf("call depth %d", opts.Depth), Limits: []string{stopReason(ctx) + " while encoding"}}, nil
}

// stopReason words why a solver query ended without an answer: the end
// of ctx (halt.Reason), or the solver's giving up while ctx lives.
func stopReason(ctx context.Context) string {
	if ctx.Err() == nil {
		return "the solver gave up"
	}
	return halt.Reason(ctx)
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

// overflow is the limit that a call found every one of depth frames in use.
func overflow(sys *ts.System, depth int) limit {
	return limit{sys.Bad[encode.PropOverflow].Lit, fmt.Sprintf("depth bound reached (call depth %d)", depth)}
}

// check runs BMC (engine.Check) on the encoded program m and words the
// outcome: a witness is read back as steps of p and replayed before it
// is returned; a search that a limit or the step bound cut short is
// unknown unless the user stated the bound.
func check(ctx context.Context, p *ir.Program, m *model, s solver.Solver, opts BMCOptions) (*result.Result, error) {
	start := time.Now()
	res := &result.Result{Engine: "bmc+" + s.Name()}
	defer func() { res.Elapsed = time.Since(start) }()
	task := engine.Task{Target: m.sys.Bad[encode.PropViolation].Lit, Running: m.running, MaxSteps: opts.MaxSteps,
		UntilEnded: opts.UntilEnded, Ended: m.ended, Fixed: m.fixed, Whole: m.unwound > 0, Progress: opts.Progress}
	for _, l := range m.limits {
		task.Limits = append(task.Limits, l.lit)
	}
	out := engine.Check(ctx, m.sys, s, task)
	res.Bound = out.Bound
	res.Stats = fmt.Sprintf("bound %d, %d latches, %d inputs, %d nodes", out.Bound, len(m.sys.Latches()), len(m.sys.Inputs()), m.sys.NumVars())
	res.Bounds = fmt.Sprintf("%d steps, call depth %d", out.Bound, m.frames)
	for i, l := range m.limits {
		if out.Seen[i] {
			res.Limits = append(res.Limits, l.what)
		}
	}
	switch out.Status {
	case solver.Unknown:
		res.Verdict = result.Unknown
		res.Limits = append(res.Limits, fmt.Sprintf("%s at bound %d", stopReason(ctx), out.Bound))
		return res, nil
	case solver.Sat:
		return counterexample(p, m, out, res, opts)
	}
	switch {
	case out.Ended:
		if m.unwound > 0 {
			res.Bound = m.unwound
		}
		res.Bounds = fmt.Sprintf("all executions (each ends within %d steps), call depth %d", res.Bound, m.frames)
	case opts.StepsStated:
		res.StepsCut = true
	default:
		// The verdict rule: a bound the user did not give decides nothing.
		res.StepsCut = true
		res.Limits = append(res.Limits, fmt.Sprintf("step bound reached (executions longer than %d steps were not explored)", out.Bound))
	}
	res.Verdict = result.Safe
	if len(res.Limits) > 0 {
		res.Verdict = result.Unknown
	}
	return res, nil
}

// counterexample reads the witness of out back as steps of p, has them
// replayed (opts.Replay, or on p itself) and completes res with the trace.
func counterexample(p *ir.Program, m *model, out *engine.Outcome, res *result.Result, opts BMCOptions) (*result.Result, error) {
	k, w := out.Bound, out.Witness
	steps, err := m.steps(func(i int) []bool { return w.Values(m.sys, i) }, k)
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	replay := opts.Replay
	if replay == nil {
		replay = func(steps []result.ReplayStep) (*result.Trace, error) {
			eo := explicit.DefaultOptions()
			eo.Depth = opts.Depth
			return explicit.Replay(p, eo, steps)
		}
	}
	tr, err := replay(steps)
	if err != nil {
		return nil, fmt.Errorf("internal error: the %s counterexample at bound %d does not replay on the explicit interpreter: %v", res.Engine, k, err)
	}
	res.Verdict, res.Trace = result.Unsafe, tr
	if m.unwound > 0 {
		res.Bound = len(steps)
	}
	res.Bounds = fmt.Sprintf("%d steps, call depth %d", res.Bound, m.frames)
	return res, nil
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
