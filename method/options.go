package method

import (
	"bmc/encode"
	"bmc/explicit"
	"bmc/internal/budget"
	"bmc/ir"
	"bmc/result"
	"bmc/sat"
	"bmc/seq"
	"bmc/smt"
	"bmc/solver"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Largest bounds accepted: the sequentializations grow with the number of
// contexts (copies of the shared state per context).
const (
	MaxRounds   = 32
	MaxSwitches = 64
)

// Options are a run's engine, solver and bounds. Engine, Seq and
// Proof.Method "" (Auto) leave the choice to the plan.
type Options struct {
	Engine Engine // bmc check's
	Solver SolverName
	Seq    Seq // how a concurrent program is encoded
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
	// own (driver/process.go); nil runs them in this process.
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
	// nothing is cut, and no answer names it (the driver's plan).
	DepthBound bool
}

// DefaultBounds are the bounds used when the user gives none.
func DefaultBounds() Bounds { return BoundsOf(explicit.DefaultOptions()) }

// BoundsOf and ExplicitOptions convert between Bounds and the explicit
// engine's options, which are the same but for its timeout.
func BoundsOf(o explicit.Options) Bounds {
	return Bounds{Switches: o.Switches, Rounds: o.Rounds, Depth: o.Depth, MaxThreads: o.MaxThreads, MaxStates: o.MaxStates, NoReduction: o.NoReduction, NoSymmetry: o.NoSymmetry, GetafixSwitches: o.GetafixSwitches}
}

func (b Bounds) ExplicitOptions() explicit.Options {
	return explicit.Options{Switches: b.Switches, Rounds: b.Rounds, Depth: b.Depth, MaxThreads: b.MaxThreads, MaxStates: b.MaxStates, NoReduction: b.NoReduction, NoSymmetry: b.NoSymmetry, GetafixSwitches: b.GetafixSwitches}
}

// bddOnly says where the solver bdd serves.
const BDDOnly = "the solver bdd (decision diagrams) serves the summary engine, the counter abstraction, and bmc prove's reach and amplify only: bmc check --engine summaries or counters, bmc prove --method summaries, counters, reach or amplify"

// SolverAvailable refuses a solver this build lacks (Z3 in a build
// with TAGS=noz3).
func SolverAvailable(name SolverName) error {
	if name == SolverZ3 && !smt.Available {
		_, err := newSolver(context.Background(), name)
		return err
	}
	return nil
}

// newSolver returns the named solver. Gini borrows the run's cores for
// its own race (sat.Solver.SetBorrow, cores).
func newSolver(ctx context.Context, name SolverName) (solver.Solver, error) {
	switch name {
	case SolverGini:
		s := sat.New()
		s.SetBorrow(func() (func(), bool) { return budget.Borrow(ctx) })
		return s, nil
	case SolverZ3:
		s, err := smt.New()
		if errors.Is(err, smt.ErrNoZ3) {
			return nil, &result.UsageError{Msg: err.Error()}
		}
		return s, err
	case SolverBDD:
		return nil, &result.UsageError{Msg: BDDOnly}
	}
	return nil, SolverChoice.Check(string(name))
}

// joinBounds words bounds one after the other, leaving out empty ones.
func joinBounds(bounds ...string) string {
	return strings.Join(slices.DeleteFunc(bounds, func(s string) bool { return s == "" }), ", ")
}

// Context is the rounds or switches the bounds ask for: ok false
// with neither (every interleaving).
func (b Bounds) Context() (bd seq.Bound, ok bool) {
	switch {
	case b.Rounds > 0:
		return seq.Bound{Rounds: b.Rounds}, true
	case b.Switches >= 0:
		return seq.Bound{Switches: b.Switches}, true
	}
	return seq.Bound{}, false
}

// Words words the bounds a question is asked within, the call depth
// where it is one (depthWords).
func (b Bounds) Words() string {
	if bd, ok := b.Context(); ok && b.GetafixSwitches {
		return fmt.Sprintf("%s, %s", bd, explicit.GetafixWords)
	}
	s := "every interleaving"
	if bd, ok := b.Context(); ok {
		s = bd.String()
	}
	if d := b.DepthWords(); d != "" {
		s += ", " + d
	}
	return s
}

// DepthWords is "call depth D" where the call depth bounds the question
// (DepthBound), else "".
func (b Bounds) DepthWords() string {
	if !b.DepthBound {
		return ""
	}
	return fmt.Sprintf("call depth %d", b.Depth)
}

// summaryMethod is the summary engine's encoding of a concurrent
// program when the user names none: the context encoding
// (docs/BENCHMARKS.md, "Recursion": up to 20 times faster than the
// eager program's clauses on the examples, as fast where it gains
// least; it encodes locks too).
const SummarySeq = SeqContexts

// Horn says whether --seq names one of the summary engine's own
// encodings of the bounded-context question (no sequential program):
// the context encoding, or the product of the threads' states.
func (method Seq) Horn() bool { return method == SeqContexts || method == SeqProduct }

// bmcName names BMC with a solver on a sequentialization.
func bmcName(solver SolverName, method Seq) string {
	if method == SeqDirect {
		return "bmc+" + string(solver) + ", direct interleaving product"
	}
	return fmt.Sprintf("bmc+%s, %s sequentialization", solver, method)
}

// concurrentFits refuses what BMC cannot check within bd through method:
// a program the sequentializations (or the interleaving product) do not
// take, or one whose sequentialization would not fit in memory.
func ConcurrentFits(ctx context.Context, p *ir.Program, method Seq, bd seq.Bound, depth int) error {
	if method == SeqDirect {
		if err := encode.Supported(p, encode.KindDirect, depth); err != nil {
			return fmt.Errorf("%v; use --engine explicit", err)
		}
		return nil
	}
	if err := seq.Supported(p); err != nil {
		return fmt.Errorf("the program cannot be sequentialized: %v; use --engine explicit", err)
	}
	if bd.Rounds > 0 {
		bd.Switches = 0
	}
	return SeqFits(p, bd, budget.MemoryLimit(ctx))
}

// seqWords names a sequentialization in an engine's name.
func seqWords(method Seq) string {
	switch method {
	case SeqDirect:
		return "direct interleaving product"
	case SeqContexts:
		return "context encoding"
	case SeqProduct:
		return "product encoding"
	}
	return string(method) + " sequentialization"
}

// lassoHeadStart is how long the lasso translation's unwinding runs
// before its proof engine joins it. The threads' loops close within a
// few iterations in every livelock test and example (the unwinding
// answered all of them first, within 3 s), so the proof engine is there
// for loops that do not, and joins once the unwinding has taken longer
// than the benchmarks' largest rows.
const lassoHeadStart = 2 * time.Second

// exportMethod is the encoding bmc export writes for --seq method (auto:
// the interleaving product, which check and prove decide without a
// sequentialization's blow-up).
func exportMethod(method Seq) Seq {
	if method != "" {
		return method
	}
	return SeqDirect
}

// unwindingAllowed says whether the bmc engine may decide a looping
// program by unwinding its loops (raced with its proof engine) and the
// direct lasso race several proof engines: only when no particular
// proof engine or proof was asked for.
func unwindingAllowed(po *ProofOptions) bool {
	return po != nil && po.Method == "" && po.Certificate == nil
}

// seqBytesPerNode is what one expression node of a sequentialization
// costs in memory, measured on the Bluetooth driver with 6 to 20 threads
// and 2 to 8 rounds: 90 to 105 bytes eager, about 180 lazy. The lower
// figure makes the refusal below err on the side of trying.
const seqBytesPerNode = 90

// SeqFits refuses, before it is built, a sequentialization of p within bd
// that cannot fit in maxMemory bytes (0: no limit): the contexts' shared
// state copies and switches grow with the square of the contexts, and
// many threads with many rounds need more memory than any machine has.
func SeqFits(p *ir.Program, bd seq.Bound, maxMemory int64) error {
	if maxMemory <= 0 {
		return nil
	}
	nodes, err := seq.Size(p, bd)
	if err != nil {
		return err
	}
	if need := nodes * seqBytesPerNode; nodes > maxMemory/seqBytesPerNode {
		return &result.UsageError{Msg: fmt.Sprintf("the sequentialization within %s would need about %s of memory (%d expression nodes), more than the memory limit of %s: give fewer rounds, switches or threads, or a larger --max-memory",
			bd, budget.FormatBytes(need), nodes, budget.FormatBytes(maxMemory))}
	}
	return nil
}
