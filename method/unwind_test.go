package method

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/testsolvers"
	"bmc/ir"
	"bmc/result"
)

// unwoundProof is how a verdict of the unwinding (unwound) names its
// proof.
const unwoundProof = "every loop unwound"

// TestDifferentialLoopsUnwound checks the unwinding of loops until no further
// iteration starts in a new state (encode.Unwind, unwound) against
// the explicit checker, on random non-recursive programs whose loops
// spin, count, shuffle and carry late bugs: sequential programs on every
// solver, and concurrent ones through the eager and lazy
// sequentializations, where the unwinding races PDR (BMC). Both cover
// every execution, so the verdicts must be equal.
func TestDifferentialLoopsUnwound(t *testing.T) {
	const depth = 3
	programs := 40
	if testing.Short() {
		programs = 16
	}
	counts := map[string]int{}
	generate := func(seed int64, cfg progen.Config) (*ir.Program, string) {
		src := progen.Generate(seed, cfg)
		return load(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{}), src
	}
	// agree compares res on p with the explicit verdict ex.
	agree := func(seed int64, what string, p *ir.Program, res, ex *result.Result, src string) {
		t.Helper()
		switch {
		case res.Verdict == result.Unknown && res.Has(result.LimitTimeout):
			counts[what+" timeout"]++
			return
		case res.Verdict != ex.Verdict:
			t.Errorf("seed %d, %s: explicit %s %v, bmc %s %v (%s)\n%s", seed, what, ex.Verdict, ex.Limits, res.Verdict, res.Limits, res.Bounds, src)
		case res.Verdict == result.Safe && loops(p) && res.Proof == "":
			t.Errorf("seed %d, %s: safe, but not for executions of any length (%s)\n%s", seed, what, res.Bounds, src)
		case res.Verdict == result.Safe && strings.HasPrefix(what, "sequential") && !strings.HasPrefix(res.Proof, unwoundProof):
			t.Errorf("seed %d, %s: safe, but not by the unwinding (%s; %s)\n%s", seed, what, res.Engine, res.Proof, src)
		}
		counts[what+" "+res.Verdict.String()]++
	}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts, cfg.Globals = 1, 4, 2
		cfg.SpinWaits, cfg.ShortLoops, cfg.LateBugs = seed%2 == 0, true, seed%3 > 0
		cfg.CounterBits, cfg.ShuffleBits = 3, int(seed%2)*4
		p, src := generate(seed, cfg)
		eo := explicit.DefaultOptions()
		eo.Depth = depth
		ck, _ := explicit.New(p, eo)
		ex := ck.Run(context.Background())
		if ex.Incomplete() {
			t.Fatalf("seed %d: explicit: %v\n%s", seed, ex.Limits, src)
		}
		if encode.Supported(p, encode.KindUnwound, depth) != nil {
			continue
		}
		for name := range testsolvers.All(t) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			res, err := unwound(ctx, p, depth, SolverName(name), bmcOptions{Depth: depth})
			cancel()
			if err != nil || res == nil {
				t.Fatalf("seed %d, %s: %v, %v\n%s", seed, name, res, err, src)
			}
			agree(seed, "sequential "+name, p, res, ex, src)
		}
	}
	for seed := int64(1); seed <= int64(programs/2); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Stmts, cfg.Locks, cfg.WithHelper = 2, 2, int(seed%2), false
		cfg.SpinWaits, cfg.ShortLoops, cfg.LateBugs, cfg.CounterBits = true, true, seed%3 > 0, 3
		p, src := generate(seed, cfg)
		switches := 1 + int(seed%2)
		eo := explicit.DefaultOptions().Within(0, switches)
		eo.Depth = depth
		ck, _ := explicit.New(p, eo)
		ex := ck.Run(context.Background())
		if ex.Incomplete() {
			t.Fatalf("seed %d: explicit: %v\n%s", seed, ex.Limits, src)
		}
		sq := []Seq{SeqEager, SeqLazy}[seed%2]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := ConcurrentBMC(p, Options{Seq: sq, Solver: SolverGini, Bounds: BoundsOf(eo)}, sq).Run(ctx, nil)
		cancel()
		if err != nil {
			t.Fatalf("seed %d, %s: %v\n%s", seed, sq, err, src)
		}
		agree(seed, fmt.Sprintf("%s, %d switches", sq, switches), p, res, ex, src)
	}
	t.Logf("outcomes: %v", counts)
	for _, what := range []string{"sequential gini"} {
		if counts[what+" unsafe"] == 0 || counts[what+" safe"] == 0 {
			t.Errorf("%s: want both verdicts among the programs, got %v", what, counts)
		}
	}
}
