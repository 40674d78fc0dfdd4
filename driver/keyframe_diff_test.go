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
	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestKeyframeDifferential: on random programs that retry by recursive
// calls (progen's RecursiveRetries), whose livelocks may leave frames
// behind every period (MUTANT's keyframe lassos), no plan says "no
// livelock" where the explicit search finds one within the call depth
// (or, where the search reaches its depth, one deeper), and none finds
// one where the search says there is none: the default plan (with the
// keyframe translation decided by summaries, which answers at every
// depth), the lasso translation alone (--seq eager, which hands recursion
// it cut to the explicit search) and the lasso on the interleaving
// product (--seq direct, which compares the frames above each thread's
// keyframe itself).
func TestKeyframeDifferential(t *testing.T) {
	const directTimeout = 3 * time.Second
	// A sample with keyframe lassos that CI can afford (seed 6 alone
	// takes 25 s); make soak runs 1..42.
	first, last := soak.Range(7, 14, 42)
	if testing.Short() && !soak.On() {
		last = 12
	}
	counts := map[string]int{}
	for seed := first; seed <= last; seed++ {
		r := rand.New(rand.NewSource(seed))
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Locals, cfg.Stmts, cfg.WithHelper = 2, 1, 1+r.Intn(2), false
		cfg.RecursiveRetries, cfg.SpinWaits = true, r.Intn(2) == 0
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		lb := []result.LassoBound{{Stem: 1, Loop: 1}, {Stem: 0, Loop: 1}, {Stem: 1, Loop: 2}}[r.Intn(3)]
		lb.Fairness = []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness}[r.Intn(3)]
		eo := explicit.DefaultOptions()
		eo.MaxStates, eo.Depth = 200_000, 4
		want := explicit.LassoSearch(context.Background(), p, lb, eo)
		if want.Verdict == result.Unknown && !want.DepthHit() {
			counts["explicit unknown"]++
			continue
		}
		keyframe := want.Verdict == result.Unsafe && strings.Contains(traceEvents(want.Trace), "deeper than at the loop's start")
		if keyframe {
			counts["keyframe livelocks"]++
		}
		plans := []struct {
			name string
			o    method.Options
		}{
			{"default", method.Options{Solver: "gini", MaxSteps: 50}},
			{"translation", method.Options{Engine: "bmc", Seq: "eager", Solver: "gini", MaxSteps: 50}},
		}
		if seed%3 == 0 {
			plans = append(plans, struct {
				name string
				o    method.Options
			}{"direct", method.Options{Seq: "direct", Solver: "gini", MaxSteps: 50, Timeout: directTimeout}})
		}
		for _, pl := range plans {
			o := pl.o
			o.Bounds = method.DefaultBounds()
			o.Bounds.Depth, o.Bounds.MaxStates = eo.Depth, eo.MaxStates
			got, err := Livelock(context.Background(), p, o, lb)
			if err != nil {
				t.Fatalf("seed %d, %s, %s: %v\n%s", seed, lb, pl.name, err, src)
			}
			bad := false
			switch want.Verdict {
			case result.Unsafe:
				// No "no livelock"; unknown only where the direct
				// product ran out of time.
				bad = got.Verdict == result.Safe || got.Verdict == result.Unknown && !(pl.name == "direct" && got.Incomplete())
			case result.Safe:
				bad = got.Verdict == result.Unsafe
			default:
				// The depth bound reached: "none" only at every call
				// depth (the keyframe translation's summaries), which a
				// deeper search must not contradict.
				bad = got.Verdict == result.Safe && !got.AnyDepth
				if got.Verdict == result.Safe && !bad {
					deeper := eo
					deeper.Depth = 12
					bad = explicit.LassoSearch(context.Background(), p, lb, deeper).Verdict == result.Unsafe
				}
			}
			if bad {
				t.Fatalf("seed %d, %s, %s: %s (%s, %v), the explicit search says %s %v\n%s",
					seed, lb, pl.name, got.Verdict, got.Engine, got.Limits, want.Verdict, want.Limits, src)
			}
			counts[fmt.Sprintf("%s %s, explicit %s", pl.name, got.Verdict, want.Verdict)]++
		}
	}
	t.Logf("%v", counts)
	if counts["keyframe livelocks"] == 0 {
		t.Errorf("no keyframe lasso among the programs: the test does not exercise them (%v)", counts)
	}
}

// traceEvents joins the events of a trace.
func traceEvents(tr *result.Trace) string {
	var b strings.Builder
	for _, s := range tr.Steps {
		b.WriteString(s.Event + "\n")
	}
	return b.String()
}
