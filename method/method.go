package method

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"bmc/cover"
	"bmc/encode"
	"bmc/fairness"
	"bmc/ir"
	"bmc/result"
)

// Question is what a run asks.
type Question int

// The questions.
const (
	Safety   Question = iota // bmc check: a violation within the bounds?
	Proof                    // bmc prove: a violation on executions of any length?
	Livelock                 // bmc check --lasso: a fair lasso within its bound?
)

// Method is one way to answer a question on its own: an engine on an
// encoding of the program, with how its witness is read back and
// replayed. The plan races methods; each runs its pipeline (encode,
// run, read back, replay, word the answer) in Run.
type Method struct {
	Name string // as results name their engine: "explicit", "bmc+gini, lazy sequentialization"
	// Questions are the questions it answers.
	Questions []Question
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
	// fits refuses, with the reason, a program or options the method
	// does not take (nil: it takes every one it is made for).
	fits func(ctx context.Context) error
}

// Fits says why the method does not take its program and options, or
// nil when it does. The context carries the run's memory limit, within
// which a sequentialization must fit.
func (m Method) Fits(ctx context.Context) error {
	if m.fits == nil {
		return nil
	}
	return m.fits(ctx)
}

// Answers says whether m answers q.
func (m Method) Answers(q Question) bool { return slices.Contains(m.Questions, q) }

var (
	safety   = []Question{Safety}
	proof    = []Question{Proof}
	both     = []Question{Safety, Proof} // a proof answers bmc check too
	livelock = []Question{Livelock}
)

// Explicit is the explicit-state search within o's bounds.
func Explicit(p *ir.Program, o Options) Method {
	return Method{Name: "explicit", Questions: safety, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return checkExplicit(ctx, p, o)
	}}
}

// ExplicitSomeThreads is the explicit search within --max-threads
// beside a question about every number of threads: a violation it finds
// is one for the number of threads its trace has.
func ExplicitSomeThreads(p *ir.Program, o Options) Method {
	o.Bounds.AnyThreads = false
	return Method{Name: "explicit", Questions: both, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
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
	return Method{Name: "explicit (exhaustive search)", Questions: both, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return exhaustive(ctx, p, o)
	}}
}

// SequentialBMC is BMC on a one-thread program: its loops unwound,
// raced with a proof engine unless the user stated the step bound.
func SequentialBMC(p *ir.Program, o Options) Method {
	return Method{Name: "bmc+" + string(o.Solver), Questions: safety, Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return checkSequential(ctx, p, o, progress)
	}}
}

// ConcurrentBMC is BMC on the sequentialization s (eager, lazy) or the
// interleaving product (direct), within the context bound.
func ConcurrentBMC(p *ir.Program, o Options, s Seq) Method {
	return Method{Name: bmcName(o.Solver, s), Questions: safety, Cores: 2,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return checkConcurrent(ctx, p, o, s, progress)
		},
		fits: func(ctx context.Context) error {
			bd, ok := o.Bounds.Context()
			if !ok {
				return errors.New("the bmc engine needs a bound for a concurrent program: -k K or --switches N")
			}
			return ConcurrentFits(ctx, p, s, bd, o.Bounds.Depth)
		}}
}

// Summaries is the summary engine with o's solver: a one-thread program
// (s "") at every call depth, a concurrent one through s within the
// context bound.
func Summaries(p *ir.Program, o Options, s Seq) Method {
	return Method{Name: summaryName(o.Solver, s), Questions: both, Cores: 1,
		Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkSummaries(ctx, p, o, s)
		},
		fits: func(ctx context.Context) error {
			bd, ok := o.Bounds.Context()
			switch {
			case s == "":
				return nil
			case !ok:
				return errors.New("the summary engine needs a bound for a concurrent program: -k K or --switches N")
			case s == SeqDirect:
				return errors.New("the summary engine takes the eager or lazy sequentialization or the context encoding, not --seq direct")
			case s == SeqProduct:
				return encode.ProductTakes(p)
			case s == SeqContexts:
				return encode.ContextsTakes(p)
			}
			return ConcurrentFits(ctx, p, s, bd, o.Bounds.Depth)
		}}
}

// EveryInterleaving is a proof on the interleaving product without a
// bound, with pm: reachability on decision diagrams (ProofReach), or
// the views of each pair of threads (ProofViews), which never find a
// violation. Safe on every interleaving is safe within any bound.
func EveryInterleaving(p *ir.Program, o Options, pm ProofMethod) Method {
	return Method{Name: proofName(pm, "") + ", every interleaving", Questions: safety, Cores: 1,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return checkEveryInterleaving(ctx, p, o, pm, progress)
		},
		fits: func(context.Context) error { return encode.BaseSupported(p) }}
}

// Coverability decides every number of threads, every interleaving.
func Coverability(p *ir.Program, o Options) Method {
	return Method{Name: "coverability", Questions: both, Cores: 1,
		Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkCoverability(ctx, p, o)
		},
		fits: func(context.Context) error { return placedErr(p, cover.Supported(p)) }}
}

// Interfaces are the linear interfaces: every number of threads within
// -k rounds, or without a bound k = 1, 2, ... with the adequacy check
// where the program takes it.
func Interfaces(p *ir.Program, o Options) Method {
	fits := func(context.Context) error {
		if err := cover.Supported(p); err != nil {
			return placedErr(p, err)
		}
		if o.Bounds.Switches >= 0 {
			return errors.New("--engine interfaces counts rounds (-k K), not context switches")
		}
		return nil
	}
	if o.Bounds.Rounds > 0 {
		return Method{Name: "linear interfaces", Questions: both, Cores: 1, fits: fits,
			Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
				return checkRounds(ctx, p, o, o.Bounds.Rounds)
			}}
	}
	name := "linear interfaces with adequacy"
	if cover.AdequacySupported(p) != nil {
		name = "linear interfaces" // k = 1, 2, ... without the game
	}
	return Method{Name: name, Questions: both, Cores: 1, fits: fits,
		Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return proveByRounds(ctx, p, o)
		}}
}

// placedErr is err, placed in p where a parameterized engine refuses a
// construct.
func placedErr(p *ir.Program, err error) error {
	if err == nil {
		return nil
	}
	return errors.New(Placed(p, err))
}

// ProveSequential proves a one-thread program with o's proof method.
func ProveSequential(p *ir.Program, o Options) Method {
	return Method{Name: proofName(o.Proof.Method, o.Solver), Questions: proof, Cores: 1,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveSequential(ctx, p, o, progress)
		}}
}

// ProveBounded proves a concurrent program within the context bound
// through the sequentialization s (or the interleaving product).
func ProveBounded(p *ir.Program, o Options, s Seq) Method {
	bd, _ := o.Bounds.Context()
	return Method{Name: proofName(o.Proof.Method, o.Solver) + ", " + seqWords(s), Questions: proof, Cores: 1,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveBounded(ctx, p, o, s, bd, progress)
		},
		fits: func(ctx context.Context) error {
			if err := ConcurrentFits(ctx, p, s, bd, o.Bounds.Depth); err != nil {
				return errors.New(strings.Replace(err.Error(), "use --engine explicit", "use --seq direct", 1))
			}
			return nil
		}}
}

// ProveProduct proves a concurrent program for every interleaving on
// the interleaving product.
func ProveProduct(p *ir.Program, o Options) Method {
	return Method{Name: proofName(o.Proof.Method, o.Solver) + ", direct interleaving product", Questions: both, Cores: 1,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveProduct(ctx, p, o, progress, nil)
		},
		fits: func(context.Context) error { return encode.Supported(p, encode.KindDirect, o.Bounds.Depth) }}
}

// Amplify is K-induction with amplification: every number of rounds.
// On decision diagrams it re-checks beside its base case on a second
// core.
func Amplify(p *ir.Program, o Options) Method {
	cores := 1
	if o.Solver == SolverBDD {
		cores = 2
	}
	return Method{Name: "k-induction with amplification+" + string(o.Solver), Questions: both, Cores: cores,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveAmplify(ctx, p, o, progress)
		}}
}

// LassoExplicit is the explicit search for a livelock within lb.
func LassoExplicit(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: "explicit", Questions: livelock, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		return lassoExplicit(ctx, p, o, lb), nil
	}}
}

// LassoTranslation is BMC on the MUTANT lasso translation; alone says
// no other method races it (it then hands a recursive program over to
// the explicit search where its inlining cut calls).
func LassoTranslation(p *ir.Program, o Options, lb result.LassoBound, alone bool) Method {
	return Method{Name: "bmc+" + string(o.Solver) + ", lasso translation", Questions: livelock, Cores: 2,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return translationLivelock(ctx, p, o, lb, alone, progress)
		},
		fits: func(context.Context) error { return fairness.Supported(p) }}
}

// DirectLasso is BMC for a lasso on the interleaving product.
func DirectLasso(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: bmcName(o.Solver, SeqDirect), Questions: livelock, Cores: 2, Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return directLivelock(ctx, p, o, lb, progress)
	}}
}

// FairCycles is the fair-cycle fixpoint on decision diagrams over every
// interleaving: none there is no livelock within any bound.
func FairCycles(p *ir.Program, o Options, lb result.LassoBound) Method {
	return Method{Name: "fair cycles+bdd, every interleaving", Questions: livelock, Cores: 1,
		Run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return cycleLivelock(ctx, p, o, lb, progress)
		},
		fits: func(context.Context) error { return encode.BaseSupported(p) }}
}

// Keyframes is the lasso translation with keyframes decided by the
// summary engine with o's solver: no livelock at every call depth.
func Keyframes(p *ir.Program, o Options, lb result.LassoBound) Method {
	// The depth bound is ours unless the user stated it: an answer cut
	// by it waits for the summaries'. A stated one is the user's, and the
	// search's "depth bound reached" answers it.
	return Method{Name: keyframeEngine(o.Solver), Questions: livelock, Cores: 1, AnyDepth: !o.DepthStated, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		res, err := keyframeLivelock(ctx, p, o, lb)
		var refused notTranslated
		if errors.As(err, &refused) {
			return nil, &result.UsageError{Msg: fmt.Sprintf("--lasso: the keyframe translation: %v", refused.error)}
		}
		return res, err
	}}
}
