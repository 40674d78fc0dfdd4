package driver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// TestCoverabilityDifferential runs random programs with any number of
// t0 threads beside one t1 through coverability and through the explicit
// engine with 1 to 3 instances of t0 (every interleaving): a proof for
// every count must hold for each count, a violation found must replay
// with its thread count (checkCoverability replays it), and most
// programs must be decided.
func TestCoverabilityDifferential(t *testing.T) {
	seeds := 24
	if testing.Short() {
		seeds = 12
	}
	cfg := progen.DefaultConfig()
	cfg.WithHelper = false
	cfg.ShortLoops = true
	cfg.Stmts, cfg.Globals = 4, 2
	tally, missed := map[string]int{}, 0
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg.CounterBits = int(seed % 2)
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		any := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Unbounded: true}, {Name: "t1", Count: 1}}})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		res, err := checkCoverability(ctx, any, Options{Bounds: Bounds{Switches: -1, Depth: 16, MaxThreads: 4, MaxStates: 2_000_000}})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		tally[res.Verdict.String()]++
		for n := 1; n <= 3; n++ {
			fixed := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Count: n}, {Name: "t1", Count: 1}}})
			opts := explicit.DefaultOptions()
			opts.MaxStates = 50_000
			c, err := explicit.New(fixed, opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			ex := c.Run(ctx)
			cancel()
			switch {
			case ex.Verdict == result.Unsafe && res.Verdict == result.Safe:
				t.Errorf("%s: coverability proves every count safe, the explicit engine finds a violation with %d t0 threads\n%s", name, n, src)
			case ex.Verdict == result.Unsafe && res.Verdict == result.Unknown:
				missed++ // the backward search can grow past its time where a forward one is quick
			}
		}
	}
	t.Logf("%d programs: %v; %d violations of the explicit engine left open by coverability's time", seeds, tally, missed)
	if tally["safe"] == 0 || tally["unsafe"] == 0 || tally["unknown"] > seeds/4 {
		t.Errorf("coverability should decide most programs, both ways: %v", tally)
	}
}
