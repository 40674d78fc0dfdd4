package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/ir"
	"bmc/solver"
	"bmc/ts"
)

// ProgramOptions bound a BMC run on a program.
type ProgramOptions struct {
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
	// Replay turns a counterexample (steps of p) into the trace shown;
	// nil replays it on p itself. A sequentialization maps it back to
	// the concurrent program here.
	Replay func(steps []explicit.ReplayStep) (*explicit.Trace, error)
}

// limit is a property that cuts executions short (encode.Model.Limits)
// with the words that report it.
type limit struct {
	lit  ts.Lit
	what string
}

// CheckProgram runs bounded model checking on a sequential program with
// solver s. A counterexample is replayed on the explicit interpreter
// before it is returned; one that does not replay is an internal error.
func CheckProgram(ctx context.Context, p *ir.Program, s solver.Solver, opts ProgramOptions) (*explicit.Result, error) {
	depth := opts.Depth
	if opts.MainFrame {
		depth++
	}
	frames, exact := stackFrames(p, []*ir.Proc{p.Threads[0].Proc}, depth)
	var m encode.Model
	var err error
	if opts.Unwind && exact && encode.Check(p, encode.KindWhole, frames) == nil {
		m, err = encode.Whole(ctx, p, frames)
	} else {
		m, err = encode.Sequential(ctx, p, encode.Options{Depth: frames, SmallSteps: opts.SmallSteps})
	}
	if err != nil {
		return halted(ctx, s, opts, err)
	}
	return check(ctx, p, m, wordLimits(m, exact, opts.Depth, 0), s, opts)
}

// CheckDirect runs bounded model checking on the direct interleaving
// encoding of a concurrent program within the rounds or switches of b
// (its Depth and SmallSteps come from opts).
func CheckDirect(ctx context.Context, p *ir.Program, s solver.Solver, opts ProgramOptions, b encode.DirectOptions) (*explicit.Result, error) {
	var entries []*ir.Proc
	for _, t := range p.Threads {
		entries = append(entries, t.Proc)
	}
	var exact bool
	b.Depth, exact = stackFrames(p, entries, opts.Depth)
	b.SmallSteps = opts.SmallSteps
	m, err := encode.Direct(ctx, p, b)
	if err != nil {
		return halted(ctx, s, opts, err)
	}
	return check(ctx, p, m, wordLimits(m, exact, opts.Depth, b.MaxThreads), s, opts)
}

// halted is the result of a check whose encoding err ended: unknown when
// ctx ended it, else the error.
func halted(ctx context.Context, s solver.Solver, opts ProgramOptions, err error) (*explicit.Result, error) {
	if ctx.Err() == nil {
		return nil, err
	}
	return &explicit.Result{Engine: "bmc+" + s.Name(), Verdict: explicit.Unknown,
		Bounds: fmt.Sprintf("call depth %d", opts.Depth), Limits: []string{stopReason(ctx) + " while encoding"}}, nil
}

// stopReason words why a solver query ended without an answer: the end
// of ctx (explicit.StopReason), or the solver's giving up while ctx lives.
func stopReason(ctx context.Context) string {
	if ctx.Err() == nil {
		return "the solver gave up"
	}
	return explicit.StopReason(ctx)
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

// wordLimits words m's limits for a call depth and a thread bound. With an
// exact stack (stackFrames) no call finds it full.
func wordLimits(m encode.Model, exact bool, depth, threads int) []limit {
	var out []limit
	for _, i := range m.Limits() {
		bad := m.System().Bad[i].Lit
		switch {
		case i == encode.PropOverflow && !exact:
			out = append(out, limit{bad, fmt.Sprintf("depth bound reached (call depth %d)", depth)})
		case i == encode.PropThreadBound:
			out = append(out, limit{bad, fmt.Sprintf("thread bound reached (%d threads)", threads)})
		}
	}
	return out
}

// check is the BMC loop: one query per bound for a violation or a limit
// not yet seen; once a limit has been seen, violations are searched alone.
func check(ctx context.Context, p *ir.Program, m encode.Model, limits []limit, s solver.Solver, opts ProgramOptions) (*explicit.Result, error) {
	start := time.Now()
	sys, unwound := m.System(), m.Longest()
	b := NewBMC(sys, s)
	b.U.Fixed = m.Fixed
	res := &explicit.Result{
		Engine: "bmc+" + s.Name(),
		Bounds: fmt.Sprintf("%d steps, call depth %d", opts.MaxSteps, opts.Depth),
	}
	defer func() { res.Elapsed = time.Since(start) }()
	stats := func(k int) string {
		return fmt.Sprintf("bound %d, %d latches, %d inputs, %d nodes", k, len(sys.Latches()), len(sys.Inputs()), sys.NumVars())
	}
	bad := sys.Bad[encode.PropViolation].Lit
	counterexample := func(k int) (*explicit.Result, error) {
		w := b.Witness(k)
		steps, err := m.Steps(func(i int) []bool { return w.Values(sys, i) }, k)
		if err != nil {
			return nil, fmt.Errorf("internal error: %v", err)
		}
		replay := opts.Replay
		if replay == nil {
			replay = func(steps []explicit.ReplayStep) (*explicit.Trace, error) {
				eo := explicit.DefaultOptions()
				eo.Depth = opts.Depth
				return explicit.Replay(p, eo, steps)
			}
		}
		tr, err := replay(steps)
		if err != nil {
			return nil, fmt.Errorf("internal error: the %s counterexample at bound %d does not replay on the explicit interpreter: %v", res.Engine, k, err)
		}
		res.Verdict, res.Trace, res.Bound, res.Stats = explicit.Unsafe, tr, k, stats(k)
		if unwound > 0 {
			res.Bound = len(steps)
		}
		res.Bounds = fmt.Sprintf("%d steps, call depth %d", res.Bound, opts.Depth)
		return res, nil
	}
	for k := opts.MaxSteps + 1; k <= opts.UntilEnded; k++ {
		if m.Ended(k) {
			opts.MaxSteps = k
			break
		}
	}
	seen := make([]bool, len(limits))
	ended := false
	for k := 0; k <= opts.MaxSteps; k++ {
		res.Stats, res.Bound = stats(k), k
		if err := b.U.Extend(ctx, k); err != nil {
			res.Verdict = explicit.Unknown
			res.Limits = []string{fmt.Sprintf("%s at bound %d", stopReason(ctx), k)}
			return res, nil
		}
		target := b.U.At(bad, k)
		for i, l := range limits {
			if !seen[i] {
				target = solver.Or(s, target, b.U.At(l.lit, k))
			}
		}
		var st solver.Status
		if unwound > 0 && len(limits) == 0 {
			// The one query there is: asserted rather than assumed, so
			// that the solver may simplify with it (Z3 then uses its
			// preprocessing SAT strategy instead of the incremental core).
			s.Assert(target)
			st = s.Solve(ctx)
		} else {
			st = b.Query(ctx, k, target)
		}
		for st == solver.Sat && !s.Value(b.U.At(bad, k)) {
			// A limit, not a violation: note it and ask again without it.
			target = b.U.At(bad, k)
			for i, l := range limits {
				if seen[i] = seen[i] || s.Value(b.U.At(l.lit, k)); !seen[i] {
					target = solver.Or(s, target, b.U.At(l.lit, k))
				}
			}
			st = b.Query(ctx, k, target)
		}
		if opts.Progress != nil && time.Since(start) > time.Second {
			fmt.Fprintf(opts.Progress, "bmc: bound %d: %s (%s, %.1fs)\n", k, map[solver.Status]string{
				solver.Unsat: "no violation", solver.Sat: "violation", solver.Unknown: "interrupted"}[st], s.Name(), time.Since(start).Seconds())
		}
		switch st {
		case solver.Unknown:
			res.Verdict = explicit.Unknown
			res.Limits = []string{fmt.Sprintf("%s at bound %d", stopReason(ctx), k)}
			return res, nil
		case solver.Sat:
			return counterexample(k)
		}
		if m.Ended(k) {
			ended = true
			break
		}
	}
	for i, l := range limits {
		if seen[i] {
			res.Limits = append(res.Limits, l.what)
		}
	}
	// Does any execution run longer than the bound?
	if !ended {
		switch _, st := b.Search(ctx, m.Running(), opts.MaxSteps, opts.MaxSteps); st {
		case solver.Unsat:
			ended = true
		case solver.Unknown:
			res.Verdict = explicit.Unknown
			res.Limits = append(res.Limits, fmt.Sprintf("%s at bound %d", stopReason(ctx), opts.MaxSteps))
			return res, nil
		}
	}
	switch {
	case ended:
		if unwound > 0 {
			res.Bound = unwound
		}
		res.Bounds = fmt.Sprintf("all executions (each ends within %d steps), call depth %d", res.Bound, opts.Depth)
	case opts.StepsStated:
		res.StepsCut = true
	default:
		// The verdict rule: a bound the user did not give decides nothing.
		res.StepsCut = true
		res.Limits = append(res.Limits, fmt.Sprintf("step bound reached (executions longer than %d steps were not explored)", opts.MaxSteps))
	}
	res.Verdict = explicit.Safe
	if len(res.Limits) > 0 {
		res.Verdict = explicit.Unknown
	}
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
