package method

import (
	"context"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// TestReachDifferential is the soundness test of reachability on
// decision diagrams: on the random programs of the amplification tests
// (two or three threads, wait loops, short loops, calls, a lock, late
// bugs), bmc prove --method reach agrees with the explicit engine's
// exhaustive search of every interleaving, and the bounded question's
// candidate (every interleaving, a violation reported only if it replays
// within the bound) agrees with the explicit search within 2 rounds and
// within 2 context switches, or leaves the question open for a violation
// beyond the bound.
func TestReachDifferential(t *testing.T) {
	t.Parallel()
	programs := 16
	if testing.Short() {
		programs = 10
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		p, src := amplifyProgram(t, seed)
		o := Options{Solver: "gini", Bounds: DefaultBounds(), Proof: ProofOptions{Method: "reach"}}
		o.Bounds.Switches = -1
		truth, err := exhaustive(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		got, err := ProveProduct(p, o).Run(ctx, nil)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: prove: %v\n%s", seed, err, src)
		}
		if got.Verdict != truth.Verdict {
			t.Fatalf("seed %d: prove --method reach says %s %v, the exhaustive search %s\n%s", seed, got.Verdict, got.Limits, truth.Verdict, src)
		}
		counts["every interleaving "+got.Verdict.String()]++
		for _, bd := range []struct{ rounds, switches int }{{2, -1}, {0, 2}} {
			ob := o
			ob.Bounds.Rounds, ob.Bounds.Switches = bd.rounds, bd.switches
			eo := ob.Bounds.ExplicitOptions()
			eo.Timeout = 20 * time.Second
			ch, err := explicit.New(p, eo)
			if err != nil {
				t.Fatal(err)
			}
			want := ch.Run(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			res, err := checkEveryInterleaving(ctx, p, ob, ProofReach, nil)
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, ob.Bounds.Words(), err, src)
			}
			switch {
			case res.Verdict == result.Unknown && !res.Has(result.LimitBeyondBound):
				t.Fatalf("seed %d, %s: unknown %v\n%s", seed, ob.Bounds.Words(), res.Limits, src)
			case res.Verdict != result.Unknown && res.Verdict != want.Verdict:
				t.Fatalf("seed %d, %s: reachability says %s, the explicit search %s\n%s", seed, ob.Bounds.Words(), res.Verdict, want.Verdict, src)
			case res.Verdict == result.Unsafe && res.Trace == nil:
				t.Fatalf("seed %d, %s: a violation without a trace", seed, ob.Bounds.Words())
			}
			counts["bounded "+res.Verdict.String()]++
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"every interleaving safe", "every interleaving unsafe", "bounded unsafe"} {
		if counts[k] == 0 {
			t.Errorf("no program with %q: the programs do not exercise the engine (%v)", k, counts)
		}
	}
}

// TestReachBeyondBound asks within 3 rounds about the pump whose
// violation needs 5: reachability over every interleaving finds the
// violation, which does not replay within 3 rounds, and leaves the
// question open (the engines within the bound answer it).
func TestReachBeyondBound(t *testing.T) {
	t.Parallel()
	p, _, err := ir.Load(context.Background(), "pump5.bpl", []byte(progen.Pump(5, false)), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Solver: "gini", Bounds: DefaultBounds()}
	o.Bounds.Rounds, o.Bounds.Switches = 3, -1
	res, err := checkEveryInterleaving(context.Background(), p, o, ProofReach, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unknown || !res.Has(result.LimitBeyondBound) {
		t.Fatalf("%s %v, want unknown: a violation beyond the bound", res.Verdict, res.Limits)
	}
	o.Bounds.Rounds = 5
	if res, err = checkEveryInterleaving(context.Background(), p, o, ProofReach, nil); err != nil || res.Verdict != result.Unsafe {
		t.Fatalf("within 5 rounds: %v %v %v, want unsafe", res.Verdict, res.Limits, err)
	}
}
