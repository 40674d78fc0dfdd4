package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/smt"
)

// TestConcurrentDifferential runs random concurrent programs (2 or 3
// threads, shared and local variables, a lock (with 2 threads), atomic
// sections, calls;
// no loops or recursion, so that the bounded engines see every
// execution) through the explicit checker and through BMC on the eager,
// lazy and direct encodings with gini (and Z3 on every fourth program),
// the sequentializations both encoded whole and unrolled frame by frame
// (with gini): every verdict and the smallest violating bound must agree.
func TestConcurrentDifferential(t *testing.T) {
	const depth = 3
	programs := 16
	if testing.Short() {
		programs = 8
	}
	solvers := []method.SolverName{method.SolverGini, method.SolverZ3}
	if !smt.Available {
		solvers = solvers[:1]
	}
	type boundKind struct {
		name string
		max  int
		set  func(*method.Bounds, int)
	}
	kinds := []boundKind{
		{"switches", 1, func(o *method.Bounds, k int) { o.Switches, o.Rounds = k, 0 }},
		{"rounds", 2, func(o *method.Bounds, k int) { o.Switches, o.Rounds = -1, k }},
	}
	violations := 0
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Globals, cfg.Stmts, cfg.Bounded = 2+int(seed/2%2), 2, 3, true
		kind := kinds[seed%2]
		if cfg.Threads == 3 {
			// Keeps the test within a few minutes: BMC on three threads
			// is much slower (docs/BENCHMARKS.md).
			kind.max--
			cfg.Stmts, cfg.Locks = 2, 0
		}
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		lo := 0
		if kind.name == "rounds" {
			lo = 1
		}
		// The explicit checker's smallest violating bound (-1: none).
		want := -1
		for k := lo; k <= kind.max && want < 0; k++ {
			o := method.DefaultBounds()
			o.Depth = depth
			kind.set(&o, k)
			c, err := explicit.New(p, o.ExplicitOptions())
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background())
			if r.Verdict == result.Unknown {
				t.Fatalf("seed %d: explicit: %v", seed, r.Limits)
			}
			if r.Verdict == result.Unsafe {
				want = k
			}
		}
		if want >= 0 {
			violations++
		}
		type run struct {
			sq     method.Seq
			solver method.SolverName
			frames bool
		}
		var runs []run
		for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy, method.SeqDirect} {
			for _, sv := range solvers {
				if sv == method.SolverZ3 && seed%4 != 0 {
					continue
				}
				runs = append(runs, run{sq, sv, false})
			}
			if sq != method.SeqDirect {
				runs = append(runs, run{sq, "gini", true})
			}
		}
		for _, r := range runs {
			sq, sv := r.sq, string(r.solver) // sv names the run in messages
			if r.frames {
				sv += "/frames"
			}
			o := method.Options{Engine: "bmc", Solver: r.solver, Seq: sq, MaxSteps: 20, Frames: r.frames, Bounds: method.DefaultBounds()}
			o.Bounds.Depth = depth
			kind.set(&o.Bounds, kind.max)
			st := time.Now()
			o.Timeout = 60 * time.Second
			res, err := Check(context.Background(), p, o)
			if err != nil {
				t.Fatalf("seed %d %s/%s: %v\n%s", seed, sq, sv, err, src)
			}
			t.Logf("seed %d %s/%s %s<=%d: %s in %v", seed, sq, sv, kind.name, kind.max, res.Verdict, time.Since(st).Round(time.Millisecond))
			got := -1
			switch res.Verdict {
			case result.Unsafe:
				got = res.ContextBound
			case result.Safe:
				if !strings.Contains(res.Bounds, "every execution") {
					t.Fatalf("seed %d %s/%s: safe only within %s\n%s", seed, sq, sv, res.Bounds, src)
				}
			default:
				t.Fatalf("seed %d %s/%s: %s %v", seed, sq, sv, res.Verdict, res.Limits)
			}
			if got != want {
				t.Fatalf("seed %d %s/%s, %s up to %d: explicit's smallest violating bound %d, bmc's %d (-1: none)\n%s",
					seed, sq, sv, kind.name, kind.max, want, got, src)
			}
		}
		// The default plan, which races the engines, answers as each does.
		o := method.Options{Solver: "gini", MaxSteps: 20, Bounds: method.DefaultBounds(), Timeout: 60 * time.Second}
		o.Bounds.Depth = depth
		kind.set(&o.Bounds, kind.max)
		res, err := Check(context.Background(), p, o)
		if err != nil {
			t.Fatalf("seed %d, the default plan: %v\n%s", seed, err, src)
		}
		if (res.Verdict == result.Unsafe) != (want >= 0) || res.Verdict == result.Unknown {
			t.Fatalf("seed %d, %s up to %d: the default plan says %s (by %s), explicit's smallest violating bound is %d\n%s",
				seed, kind.name, kind.max, res.Verdict, res.Winner, want, src)
		}
	}
	if violations == 0 || violations == programs {
		t.Errorf("%d of %d programs have violations: the test does not tell verdicts apart", violations, programs)
	}
	t.Logf("%d of %d programs have violations", violations, programs)
}
