package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"bmc/chc"
	"bmc/solver"
	"bmc/ts"
)

// The least model against the brute-force fixpoint on the random
// systems Spacer is tested on: every derivation and interpretation is
// checked as Spacer's are.
func TestLeastModelRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 80
	}
	ctx := context.Background()
	var outcomes [3]int
	corrupted := 0
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		sys := randomHorn(r)
		unsafe, _ := hornLFP(t, sys)
		want := solver.Unsat
		if unsafe {
			want = solver.Sat
		}
		outcomes[want]++
		runCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		res := LeastModel(runCtx, sys, HornOptions{})
		cancel()
		if err := checkHorn(ctx, sys, res, want); err != nil {
			t.Errorf("seed %d: %v (%d growths)\n%s", seed, err, res.Levels, hornText(sys))
		}
		if err := recheckDiagrams(ctx, sys, res); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, hornText(sys))
		}
		// The least model less any of its atoms is no model: emptying a
		// predicate that holds somewhere must fail the re-check (one a
		// query depends on: the others are true, not their least model).
		if res.Status == solver.Unsat {
			relevant := sys.Relevant()
			for p, of := range res.Interpretation.Of {
				if of == ts.False || !relevant[p] {
					continue
				}
				res.Interpretation.Of[p] = ts.False
				if recheckDiagrams(ctx, sys, res) == nil {
					t.Errorf("seed %d: %s emptied, and the re-check on diagrams passes\n%s", seed, sys.Preds[p].Name, hornText(sys))
				}
				res.Interpretation.Of[p] = of
				corrupted++
				break
			}
		}
	}
	t.Logf("%d systems: %d unsafe, %d safe (%d re-checked emptied)", n, outcomes[solver.Sat], outcomes[solver.Unsat], corrupted)
	if corrupted == 0 {
		t.Error("no safe system had a predicate to empty: the corrupted re-check ran on nothing")
	}
}

// Derivations are read back through recursion (the doubling function's
// call tree) and along a chain (the counter), as deep as the relations'
// growths need.
func TestLeastModelDerivations(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		sys    *chc.System
		want   solver.Status
		height int // of the derivation, 0: not checked
	}{
		{"doubling f(4) to 16", doubling(4, 5, 16), solver.Sat, 6},
		{"doubling f(4) to 15", doubling(4, 5, 15), solver.Unsat, 0},
		{"doubling f(7) to 128", doubling(7, 8, 128), solver.Sat, 9},
		{"counter to 11", counterHorn(4, 11), solver.Sat, 13},
		{"counter to 15", counterHorn(4, 15), solver.Sat, 17},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := LeastModel(ctx, tc.sys, HornOptions{})
			if err := checkHorn(ctx, tc.sys, res, tc.want); err != nil {
				t.Fatal(err)
			}
			if tc.height > 0 && res.Derivation.Height() != tc.height {
				t.Errorf("height %d, want %d", res.Derivation.Height(), tc.height)
			}
		})
	}
}

// A name that repeats within a predicate (a local shadowing a global)
// is two arguments, not one.
func TestLeastModelRepeatedNames(t *testing.T) {
	s := chc.New()
	g := s.AIG
	p := s.NewPred("P", []string{"x", "x"})
	s.Add(&chc.Atom{Pred: p, Args: []ts.Lit{ts.False, ts.True}}, nil, ts.True, "fact")
	x, y := g.NewInput("x"), g.NewInput("y")
	s.Add(&chc.Atom{Pred: p, Args: []ts.Lit{y, x}}, []chc.Atom{{Pred: p, Args: []ts.Lit{x, y}}}, ts.True, "swap")
	s.Add(nil, []chc.Atom{{Pred: p, Args: []ts.Lit{x, x}}}, ts.True, "query")
	ctx := context.Background()
	res := LeastModel(ctx, s, HornOptions{})
	if err := checkHorn(ctx, s, res, solver.Unsat); err != nil {
		t.Fatal(err)
	}
	if err := recheckDiagrams(ctx, s, res); err != nil {
		t.Fatal(err)
	}
}

// recheckDiagrams re-checks a least model's interpretation on diagrams
// in its own order, as the driver does.
func recheckDiagrams(ctx context.Context, sys *chc.System, res *HornResult) error {
	if res.Status != solver.Unsat {
		return nil
	}
	order, ok := res.DiagramOrder()
	if !ok {
		return fmt.Errorf("a least model without its order")
	}
	if err := sys.CheckInterpretationDiagrams(ctx, res.Interpretation, order, 0); err != nil {
		return fmt.Errorf("on diagrams: %v", err)
	}
	return nil
}

func TestLeastModelLimits(t *testing.T) {
	sys := counterHorn(12, 4000)
	res := LeastModel(context.Background(), sys, HornOptions{MaxNodes: 50})
	if res.Status != solver.Unknown || !strings.Contains(res.Reason, "50 nodes") {
		t.Errorf("with 50 nodes: %v (%s)", res.Status, res.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = LeastModel(ctx, sys, HornOptions{})
	if res.Status != solver.Unknown || !strings.Contains(res.Reason, "canceled") {
		t.Errorf("cancelled: %v (%s)", res.Status, res.Reason)
	}
}

func ExampleLeastModel() {
	sys := counterHorn(3, 5)
	res := LeastModel(context.Background(), sys, HornOptions{})
	fmt.Println(res.Status, res.Derivation.Height())
	// Output: sat 7
}
