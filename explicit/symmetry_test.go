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

// TestSymmetryAgreesOnRandomPrograms compares the search reduced by the
// symmetry of replicated threads with the plain one on random programs
// with two or three instances of t0 (and two of t1 in every third),
// with the partial-order reduction (and without it, in every fourth), in
// every scheduling mode: a
// violation must be found by both or by neither, with the same cost
// (the reduced search keeps one state per orbit, and a cheapest
// violation's cost is the same in every state of an orbit); the
// reduced search's trace must replay on the program as written; and the
// reduction must store fewer states somewhere, or it reduces nothing.
func TestSymmetryAgreesOnRandomPrograms(t *testing.T) {
	t.Parallel()
	// A sample with violations (seeds 13 and 16); make soak runs 1..48.
	first, last := soak.Range(9, 16, 48)
	if testing.Short() && !soak.On() {
		first = 11
	}
	var tally reductionTally
	for seed := first; seed <= last; seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts = 4
		if seed%2 == 0 {
			cfg.ShortLoops, cfg.CounterBits = true, 2
		}
		src := progen.Generate(seed, cfg)
		threads := []ir.ThreadCount{{Name: "t0", Count: 2 + int(seed%2)}, {Name: "t1", Count: 1 + int(seed%3/2)}}
		p := loadText(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{Threads: threads})
		for _, sc := range schedules {
			modes := []bool{false}
			if seed%4 == 0 {
				modes = append(modes, true)
			}
			for _, noReduction := range modes {
				opts := DefaultOptions()
				opts.Switches, opts.Rounds, opts.Depth, opts.MaxStates = sc.switches, sc.rounds, 4, 30_000
				opts.NoReduction = noReduction
				c, a, b := reducedAndPlain(t, p, opts)
				if !tally.count(a, b) {
					continue
				}
				if a.Verdict != b.Verdict {
					t.Fatalf("seed %d, %s, no reduction %v: with symmetry %s, without %s\n%s", seed, sc.name, noReduction, a.Verdict, b.Verdict, src)
				}
				if a.Verdict != result.Unsafe {
					continue
				}
				if len(a.Trace.Steps) != len(b.Trace.Steps) {
					t.Errorf("seed %d, %s: a trace of %d lines with symmetry, %d without", seed, sc.name, len(a.Trace.Steps), len(b.Trace.Steps))
				}
				if _, err := Replay(p, opts, modelSteps(c)); err != nil {
					t.Fatalf("seed %d, %s, no reduction %v: the trace found with symmetry does not replay: %v\n%s", seed, sc.name, noReduction, err, src)
				}
			}
		}
	}
	tally.check(t)
}

// reducedAndPlain runs the search with opts (its reductions) and
// without the symmetry reductions: the reduced checker and both results.
func reducedAndPlain(t *testing.T, p *ir.Program, opts Options) (*Checker, *result.Result, *result.Result) {
	t.Helper()
	plain := opts
	plain.NoSymmetry = true
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Run(context.Background()), runExplicit(t, p, plain)
}

// reductionTally counts the pairs of a reduced and a plain search that
// both finished: how many are unsafe, and where the reduction stored
// fewer states.
type reductionTally struct{ unsafe, total, fewer int }

// count tallies the pair, and reports whether both finished.
func (r *reductionTally) count(reduced, plain *result.Result) bool {
	if reduced.Incomplete() || plain.Incomplete() {
		return false
	}
	r.total++
	if reduced.States < plain.States {
		r.fewer++
	}
	if plain.Verdict == result.Unsafe {
		r.unsafe++
	}
	return true
}

// check fails unless both outcomes came up and the reduction reduced.
func (r *reductionTally) check(t *testing.T) {
	t.Helper()
	t.Logf("%d of %d (program, schedule) pairs unsafe; %d with fewer states", r.unsafe, r.total, r.fewer)
	if r.unsafe == 0 || r.unsafe == r.total || r.fewer == 0 {
		t.Fatalf("%d of %d pairs unsafe, %d reduced: want both outcomes and some reduction", r.unsafe, r.total, r.fewer)
	}
}
