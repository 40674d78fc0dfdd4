package driver

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/internal/testsolvers"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestLivelockDifferential: on random programs with locks, spin waits,
// retry loops and some recursion, the lasso translation decided by BMC (with its proof
// engines behind it), the lasso on the direct product (on every other
// seed) and the explicit fair-cycle search agree on livelock
// or none, under each fairness; every livelock they report
// has replayed on the explicit interpreter (Livelock replays before it
// returns one).
func TestLivelockDifferential(t *testing.T) {
	// BMC and the proof engines take far longer on the direct product
	// than on the translation (its steps interleave, and the copy of the
	// configuration doubles the state): a question the product cannot
	// decide in this time is left out.
	const directTimeout = 3 * time.Second
	seeds := soak.Seeds(10, 54) // a sample; make soak runs more
	if testing.Short() {
		seeds = 6
	}
	solvers := []string{"gini"}
	if _, ok := testsolvers.All(t)["z3"]; ok {
		solvers = append(solvers, "z3")
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		r := rand.New(rand.NewSource(seed))
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Locals, cfg.Stmts, cfg.WithHelper = 2, 1, 2+r.Intn(2), false
		cfg.SpinWaits, cfg.Retries, cfg.Recursive = true, true, r.Intn(4) == 0
		if r.Intn(4) == 0 {
			cfg.Threads, cfg.Stmts = 3, 2
		}
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		lb := []result.LassoBound{{Stem: 1, Loop: 1}, {Stem: 0, Loop: 1}, {Stem: 1, Loop: 2}, {Stem: 2, Loop: 1}}[r.Intn(4)]
		solver := solvers[int(seed)%len(solvers)]
		for _, f := range []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness} {
			lb.Fairness = f
			eo := explicit.DefaultOptions()
			eo.MaxStates, eo.Depth = 200_000, 3
			want := explicit.LassoSearch(context.Background(), p, lb, eo)
			if want.Verdict == result.Unknown {
				counts["explicit unknown"]++
				continue
			}
			// The direct product on every other seed: its BMC and
			// proofs are far slower than the translation's.
			// "default" is the default plan, which races the translation
			// and the explicit search.
			seqs := []string{"auto", "default"}
			if seed%2 == 1 {
				seqs = append(seqs, "direct")
			}
			for _, sq := range seqs {
				o := method.Options{Engine: "bmc", Solver: method.SolverName(solver), Seq: method.Seq(sq), MaxSteps: 50, Bounds: method.DefaultBounds()}
				if sq == "default" {
					o.Engine, o.Seq = "auto", "auto"
				}
				o.Bounds.Depth = eo.Depth
				if sq == "direct" {
					// gini: Z3's PDR on the product takes several times longer.
					o.Solver, o.Timeout = "gini", directTimeout
				}
				got, err := Livelock(context.Background(), p, o, lb)
				if err != nil {
					t.Fatalf("seed %d, %s, %s, --seq %s: %v\n%s", seed, lb, o.Solver, sq, err, src)
				}
				switch {
				case got.Verdict == want.Verdict && strings.HasPrefix(got.Engine, "explicit"):
					// The translation cut recursion at the depth and the
					// explicit search decided: not the translation's verdict.
					counts[sq+" explicit (recursion)"]++
					continue
				case got.Verdict == want.Verdict:
				case got.Verdict == result.Unknown && sq == "direct" && got.Incomplete():
					counts["direct timeout"]++
					continue
				case got.Verdict == result.Unknown && want.Verdict == result.Safe && (got.DepthHit() || got.Has(result.LimitRecursion)):
					// The direct product's stacks end at the depth, the
					// explicit search's only where an execution reaches it.
					counts[sq+" unknown (recursion)"]++
					continue
				default:
					t.Fatalf("seed %d, %s, %s, --seq %s: bmc says %s %v, explicit %s\n%s", seed, lb, o.Solver, sq, got.Verdict, got.Limits, want.Verdict, src)
				}
				counts[fmt.Sprintf("%s %s %s", sq, f, got.Verdict)]++
			}
		}
	}
	t.Logf("verdicts %v", counts)
	seqs := []string{"auto", "direct"}
	if testing.Short() {
		seqs = seqs[:1] // too few seeds for the direct product to decide both
	}
	for _, sq := range seqs {
		if counts[sq+" strong unsafe"]+counts[sq+" weak unsafe"]+counts[sq+" none unsafe"] == 0 || counts[sq+" strong safe"]+counts[sq+" weak safe"] == 0 {
			t.Fatalf("verdicts %v: want livelocks and their absence with --seq %s", counts, sq)
		}
	}
}
