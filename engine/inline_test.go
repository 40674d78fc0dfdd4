package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"bmc/chc"
	"bmc/smt"
	"bmc/solver"
)

// Inlining keeps the least model's answer: on random systems the
// inlined clauses are unsafe exactly when the brute-force fixpoint of
// the original is, a derivation of them expands to one of the original
// that CheckDerivation accepts, and their interpretation re-checks on
// them. Both Spacers run on them, as the driver runs them.
func TestInlineRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 80
	}
	ctx := context.Background()
	removed, shrunk := 0, 0
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 0x1111))
		sys := randomHorn(r)
		unsafe, _ := hornLFP(t, sys)
		want := solver.Unsat
		if unsafe {
			want = solver.Sat
		}
		il := chc.Inline(sys)
		removed += il.Removed()
		if il.Removed() > 0 {
			shrunk++
		}
		if len(il.System.Preds) != len(sys.Preds)-il.Removed() {
			t.Fatalf("seed %d: %d predicates after removing %d of %d", seed, len(il.System.Preds), il.Removed(), len(sys.Preds))
		}
		if got, _ := hornLFP(t, il.System); got != unsafe {
			t.Errorf("seed %d: inlined: unsafe %v, original %v\n%s\ninlined:\n%s", seed, got, unsafe, hornText(sys), hornText(il.System))
			continue
		}
		check := func(name string, res *HornResult) {
			if res.Status == solver.Sat && res.Derivation != nil {
				if err := il.System.CheckDerivation(res.Derivation); err != nil {
					t.Errorf("seed %d: %s: the inlined derivation does not hold: %v", seed, name, err)
					return
				}
				res.Derivation = il.Expand(res.Derivation)
				if err := checkHorn(ctx, sys, res, want); err != nil {
					t.Errorf("seed %d: %s: expanded: %v\n%s", seed, name, err, hornText(sys))
				}
				return
			}
			if err := checkHorn(ctx, il.System, res, want); err != nil {
				t.Errorf("seed %d: %s: %v\n%s", seed, name, err, hornText(il.System))
			}
		}
		runCtx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		check("spacer", Spacer(runCtx, il.System, giniOptions()))
		cancel()
		if smt.Available && seed%4 == 0 {
			runCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
			check("z3", z3Horn(t, runCtx, il.System))
			cancel()
		}
	}
	t.Logf("%d systems, %d of them inlined, %d predicates removed", n, shrunk, removed)
	if shrunk < n/4 {
		t.Errorf("only %d of %d systems had a predicate to inline", shrunk, n)
	}
}
