package method

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// TestAmplifyDifferential is the soundness test of K-induction with
// amplification: on random small concurrent programs of two or three
// threads without recursion (loops that wait for shared flags, short
// counting loops, calls, a lock, bugs late in a loop over a shared
// counter), whenever --method amplify proves a program, the explicit
// engine's exhaustive search of every interleaving finds no violation;
// whenever it finds one (the base case), the search finds one too; and
// the decision diagrams and the candidate and run solvers never
// contradict each other. (The solvers may time out: their search
// refutes candidates one cube at a time; docs/BENCHMARKS.md.)
func TestAmplifyDifferential(t *testing.T) {
	programs := 16
	if testing.Short() {
		programs = 8
	}
	proved, bugs := 0, 0
	for seed := int64(1); seed <= int64(programs); seed++ {
		p, src := amplifyProgram(t, seed)
		o := Options{Solver: "gini", Bounds: DefaultBounds(), Proof: ProofOptions{MaxRounds: 4}}
		o.Bounds.Switches = -1
		truth, err := exhaustive(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		var answers []result.Verdict
		for _, name := range []SolverName{SolverBDD, SolverGini} {
			o.Solver = name
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			res, err := proveAmplify(ctx, p, o, nil)
			cancel()
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, name, err, src)
			}
			if res.Verdict != result.Unknown && truth.Verdict != result.Unknown && res.Verdict != truth.Verdict {
				t.Fatalf("seed %d, %s: amplify says %s, the exhaustive search %s\n%s", seed, name, res.Verdict, truth.Verdict, src)
			}
			if res.Verdict == result.Unsafe && res.Trace == nil {
				t.Fatalf("seed %d, %s: a violation without a trace", seed, name)
			}
			answers = append(answers, res.Verdict)
		}
		t.Logf("seed %d: truth %s, bdd %s, gini %s", seed, truth.Verdict, answers[0], answers[1])
		if answers[0] != result.Unknown && answers[1] != result.Unknown && answers[0] != answers[1] {
			t.Fatalf("seed %d: the diagrams say %s, the solvers %s\n%s", seed, answers[0], answers[1], src)
		}
		switch answers[0] {
		case result.Safe:
			proved++
		case result.Unsafe:
			bugs++
		}
	}
	t.Logf("%d proved, %d violations, of %d programs", proved, bugs, programs)
	if proved == 0 || bugs == 0 {
		t.Errorf("the programs should include proved ones and ones with violations: %d proved, %d violations", proved, bugs)
	}
}

// amplifyProgram is the random program of seed for the amplification
// tests: two or three threads without recursion, with wait loops or
// short loops, a helper, a lock, a late bug over a shared counter.
func amplifyProgram(t *testing.T, seed int64) (*ir.Program, string) {
	t.Helper()
	cfg := progen.DefaultConfig()
	cfg.Threads, cfg.Globals, cfg.Stmts = 2+int(seed%4/3), 2, 2+int(seed%2)
	cfg.SpinWaits, cfg.ShortLoops = seed%3 != 0, seed%3 == 0
	// A helper calls itself unless the program is bounded (which keeps
	// the short loops and drops the others).
	cfg.WithHelper, cfg.Bounded = seed%3 == 0, seed%3 == 0
	cfg.Locks = int(seed % 2)
	if seed%4 == 1 {
		cfg.CounterBits, cfg.LateBugs = 2, true
	}
	src := progen.Generate(seed, cfg)
	p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Recursive() {
		t.Fatalf("seed %d: progen made a recursive program", seed)
	}
	return p, src
}
