package explicit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"bmc/ir"
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
		{"another cause", 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(context.Background())
			stop := time.AfterFunc(limit, func() { cancel(errors.New("memory limit (1G)")) })
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
			if res.Verdict != Unknown || !slices.Contains(res.Limits, tc.want) || !res.Incomplete() {
				t.Errorf("verdict %s, limits %q, incomplete %v; want unknown with %q", res.Verdict, res.Limits, res.Incomplete(), tc.want)
			}
		})
	}
}

// TestSplitEndsWithItsContext: one step that reads 48 arbitrary globals
// has 2^48 refinements, which are made one at a time, so that a timeout
// ends the search at once instead of after the memory is gone.
func TestSplitEndsWithItsContext(t *testing.T) {
	var names []string
	for i := 0; i < 48; i++ {
		names = append(names, fmt.Sprintf("g%d", i))
	}
	src := fmt.Sprintf("decl %s;\nvoid main() begin assert(%s | T); end\n", strings.Join(names, ", "), strings.Join(names, " ^ "))
	p, _, err := ir.Load(context.Background(), "wide.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Timeout = time.Second
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := c.Run(context.Background())
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the search ended %s after it was started, its limit was 1s", took.Round(time.Millisecond))
	}
	if res.Verdict != Unknown || !slices.Contains(res.Limits, "timeout") {
		t.Errorf("verdict %s, limits %q; want unknown with a timeout", res.Verdict, res.Limits)
	}
}

// TestSplitEndsAtTheStateLimit: a guard x_i = y_i over 40 pairs of
// arbitrary globals has 2^40 satisfying refinements, which the state
// limit cuts short: the answer is unknown at once.
func TestSplitEndsAtTheStateLimit(t *testing.T) {
	var xs, ys, eqs []string
	for i := 0; i < 40; i++ {
		xs, ys = append(xs, fmt.Sprintf("x%d", i)), append(ys, fmt.Sprintf("y%d", i))
		eqs = append(eqs, fmt.Sprintf("x%d = y%d", i, i))
	}
	src := fmt.Sprintf("decl %s, %s;\nvoid main() begin assume(%s); assert(F); end\n",
		strings.Join(xs, ", "), strings.Join(ys, ", "), strings.Join(eqs, " & "))
	p, _, err := ir.Load(context.Background(), "pairs.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.MaxStates = 10_000
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := c.Run(context.Background())
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the search took %s", took.Round(time.Millisecond))
	}
	if res.Verdict != Unknown || !slices.Contains(res.Limits, "state limit (10000 states)") {
		t.Errorf("verdict %s, limits %q; want unknown at the state limit", res.Verdict, res.Limits)
	}
}
