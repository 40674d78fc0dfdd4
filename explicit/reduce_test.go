package explicit

import (
	"context"
	"fmt"
	"testing"

	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// schedules are the scheduling modes every differential test covers.
var schedules = []struct {
	name             string
	switches, rounds int
}{
	{"interleavings", -1, 0},
	{"switches=0", 0, 0}, {"switches=1", 1, 0}, {"switches=2", 2, 0}, {"switches=3", 3, 0},
	{"rounds=1", -1, 1}, {"rounds=2", -1, 2}, {"rounds=3", -1, 3},
}

func loadText(t *testing.T, name, src string, opts ir.Options) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), name, []byte(src), opts)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return p
}

// sampleSeeds is how many random programs a differential test of this
// file samples: a few in a short run, more in a soak run.
func sampleSeeds() int64 {
	if testing.Short() && !soak.On() {
		return 20
	}
	return int64(soak.Seeds(40, 240))
}

// sampleProgram is the random program of seed with the given threads,
// four statements each, and its text.
func sampleProgram(t *testing.T, seed int64, threads int) (*ir.Program, string) {
	t.Helper()
	cfg := progen.DefaultConfig()
	cfg.Stmts, cfg.Threads = 4, threads
	src := progen.Generate(seed, cfg)
	return loadText(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{}), src
}

func runExplicit(t *testing.T, p *ir.Program, opts Options) *result.Result {
	t.Helper()
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run(context.Background())
}

// TestReductionAgreesOnRandomPrograms compares the reduced search with the
// plain one on random programs in every scheduling mode: a violation must
// be found by both or by neither.
func TestReductionAgreesOnRandomPrograms(t *testing.T) {
	unsafe, total := 0, 0
	for seed := int64(1); seed <= sampleSeeds(); seed++ {
		// Every fourth program has three threads.
		p, src := sampleProgram(t, seed, 2+int(seed%4/3))
		for _, sc := range schedules {
			opts := DefaultOptions()
			opts.Switches, opts.Rounds, opts.Depth, opts.MaxStates = sc.switches, sc.rounds, 4, 10_000
			full := opts
			full.NoReduction = true
			a, b := runExplicit(t, p, opts), runExplicit(t, p, full)
			if a.Incomplete() || b.Incomplete() {
				continue
			}
			if (a.Verdict == result.Unsafe) != (b.Verdict == result.Unsafe) {
				t.Fatalf("seed %d, %s: reduced search says %s, full search says %s\n%s", seed, sc.name, a.Verdict, b.Verdict, src)
			}
			total++
			if a.Verdict == result.Unsafe {
				unsafe++
			}
		}
	}
	// The generator must produce both outcomes, or the test proves little.
	if unsafe == 0 || unsafe == total {
		t.Fatalf("%d of %d (program, schedule) pairs unsafe: want both outcomes", unsafe, total)
	}
	t.Logf("%d of %d (program, schedule) pairs unsafe", unsafe, total)
}

// TestFewestSwitchesAgreesOnRandomPrograms compares the search that
// takes context switches first (Options.FewestSwitches, its switches
// deferred) with the search by statements, in every bounded mode: the
// same verdict; when safe, the same states; when unsafe, a trace with
// no more switches, and with as many, as few statements.
func TestFewestSwitchesAgreesOnRandomPrograms(t *testing.T) {
	unsafe, total := 0, 0
	for seed := int64(1); seed <= sampleSeeds(); seed++ {
		// Up to four threads, where switches multiply.
		p, src := sampleProgram(t, seed, 2+int(seed%3))
		for _, sc := range schedules[1:] {
			opts := DefaultOptions()
			opts.Switches, opts.Rounds, opts.Depth, opts.MaxStates = sc.switches, sc.rounds, 4, 20_000
			first := opts
			first.FewestSwitches = true
			a, b := runExplicit(t, p, opts), runExplicit(t, p, first)
			if a.Incomplete() || b.Incomplete() {
				continue
			}
			if a.Verdict != b.Verdict {
				t.Fatalf("seed %d, %s: by statements %s, switches first %s\n%s", seed, sc.name, a.Verdict, b.Verdict, src)
			}
			total++
			if a.Verdict != result.Unsafe {
				if a.States != b.States {
					t.Fatalf("seed %d, %s: safe, but %d states by statements and %d switches first\n%s", seed, sc.name, a.States, b.States, src)
				}
				continue
			}
			unsafe++
			as, bs := a.Trace.Switches, b.Trace.Switches
			if bs > as || bs == as && b.Trace.Statements() != a.Trace.Statements() {
				t.Fatalf("seed %d, %s: switches first found a trace of %d statements and %d switches, by statements %d and %d\n%s",
					seed, sc.name, b.Trace.Statements(), bs, a.Trace.Statements(), as, src)
			}
		}
	}
	if unsafe == 0 || unsafe == total {
		t.Fatalf("%d of %d (program, schedule) pairs unsafe: want both outcomes", unsafe, total)
	}
	t.Logf("%d of %d (program, schedule) pairs unsafe", unsafe, total)
}
