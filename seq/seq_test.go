package seq

import (
	"context"
	"fmt"
	"testing"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// bounds are the context bounds the differential tests try.
var bounds = []Bound{{Rounds: 1}, {Rounds: 2}, {Switches: 0}, {Switches: 1}, {Switches: 2}}

func explicitOpts(b Bound, depth int) explicit.Options {
	o := explicit.DefaultOptions()
	o.Depth, o.MaxStates = depth, 300_000
	return o.Within(b.Rounds, b.Switches)
}

// TestSequentializationsAgree runs random concurrent programs and their
// eager and lazy sequentializations on the explicit checker: the verdicts
// must agree under every bound.
func TestSequentializationsAgree(t *testing.T) {
	const depth = 3
	programs := soak.Seeds(60, 360) // a sample; make soak runs more
	if testing.Short() {
		programs = 30
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts = 4
		if seed%3 == 0 {
			cfg.Threads, cfg.Stmts = 3, 3
		}
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, bd := range bounds {
			ck, _ := explicit.New(p, explicitOpts(bd, depth))
			want := ck.Run(context.Background())
			if want.Incomplete() && want.Verdict != result.Unsafe {
				counts["original incomplete"]++
				continue
			}
			for _, method := range []string{"eager", "lazy"} {
				sp, err := translate(context.Background(), p, bd, method == "eager")
				if err != nil {
					t.Fatalf("seed %d %s %v: %v", seed, method, bd, err)
				}
				if method == "eager" && guessedBits(sp) > 12 {
					// The explicit checker splits on every guessed bit a
					// consistency check reads: 2^bits states at once.
					counts["eager too many guesses"]++
					continue
				}
				so := explicit.DefaultOptions()
				so.Depth, so.MaxStates = depth+1, 40_000
				sc, _ := explicit.New(sp.Seq, so)
				got := sc.Run(context.Background())
				if got.Incomplete() && got.Verdict != result.Unsafe {
					counts[method+" incomplete"]++
					continue
				}
				if got.Verdict != want.Verdict {
					t.Fatalf("seed %d, %s, %v: original %s %v, sequentialized %s %v\n%s", seed, method, bd,
						want.Verdict, want.Limits, got.Verdict, got.Limits, src)
				}
				counts[method+" "+got.Verdict.String()]++
			}
		}
	}
	t.Logf("outcomes: %v", counts)
	for _, m := range []string{"eager", "lazy"} {
		if counts[m+" unsafe"] == 0 || counts[m+" safe"] == 0 {
			t.Errorf("%s: want both verdicts, got %v", m, counts)
		}
	}
}

// guessedBits counts the eager translation's guessed copies.
func guessedBits(sp *Program) int {
	n := 0
	for _, g := range sp.Seq.Globals {
		if g.Init == ir.Unknown {
			n++
		}
	}
	return n
}
