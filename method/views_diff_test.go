package method

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// TestViewsDifferential is the soundness test of the pairwise views:
// on random programs of three or four threads that write globals of
// their own (and read every one; wait loops, locks, assertions, error
// labels), bmc prove --method views says safe only where the explicit
// engine's exhaustive search of every interleaving finds no violation,
// never says unsafe, and leaves open only what its abstraction does
// not decide; the bounded question's candidate says safe only where the
// explicit search within 2 rounds does. Both answers occur.
func TestViewsDifferential(t *testing.T) {
	t.Parallel()
	programs := soak.Seeds(40, 400)
	if testing.Short() && !soak.On() {
		programs = 24
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		p, src := ownedProgram(t, seed)
		o := Options{Solver: "gini", Bounds: DefaultBounds(), Proof: ProofOptions{Method: ProofViews}}
		o.Bounds.Switches = -1
		truth, err := exhaustive(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		if truth.Verdict == result.Unknown {
			counts["the exhaustive search undecided"]++
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		got, err := ProveProduct(p, o).Run(ctx, nil)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: prove: %v\n%s", seed, err, src)
		}
		switch {
		case got.Verdict == result.Unsafe:
			t.Fatalf("seed %d: the views found a violation; they only prove\n%s", seed, src)
		case got.Verdict == result.Safe && truth.Verdict != result.Safe:
			t.Fatalf("seed %d: the views prove the program, the exhaustive search says %s\n%s", seed, truth.Verdict, src)
		case got.Verdict == result.Unknown && !got.Has(result.LimitAbstraction):
			t.Fatalf("seed %d: unknown for another reason than the abstraction: %v\n%s", seed, got.Limits, src)
		}
		counts[fmt.Sprintf("%s, the views %s", truth.Verdict, got.Verdict)]++

		ob := o
		ob.Bounds.Rounds = 2
		eo := ob.Bounds.ExplicitOptions()
		ch, err := explicit.New(p, eo)
		if err != nil {
			t.Fatal(err)
		}
		want := ch.Run(context.Background())
		res, err := checkEveryInterleaving(context.Background(), p, ob, ProofViews, nil)
		if err != nil {
			t.Fatalf("seed %d, %s: %v\n%s", seed, ob.Bounds.Words(), err, src)
		}
		if res.Verdict != result.Unknown && want.Verdict != result.Unknown && res.Verdict != want.Verdict {
			t.Fatalf("seed %d, %s: the views say %s, the explicit search %s\n%s", seed, ob.Bounds.Words(), res.Verdict, want.Verdict, src)
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"safe, the views safe", "unsafe, the views unknown"} {
		if counts[k] == 0 {
			t.Errorf("no program with %q: the programs do not exercise the views (%v)", k, counts)
		}
	}
}

// ownedProgram is a random program whose threads write globals of their
// own (progen's Owned).
func ownedProgram(t *testing.T, seed int64) (*ir.Program, string) {
	t.Helper()
	cfg := progen.DefaultConfig()
	cfg.Owned, cfg.Threads, cfg.Stmts = true, 3+int(seed%3/2), 3
	cfg.Globals = 2 * cfg.Threads
	cfg.SpinWaits, cfg.Locks = seed%2 == 0, int(seed%3%2)
	src := progen.Generate(seed, cfg)
	p, _, err := ir.Load(context.Background(), fmt.Sprintf("owned%d.bpl", seed), []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, src
}
