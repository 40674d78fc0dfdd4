package method

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// TestKeyframeSummaries: on random recursive programs (recursion while
// shared globals allow, retries by recursive calls that leave frames
// behind), the lasso translation with keyframes decided by the summary
// engine (Spacer on two programs in three, decision diagrams on the
// third) agrees with the explicit search: no "no livelock" where the
// search finds a livelock within the bound, and no livelock (replayed
// within the bound, or with the longer stem it names) where the search,
// with every execution within its depth, finds none. Each run has a
// time limit; a program the search leaves open at its depth is
// checked again at a larger one when the engine says "no livelock".
func TestKeyframeSummaries(t *testing.T) {
	const limit = 3 * time.Second
	seeds := soak.Seeds(8, 42) // a sample; make soak runs more
	if testing.Short() {
		seeds = 6
	}
	counts := map[string]int{}
	// Seed 0 is a dive that only fairness stops (examples/dive_stopped.bpl):
	// the search reaches every depth, the summaries answer.
	for seed := int64(0); seed <= int64(seeds); seed++ {
		r := rand.New(rand.NewSource(seed))
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Locals, cfg.Stmts, cfg.WithHelper = 2, 1, 1+r.Intn(3), false
		cfg.RecursiveRetries = seed%2 == 0
		cfg.Recursive = !cfg.RecursiveRetries || r.Intn(2) == 0
		cfg.SpinWaits = r.Intn(3) == 0
		src := progen.Generate(seed, cfg)
		lb := []result.LassoBound{{Stem: 1, Loop: 1}, {Stem: 0, Loop: 1}, {Stem: 1, Loop: 2}, {Stem: 2, Loop: 1}}[r.Intn(4)]
		lb.Fairness = []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness}[r.Intn(3)]
		if seed == 0 {
			src = `decl stop;
				void init() begin stop := F; end
				void dive() begin if (!stop) then if (*) then dive(); fi fi end
				thread void w() begin dive(); end
				thread void s() begin stop := T; end`
			lb = result.LassoBound{Stem: 1, Loop: 1, Fairness: result.StrongFairness}
		}
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		eo := explicit.DefaultOptions()
		eo.MaxStates, eo.Depth = 300_000, 6
		want := explicit.LassoSearch(context.Background(), p, lb, eo)
		if want.Verdict == result.Unknown && !want.DepthHit() {
			counts["explicit unknown"]++
			continue
		}
		for _, solver := range []SolverName{[]SolverName{SolverGini, SolverBDD}[seed%3/2]} {
			o := Options{Solver: solver, Bounds: DefaultBounds()}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			got, err := keyframeLivelock(ctx, p, o, lb)
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s, %s: %v\n%s", seed, lb, solver, err, src)
			}
			fail := func(why string) {
				t.Fatalf("seed %d, %s, %s: %s (%v), %s; the explicit search says %s %v\n%s",
					seed, lb, solver, got.Verdict, got.Limits, why, want.Verdict, want.Limits, src)
			}
			longer := len(got.Limits) > 0 && got.Limits[0].Kind == result.LimitLongerStem
			switch {
			case got.Verdict == result.Safe && want.Verdict == result.Unsafe:
				fail("no livelock where there is one")
			case got.Verdict == result.Safe && want.Verdict == result.Unknown:
				// The search reached its depth: look deeper.
				deeper := eo
				deeper.Depth = 14
				if again := explicit.LassoSearch(context.Background(), p, lb, deeper); again.Verdict == result.Unsafe {
					fail("no livelock where the search finds one at depth 14")
				}
			case got.Verdict == result.Unsafe && want.Verdict == result.Safe:
				fail("a livelock where the search covered every execution")
			case longer && want.Verdict == result.Safe:
				// Real, with the longer stem it names: the search agrees.
				longer := lb
				longer.Stem += lb.Loop
				if again := explicit.LassoSearch(context.Background(), p, longer, eo); again.Verdict == result.Safe {
					fail(fmt.Sprintf("the search finds none within %s either", longer))
				}
			}
			what := got.Verdict.String()
			if longer {
				what = "longer stem"
			}
			counts[fmt.Sprintf("%s %s, explicit %s", solver, what, want.Verdict)]++
			counts[fmt.Sprintf("%s, explicit %s", what, want.Verdict)]++
		}
	}
	t.Logf("%v", counts)
	for _, need := range []string{"safe, explicit unknown", "unsafe, explicit unsafe", "safe, explicit safe"} {
		if counts[need] == 0 {
			t.Errorf("no case %q: the programs do not exercise it (%v)", need, counts)
		}
	}
}
