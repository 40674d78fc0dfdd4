package result

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"bmc/internal/halt"
)

// TestLimits: a limit's words, whether it leaves the bounds unsearched,
// its advice (for check and for prove) and its JSON all come from its
// kind's row.
func TestLimits(t *testing.T) {
	cases := []struct {
		limit      Limit
		words      string
		incomplete bool
		advice     string // in check's advice
		prove      string // in prove's advice
		json       string
	}{
		{Limit{LimitTimeout, "at bound 3"}, "timeout at bound 3", true, "a longer --timeout", "or another --method", `{"kind":"timeout","text":"timeout at bound 3"}`},
		{Limit{LimitMemory, "(1G) while encoding"}, "memory limit (1G) while encoding", true, "--max-memory", "--max-memory", `"kind":"memory"`},
		{Limit{LimitStates, "(10 states)"}, "state limit (10 states)", true, "--max-states", "--max-states", `"kind":"states"`},
		{Limit{LimitDepth, "(call depth 4)"}, "depth bound reached (call depth 4)", false, "needs a proof", "cannot be proved within one", `"kind":"depth"`},
		{Limit{LimitRecursion, "(call depth 4): the recursion at f.bpl:3:1 can go deeper"}, "depth bound reached (call depth 4): the recursion at f.bpl:3:1 can go deeper", false,
			"--engine explicit", "--engine explicit", `"kind":"recursion"`},
		{Limit{LimitThreads, "(4 threads)"}, "thread bound reached (4 threads)", false, "--max-threads", "--max-threads", `"kind":"threads"`},
		{Limit{LimitSteps, "(executions longer than 50 steps were not explored)"}, "step bound reached (executions longer than 50 steps were not explored)", false,
			"--max-steps N above 50", "--max-steps N above 50", `"kind":"steps"`},
		{Limit{LimitProofBound, "k bound reached (k = 3): no proof that a violation is unreachable"}, "k bound reached (k = 3): no proof that a violation is unreachable", true,
			"--max-k", "--max-k", `"kind":"proof-bound"`},
	}
	for _, tc := range cases {
		r := &Result{Verdict: Unknown, Limits: []Limit{tc.limit}, Bound: 50}
		if got := tc.limit.String(); got != tc.words {
			t.Errorf("%v: words %q, want %q", tc.limit.Kind, got, tc.words)
		}
		// Only a complete search that met the depth or thread bound is
		// settled.
		settled := tc.limit.Kind == LimitDepth || tc.limit.Kind == LimitThreads
		if r.Incomplete() != tc.incomplete || r.Settled() != settled {
			t.Errorf("%s: incomplete %v, settled %v", tc.words, r.Incomplete(), r.Settled())
		}
		if a := r.Advise("", false); !strings.Contains(a, tc.advice) {
			t.Errorf("%s: advice %q, want %q in it", tc.words, a, tc.advice)
		}
		if a := r.Advise("", true); !strings.Contains(a, tc.prove) {
			t.Errorf("%s: prove's advice %q, want %q in it", tc.words, a, tc.prove)
		}
		b, err := json.Marshal(tc.limit)
		if err != nil || !strings.Contains(string(b), tc.json) {
			t.Errorf("%s: JSON %s (%v), want %s in it", tc.words, b, err, tc.json)
		}
	}
	// Settled: a verdict, or unknown at the depth and thread bounds only.
	for _, tc := range []struct {
		r    Result
		want bool
	}{
		{Result{Verdict: Safe}, true},
		{Result{Verdict: Unknown}, false},
		{Result{Verdict: Unknown, Limits: []Limit{{LimitDepth, ""}, {LimitProved, "no violation ..."}}}, true},
		{Result{Verdict: Unknown, Limits: []Limit{{LimitDepth, ""}, {LimitStates, ""}}}, false},
		{Result{Verdict: Unknown, Limits: []Limit{{LimitRecursion, ""}}}, false},
	} {
		if got := tc.r.Settled(); got != tc.want {
			t.Errorf("%v: settled %v, want %v", tc.r.Limits, got, tc.want)
		}
	}
}

// TestStopped names the end of a context: its deadline, the memory
// limit, or another cause.
func TestStopped(t *testing.T) {
	deadline, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-deadline.Done()
	mem, cancelMem := context.WithCancelCause(context.Background())
	cancelMem(&halt.MemoryLimitError{Limit: "1G"})
	other, cancelOther := context.WithCancelCause(context.Background())
	cancelOther(errors.New("another engine answered"))
	for _, tc := range []struct {
		ctx  context.Context
		want string
		kind LimitKind
	}{
		{deadline, "timeout while encoding", LimitTimeout},
		{mem, "memory limit (1G) while encoding", LimitMemory},
		{other, "stopped (another engine answered) while encoding", LimitStopped},
	} {
		l := Stopped(tc.ctx, "while encoding")
		if l.Kind != tc.kind || l.String() != tc.want {
			t.Errorf("%v %q, want %v %q", l.Kind, l, tc.kind, tc.want)
		}
	}
}
