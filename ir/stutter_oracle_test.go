package ir_test

import (
	"context"
	"fmt"
	"testing"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// TestWithoutStutterKeepsVerdicts runs the explicit engine, the oracle,
// on random looping programs (spin waits, short and counting loops, late
// bugs) and on their copies without idle cycles, in every scheduling
// mode: a violation must be reachable in both or in neither.
func TestWithoutStutterKeepsVerdicts(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 20
	}
	schedules := []struct {
		name             string
		switches, rounds int
	}{
		{"interleavings", -1, 0}, {"switches=0", 0, 0}, {"switches=1", 1, 0}, {"switches=2", 2, 0},
		{"rounds=1", -1, 1}, {"rounds=2", -1, 2},
	}
	unsafe, total, reduced := 0, 0, 0
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts, cfg.Globals = 3, 2
		cfg.Threads = 2 + int(seed%4/3)
		cfg.SpinWaits, cfg.ShortLoops, cfg.LateBugs, cfg.CounterBits = true, true, seed%3 > 0, 2
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		p, _, err := ir.Load(context.Background(), name, []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		q, cut := ir.WithoutStutter(p)
		if cut == 0 {
			continue
		}
		reduced++
		for _, sc := range schedules {
			opts := explicit.DefaultOptions().Within(sc.rounds, sc.switches)
			opts.Depth, opts.MaxStates = 4, 20_000
			a, b := run(t, p, opts), run(t, q, opts)
			if a.Incomplete() || b.Incomplete() {
				continue
			}
			if a.Verdict != b.Verdict {
				t.Fatalf("%s, %s: %s as written, %s without its %d idle steps\n%s", name, sc.name, a.Verdict, b.Verdict, cut, src)
			}
			total++
			if a.Verdict == result.Unsafe {
				unsafe++
			}
		}
	}
	// Both outcomes, on programs that lost steps, or the test proves little.
	if unsafe == 0 || unsafe == total {
		t.Fatalf("%d of %d (program, schedule) pairs unsafe on %d reduced programs: want both outcomes", unsafe, total, reduced)
	}
	t.Logf("%d reduced programs; %d of %d (program, schedule) pairs unsafe", reduced, unsafe, total)
}

func run(t *testing.T, p *ir.Program, opts explicit.Options) *result.Result {
	t.Helper()
	c, err := explicit.New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run(context.Background())
}
