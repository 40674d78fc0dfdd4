package driver

import (
	"context"
	"errors"
	"io"
	"time"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/sat"
	"bmc/smt"
	"bmc/solver"
)

// Largest bounds accepted: the sequentializations grow with the number of
// contexts (copies of the shared state per context).
const (
	MaxRounds   = 32
	MaxSwitches = 64
)

// Options are a run's engine, solver and bounds. Engine, Seq and
// Proof.Method "auto" (or "") leave the choice to the plan (makePlan).
type Options struct {
	Engine string // check: EngineChoice
	Solver string
	Seq    string // concurrent programs: auto, eager, lazy or direct (bmc engine), contexts (summary engine)
	// MaxSteps bounds the bmc engine's unrolling of a program with loops
	// or recursion. A search it cuts short is "safe within MaxSteps steps"
	// only when the user stated the bound (StepsStated); otherwise the
	// verdict is unknown (the verdict rule, docs/USAGE.md).
	MaxSteps    int
	StepsStated bool
	// Frames unrolls the transition relation frame by frame even where
	// the program (or its sequentialization) is loop-free and
	// non-recursive and could be encoded whole (encode.Whole).
	Frames bool
	// Timeout and MaxMemory (bytes) end a run with an unknown verdict
	// (0: no limit). A caller that limits more than the run (loading
	// the program, too) leaves them 0 and passes a context from Limit.
	Timeout   time.Duration
	MaxMemory int64
	Progress  io.Writer // nil: quiet
	// Verbose, when not nil, receives the plan before it runs.
	Verbose io.Writer
	// Cores is how many cores the plan may keep busy (0: the machine's).
	Cores int
	// Command is the command line of this run (the program and its
	// arguments), which runs a plan's candidates as processes of their
	// own (see candidateEnv); nil runs them in this process.
	Command []string
	Bounds  Bounds
	// ThreadsStated says the user gave the thread bound: a plan none of
	// whose engines reads it refuses it (as the command line refuses the
	// flags the engines it pins do not read).
	ThreadsStated bool
	// DepthStated says the user gave the call depth: a violation must
	// then fit in Bounds.Depth frames. Otherwise the depth is the
	// engines' that search within one, and a recursive program's answer
	// comes from the summaries at every call depth where they have one.
	DepthStated bool
	// SolverStated says the user named the solver; otherwise the
	// summary engine races its two pure-Go solvers (gini and bdd).
	SolverStated bool
	// Proof chooses the proof engine: of bmc prove, and of BMC on a
	// program whose executions may be longer than the step bound when
	// the user did not state it.
	Proof ProofOptions
}

// Bounds are the bounds of the question (a context bound, the call
// depth, the threads in existence at once) and the explicit engine's
// limits.
type Bounds struct {
	// Exactly one of Switches and Rounds may be set (>= 0 and > 0); with
	// neither, every interleaving is explored.
	Switches   int // at most this many context switches; -1: not bounded by switches
	Rounds     int // round-robin rounds; 0: not bounded by rounds
	Depth      int // frames per thread
	MaxThreads int // threads in existence at once, counting terminated ones
	// AnyThreads asks about every number of threads (--max-threads '*');
	// a program that starts unboundedly many is asked so by default.
	AnyThreads bool
	MaxStates  int // the explicit engine stops with unknown after this many distinct states
	// NoReduction makes the explicit engine explore a context switch
	// before every step (explicit.Options).
	NoReduction bool
	// NoSymmetry turns the symmetry reduction off: the explicit
	// engine's and the interleaving product's symmetry breaking.
	NoSymmetry bool
	// GetafixSwitches asks Getafix's narrower question: a thread is
	// left only where Getafix would (ir.GetafixSwitchNodes).
	GetafixSwitches bool
	// DepthBound says the call depth bounds the question: the user
	// stated it, or the program recurses. Otherwise Depth is the
	// program's own deepest stack (ir.Program.Deepest), at which
	// nothing is cut, and no answer names it (makePlan).
	DepthBound bool
}

// DefaultBounds are the bounds used when the user gives none.
func DefaultBounds() Bounds { return boundsOf(explicit.DefaultOptions()) }

// boundsOf and explicitOptions convert between Bounds and the explicit
// engine's options, which are the same but for its timeout.
func boundsOf(o explicit.Options) Bounds {
	return Bounds{Switches: o.Switches, Rounds: o.Rounds, Depth: o.Depth, MaxThreads: o.MaxThreads, MaxStates: o.MaxStates, NoReduction: o.NoReduction, NoSymmetry: o.NoSymmetry, GetafixSwitches: o.GetafixSwitches}
}

func (b Bounds) explicitOptions() explicit.Options {
	return explicit.Options{Switches: b.Switches, Rounds: b.Rounds, Depth: b.Depth, MaxThreads: b.MaxThreads, MaxStates: b.MaxStates, NoReduction: b.NoReduction, NoSymmetry: b.NoSymmetry, GetafixSwitches: b.GetafixSwitches}
}

// UsageError is a request that cannot be carried out as asked.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// bddOnly says where the solver bdd serves.
const bddOnly = "the solver bdd (decision diagrams) serves the summary engine only, and bmc prove's reach and amplify: bmc check --engine summaries, bmc prove --method summaries, reach or amplify"

// newSolver returns the named solver. Gini borrows the run's cores for
// its own race (sat.Solver.SetBorrow, cores).
func newSolver(ctx context.Context, name string) (solver.Solver, error) {
	switch name {
	case "gini":
		s := sat.New()
		s.SetBorrow(func() (func(), bool) { return borrow(ctx) })
		return s, nil
	case "z3":
		s, err := smt.New()
		if errors.Is(err, smt.ErrNoZ3) {
			return nil, &UsageError{err.Error()}
		}
		return s, err
	case "bdd":
		return nil, &UsageError{bddOnly}
	}
	return nil, SolverChoice.Check(name)
}

// complete fills in the defaults of o and checks every name, whether or
// not an engine of the plan will read it (engine: the engine's too).
func (o *Options) complete(engine bool) error {
	if o.Engine == "" {
		o.Engine = "auto"
	}
	if o.Seq == "" {
		o.Seq = "auto"
	}
	if o.Proof.Method == "" {
		o.Proof.Method = "auto"
	}
	if engine {
		if err := EngineChoice.Check(o.Engine); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		choice Choice
		value  string
	}{{SolverChoice, o.Solver}, {SeqChoice, o.Seq}, {MethodChoice, o.Proof.Method}} {
		if err := c.choice.Check(c.value); err != nil {
			return err
		}
	}
	return nil
}

// Check searches p for a violation within o's bounds. Errors are
// *UsageError for requests that do not fit the program, others internal.
func Check(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	return run(ctx, p, o, safety, result.LassoBound{})
}

// Prove proves p safe for executions of any length: a sequential program
// within the call depth; a concurrent one within the rounds or switches
// of o.Bounds or, with neither, for every interleaving. The depth bound
// counts as shown sufficient only when no execution overflows it. Errors
// are *UsageError for requests that do not fit the program, others
// internal.
func Prove(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	return run(ctx, p, o, proof, result.LassoBound{})
}

// Livelock searches p for a livelock within lb: a fair execution that
// after lb.Stem rounds repeats a loop of lb.Loop rounds forever
// (docs/SEMANTICS.md, "Livelocks"). A livelock is shown only after its
// stem and loop replay on the explicit interpreter, the loop coming back
// and meeting the fairness.
func Livelock(ctx context.Context, p *ir.Program, o Options, lb result.LassoBound) (*result.Result, error) {
	return run(ctx, p, o, livelock, lb)
}

// run makes the plan for question q and runs it within o's limits.
func run(ctx context.Context, p *ir.Program, o Options, q question, lb result.LassoBound) (*result.Result, error) {
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
	res.Lasso = q == livelock
	wordDepth(res, p, o)
	if res.Verdict == result.Unknown && res.Advice == "" {
		within := ""
		if bd, ok := contextBound(o.Bounds); ok && q == safety {
			within = bd.String()
		}
		res.Advice = res.Advise(within, q == proof)
	}
	if res.Verdict == result.Unknown && pl.note != "" {
		res.Advice += "; " + pl.note
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
