package method

import (
	"context"
	"errors"
	"fmt"
	"io"

	"bmc/cover"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
)

// Method is one way to answer a question on its own: an engine on an
// encoding of the program, with how its witness is read back and
// replayed. The plan races methods; each runs its pipeline (encode,
// run, read back, replay, word the answer) in Run.
type Method struct {
	Name string // as results name their engine: "explicit", "bmc+gini, lazy sequentialization"
	// Cores is how many cores it can keep busy: 1, or 2 where it races
	// methods of its own (a proof engine beside its unwinding, gini on a
	// simplified formula beside the plain one), the second borrowed
	// only while no other method waits for it (budget.Borrow).
	Cores int
	// AnyDepth says it answers at every call depth (a summary engine on
	// a recursive program): while it has not answered, an answer the
	// call depth cut short does not end the race.
	AnyDepth bool
	Run      func(ctx context.Context, progress io.Writer) (*result.Result, error)
}

// Explicit is the explicit-state search within o's bounds.
func Explicit(p *ir.Program, o Options) Method {
	return Method{Name: "explicit", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return checkExplicit(ctx, p, o)
	}}
}

// ExplicitSomeThreads is the explicit search within --max-threads
// beside a question about every number of threads: a violation it finds
// is one for the number of threads its trace has.
func ExplicitSomeThreads(p *ir.Program, o Options) Method {
	o.Bounds.AnyThreads = false
	return Method{Name: "explicit", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		res, err := checkExplicit(ctx, p, o)
		if err == nil && res.Verdict == result.Unsafe {
			res.AnyThreads, res.Threads = true, len(res.Trace.Threads)
		}
		return res, err
	}}
}

// Exhaustive is the explicit search as a proof: every state within the
// bounds seen.
func Exhaustive(p *ir.Program, o Options) Method {
	return Method{Name: "explicit (exhaustive search)", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return exhaustive(ctx, p, o)
	}}
}

// SequentialBMC is BMC on a one-thread program: its loops unwound,
// raced with a proof engine unless the user stated the step bound.
func SequentialBMC(p *ir.Program, o Options) Method {
	return Method{Name: "bmc+" + string(o.Solver), Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return checkSequential(ctx, p, o, progress)
	}}
}

// ConcurrentBMC is BMC on the sequentialization s (eager, lazy) or the
// interleaving product (direct).
func ConcurrentBMC(p *ir.Program, o Options, s Seq) Method {
	return Method{Name: bmcName(o.Solver, s), Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return checkConcurrent(ctx, p, o, s, progress)
	}}
}

// Summaries is the summary engine with o's solver: a one-thread program
// at every call depth, a concurrent one through s within the context
// bound.
func Summaries(p *ir.Program, o Options, s Seq) Method {
	return Method{Name: summaryName(o.Solver, s), Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return checkSummaries(ctx, p, o, s)
	}}
}

// EveryInterleaving is reachability on decision diagrams over every
// interleaving: safe there is safe within any bound.
func EveryInterleaving(p *ir.Program, o Options) Method {
	return Method{Name: "reachability+bdd, every interleaving", Cores: 1, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return checkEveryInterleaving(ctx, p, o, progress)
	}}
}

// Coverability decides every number of threads, every interleaving.
func Coverability(p *ir.Program, o Options) Method {
	return Method{Name: "coverability", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return checkCoverability(ctx, p, o)
	}}
}

// Interfaces are the linear interfaces: every number of threads within
// -k rounds, or without a bound k = 1, 2, ... with the adequacy check
// where the program takes it.
func Interfaces(p *ir.Program, o Options) Method {
	if o.Bounds.Rounds > 0 {
		return Method{Name: "linear interfaces", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkRounds(ctx, p, o, o.Bounds.Rounds)
		}}
	}
	name := "linear interfaces with adequacy"
	if cover.AdequacySupported(p) != nil {
		name = "linear interfaces" // k = 1, 2, ... without the game
	}
	return Method{Name: name, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return proveByRounds(ctx, p, o)
	}}
}

// ProveSequential proves a one-thread program with o's proof method.
func ProveSequential(p *ir.Program, o Options) Method {
	return Method{Name: proofName(o.Proof.Method, o.Solver), Cores: 1, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return proveSequential(ctx, p, o, progress)
	}}
}

// ProveBounded proves a concurrent program within bd through the
// sequentialization s (or the interleaving product).
func ProveBounded(p *ir.Program, o Options, s Seq, bd seq.Bound) Method {
	return Method{Name: proofName(o.Proof.Method, o.Solver) + ", " + seqWords(s), Cores: 1, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return proveBounded(ctx, p, o, s, bd, progress)
	}}
}

// ProveProduct proves a concurrent program for every interleaving on
// the interleaving product.
func ProveProduct(p *ir.Program, o Options) Method {
	return Method{Name: proofName(o.Proof.Method, o.Solver) + ", direct interleaving product", Cores: 1, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return proveProduct(ctx, p, o, progress, nil)
	}}
}

// Amplify is K-induction with amplification: every number of rounds.
// On decision diagrams it re-checks beside its base case on a second
// core.
func Amplify(p *ir.Program, o Options) Method {
	cores := 1
	if o.Solver == SolverBDD {
		cores = 2
	}
	return Method{Name: "k-induction with amplification+" + string(o.Solver), Cores: cores, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return proveAmplify(ctx, p, o, progress)
	}}
}

// LassoExplicit is the explicit search for a livelock within lb.
func LassoExplicit(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: "explicit", Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return lassoExplicit(ctx, p, o, lb), nil
	}}
}

// LassoTranslation is BMC on the MUTANT lasso translation; alone says
// no other method races it (it then hands a recursive program over to
// the explicit search where its inlining cut calls).
func LassoTranslation(p *ir.Program, o Options, lb result.LassoBound, alone bool) Method {
	return Method{Name: "bmc+" + string(o.Solver) + ", lasso translation", Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return translationLivelock(ctx, p, o, lb, alone, progress)
	}}
}

// DirectLasso is BMC for a lasso on the interleaving product.
func DirectLasso(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: bmcName(o.Solver, SeqDirect), Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return directLivelock(ctx, p, o, lb, progress)
	}}
}

// FairCycles is the fair-cycle fixpoint on decision diagrams over every
// interleaving: none there is no livelock within any bound.
func FairCycles(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: "fair cycles+bdd, every interleaving", Cores: 1, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return cycleLivelock(ctx, p, o, lb, progress)
	}}
}

// Keyframes is the lasso translation with keyframes decided by the
// summary engine with o's solver: no livelock at every call depth.
func Keyframes(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: keyframeEngine(o.Solver), Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		res, err := keyframeLivelock(ctx, p, o, lb)
		var refused notTranslated
		if errors.As(err, &refused) {
			return nil, &result.UsageError{Msg: fmt.Sprintf("--lasso: the keyframe translation: %v", refused.error)}
		}
		return res, err
	}}
}
