package driver

import (
	"context"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestDeepViolationInThread: a thread's violation that needs 21 frames
// (examples/deep_thread.bpl) is found without --depth, its summaries'
// trace replayed with the depth it reaches (the replay once ran with 16
// frames and failed: init's return was counted on the first thread's
// stack), and within a stated depth of 16 the answer is unknown, naming
// the depth the violation needs, as soon as the searches within it end.
func TestDeepViolationInThread(t *testing.T) {
	src, err := readExample("deep_thread.bpl")
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "deep_thread.bpl", src, ir.Options{})
	for _, c := range []struct {
		name          string
		rounds, depth int
		want          result.Verdict
		limit, solver string
	}{
		{"one round", 1, 0, result.Unsafe, "", "gini"},
		{"one round, bdd", 1, 0, result.Unsafe, "", "bdd"},
		{"one round, depth 16", 1, 16, result.Unknown, "needs call depth 21", "gini"},
		{"one round, depth 21", 1, 21, result.Unsafe, "", "gini"},
	} {
		o := method.Options{Solver: method.SolverName(c.solver), SolverStated: c.solver != "gini", MaxSteps: 50, Bounds: method.DefaultBounds()}
		o.Bounds.Rounds = c.rounds
		if c.depth > 0 {
			o.Bounds.Depth, o.DepthStated = c.depth, true
		}
		res, err := Check(context.Background(), p, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Verdict != c.want || !strings.Contains(res.LimitText(), c.limit) || c.want == result.Unsafe && res.Trace == nil {
			t.Errorf("%s: %s %v (%s), want %s naming %q", c.name, res.Verdict, res.Limits, res.Engine, c.want, c.limit)
		}
	}
}
