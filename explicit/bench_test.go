package explicit

import (
	"context"
	"os"
	"testing"

	"bmc/ir"
)

// BenchmarkExamples measures the explicit checker on example programs at
// the bounds of their expect lines.
func BenchmarkExamples(b *testing.B) {
	cases := []struct {
		name, file, threads string
		switches, rounds    int
	}{
		{"bluetooth-2a1s-switches4", "bluetooth.bpl", "adder=2,stopper=1", 4, 0},
		{"bluetooth-1a1s-switches6", "bluetooth.bpl", "adder=1,stopper=1", 6, 0},
		{"peterson-rounds5", "peterson.bpl", "", -1, 5},
		{"dekker-switches8", "dekker.bpl", "", 8, 0},
		{"permutation16-switches3", "permutation16.bpl", "", 3, 0},
		{"philosophers-switches6", "philosophers_trylock.bpl", "", 6, 0},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			src, err := os.ReadFile("../examples/" + c.file)
			if err != nil {
				b.Fatal(err)
			}
			var lo ir.Options
			if c.threads != "" {
				lo.Threads, _ = ir.ParseThreads(c.threads)
			}
			p, _, err := ir.Load(context.Background(), c.file, src, lo)
			if err != nil {
				b.Fatal(err)
			}
			opts := DefaultOptions()
			opts.Switches, opts.Rounds = c.switches, c.rounds
			states := 0
			for i := 0; i < b.N; i++ {
				ck, _ := New(p, opts)
				states = ck.Run(context.Background()).States
			}
			b.ReportMetric(float64(states), "states")
		})
	}
}
