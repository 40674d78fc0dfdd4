package driver

import (
	"context"
	"os"
	"testing"
	"time"

	"bmc/internal/corpus"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/seq"
)

// corpusBMCTimeout is the time one check of a corpus program may take in
// `make test`, which keeps the test within half a minute on two cores;
// BMC_CORPUS_TIMEOUT changes it (`make corpus`: 60 s). A check that needs
// longer is reported as not finished.
func corpusBMCTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("BMC_CORPUS_TIMEOUT")); err == nil {
		return d
	}
	return 1500 * time.Millisecond
}

// TestCorpusConcurrentBMC checks the concurrent corpus programs whose
// manifest names a round bound (Getafix's round-robin rounds) with BMC on
// the eager and the lazy sequentialization at that bound: an unsafe
// program must give a violation (replayed on the explicit interpreter),
// a safe one no violation; a check that does not finish in time is
// logged, and at least one of each verdict must be confirmed.
func TestCorpusConcurrentBMC(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of BMC: not with -short")
	}
	cases := corpus.Cases(t)
	type outcome struct{ confirmed, unfinished int }
	results := make(chan map[string]outcome, len(cases))
	t.Run("programs", func(t *testing.T) {
		for _, c := range cases {
			want, why := c.Want()
			b := c.Bounds()
			if c.Kind != "concurrent" || want != "safe" && want != "unsafe" || b.Rounds == 0 {
				continue
			}
			t.Run(c.Key(), func(t *testing.T) {
				t.Parallel()
				if why != "" {
					t.Logf("manifest says %s; checking %s instead: %s", c.Expected, want, why)
				}
				src, err := os.ReadFile(c.Path())
				if err != nil {
					t.Fatal(err)
				}
				p, _, err := ir.Load(context.Background(), c.Path(), src, ir.Options{Target: b.Target})
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				if err := seq.Supported(p); err != nil {
					t.Skipf("not sequentialized: %v", err)
				}
				out := map[string]outcome{}
				for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy} {
					o := method.Options{Engine: "bmc", Solver: "gini", Seq: sq, MaxSteps: 50, Timeout: corpusBMCTimeout(), Bounds: method.DefaultBounds()}
					o.Bounds.Rounds, o.Bounds.Switches = b.Rounds, -1
					res, err := Check(context.Background(), p, o)
					if err != nil {
						t.Fatalf("%s: %v", sq, err)
					}
					r := out[want]
					switch {
					case res.Verdict.String() == want:
						r.confirmed++
					case res.Verdict == result.Unknown:
						r.unfinished++
						t.Logf("%s: not finished: %v within %s", sq, res.Limits, res.Bounds)
					default:
						t.Errorf("%s: %s within %s, manifest expects %s", sq, res.Verdict, res.Bounds, want)
					}
					out[want] = r
					t.Logf("%s: %s within %s (%v)", sq, res.Verdict, res.Bounds, res.Elapsed.Round(time.Millisecond))
				}
				results <- out
			})
		}
	})
	close(results)
	total := map[string]outcome{}
	for out := range results {
		for v, r := range out {
			t := total[v]
			t.confirmed += r.confirmed
			t.unfinished += r.unfinished
			total[v] = t
		}
	}
	t.Logf("confirmed/unfinished checks: %+v", total)
	if total["safe"].confirmed == 0 || total["unsafe"].confirmed == 0 {
		t.Errorf("want safe and unsafe programs confirmed by BMC, got %+v", total)
	}
}
