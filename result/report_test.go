package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"bmc/lang"
)

// TestWriteText checks the report of each verdict: the bounds it holds
// under, the limits and advice of an unknown one, and the trace of a
// violation with its scheduling events (an event line ends a block of
// aligned columns).
func TestWriteText(t *testing.T) {
	trace := &Trace{Violation: "assertion failed", File: "p.bpl", Pos: lang.Pos{Line: 7, Col: 3}, Switches: 1,
		Steps: []Step{
			{Thread: "main#0", Pos: lang.Pos{Line: 5, Col: 2}, Stmt: "x := T", Changes: []string{"x=T"}},
			{Event: "context switch to t#1"},
			{Thread: "t#1", Pos: lang.Pos{Line: 7, Col: 3}, Stmt: "assert(!x)"},
		}}
	cases := []struct {
		name string
		res  Result
		want []string
	}{
		{"safe", Result{Engine: "explicit", Verdict: Safe, Bounds: "2 rounds", Depth: 16, Stats: "12 states", Elapsed: 20 * time.Millisecond},
			[]string{"p.bpl: safe: no violation within 2 rounds, call depth 16 (explicit, 12 states, 0.02s)\n"}},
		{"safe at any depth, from a search", Result{Engine: "explicit", Verdict: Safe, Bounds: "2 rounds", Depth: 16, AnyDepth: true},
			[]string{"p.bpl: safe at any call depth: no violation within 2 rounds, any call depth (no execution reaches depth 16) (explicit, 0.00s)\n"}},
		{"safe at any depth, from summaries", Result{Engine: "summaries+bdd", Verdict: Safe, AnyDepth: true, Proof: "summaries"},
			[]string{"p.bpl: safe at any call depth: proved: no violation within any call depth (summaries; summaries+bdd, 0.00s)\n"}},
		{"safe, nothing to bound", Result{Engine: "explicit", Verdict: Safe},
			[]string{"p.bpl: safe: no violation (explicit, 0.00s)\n"}},
		{"unknown, nothing to bound", Result{Engine: "summaries+gini", Verdict: Unknown, Limits: []Limit{{LimitMemory, "(1G)"}}},
			[]string{"p.bpl: unknown: no violation found, but the search was incomplete: memory limit (1G) (summaries+gini, 0.00s)\n"}},
		{"unknown", Result{Engine: "bmc+gini", Verdict: Unknown, Bounds: "50 steps", Limits: []Limit{{LimitTimeout, "at bound 3"}, {LimitDepth, "(call depth 2)"}}, Advice: "a longer --timeout"},
			[]string{"p.bpl: unknown: no violation found within 50 steps, but the search was incomplete: timeout at bound 3; depth bound reached (call depth 2) (bmc+gini, 0.00s)\n",
				"p.bpl: to decide it: a longer --timeout\n"}},
		{"unsafe", Result{Engine: "explicit", Verdict: Unsafe, Bounds: "1 context switch", Trace: trace},
			[]string{"p.bpl:7:3: violation: assertion failed\n", "trace (2 steps, 1 context switch):\n",
				"  main#0  5:2  x := T  x=T\n", "  ---- context switch to t#1\n", "  t#1  7:3  assert(!x)  \n",
				"p.bpl: unsafe: violation found within 1 context switch (explicit, 0.00s)\n"}},
	}
	for _, tc := range cases {
		var b bytes.Buffer
		tc.res.WriteText(&b, "p.bpl")
		if got, want := b.String(), strings.Join(tc.want, ""); got != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, want)
		}
	}
}

// TestWriteJSON checks that the JSON report carries the verdict, the
// violation's position and the trace's steps with their positions.
func TestWriteJSON(t *testing.T) {
	r := Result{Engine: "explicit", Verdict: Unsafe, Bounds: "2 rounds", Trace: &Trace{Violation: "error label reached",
		File: "q.bpl", Pos: lang.Pos{Line: 4, Col: 1}, Steps: []Step{{Thread: "main#0", Pos: lang.Pos{Line: 3, Col: 5}, Stmt: "skip"}}}}
	var b bytes.Buffer
	if err := r.WriteJSON(&b, "q.bpl"); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Verdict   string
		Violation struct {
			Message   string
			Line, Col int
		}
		Trace []struct {
			Thread, Statement string
			Line, Col         int
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != "unsafe" || got.Violation.Message != "error label reached" || got.Violation.Line != 4 ||
		len(got.Trace) != 1 || got.Trace[0].Statement != "skip" || got.Trace[0].Line != 3 || got.Trace[0].Col != 5 {
		t.Errorf("got %+v from\n%s", got, b.String())
	}
}

func TestPluralAndIncomplete(t *testing.T) {
	for _, tc := range []struct {
		n    int
		word string
		want string
	}{{1, "thread", "1 thread"}, {2, "thread", "2 threads"}, {0, "round", "0 rounds"}, {3, "context switch", "3 context switches"}} {
		if got := Plural(tc.n, tc.word); got != tc.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.word, got, tc.want)
		}
	}
	for _, tc := range []struct {
		limits []Limit
		want   bool
	}{{nil, false}, {[]Limit{{LimitDepth, "(call depth 2)"}}, false}, {[]Limit{{LimitSteps, ""}}, false},
		{[]Limit{{LimitDepth, ""}, {LimitTimeout, "at bound 4"}}, true}, {[]Limit{{LimitMemory, "(1G)"}}, true}, {[]Limit{{LimitStates, ""}}, true}} {
		if got := (&Result{Limits: tc.limits}).Incomplete(); got != tc.want {
			t.Errorf("Incomplete(%v) = %v, want %v", tc.limits, got, tc.want)
		}
	}
}
