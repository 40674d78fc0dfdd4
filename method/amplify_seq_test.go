package method

import (
	"context"
	"fmt"
	"testing"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/solver"
)

// TestAmplifyTranslationDifferential checks seq.Amplify, L^K of
// K-induction with amplification, against the inductive case's own
// construction: on
// random concurrent programs, the explicit engine finds a violation of
// L^K (some state at BASE reaches a violation within K rounds) exactly
// when the decision diagrams find a state of the envelope that reaches
// one within K rounds on the direct encoding started at BASE. The two
// share nothing but the program. With locks or atomic sections the
// envelope the direct encoding takes is larger (any one holder per lock,
// the atomic modes a dataflow allows), so there only a violation of L^K
// must be one of the diagrams.
func TestAmplifyTranslationDifferential(t *testing.T) {
	programs := 12 // 80 agreed once (130 s)
	if testing.Short() {
		programs = 6
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		p, src := amplifyProgram(t, seed)
		exact := len(p.Locks) == 0 && !usesAtomic(p)
		depth := 1
		for _, th := range p.Threads {
			depth = max(depth, callDepth(p, th.Proc))
		}
		for k := 1; k <= 2; k++ {
			sp, err := seq.Amplify(context.Background(), p, k)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			b := DefaultBounds()
			b.Depth, b.MaxStates, b.Switches = 64, 100_000, -1
			ck, err := explicit.New(sp.Seq, b.ExplicitOptions())
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			lk := ck.Run(context.Background())
			if lk.Verdict == result.Unknown {
				counts["L^K undecided"]++
				continue
			}
			m, err := encode.DirectBase(context.Background(), p, k+1, depth, encode.BaseOptions{Envelope: true})
			if err != nil {
				t.Fatal(err)
			}
			sys := m.System()
			// Short frozen true: K rounds from BASE.
			out := engine.ReachableByDiagrams(context.Background(), sys, sys.Bad[encode.PropViolation].Lit, sys.And(m.Envelope, m.Short), m.Sched, false)
			diagrams := out.Status == solver.Sat
			translation := lk.Verdict == result.Unsafe
			if translation && !diagrams || exact && translation != diagrams {
				t.Fatalf("seed %d, K = %d: L^K %s, the diagrams %s\n%s", seed, k, lk.Verdict, out.Status, src)
			}
			counts[fmt.Sprintf("exact=%v L^K %s", exact, lk.Verdict)]++
		}
	}
	t.Log(counts)
	// The full set gives both answers without locks (the short one may
	// not).
	if !testing.Short() && (counts["exact=true L^K unsafe"] == 0 || counts["exact=true L^K safe"] == 0) {
		t.Errorf("the programs did not give both answers without locks: %v", counts)
	}
}

// usesAtomic reports whether p has atomic sections or procedures.
func usesAtomic(p *ir.Program) bool {
	for _, pr := range p.Procs {
		if pr.Atomic {
			return true
		}
	}
	for _, e := range p.Edges {
		if e.Atomic != ir.NoMark {
			return true
		}
	}
	return false
}
