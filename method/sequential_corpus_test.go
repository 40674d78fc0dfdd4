package method

import (
	"context"
	"os"
	"testing"
	"time"

	"bmc/internal/corpus"
	"bmc/internal/testsolvers"
	"bmc/ir"
	"bmc/result"
)

// corpusProgram is a corpus program with a verdict, loaded.
type corpusProgram struct {
	c corpus.Case
	p *ir.Program
}

// sequentialCorpus loads the sequential programs of the corpus whose
// manifest gives a verdict; with no corpus, tb is skipped (corpus.Cases).
func sequentialCorpus(tb testing.TB) []corpusProgram {
	var out []corpusProgram
	for _, c := range corpus.Cases(tb) {
		if c.Kind != "sequential" || c.Expected != "safe" && c.Expected != "unsafe" {
			continue
		}
		src, err := os.ReadFile(c.Path())
		if err != nil {
			tb.Fatal(err)
		}
		p, _, err := ir.Load(context.Background(), c.Path(), src, ir.Options{Target: c.Bounds().Target})
		if err != nil {
			tb.Fatalf("%s: %v", c.Key(), err)
		}
		out = append(out, corpusProgram{c, p})
	}
	return out
}

// TestCorpusSequential checks every sequential corpus program with BMC on
// each solver, unrolled and (as `bmc check` does where the program is
// loop-free and non-recursive) encoded whole: the manifest's verdict, or
// for a safe program an honest "unknown" because the depth or the step
// bound was reached (BMC alone cannot prove a program with loops or
// recursion safe).
func TestCorpusSequential(t *testing.T) {
	programs := sequentialCorpus(t)
	for _, sp := range programs {
		c, p := sp.c, sp.p
		runs := testsolvers.All(t)
		runs["gini, unwound"] = runs["gini"]
		for name, mk := range runs {
			s := mk()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			res, err := bmc(ctx, p, s, bmcOptions{Depth: 16, MaxSteps: 50, Unwind: name == "gini, unwound"})
			cancel()
			s.Close()
			if err != nil {
				t.Fatalf("%s, %s: %v", c.Key(), name, err)
			}
			ok := res.Verdict.String() == c.Expected ||
				c.Expected == "safe" && res.Verdict == result.Unknown && honest(res.Limits)
			if !ok {
				t.Errorf("%s, %s: %s %v within %s, manifest expects %s", c.Key(), name, res.Verdict, res.Limits, res.Bounds, c.Expected)
			}
		}
	}
	if n := len(programs); n < 20 {
		t.Errorf("only %d sequential corpus programs", n)
	}
}

// honest says that every limit is the depth or the step bound.
func honest(limits []result.Limit) bool {
	for _, l := range limits {
		if l.Kind != result.LimitDepth && l.Kind != result.LimitSteps {
			return false
		}
	}
	return len(limits) > 0
}
