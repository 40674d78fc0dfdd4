package driver

import (
	"context"
	"os"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestLivelockRecursion: on a program whose retry is a recursive call,
// the lasso translation finds the livelock with calls inlined shallower
// than the bound; where it finds none with the recursion cut at the
// bound, the explicit search decides: a search too small to decide
// leaves the question open, naming the depth bound, and a stack that
// grows every time round the loop is a keyframe lasso, a livelock.
func TestLivelockRecursion(t *testing.T) {
	src, err := os.ReadFile("../examples/lock_retry_recursive.bpl")
	if err != nil {
		t.Fatal(err)
	}
	retry, _, err := ir.Load(context.Background(), "lock_retry_recursive.bpl", src, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The spinner's retry recurses without bound while the holder keeps
	// the lock: its stack grows every time, with the same frame on top
	// (a keyframe lasso).
	grows, _, err := ir.Load(context.Background(), "grows.bpl", []byte(`lock m; decl g;
void retry() begin decl got; got := tryacquire(m); if (!got) then retry(); fi end
thread void holder() begin acquire(m); while (T) do g := !g; od end
thread void spinner() begin retry(); end`), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		p         *ir.Program
		lb        result.LassoBound
		maxStates int
		want      result.Verdict
		engine    string // a part of the engine's name
		limit     string // a part of the first limit
	}{
		{"livelock at a shallow depth", retry, result.LassoBound{Stem: 1, Loop: 1}, 0, result.Unsafe, "bmc+gini", ""},
		{"none: the explicit search decides", retry, result.LassoBound{Stem: 0, Loop: 1}, 0, result.Safe, "explicit, after bmc+gini", ""},
		{"none, but the explicit search cannot decide", retry, result.LassoBound{Stem: 0, Loop: 1}, 10, result.Unknown, "bmc+gini", "depth bound reached (call depth 16)"},
		{"the stack grows without bound", grows, result.LassoBound{Stem: 1, Loop: 1}, 0, result.Unsafe, "explicit, after bmc+gini", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := method.Options{Engine: "bmc", Solver: "gini", MaxSteps: 50, Bounds: method.DefaultBounds()}
			if c.maxStates > 0 {
				o.Bounds.MaxStates = c.maxStates
			}
			res, err := Livelock(context.Background(), c.p, o, c.lb)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want || !strings.Contains(res.Engine, c.engine) {
				t.Fatalf("%s by %s %v, want %s by %s", res.Verdict, res.Engine, res.Limits, c.want, c.engine)
			}
			if c.limit != "" && (len(res.Limits) == 0 || !strings.Contains(res.Limits[0].String(), c.limit) || !strings.Contains(res.Advice, "--depth")) {
				t.Fatalf("limits %v, advice %q: want one about %q, and advice on --depth", res.Limits, res.Advice, c.limit)
			}
		})
	}
}
