package method

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/corpus"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
	"bmc/smt"
)

// TestDifferentialSummaries checks random recursive one-thread programs
// (loops, recursion, nondeterminism, assume/assert, constrain, locks)
// with the summary engine on both solvers against the explicit search
// with 64 frames: a violation the summaries find replays (summaries
// checks that itself) and is the explicit search's, and a program they
// prove safe has no violation within 64 frames.
func TestDifferentialSummaries(t *testing.T) {
	programs := soak.Seeds(300, 1800) // a sample; make soak runs more
	if testing.Short() {
		programs = 60
	}
	solvers := summarySolvers()
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts = 1, 5
		cfg.Recursive = seed%2 == 0
		cfg.ShortLoops = seed%3 == 0
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		eo := explicit.DefaultOptions()
		eo.Depth, eo.MaxStates = 64, 300_000
		ck, _ := explicit.New(p, eo)
		ex := ck.Run(context.Background())
		for _, name := range solvers {
			if name == "z3" && seed%3 != 0 {
				continue // Z3's Spacer on a third of them: it is slower
			}
			res, err := summaries(context.Background(), p, summaryOptions{Solver: name})
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, name, err, src)
			}
			if why := disagreement(ex, res); why != "" {
				t.Fatalf("seed %d, %s: %s\nexplicit: %s %v\nsummaries: %s %v %s\n%s", seed, name, why,
					ex.Verdict, ex.Limits, res.Verdict, res.Limits, res.Stats, src)
			}
			counts[string(name)+" "+res.Verdict.String()]++
		}
	}
	bothVerdicts(t, solvers, counts)
}

// TestDifferentialContexts checks the context encoding (--seq contexts),
// and on half of them the lazy or eager program's clauses, on random
// concurrent programs (helpers, recursion, loops, atomic
// sections, locks on half of them, assume/assert) within 1
// to 3 rounds or 0 to 3 switches against the explicit search with 64
// frames: a violation it finds replays (checkSummaries checks that
// itself) and is the explicit search's, and a program it proves safe
// has none.
func TestDifferentialContexts(t *testing.T) {
	programs := soak.Seeds(50, 300) // a sample; make soak runs more
	if testing.Short() {
		programs = 40
	}
	solvers := summarySolvers()
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts, cfg.Locks = 2+int(seed%2), 4, int(seed/2%2)
		cfg.Recursive = seed%3 == 0
		cfg.ShortLoops = seed%4 == 0
		cfg.Flags = int(seed % 3)
		p, src, rounds, switches, ex := boundedCase(t, seed, cfg)
		type run struct {
			name SolverName
			s    Seq
		}
		var runs []run
		for _, name := range solvers {
			if name != SolverZ3 || seed%3 == 0 { // Z3's Spacer on a third of them: it is slower
				runs = append(runs, run{name, SeqContexts})
			}
		}
		// The lazy and eager programs' clauses on a quarter each, with
		// gini: their traces are read back through the sequentialization.
		if s := []Seq{"", SeqLazy, "", SeqEager}[seed%4]; s != "" {
			runs = append(runs, run{SolverGini, s})
		}
		for _, r := range runs {
			name, s := r.name, r.s
			o := Options{Solver: name, Bounds: DefaultBounds()}
			o.Bounds.Rounds, o.Bounds.Switches = rounds, switches
			res, err := checkSummaries(context.Background(), p, o, s)
			if err != nil {
				t.Fatalf("seed %d, %s, %s, %d rounds, %d switches: %v\n%s", seed, name, s, rounds, switches, err, src)
			}
			if why := disagreement(ex, res); why != "" {
				t.Fatalf("seed %d, %s, %d rounds, %d switches: %s\nexplicit: %s %v\n%s: %s %v %s\n%s", seed, name, rounds, switches, why,
					ex.Verdict, ex.Limits, s, res.Verdict, res.Limits, res.Stats, src)
			}
			counts[string(name)+" "+res.Verdict.String()]++
		}
	}
	bothVerdicts(t, solvers, counts)
}

// TestDifferentialProduct runs the product encoding (threads without
// calls or locks, with loops, atomic sections and a counter) through
// every solver of the summary engine against the explicit search, within
// rounds and switches: every verdict agrees, every trace replays (with
// the locals the clauses forget left open) and every interpretation
// re-checks.
func TestDifferentialProduct(t *testing.T) {
	programs := 60
	if testing.Short() {
		programs = 20
	}
	solvers := summarySolvers()
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts, cfg.Locks, cfg.WithHelper = 2+int(seed%2), 4+int(seed%3), 0, false
		cfg.ShortLoops, cfg.SpinWaits, cfg.Flags = seed%2 == 0, seed%3 == 0, int(seed%3)
		if seed%4 == 0 {
			cfg.CounterBits, cfg.LateBugs = 2, true
		}
		p, src, rounds, switches, ex := boundedCase(t, seed, cfg)
		if ex.Incomplete() {
			continue
		}
		for _, name := range solvers {
			if name == "z3" && seed%3 != 0 {
				continue
			}
			o := Options{Solver: name, Bounds: DefaultBounds()}
			o.Bounds.Rounds, o.Bounds.Switches = rounds, switches
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := checkSummaries(ctx, p, o, "product")
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s, %d rounds, %d switches: %v\n%s", seed, name, rounds, switches, err, src)
			}
			if res.Verdict == result.Unknown && ctx.Err() != nil {
				counts[string(name)+" out of time"]++
				continue
			}
			if why := disagreement(ex, res); why != "" || res.Verdict != ex.Verdict {
				t.Fatalf("seed %d, %s, %d rounds, %d switches: %s\nexplicit: %s %v\nproduct: %s %v %s\n%s", seed, name, rounds, switches, why,
					ex.Verdict, ex.Limits, res.Verdict, res.Limits, res.Stats, src)
			}
			counts[string(name)+" "+res.Verdict.String()]++
		}
	}
	bothVerdicts(t, solvers, counts)
}

// TestDifferentialGetafixSwitches asks Getafix's narrower question
// (Bounds.GetafixSwitches: its switch points, its flag the first global,
// which the random programs write and read and init may leave
// arbitrary) of the explicit search and of the product encoding on both
// pure-Go solvers: every verdict agrees, every trace replays under the
// rule, and the rule changes some verdict of the question as we ask it.
func TestDifferentialGetafixSwitches(t *testing.T) {
	programs := 24
	if testing.Short() {
		programs = 12
	}
	counts := map[string]int{}
	narrower := 0
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Stmts, cfg.Locks, cfg.WithHelper = 2+int(seed%2), 4+int(seed%3), 0, false
		cfg.ShortLoops, cfg.SpinWaits = seed%2 == 0, seed%3 == 0
		if seed%4 == 0 {
			cfg.CounterBits, cfg.LateBugs = 2, true
		}
		p, src, rounds, switches, plain := boundedCase(t, seed, cfg)
		eo := explicit.DefaultOptions()
		eo.Rounds, eo.Switches, eo.Depth, eo.MaxStates, eo.GetafixSwitches = rounds, switches, 64, 300_000, true
		ck, err := explicit.New(p, eo)
		if err != nil {
			t.Fatal(err)
		}
		ex := ck.Run(context.Background())
		if ex.Incomplete() {
			continue
		}
		if plain.Verdict == result.Unsafe && ex.Verdict == result.Safe {
			narrower++
		}
		if plain.Verdict == result.Safe && ex.Verdict == result.Unsafe && !plain.Incomplete() {
			t.Fatalf("seed %d: a violation with Getafix's switch points but none without them\n%s", seed, src)
		}
		for _, name := range []SolverName{SolverBDD, SolverGini} {
			o := Options{Solver: name, Bounds: DefaultBounds()}
			o.Bounds.Rounds, o.Bounds.Switches, o.Bounds.GetafixSwitches = rounds, switches, true
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := checkSummaries(ctx, p, o, "product")
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, name, err, src)
			}
			if res.Verdict == result.Unknown && ctx.Err() != nil {
				counts[string(name)+" out of time"]++
				continue
			}
			if res.Verdict != ex.Verdict {
				t.Fatalf("seed %d, %s, %d rounds, %d switches: explicit %s, product %s %v\n%s", seed, name, rounds, switches,
					ex.Verdict, res.Verdict, res.Limits, src)
			}
			counts[string(name)+" "+res.Verdict.String()]++
		}
	}
	bothVerdicts(t, []SolverName{SolverBDD, SolverGini}, counts)
	if narrower == 0 {
		t.Errorf("no program is safe with Getafix's switch points and unsafe without them: the rule went untested")
	}
}

// TestGetafixSwitchPointCases pins, on both engines that ask Getafix's
// question, the cases its formulas decide apart from ours: a thread is
// left only while the flag (the first global) is false, even at its end
// and even when its context is empty, except the first thread chosen
// under a switch bound, which leaves no one.
func TestGetafixSwitchPointCases(t *testing.T) {
	const (
		emptyFirst = "decl f, g;\nvoid init() begin f := T; end\n" +
			"thread void a() begin f := F; end\n" +
			"thread void b() begin if (f) then SLIC_ERROR: skip; fi end\n"
		leftAtEnd = "decl f, g;\nvoid init() begin f, g := F, F; end\n" +
			"thread void a() begin f := T; g := T; end\n" +
			"thread void b() begin if (g) then SLIC_ERROR: skip; fi end\n"
	)
	for _, tc := range []struct {
		name, src        string
		rounds, switches int
		ours, getafix    result.Verdict
	}{
		{"a skipped first context leaves its thread", emptyFirst, 1, -1, result.Unsafe, result.Safe},
		{"the first thread chosen leaves no one", emptyFirst, 0, 0, result.Unsafe, result.Unsafe},
		{"an ended thread is left only with the flag false", leftAtEnd, 2, -1, result.Unsafe, result.Safe},
		{"the same under a switch bound", leftAtEnd, 0, 3, result.Unsafe, result.Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := load(t, "prog.bpl", tc.src, ir.Options{})
			for _, getafix := range []bool{false, true} {
				want := tc.ours
				if getafix {
					want = tc.getafix
				}
				o := Options{Solver: "bdd", Bounds: DefaultBounds()}
				o.Bounds.Rounds, o.Bounds.Switches, o.Bounds.GetafixSwitches = tc.rounds, tc.switches, getafix
				ex, err := checkExplicit(context.Background(), p, o)
				if err != nil {
					t.Fatal(err)
				}
				pr, err := checkSummaries(context.Background(), p, o, "product")
				if err != nil {
					t.Fatal(err)
				}
				if ex.Verdict != want || pr.Verdict != want {
					t.Errorf("Getafix's switch points %v: explicit %s, product %s, want %s", getafix, ex.Verdict, pr.Verdict, want)
				}
			}
		})
	}
}

// boundedCase loads the program progen makes of seed and cfg, picks its
// bound (rounds on two seeds of three, switches on the third) and runs
// the explicit search within it, at 64 frames.
func boundedCase(t *testing.T, seed int64, cfg progen.Config) (p *ir.Program, src string, rounds, switches int, ex *result.Result) {
	t.Helper()
	src = progen.Generate(seed, cfg)
	p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	rounds, switches = 1+int(seed%3), -1
	if seed%3 == 1 {
		rounds, switches = 0, int(seed%4)
	}
	eo := explicit.DefaultOptions()
	eo.Rounds, eo.Switches, eo.Depth, eo.MaxStates = rounds, switches, 64, 300_000
	ck, _ := explicit.New(p, eo)
	return p, src, rounds, switches, ck.Run(context.Background())
}

// disagreement says why a summary engine's verdict res contradicts the
// explicit search's ex (at more frames than the summaries need), or "".
func disagreement(ex, res *result.Result) string {
	switch {
	case res.Verdict == result.Unknown:
		return "no verdict"
	case res.Verdict == result.Safe && ex.Verdict == result.Unsafe:
		return "the summaries proved safe a program with a violation"
	case res.Verdict == result.Unsafe && ex.Verdict == result.Safe && !ex.Incomplete() && !ex.DepthHit():
		return "the summaries found a violation the complete explicit search did not"
	}
	return ""
}

// bothVerdicts fails unless each solver gave both verdicts: the random
// programs must exercise proofs and counterexamples alike.
func bothVerdicts(t *testing.T, solvers []SolverName, counts map[string]int) {
	t.Helper()
	t.Logf("outcomes: %v", counts)
	for _, name := range solvers {
		if counts[string(name)+" safe"] == 0 || counts[string(name)+" unsafe"] == 0 {
			t.Errorf("%s: want both verdicts among the programs, got %v", name, counts)
		}
	}
}

// summarySolvers are the solvers of the summary engine in this build.
func summarySolvers() []SolverName {
	if smt.Available {
		return []SolverName{SolverGini, SolverBDD, SolverZ3}
	}
	return []SolverName{SolverGini, SolverBDD}
}

// TestFoldDecidesSafeStack checks the SafeStack variant whose checks
// test values every write stores as 0 (its manifest says safe): with the
// reads folded the product encoding keeps no query, so the least model
// proves it at 4 rounds at once (90 s and more without the fold).
func TestFoldDecidesSafeStack(t *testing.T) {
	path := filepath.Join(corpus.Dir(t), "getafix-trucnguyenlam", "SafeStack", "old-SafeStack_seqcst_forCSEQ_inlined_unrolled_underapprox_safe.bp")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := ir.Load(context.Background(), path, src, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Solver: "bdd", Bounds: DefaultBounds()}
	o.Bounds.Rounds = 4
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := checkSummaries(ctx, p, o, "product")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Safe || !strings.Contains(res.Proof, "stack_value0_0") {
		t.Errorf("%s %v, proof %q; want safe with stack_value0_0 folded", res.Verdict, res.Limits, res.Proof)
	}
}

// TestReturnedHelperCalls: a recursion whose every level calls a helper
// that returns (the counter's increment in inc()) fails its assertion
// 20 and 41 calls deep. Each returned call's summary is derived from
// its caller's cut point, so the counterexample unfolded as a tree has
// 2^20 (2^41) nodes; kept as a DAG, it is found, checked, expanded and
// replayed at once (it took 18 s and 3.9 GB at 20 calls, and did not end
// at 41).
func TestReturnedHelperCalls(t *testing.T) {
	const helper = `decl c4, c3, c2, c1, c0;
void main() begin
  c4, c3, c2, c1, c0 := F, F, F, F, F;
  deeper();
end
void inc() begin
  c4, c3, c2, c1, c0 := c4 ^ (c3 & c2 & c1 & c0), c3 ^ (c2 & c1 & c0), c2 ^ (c1 & c0), c1 ^ c0, !c0;
end
void deeper() begin
  inc();
  assert(!(c4 & !c3 & c2 & !c1 & !c0));
  deeper();
end
`
	const mutual = `decl c5, c4, c3, c2, c1, c0;
void main() begin
  c5, c4, c3, c2, c1, c0 := F, F, F, F, F, F;
  even();
end
void inc() begin
  c5, c4, c3, c2, c1, c0 := c5 ^ (c4 & c3 & c2 & c1 & c0), c4 ^ (c3 & c2 & c1 & c0), c3 ^ (c2 & c1 & c0), c2 ^ (c1 & c0), c1 ^ c0, !c0;
end
void even() begin
  inc();
  assert(!(c5 & !c4 & c3 & !c2 & !c1 & c0));
  odd();
end
void odd() begin
  inc();
  assert(!(c5 & !c4 & c3 & !c2 & !c1 & c0));
  even();
end
`
	for _, c := range []struct {
		name, src string
		incs      int
	}{
		{"helper", helper, 20},
		{"mutual", mutual, 41},
	} {
		p := load(t, c.name+".bpl", c.src, ir.Options{})
		for _, name := range []SolverName{SolverGini, SolverBDD} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			start := time.Now()
			res, err := summaries(ctx, p, summaryOptions{Solver: name})
			cancel()
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, name, err)
			}
			t.Logf("%s, %s: %s in %v (%s)", c.name, name, res.Verdict, time.Since(start).Round(time.Millisecond), res.Stats)
			if res.Verdict != result.Unsafe || res.Trace == nil {
				t.Fatalf("%s, %s: %s %v, want unsafe with a trace", c.name, name, res.Verdict, res.Limits)
			}
			incs := 0
			for _, st := range res.Trace.Steps {
				if st.Stmt == "inc();" {
					incs++
				}
			}
			if incs != c.incs {
				t.Errorf("%s, %s: the trace calls inc() %d times, want %d", c.name, name, incs, c.incs)
			}
		}
	}
}
