package driver

import (
	"context"
	"fmt"
	"testing"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/solver"
)

// TestAmplifyTranslation checks seq.Amplify, L^K of K-induction with
// amplification, against the inductive case's own construction: on
// random concurrent programs, the explicit engine finds a violation of
// L^K (some state at BASE reaches a violation within K rounds) exactly
// when the decision diagrams find a state of the envelope that reaches
// one within K rounds on the direct encoding started at BASE. The two
// share nothing but the program. With locks or atomic sections the
// envelope the direct encoding takes is larger (any one holder per lock,
// the atomic modes a dataflow allows), so there only a violation of L^K
// must be one of the diagrams.
func TestAmplifyTranslation(t *testing.T) {
	programs := 16 // 80 agreed once (130 s)
	if testing.Short() {
		programs = 8
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Threads, cfg.Globals, cfg.Stmts = 2+int(seed%4/3), 2, 2+int(seed%2)
		cfg.SpinWaits, cfg.ShortLoops = seed%3 != 0, seed%3 == 0
		cfg.WithHelper, cfg.Bounded = seed%3 == 0, seed%3 == 0
		cfg.Locks = int(seed % 2)
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Recursive() {
			t.Fatalf("seed %d: progen made a recursive program", seed)
		}
		exact := cfg.Locks == 0 && !usesAtomic(p)
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
			b.Depth, b.MaxStates, b.Switches = 64, 400_000, -1
			ck, err := explicit.New(sp.Seq, b.explicitOptions())
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
	if counts["exact=true L^K unsafe"] == 0 || counts["exact=true L^K safe"] == 0 {
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
