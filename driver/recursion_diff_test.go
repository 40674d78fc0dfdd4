package driver

import (
	"context"
	"testing"

	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestRecursionFamilyDifferential runs the recursive programs of
// progen.Recursion (a helper called inside the recursion, parameters and
// several return values, mutual recursion; sequential and inside one of
// two threads; with a violation that needs a deep stack, and safe)
// through both summary engines and the default plan, against the
// explicit engine with the depth the generator knows the violation
// needs: found there, the depth bound one frame short of it. Every trace
// is replayed and every interpretation re-checked by the driver.
func TestRecursionFamilyDifferential(t *testing.T) {
	bitsList := []int{3}
	if soak.On() {
		bitsList = []int{3, 4, 5}
	}
	for _, shape := range []progen.RecursionShape{progen.SelfCount, progen.HelperCount, progen.ParamCount, progen.MutualCount} {
		for _, bits := range bitsList {
			for _, threads := range []bool{false, true} {
				for _, safe := range []bool{false, true} {
					r := progen.Recursion{Shape: shape, Bits: bits, Target: 1<<bits - 2, Threads: threads, Safe: safe}
					t.Run(r.Name(), func(t *testing.T) {
						checkRecursion(t, r)
					})
				}
			}
		}
	}
}

// checkRecursion checks one program of the family (see above).
func checkRecursion(t *testing.T, r progen.Recursion) {
	p := load(t, r.Name(), r.Program(), ir.Options{})
	want := result.Unsafe
	if r.Safe {
		want = result.Safe
	}
	bounds := func(depth int) method.Bounds {
		b := method.DefaultBounds()
		if r.Threads {
			b.Rounds = 1
		}
		if depth > 0 {
			b.Depth = depth
		}
		return b
	}
	// The explicit engine with the depth the generator knows.
	ex, err := Check(context.Background(), p, method.Options{Engine: "explicit", Solver: "gini", Bounds: bounds(r.Depth()), DepthStated: true})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Verdict != want {
		t.Fatalf("explicit within %d frames: %s %v, want %s\n%s", r.Depth(), ex.Verdict, ex.Limits, want, r.Program())
	}
	if !r.Safe {
		short, err := Check(context.Background(), p, method.Options{Engine: "explicit", Solver: "gini", Bounds: bounds(r.Depth() - 1), DepthStated: true})
		if err != nil {
			t.Fatal(err)
		}
		if short.Verdict != result.Unknown || !short.DepthHit() {
			t.Errorf("explicit within %d frames: %s %v, want the depth bound", r.Depth()-1, short.Verdict, short.Limits)
		}
	}
	// Each summary engine alone, and the default plan, at every depth.
	for _, c := range []struct {
		name string
		o    method.Options
	}{
		{"summaries+gini", method.Options{Engine: "summaries", Solver: "gini", SolverStated: true}},
		{"summaries+bdd", method.Options{Engine: "summaries", Solver: "bdd", SolverStated: true}},
		{"default", method.Options{Solver: "gini", MaxSteps: 50}},
	} {
		o := c.o
		o.Bounds = bounds(0)
		res, err := Check(context.Background(), p, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Verdict != want || want == result.Safe && !res.AnyDepth {
			t.Errorf("%s: %s %v (%s, any depth %v), want %s at every depth", c.name, res.Verdict, res.Limits, res.Engine, res.AnyDepth, want)
		}
		if want == result.Unsafe && res.Trace == nil {
			t.Errorf("%s: a violation without a trace", c.name)
		}
		// No execution within one frame less reaches the violation.
		if res.Trace != nil && res.Trace.Depth < r.Depth() {
			t.Errorf("%s: the trace needs call depth %d, but the violation needs %d", c.name, res.Trace.Depth, r.Depth())
		}
	}
}
