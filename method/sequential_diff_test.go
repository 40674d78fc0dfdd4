package method

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/internal/testsolvers"
	"bmc/ir"
	"bmc/result"
)

// TestDifferentialSequential checks random sequential programs (calls,
// recursion, loops, nondeterminism, assume/assert, constrain, multiple
// returns, locks) with the explicit checker and with BMC on every solver.
// The explicit search is complete up to the call depth, BMC up to the step
// bound, so: a BMC violation is an explicit one; an explicit violation
// whose shortest trace fits in the bound is found by BMC (a step executes
// at least one statement); a depth-bound hit is not missed by a BMC that
// claims to have seen every execution.
func TestDifferentialSequential(t *testing.T) {
	const depth, bound = 3, 25
	programs := soak.Seeds(150, 900) // a sample; make soak runs more
	if testing.Short() {
		programs = 60
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts = 1, 5
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		eo := explicit.DefaultOptions()
		eo.Depth, eo.MaxStates = depth, 200_000
		ck, _ := explicit.New(p, eo)
		ex := ck.Run(context.Background())
		if ex.Incomplete() {
			counts["explicit incomplete"]++
			continue
		}
		depthHit := ex.DepthHit()
		runs := testsolvers.All(t)
		if seed%4 == 0 { // also the encoding with one statement per step
			runs["gini, small steps"] = runs["gini"]
		}
		for name, mk := range runs {
			s := mk()
			res, err := bmc(context.Background(), p, s, bmcOptions{Depth: depth, MaxSteps: bound, SmallSteps: name == "gini, small steps"})
			s.Close()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, name, err, src)
			}
			fail := func(format string, args ...any) {
				t.Fatalf("seed %d, %s: %s\nexplicit: %s %v\nbmc: %s %v (%s)\n%s", seed, name, fmt.Sprintf(format, args...),
					ex.Verdict, ex.Limits, res.Verdict, res.Limits, res.Bounds, src)
			}
			switch {
			case res.Verdict == result.Unsafe && ex.Verdict != result.Unsafe:
				fail("BMC found a violation the explicit search did not")
			case ex.Verdict == result.Unsafe && ex.Trace.Statements() <= bound && res.Verdict != result.Unsafe:
				fail("BMC missed a violation %d statements deep", ex.Trace.Statements())
			case depthHit && res.Verdict == result.Safe && strings.HasPrefix(res.Bounds, "all executions"):
				fail("BMC saw every execution but not the depth bound")
			}
			counts[name+" "+res.Verdict.String()]++
		}
	}
	t.Logf("outcomes: %v", counts)
	for name := range testsolvers.All(t) {
		if counts[name+" unsafe"] == 0 || counts[name+" safe"]+counts[name+" unknown"] == 0 {
			t.Errorf("%s: want both verdicts among the programs, got %v", name, counts)
		}
	}
}

// TestDifferentialUnwound checks random loop-free, non-recursive
// sequential programs (calls, nondeterminism, assume/assert, constrain,
// enforce, multiple returns, locks) encoded whole (encode.Whole) against
// the explicit checker on every solver: the unwound formula covers every
// execution, so the verdicts must be equal.
func TestDifferentialUnwound(t *testing.T) {
	const depth = 3
	programs := 200
	if testing.Short() {
		programs = 50
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts, cfg.Bounded = 1, 6, true
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		eo := explicit.DefaultOptions()
		eo.Depth = depth
		ck, _ := explicit.New(p, eo)
		ex := ck.Run(context.Background())
		if ex.Incomplete() {
			t.Fatalf("seed %d: explicit: %v\n%s", seed, ex.Limits, src)
		}
		for name, mk := range testsolvers.All(t) {
			s := mk()
			res, err := bmc(context.Background(), p, s, bmcOptions{Depth: depth, MaxSteps: 1, Unwind: true})
			s.Close()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, name, err, src)
			}
			if !strings.Contains(res.Stats, " 0 latches") {
				t.Fatalf("seed %d, %s: not unwound (%s)\n%s", seed, name, res.Stats, src)
			}
			if res.Verdict != ex.Verdict || res.Verdict == result.Safe && !strings.HasPrefix(res.Bounds, "all executions") {
				t.Fatalf("seed %d, %s: explicit %s, unwound bmc %s (%s)\n%s", seed, name, ex.Verdict, res.Verdict, res.Bounds, src)
			}
			counts[name+" "+res.Verdict.String()]++
		}
	}
	t.Logf("outcomes: %v", counts)
	for name := range testsolvers.All(t) {
		if counts[name+" unsafe"] == 0 || counts[name+" safe"] == 0 {
			t.Errorf("%s: want both verdicts among the programs, got %v", name, counts)
		}
	}
}
