package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/sat"
	"bmc/seq"
	"bmc/smt"
	"bmc/solver"
)

// Engines, solvers and sequentializations by name.
var (
	Engines = []string{"auto", "bmc", "explicit"}
	Solvers = []string{"gini", "z3"}
	Seqs    = []string{"auto", "eager", "lazy", "direct"}
)

// Largest bounds accepted: the sequentializations grow with the number of
// contexts (copies of the shared state per context).
const (
	MaxRounds   = 32
	MaxSwitches = 64
)

// Options are a check's engine, solver and bounds.
type Options struct {
	Engine string // auto: bmc for one thread or a bounded check, explicit otherwise
	Solver string
	Seq    string // concurrent programs on the bmc engine: auto, eager, lazy or direct
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
	// Timeout and MaxMemory (bytes) end a check with an unknown verdict
	// (0: no limit). A caller that limits more than the check (loading
	// the program, too) leaves them 0 and passes a context from Limit.
	Timeout   time.Duration
	MaxMemory int64
	Progress  io.Writer // nil: quiet
	Bounds    Bounds
	// Proof decides, on the bmc engine, executions longer than the step
	// bound when the user did not state it (Method "": auto).
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
	MaxStates  int // the explicit engine stops with unknown after this many distinct states
	// NoReduction makes the explicit engine explore a context switch
	// before every step (explicit.Options).
	NoReduction bool
}

// DefaultBounds are the bounds used when the user gives none.
func DefaultBounds() Bounds { return boundsOf(explicit.DefaultOptions()) }

// boundsOf and explicitOptions convert between Bounds and the explicit
// engine's options, which are the same but for its timeout.
func boundsOf(o explicit.Options) Bounds {
	return Bounds{Switches: o.Switches, Rounds: o.Rounds, Depth: o.Depth, MaxThreads: o.MaxThreads, MaxStates: o.MaxStates, NoReduction: o.NoReduction}
}

func (b Bounds) explicitOptions() explicit.Options {
	return explicit.Options{Switches: b.Switches, Rounds: b.Rounds, Depth: b.Depth, MaxThreads: b.MaxThreads, MaxStates: b.MaxStates, NoReduction: b.NoReduction}
}

// UsageError is a request that cannot be carried out as asked.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// NewSolver returns the named solver.
func NewSolver(name string) (solver.Solver, error) {
	switch name {
	case "gini":
		return sat.New(), nil
	case "z3":
		s, err := smt.New()
		if errors.Is(err, smt.ErrNoZ3) {
			return nil, &UsageError{err.Error()}
		}
		return s, err
	}
	return nil, &UsageError{fmt.Sprintf("unknown solver %q (available: gini, z3)", name)}
}

// checkNames checks the names o gives (the engine's too, with engine)
// against the lists above.
func (o Options) checkNames(engine bool) error {
	checks := []struct {
		what, name string
		names      []string
	}{{"solver", o.Solver, Solvers}, {"sequentialization", o.Seq, Seqs}, {"proof method", o.Proof.Method, Methods}}
	if engine {
		checks = append([]struct {
			what, name string
			names      []string
		}{{"engine", o.Engine, Engines}}, checks...)
	}
	for _, c := range checks {
		if !slices.Contains(c.names, c.name) {
			return &UsageError{fmt.Sprintf("unknown %s %q (available: %s)", c.what, c.name, strings.Join(c.names, ", "))}
		}
	}
	return nil
}

// complete fills in the defaults of o and checks every name, whether or
// not the engine will read it.
func (o *Options) complete() error {
	if o.Seq == "" {
		o.Seq = "auto"
	}
	if o.Proof.Method == "" {
		o.Proof.Method = "auto"
	}
	return o.checkNames(true)
}

// Check runs the chosen engine on p. Errors are *UsageError for requests
// that do not fit the program, others internal.
func Check(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	ctx, stop := Limit(ctx, o.Timeout, o.MaxMemory)
	defer stop()
	if err := o.complete(); err != nil {
		return nil, err
	}
	if o.Bounds.Rounds > MaxRounds {
		return nil, &UsageError{fmt.Sprintf("-k must be at most %d, got %d", MaxRounds, o.Bounds.Rounds)}
	}
	if o.Bounds.Switches > MaxSwitches {
		return nil, &UsageError{fmt.Sprintf("--switches must be at most %d, got %d", MaxSwitches, o.Bounds.Switches)}
	}
	if o.Engine == "explicit" && o.Seq != "auto" {
		return nil, &UsageError{fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", o.Seq)}
	}
	sequential := encode.Supported(p, encode.KindSequential, o.Bounds.Depth)
	bounded := o.Bounds.Rounds > 0 || o.Bounds.Switches >= 0
	concurrentBMC := func() error {
		if !bounded {
			return fmt.Errorf("the bmc engine needs a bound for a concurrent program: -k K or --switches N")
		}
		if o.Seq == "direct" {
			if err := encode.Supported(p, encode.KindDirect, o.Bounds.Depth); err != nil {
				return fmt.Errorf("%v; use --engine explicit", err)
			}
			return nil
		}
		if err := seq.Supported(p); err != nil {
			return fmt.Errorf("the program cannot be sequentialized: %v; use --engine explicit", err)
		}
		bd := seq.Bound{Rounds: o.Bounds.Rounds, Switches: o.Bounds.Switches}
		if bd.Rounds > 0 {
			bd.Switches = 0
		}
		return SeqFits(p, bd, MemoryLimit(ctx))
	}
	eng := o.Engine
	switch eng {
	case "auto":
		// Concurrent programs go to BMC only when a sequentialization is
		// asked for: on the examples and the corpus the explicit search
		// is still faster (docs/BENCHMARKS.md).
		eng = "explicit"
		if sequential == nil {
			eng = "bmc"
		} else if o.Seq != "auto" {
			if err := concurrentBMC(); err != nil {
				return nil, &UsageError{err.Error()}
			}
			eng = "bmc"
		}
	case "bmc":
		if sequential != nil {
			if err := concurrentBMC(); err != nil {
				return nil, &UsageError{err.Error()}
			}
		}
	}
	if eng == "explicit" {
		return checkExplicit(ctx, p, o)
	}
	if sequential != nil {
		return checkConcurrent(ctx, p, o)
	}
	start := time.Now()
	s, err := NewSolver(o.Solver)
	if err != nil {
		return nil, err
	}
	q := encoded(p, o.StepsStated, o.Progress)
	res, err := BMC(ctx, q, s, BMCOptions{
		Depth: o.Bounds.Depth, MaxSteps: o.MaxSteps, StepsStated: o.StepsStated, Unwind: !o.Frames, Progress: o.Progress,
		Proof: &o.Proof, Solver: o.Solver, IdleCut: q != p, Replay: sequentialReplay(p, o.Bounds.Depth)})
	s.Close()
	if err != nil || res.Verdict != result.Unknown {
		return res, err
	}
	if o.Engine == "auto" && res.StepsCut && !res.Incomplete() {
		// The step bound, which the user did not state, cut the search:
		// the explicit search needs none (it may still meet the depth
		// bound, as BMC did).
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: %s; the explicit engine goes on\n", strings.Join(res.Limits, "; "))
		}
		ex, err := checkExplicit(ctx, p, o)
		if err != nil {
			return nil, err
		}
		ex.Engine = fmt.Sprintf("explicit, after %s stopped at %d steps", res.Engine, res.Bound)
		ex.Elapsed = time.Since(start)
		return ex, nil
	}
	res.Advice = Advise(res, "")
	return res, nil
}

// checkExplicit runs the explicit engine.
func checkExplicit(ctx context.Context, p *ir.Program, o Options) (*result.Result, error) {
	c, err := explicit.New(p, o.Bounds.explicitOptions())
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	res := c.Run(ctx)
	if res.Verdict == result.Unknown {
		res.Advice = Advise(res, "")
	}
	return res, nil
}

// Advise says what would decide a question a limit left open: for each
// limit, the option that moves it, and for the step bound of the bmc
// engine, the engine that needs none. within names the context bound of
// a concurrent program ("" for a sequential one).
func Advise(r *result.Result, within string) string {
	var out []string
	for _, l := range r.Limits {
		var a string
		switch {
		case strings.HasPrefix(l, "step bound"):
			a = fmt.Sprintf("--max-steps N above %d searches longer executions (a bounded answer)", r.Bound)
			a += "; --engine explicit explores every execution"
			if within != "" {
				a += " within " + within
			}
		case strings.HasPrefix(l, "depth bound"):
			a = "a larger --depth (a program that recurses without bound needs a proof)"
		case strings.HasPrefix(l, "thread bound"):
			a = "a larger --max-threads"
		case strings.HasPrefix(l, "state limit"):
			a = "a larger --max-states"
		case strings.HasPrefix(l, "memory limit"):
			a = "a larger --max-memory"
		case strings.HasPrefix(l, "timeout"):
			a = "a longer --timeout"
		}
		if a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return strings.Join(out, "; ")
}
