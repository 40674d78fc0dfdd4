package driver

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"bmc/method"
	"bmc/result"
)

// standIn is an engine for the portfolio's tests: it answers verdict
// after delay, or runs until its context ends (delay < 0), and records
// that it ran, how many run at once, and that it has ended.
type standIn struct {
	verdict result.Verdict
	limits  []result.Limit
	delay   time.Duration
	err     error
	ran     atomic.Bool
	ended   atomic.Bool
}

func (s *standIn) candidate(name string, after time.Duration, busy *atomic.Int32, most *atomic.Int32) Candidate {
	return Candidate{After: after, Method: method.Method{Name: name, Cores: 1, Run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
		s.ran.Store(true)
		n := busy.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		defer func() {
			busy.Add(-1)
			s.ended.Store(true)
		}()
		if s.delay < 0 {
			<-ctx.Done()
			return &result.Result{Engine: name, Verdict: result.Unknown, Limits: []result.Limit{result.Stopped(ctx, "")}}, nil
		}
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return &result.Result{Engine: name, Verdict: result.Unknown, Limits: []result.Limit{result.Stopped(ctx, "")}}, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		return &result.Result{Engine: name, Verdict: s.verdict, Limits: s.limits}, nil
	}}}
}

// TestPortfolio: the first decisive answer wins; the others are
// cancelled and have ended when the run returns; no more candidates run
// at once than the plan has cores, later ones starting as cores free up;
// an undecided run reports the first candidate's answer with the others'
// limits; a usage error of one candidate leaves the others to answer,
// and an internal error ends the run.
func TestPortfolio(t *testing.T) {
	depth := result.NewLimit(result.LimitDepth, "(call depth 4)")
	states := result.NewLimit(result.LimitStates, "(10 states)")
	cases := []struct {
		name    string
		cores   int
		engines []*standIn
		after   []time.Duration
		want    result.Verdict
		winner  string // "" when none: the first's answer
		limits  int
		err     bool
		ran     []bool
	}{
		{"the fast one wins, the slow one is stopped", 2,
			[]*standIn{{delay: -1}, {verdict: result.Safe, delay: 10 * time.Millisecond}}, nil,
			result.Safe, "e1", 0, false, []bool{true, true}},
		{"an unknown does not win", 2,
			[]*standIn{{verdict: result.Unknown, limits: []result.Limit{states}}, {verdict: result.Unsafe, delay: 20 * time.Millisecond}}, nil,
			result.Unsafe, "e1", 0, false, []bool{true, true}},
		{"a settled unknown wins", 2,
			[]*standIn{{verdict: result.Unknown, limits: []result.Limit{depth}}, {delay: -1}}, nil,
			result.Unknown, "e0", 1, false, []bool{true, true}},
		{"one core: the second starts when the first has given up", 1,
			[]*standIn{{verdict: result.Unknown, limits: []result.Limit{states}, delay: 10 * time.Millisecond}, {verdict: result.Safe}}, nil,
			result.Safe, "e1", 0, false, []bool{true, true}},
		{"one core: the second never starts after a win", 1,
			[]*standIn{{verdict: result.Unsafe}, {verdict: result.Safe}}, nil,
			result.Unsafe, "e0", 0, false, []bool{true, false}},
		{"undecided: the first's answer with the others' limits", 2,
			[]*standIn{{verdict: result.Unknown, limits: []result.Limit{states}}, {verdict: result.Unknown, limits: []result.Limit{{Kind: result.LimitTimeout}}}}, nil,
			result.Unknown, "e0", 2, false, []bool{true, true}},
		{"a usage error leaves the other to answer", 2,
			[]*standIn{{err: &result.UsageError{Msg: "no"}}, {verdict: result.Safe, delay: 10 * time.Millisecond}}, nil,
			result.Safe, "e1", 0, false, []bool{true, true}},
		{"an internal error ends the run", 2,
			[]*standIn{{err: errors.New("bug")}, {delay: -1}}, nil,
			0, "", 0, true, []bool{true, true}},
		{"a head start: the second waits", 2,
			[]*standIn{{verdict: result.Safe, delay: 10 * time.Millisecond}, {verdict: result.Safe}}, []time.Duration{0, time.Hour},
			result.Safe, "e0", 0, false, []bool{true, false}},
		{"a head start ends when the others have given up", 2,
			[]*standIn{{verdict: result.Unknown, limits: []result.Limit{states}}, {verdict: result.Safe}}, []time.Duration{0, time.Hour},
			result.Safe, "e1", 0, false, []bool{true, true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var busy, most atomic.Int32
			pl := &Plan{Cores: tc.cores}
			for i, e := range tc.engines {
				after := time.Duration(0)
				if tc.after != nil {
					after = tc.after[i]
				}
				pl.Candidates = append(pl.Candidates, e.candidate("e"+string(rune('0'+i)), after, &busy, &most))
			}
			done := make(chan struct{})
			var res *result.Result
			var err error
			go func() {
				res, err = pl.run(context.Background(), nil)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the run did not end")
			}
			for i, e := range tc.engines {
				if e.ran.Load() != tc.ran[i] {
					t.Errorf("e%d ran: %v, want %v", i, e.ran.Load(), tc.ran[i])
				}
				if e.ran.Load() && !e.ended.Load() {
					t.Errorf("e%d still running after the run returned", i)
				}
			}
			if int(most.Load()) > tc.cores {
				t.Errorf("%d engines ran at once on %d cores", most.Load(), tc.cores)
			}
			if tc.err {
				if err == nil {
					t.Fatalf("no error, result %v", res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want || res.Winner != tc.winner || len(res.Limits) != tc.limits || len(res.Plan) != len(tc.engines) {
				t.Errorf("%s by %s, limits %v, plan %v; want %s by %s with %d limits", res.Verdict, res.Winner, res.Limits, res.Plan, tc.want, tc.winner, tc.limits)
			}
		})
	}
}
