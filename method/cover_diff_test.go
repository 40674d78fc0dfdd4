package method

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/cover"
	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// TestParameterizedDifferential runs random programs with any number of
// t0 threads beside one t1 through coverability (every interleaving), the
// linear interfaces at 1 and 2 rounds, and the explicit engine with 1 to
// 4 instances of t0 under the same questions:
// a proof for every count must hold for each count; a violation within k
// rounds the explicit engine finds must not be proved absent; a
// violation found must replay with its thread count (checkCoverability
// and checkRounds replay it); and most programs must be decided.
func TestParameterizedDifferential(t *testing.T) {
	t.Parallel()
	seeds := soak.Seeds(10, 48) // a sample; make soak runs more
	if testing.Short() {
		seeds = 6
	}
	cfg := progen.DefaultConfig()
	cfg.WithHelper = false
	cfg.ShortLoops = true
	cfg.Stmts, cfg.Globals = 4, 2
	tally := map[string]int{}
	o := Options{Bounds: Bounds{Switches: -1, Depth: 16, MaxThreads: 4, MaxStates: 2_000_000}}
	within := func(d time.Duration, f func(ctx context.Context)) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		f(ctx)
	}
	explicitRun := func(p *ir.Program, rounds int) *result.Result {
		opts := explicit.DefaultOptions()
		opts.MaxStates, opts.Rounds = 20_000, rounds
		c, err := explicit.New(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		var res *result.Result
		within(time.Second, func(ctx context.Context) { res = c.Run(ctx) })
		return res
	}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg.CounterBits = int(seed % 2)
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		any := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Unbounded: true}, {Name: "t1", Count: 1}}})
		var cov *result.Result
		var err error
		within(2*time.Second, func(ctx context.Context) { cov, err = checkCoverability(ctx, any, o) })
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		tally["coverability "+cov.Verdict.String()]++
		var li [3]*result.Result
		for k := 1; k <= 2; k++ {
			within(3*time.Second, func(ctx context.Context) { li[k], err = checkRounds(ctx, any, o, k) })
			if err != nil {
				t.Fatalf("%s: %d rounds: %v\n%s", name, k, err, src)
			}
			tally[fmt.Sprintf("%d rounds %v", k, li[k].Verdict)]++
		}
		for n := 1; n <= 4; n++ {
			fixed := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Count: n}, {Name: "t1", Count: 1}}})
			if ex := explicitRun(fixed, 0); ex.Verdict == result.Unsafe && cov.Verdict == result.Safe {
				t.Errorf("%s: coverability proves every count safe, the explicit engine finds a violation with %d t0 threads\n%s", name, n, src)
			}
			for k := 1; k <= 2; k++ {
				ex := explicitRun(fixed, k)
				switch {
				case ex.Verdict == result.Unsafe && li[k].Verdict == result.Safe:
					t.Errorf("%s: the explicit engine finds a violation within %d rounds with %d t0 threads, linear interfaces say %v\n%s", name, k, n, li[k].Verdict, src)
				case li[k].Verdict == result.Unsafe && cov.Verdict == result.Safe:
					t.Errorf("%s: a violation within %d rounds, and a coverability proof\n%s", name, k, src)
				}
			}
		}
	}
	t.Logf("%d programs: %v", seeds, tally)
	if tally["coverability safe"] == 0 || tally["coverability unsafe"] == 0 || tally["coverability unknown"] > seeds/4 || tally["2 rounds unknown"] > seeds/4 {
		t.Errorf("coverability and the linear interfaces should decide most programs, both ways: %v", tally)
	}
}

// TestAdequacyDifferential checks the adequacy check's proofs on small
// random programs with any number of t0 beside one t1: where k rounds
// are safe and adequate, the explicit engine finds no violation in any
// interleaving with 1 to 3 t0 threads, coverability none for any count,
// and the linear interfaces none within k+1 rounds.
func TestAdequacyDifferential(t *testing.T) {
	t.Parallel()
	cfg := progen.Config{Threads: 2, Globals: 2, Locals: 1, Stmts: 3, Locks: 1}
	o := Options{Bounds: Bounds{Switches: -1, Depth: 16, MaxThreads: 4, MaxStates: 2_000_000}}
	proofs := 0
	const seeds = 16
	for seed := int64(1); seed <= seeds; seed++ {
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		any := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Unbounded: true}, {Name: "t1", Count: 1}}})
		for k, budget := range map[int]time.Duration{1: time.Second / 2, 2: time.Second / 3} {
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			verdict, _, err := cover.Adequate(ctx, any, k, cover.DefaultOptions())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if verdict != result.Safe {
				continue
			}
			li, err := checkRounds(context.Background(), any, o, k)
			if err != nil || li.Verdict != result.Safe {
				continue // adequate, but not safe within k rounds: no proof
			}
			proofs++
			next, err := checkRounds(context.Background(), any, o, k+1)
			cov, err2 := checkCoverability(context.Background(), any, o)
			if err != nil || err2 != nil || next.Verdict == result.Unsafe || cov.Verdict == result.Unsafe {
				t.Errorf("%s: %d rounds safe and adequate, but %d rounds say %v and coverability %v (%v, %v)\n%s", name, k, k+1, next.Verdict, cov.Verdict, err, err2, src)
			}
			for n := 1; n <= 3; n++ {
				fixed := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Count: n}, {Name: "t1", Count: 1}}})
				opts := explicit.DefaultOptions()
				opts.MaxStates = 50_000
				c, _ := explicit.New(fixed, opts)
				if ex := c.Run(context.Background()); ex.Verdict == result.Unsafe {
					t.Errorf("%s: %d rounds safe and adequate, but the explicit engine finds a violation with %d t0 threads\n%s", name, k, n, src)
				}
			}
		}
	}
	t.Logf("%d programs: %d proofs by adequacy", seeds, proofs)
	if proofs == 0 {
		t.Error("no program was proved: the test checks nothing")
	}
}

// TestStartedThreadsDifferential runs random programs whose main starts
// threads on the way (in loops and once, between its own statements)
// through the linear interfaces at 1 and 2 rounds and coverability, and
// the explicit engine within the same rounds and up to 5 threads (main
// and 4 started): a violation the explicit engine finds must be found
// (and replays, by checkRounds) unless the interfaces say that their
// violations start threads more often than the program does; "safe
// within k rounds for every number of threads" must hold for the
// explicit engine; coverability must not contradict the interfaces.
func TestStartedThreadsDifferential(t *testing.T) {
	t.Parallel()
	seeds := soak.Seeds(12, 72) // a sample; make soak runs more
	if testing.Short() {
		seeds = 8
	}
	cfg := progen.DefaultConfig()
	cfg.WithHelper, cfg.Spawner, cfg.ShortLoops = false, true, true
	cfg.Stmts, cfg.Globals = 3, 2
	o := Options{Bounds: Bounds{Switches: -1, Depth: 16, MaxThreads: 5, MaxStates: 2_000_000}}
	tally := map[string]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg.CounterBits = int(seed % 2)
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		p := load(t, name, src, ir.Options{})
		if !p.ThreadsUnbounded() {
			t.Fatalf("%s: main starts t0 in a loop, but the program is not parameterized\n%s", name, src)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cov, err := checkCoverability(ctx, p, o)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		for k := 1; k <= 2; k++ {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			li, err := checkRounds(ctx, p, o, k)
			cancel()
			if err != nil {
				t.Fatalf("%s: %d rounds: %v\n%s", name, k, err, src)
			}
			key := fmt.Sprintf("%d rounds %v", k, li.Verdict)
			if li.Verdict == result.Unknown && len(li.Limits) > 0 && strings.Contains(li.Limits[0].String(), "how often") {
				key += " (unmatched)"
			}
			tally[key]++
			opts := explicit.DefaultOptions()
			opts.MaxStates, opts.Rounds, opts.MaxThreads = 50_000, k, 5
			c, err := explicit.New(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel = context.WithTimeout(context.Background(), time.Second)
			ex := c.Run(ctx)
			cancel()
			tally[fmt.Sprintf("%d rounds: explicit %v", k, ex.Verdict)]++
			switch {
			case ex.Verdict == result.Unsafe && li.Verdict == result.Safe:
				t.Errorf("%s: the explicit engine finds a violation within %d rounds and %d threads, the linear interfaces prove none\n%s", name, k, len(ex.Trace.Threads), src)
			case ex.Verdict == result.Unsafe && li.Verdict == result.Unknown:
				tally[fmt.Sprintf("%d rounds: violation missed", k)]++
			case li.Verdict == result.Unsafe && cov.Verdict == result.Safe:
				t.Errorf("%s: a violation within %d rounds, and a coverability proof\n%s", name, k, src)
			}
		}
	}
	t.Logf("%d programs: %v", seeds, tally)
	if tally["2 rounds unsafe"] == 0 || tally["2 rounds safe"] == 0 || tally["2 rounds: explicit unsafe"] == 0 || tally["1 rounds: violation missed"]+tally["2 rounds: violation missed"] > seeds/8 {
		t.Errorf("the linear interfaces should decide most programs, both ways, and miss few violations: %v", tally)
	}
}

// TestRecursiveThreadsDifferential runs random programs whose threads
// call a recursive function, with any number of t0 beside one t1,
// through coverability and the linear interfaces at 1 and 2 rounds
// within 4 frames, and the explicit engine within the same depth with 1
// to 3 instances of t0: a violation within the depth that the explicit
// engine finds must be found (and replays), and an answer without one
// may say that calls went deeper, never "safe" unless no call did.
func TestRecursiveThreadsDifferential(t *testing.T) {
	t.Parallel()
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	cfg := progen.DefaultConfig()
	cfg.WithHelper, cfg.Recursive = false, true
	cfg.Stmts, cfg.Globals = 3, 2
	const depth = 4
	o := Options{Bounds: Bounds{Switches: -1, Depth: depth, MaxThreads: 4, MaxStates: 2_000_000}, DepthStated: true}
	tally := map[string]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		src := progen.Generate(seed, cfg)
		name := fmt.Sprintf("seed%d.bpl", seed)
		any := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Unbounded: true}, {Name: "t1", Count: 1}}})
		answers := map[int]*result.Result{} // by rounds; 0: every interleaving
		for k := 0; k <= 2; k++ {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			var res *result.Result
			var err error
			if k == 0 {
				res, err = checkCoverability(ctx, any, o)
			} else {
				res, err = checkRounds(ctx, any, o, k)
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: %d rounds: %v\n%s", name, k, err, src)
			}
			answers[k] = res
			tally[fmt.Sprintf("%d rounds %v, depth hit %v", k, res.Verdict, res.DepthHit())]++
		}
		for n := 1; n <= 3; n++ {
			fixed := load(t, name, src, ir.Options{Threads: []ir.ThreadCount{{Name: "t0", Count: n}, {Name: "t1", Count: 1}}})
			for k := 0; k <= 2; k++ {
				opts := explicit.DefaultOptions()
				opts.MaxStates, opts.Rounds, opts.Depth = 50_000, k, depth
				c, err := explicit.New(fixed, opts)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				ex := c.Run(ctx)
				cancel()
				if got := answers[k]; ex.Verdict == result.Unsafe && got.Verdict != result.Unsafe && (got.Verdict == result.Safe || got.DepthHit()) {
					t.Errorf("%s: the explicit engine finds a violation within %d rounds (0: any), %d frames and %d t0 threads; the parameterized engine says %v %v\n%s",
						name, k, depth, n, got.Verdict, got.Limits, src)
				}
			}
		}
	}
	t.Logf("%d programs: %v", seeds, tally)
	if tally["0 rounds unsafe, depth hit false"] == 0 {
		t.Errorf("no violation found: the test checks little: %v", tally)
	}
}

// load is the program src, named name, or the test's end.
func load(t *testing.T, name, src string, opts ir.Options) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), name, []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
