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

// TestFairCyclesDifferential is the soundness test of the fair cycles
// of the interleaving product: on random programs with locks, spin
// waits and retry loops (two or three threads, no recursion), wherever
// they say "no livelock" under a fairness, the explicit search finds
// none within any of five bounds under it; where a fair cycle exists
// the answer is left open, never a verdict.
func TestFairCyclesDifferential(t *testing.T) {
	t.Parallel()
	seeds := soak.Seeds(12, 150) // a sample; make soak runs more
	if testing.Short() {
		seeds = 10
	}
	bounds := []result.LassoBound{{Stem: 0, Loop: 1}, {Stem: 1, Loop: 1}, {Stem: 1, Loop: 2}, {Stem: 2, Loop: 1}, {Stem: 2, Loop: 2}}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		r := rand.New(rand.NewSource(seed))
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Locals, cfg.Stmts, cfg.WithHelper = 2, 1, 2+r.Intn(2), seed%3 == 0
		cfg.SpinWaits, cfg.Retries = r.Intn(3) > 0, r.Intn(3) > 0
		if r.Intn(3) == 0 {
			cfg.Threads, cfg.Stmts = 3, 2
		}
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if p.Recursive() {
			continue
		}
		for _, f := range []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness} {
			lb := result.LassoBound{Stem: 1, Loop: 1, Fairness: f}
			o := Options{Bounds: DefaultBounds()}
			o.Bounds.Depth = 3
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			res, err := cycleLivelock(ctx, p, o, lb, nil)
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, f, err, src)
			}
			switch {
			case res.Verdict == result.Unsafe:
				t.Fatalf("seed %d, %s: a livelock verdict from the fair cycles\n%s", seed, f, src)
			case res.Verdict == result.Unknown && !res.Has(result.LimitBeyondBound):
				t.Fatalf("seed %d, %s: unknown %v\n%s", seed, f, res.Limits, src)
			case res.Verdict == result.Safe:
				for _, b := range bounds {
					b.Fairness = f
					eo := explicit.DefaultOptions()
					eo.MaxStates, eo.Depth = 200_000, 3
					want := explicit.LassoSearch(context.Background(), p, b, eo)
					if want.Verdict == result.Unsafe {
						t.Fatalf("seed %d, %s: no fair cycle, but the explicit search finds a livelock within %s\n%s", seed, f, b, src)
					}
				}
			}
			counts[fmt.Sprintf("%s %s", f, res.Verdict)]++
		}
	}
	t.Logf("%v", counts)
	if counts["strong safe"] == 0 || counts["strong unknown"] == 0 {
		t.Errorf("want programs with and without a strongly fair cycle: %v", counts)
	}
}
