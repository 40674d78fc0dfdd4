package explicit

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"bmc/internal/corpus"
	"bmc/ir"
	"bmc/result"
)

// corpusTimeout is the time one corpus program may take in `make test`;
// programs that need longer are reported as not finished (the issue asks
// for agreement on every program finished within 60 s: `make corpus`
// runs the same check with that limit).
var corpusTimeout = flagDuration("BMC_CORPUS_TIMEOUT", 20*time.Second)

// corpusMaxStates caps memory in `make test`; `make corpus` lifts it so
// that only the time limit applies.
var corpusMaxStates = flagInt("BMC_CORPUS_MAX_STATES", DefaultOptions().MaxStates)

func flagInt(env string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil {
		return n
	}
	return def
}

func flagDuration(env string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(env)); err == nil {
		return d
	}
	return def
}

// corpusBounds turns the manifest's bounds into checker options.
func corpusBounds(c corpus.Case) (Options, ir.Options) {
	b := c.Bounds()
	opts := DefaultOptions()
	opts.Timeout, opts.MaxStates = corpusTimeout, corpusMaxStates
	opts.Rounds = b.Rounds
	if b.MaxThreads > 0 {
		opts.MaxThreads = b.MaxThreads
	}
	return opts, ir.Options{Target: b.Target}
}

// TestCorpusVerdicts checks the explicit checker against the expected
// verdicts of the third-party corpus.
func TestCorpusVerdicts(t *testing.T) {
	for _, c := range corpus.Cases(t) {
		if c.Expected != "safe" && c.Expected != "unsafe" {
			continue
		}
		key := c.Key()
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			path := c.Path()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			opts, lo := corpusBounds(c)
			p, _, err := ir.Load(context.Background(), path, src, lo)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			ck, err := New(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			res := ck.Run(context.Background())
			verdict, why := c.Want()
			if why != "" {
				t.Logf("manifest says %s; checking %s instead: %s", c.Expected, verdict, why)
			}
			want := result.Safe
			if verdict == "unsafe" {
				want = result.Unsafe
			}
			notFinished := false
			for _, l := range res.Limits {
				notFinished = notFinished || l.Kind == result.LimitTimeout || l.Kind == result.LimitStates
			}
			switch {
			case res.Verdict == want:
			case notFinished:
				t.Skipf("not finished within %s (%s): %v", corpusTimeout, res.Bounds, res.Limits)
			case res.Verdict == result.Unknown && want == result.Safe:
				// A thread or depth bound was reached without a violation:
				// consistent with safe, but only up to that bound.
				t.Logf("no violation within %s; %v", res.Bounds, res.Limits)
			default:
				msg := ""
				if res.Trace != nil {
					msg = res.Trace.Violation
				}
				t.Errorf("verdict %s within %s %v, manifest expects %s %s", res.Verdict, res.Bounds, res.Limits, want, msg)
			}
			// "a 4-round bound misses it": the bug needs more rounds.
			if miss := c.Bounds().MissRounds; miss > 0 {
				opts.Rounds = miss
				ck, _ := New(p, opts)
				if r := ck.Run(context.Background()); r.Verdict != result.Safe {
					t.Errorf("manifest says %d rounds miss the bug; got %s", opts.Rounds, r.Verdict)
				}
			}
		})
	}
}
