package progen

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// TestLoopingOptions generates programs with each looping option alone
// and with all of them: every program loads, and the construct the option
// promises occurs in most of them (a random statement kind may be drawn
// rarely, but not never).
func TestLoopingOptions(t *testing.T) {
	const seeds = 60
	tests := []struct {
		name string
		set  func(*Config)
		want *regexp.Regexp // in at least half of the programs
	}{
		{"spin waits", func(c *Config) { c.SpinWaits = true }, regexp.MustCompile(`while \(!?g\d\) do\n\s*skip;`)},
		{"short loops", func(c *Config) { c.ShortLoops = true }, regexp.MustCompile(`k0, k1 := !k0, k1 \^ k0;`)},
		{"bounded short loops", func(c *Config) { c.Bounded, c.ShortLoops = true, true }, regexp.MustCompile(`k0, k1 := !k0, k1 \^ k0;`)},
		{"counter", func(c *Config) { c.CounterBits = 3 }, regexp.MustCompile(`c0, c1, c2 := !c0, c1 \^ c0, c2 \^ \(c0 & c1\)`)},
		{"shuffle", func(c *Config) { c.ShuffleBits = 4 }, regexp.MustCompile(`s0, s1, s2, s3 := s3, s0, s1, s2;`)},
		{"recursive", func(c *Config) { c.Recursive = true }, regexp.MustCompile(`(?s)bool rec\(a\).*r := rec\(.*thread void.*rec\(`)},
		{"late counter", func(c *Config) { c.CounterBits, c.LateBugs = 4, true }, regexp.MustCompile(`assert\(!\(\(c3 & `)},
		{"late shuffle", func(c *Config) { c.ShuffleBits, c.LateBugs = 5, true }, regexp.MustCompile(`assert\(!\(s4`)},
		{"all", func(c *Config) {
			c.SpinWaits, c.ShortLoops, c.CounterBits, c.ShuffleBits, c.Recursive, c.LateBugs = true, true, 3, 4, true, true
		}, regexp.MustCompile(`assert\(!\(\(c2 & |assert\(!\(s3`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			found := 0
			for seed := int64(1); seed <= seeds; seed++ {
				cfg := DefaultConfig()
				tc.set(&cfg)
				src := Generate(seed, cfg)
				if _, _, err := ir.Load(context.Background(), "gen.bpl", []byte(src), ir.Options{}); err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				if tc.want.MatchString(src) {
					found++
				}
			}
			if found < seeds/2 {
				t.Errorf("%d of %d programs match %s", found, seeds, tc.want)
			}
		})
	}
}

// TestOptionsOffKeepPrograms: Bounded turns the looping options but
// ShortLoops off, so a bounded configuration with them set generates the
// very programs it generates without them.
func TestOptionsOffKeepPrograms(t *testing.T) {
	for seed := int64(1); seed <= 50; seed++ {
		plain := DefaultConfig()
		plain.Bounded = true
		looping := plain
		looping.SpinWaits, looping.CounterBits, looping.ShuffleBits, looping.Recursive, looping.LateBugs = true, 3, 4, true, true
		if a, b := Generate(seed, plain), Generate(seed, looping); a != b {
			t.Fatalf("seed %d: the looping options changed a bounded program:\n%s\nversus\n%s", seed, a, b)
		}
	}
}

// TestLateBugsAreLate checks the promise of LateBugs on programs whose
// only loop is the late one (no other statements): the shortest
// violation, which the explicit checker's breadth-first search finds,
// takes at least as many statements as the loop needs iterations (half
// the counter's range, or a rotation of the true bit through every
// shuffled bit) times the statements of one iteration.
func TestLateBugsAreLate(t *testing.T) {
	tests := []struct {
		counter, shuffle int
		minSteps         int
	}{
		// Three statements an iteration (test, increment, assert), at
		// least 5 increments.
		{counter: 3, minSteps: 3 * 5},
		{counter: 4, minSteps: 3 * 9},
		// Four statements an iteration (test, if, shuffle, assert), at
		// least 5 rotations.
		{shuffle: 6, minSteps: 4 * 5},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("counter%d shuffle%d", tc.counter, tc.shuffle), func(t *testing.T) {
			violations := 0
			for seed := int64(1); seed <= 20; seed++ {
				cfg := Config{Threads: 2, Globals: 1, CounterBits: tc.counter, ShuffleBits: tc.shuffle, LateBugs: true}
				src := Generate(seed, cfg)
				p, _, err := ir.Load(context.Background(), "late.bpl", []byte(src), ir.Options{})
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				o := explicit.DefaultOptions()
				o.Switches = 1
				c, err := explicit.New(p, o)
				if err != nil {
					t.Fatal(err)
				}
				r := c.Run(context.Background())
				if r.Verdict != result.Unsafe {
					continue
				}
				violations++
				steps := 0
				for _, s := range r.Trace.Steps {
					if s.Event == "" && s.Thread != "init" {
						steps++
					}
				}
				if steps < tc.minSteps {
					t.Errorf("seed %d: a violation after %d statements, want at least %d\n%s", seed, steps, tc.minSteps, src)
				}
			}
			if violations == 0 {
				t.Errorf("no program has a violation: the late loops were never entered")
			}
		})
	}
}
