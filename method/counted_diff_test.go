package method

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// TestCountedDifferential runs random programs (loops, locks, recursion,
// late bugs) with 1 to 3 instances of t0 beside one t1 through the
// counter abstraction and the plain explicit search (no symmetry
// reduction), on every interleaving and within 2 context switches: where
// both decide, the verdicts must agree, and every violation the counter
// abstraction finds must replay as an execution of the program as
// written (checkCounted replays it: an error fails the test). On every
// interleaving the counted configurations on decision diagrams must
// give the same verdict and, when safe, as many configurations.
func TestCountedDifferential(t *testing.T) {
	t.Parallel()
	seeds := soak.Seeds(10, 40) // a sample; make soak runs more
	if testing.Short() {
		seeds = 8
	}
	tally := map[string]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := progen.DefaultConfig()
		cfg.ShortLoops = true
		cfg.Stmts, cfg.Globals = 4, 2
		cfg.CounterBits = int(seed % 2)
		cfg.LateBugs = seed%2 == 1
		cfg.Recursive = seed%3 == 0
		src := progen.Generate(seed, cfg)
		for n := 1; n <= 3; n++ {
			name := fmt.Sprintf("seed%d_t0x%d.bpl", seed, n)
			p := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Count: n}, {Name: "t1", Count: 1}}})
			for _, switches := range []int{-1, 2} {
				o := Options{Bounds: Bounds{Switches: switches, Depth: 4, MaxThreads: 4, MaxStates: 100_000}}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				got, err := checkCounted(ctx, p, o)
				cancel()
				if err != nil {
					t.Fatalf("%s, %d switches: %v\n%s", name, switches, err, src)
				}
				eo := explicit.DefaultOptions()
				eo.Switches, eo.Depth, eo.MaxStates, eo.NoSymmetry = switches, 4, 100_000, true
				c, err := explicit.New(p, eo)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
				want := c.Run(ctx)
				cancel()
				tally[fmt.Sprintf("switches %d: counted %v, explicit %v", switches, got.Verdict, want.Verdict)]++
				if switches < 0 {
					onDiagrams(t, name, src, p, o, got)
				}
				if got.Verdict == result.Unknown && want.Verdict != result.Unknown {
					t.Logf("%s, %d switches: counted unknown %v %s; explicit %v %v", name, switches, got.Limits, got.Stats, want.Verdict, want.Limits)
				}
				if got.Verdict == result.Unknown || want.Verdict == result.Unknown {
					continue
				}
				if got.Verdict != want.Verdict {
					t.Errorf("%s, %d switches: the counter abstraction says %v, the explicit search %v\n%s", name, switches, got.Verdict, want.Verdict, src)
				}
			}
		}
	}
	t.Logf("verdicts: %v", tally)
	decided := 0
	for k, n := range tally {
		if k == "switches -1: counted safe, explicit safe" || k == "switches -1: counted unsafe, explicit unsafe" {
			decided += n
		}
	}
	if decided < seeds {
		t.Errorf("only %d of %d runs on every interleaving decided by both: the test compares too little", decided, 3*seeds)
	}
}

// onDiagrams checks the counter abstraction on decision diagrams against
// the explicit counted search's answer got on p.
func onDiagrams(t *testing.T, name, src string, p *ir.Program, o Options, got *result.Result) {
	t.Helper()
	o.Solver = SolverBDD
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	sym, err := checkCounted(ctx, p, o)
	if err != nil {
		t.Fatalf("%s, on diagrams: %v\n%s", name, err, src)
	}
	if sym.Verdict == result.Unknown || got.Verdict == result.Unknown {
		return
	}
	if sym.Verdict != got.Verdict {
		t.Errorf("%s: the counted configurations on diagrams say %v, the counted search %v\n%s", name, sym.Verdict, got.Verdict, src)
	}
	if n, m := configurations(sym.Stats), configurations(got.Stats); sym.Verdict == result.Safe && n != m {
		t.Errorf("%s: %d counted configurations on diagrams, %d by the counted search\n%s", name, n, m, src)
	}
}

// configurations reads the count of counted configurations from a
// result's statistics.
func configurations(stats string) int {
	var n int
	fmt.Sscanf(stats, "%d counted configurations", &n)
	return n
}
