package method

import (
	"context"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/internal/testsolvers"
)

// BenchmarkSequentialCorpus times every sequential corpus program with the
// explicit checker and with BMC (call depth 16, at most 50 steps) on gini,
// on Z3, and on gini with one statement per step instead of large blocks.
// The "steps" metric is the bound BMC reached.
func BenchmarkSequentialCorpus(b *testing.B) {
	for _, sp := range sequentialCorpus(b) {
		c, p := sp.c, sp.p
		name := strings.TrimSuffix(strings.ReplaceAll(c.Key(), "/", "_"), ".bp")
		b.Run(name+"/explicit", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ck, _ := explicit.New(p, explicit.DefaultOptions())
				ck.Run(context.Background())
			}
		})
		for _, cfg := range []struct {
			label, solver string
			small         bool
		}{{"gini", "gini", false}, {"z3", "z3", false}, {"gini-small-steps", "gini", true}} {
			mk, ok := testsolvers.All(b)[cfg.solver]
			if !ok {
				continue
			}
			b.Run(name+"/"+cfg.label, func(b *testing.B) {
				steps := 0
				for i := 0; i < b.N; i++ {
					s := mk()
					res, err := bmc(context.Background(), p, s, bmcOptions{Depth: 16, MaxSteps: 50, SmallSteps: cfg.small})
					s.Close()
					if err != nil {
						b.Fatal(err)
					}
					steps = res.Bound
				}
				b.ReportMetric(float64(steps), "steps")
			})
		}
	}
}
