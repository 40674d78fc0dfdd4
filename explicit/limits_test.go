package explicit

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
)

// TestSearchEndsWithItsContext: the search notices the end of its context
// within a small fraction of a second even where every state is large
// (301 threads), and names the cause among the limits.
func TestSearchEndsWithItsContext(t *testing.T) {
	p := loadFile(t, "bluetooth.bpl", "adder=300,stopper=1")
	const limit = time.Second
	cases := []struct {
		name    string
		timeout time.Duration // Options.Timeout
		ctx     func() (context.Context, context.CancelFunc)
		bound   bound
		want    string
	}{
		{"Options.Timeout", limit, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
			bound{-1, 0}, "timeout"},
		{"deadline of the context", 0, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), limit)
		}, bound{2, 0}, "timeout"},
		{"the memory limit", 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(context.Background())
			stop := time.AfterFunc(limit, func() { cancel(&halt.MemoryLimitError{Limit: "1G"}) })
			return ctx, func() { stop.Stop(); cancel(nil) }
		}, bound{-1, 2}, "memory limit (1G)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.bound.options()
			opts.Timeout = tc.timeout
			c, err := New(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			res := c.Run(ctx)
			if took := time.Since(start); took > limit+time.Second {
				t.Errorf("the search ended %s after it was started, its limit was %s", took.Round(time.Millisecond), limit)
			}
			if res.Verdict != result.Unknown || !strings.Contains(res.LimitText(), tc.want) || !res.Incomplete() {
				t.Errorf("verdict %s, limits %q, incomplete %v; want unknown with %q", res.Verdict, res.Limits, res.Incomplete(), tc.want)
			}
		})
	}
}

// TestSplitEnds: a step with exponentially many refinements is ended by
// the search's limits at once, not after the memory is gone: 2^48 of one
// assertion reading 48 arbitrary globals by the timeout (they are made
// one at a time), 2^40 of a guard x_i = y_i over 40 pairs of arbitrary
// globals by the state limit.
func TestSplitEnds(t *testing.T) {
	var names, xs, ys, eqs []string
	for i := 0; i < 48; i++ {
		names = append(names, fmt.Sprintf("g%d", i))
	}
	for i := 0; i < 40; i++ {
		xs, ys = append(xs, fmt.Sprintf("x%d", i)), append(ys, fmt.Sprintf("y%d", i))
		eqs = append(eqs, fmt.Sprintf("x%d = y%d", i, i))
	}
	cases := []struct {
		name, src string
		opts      func(*Options)
		want      string
	}{
		{"timeout", fmt.Sprintf("decl %s;\nvoid main() begin assert(%s | T); end\n", strings.Join(names, ", "), strings.Join(names, " ^ ")),
			func(o *Options) { o.Timeout = time.Second }, "timeout"},
		{"state limit", fmt.Sprintf("decl %s, %s;\nvoid main() begin assume(%s); assert(F); end\n",
			strings.Join(xs, ", "), strings.Join(ys, ", "), strings.Join(eqs, " & ")),
			func(o *Options) { o.MaxStates = 10_000 }, "state limit (10000 states)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := ir.Load(context.Background(), "wide.bpl", []byte(tc.src), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			opts := DefaultOptions()
			tc.opts(&opts)
			c, err := New(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res := c.Run(context.Background())
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the search took %s", took.Round(time.Millisecond))
			}
			if res.Verdict != result.Unknown || !strings.Contains(res.LimitText(), tc.want) {
				t.Errorf("verdict %s, limits %q; want unknown with %q", res.Verdict, res.Limits, tc.want)
			}
		})
	}
}
