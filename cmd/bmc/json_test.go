package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSON checks the machine-readable result of a violation and of a
// safe run.
func TestJSON(t *testing.T) {
	type step struct {
		Thread, Event, Statement string
		Line                     int
	}
	type result struct {
		Verdict, Bounds string
		States          int
		Violation       *struct {
			Message          string
			Line, Col        int
			Context_switches int `json:"context_switches"`
		}
		Trace []step
	}
	var out, errb bytes.Buffer
	code := run([]string{"check", "--json", "--switches", "2", "../../examples/peterson_buggy.bpl"}, &out, &errb)
	var r result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if code != exitViolation || r.Verdict != "unsafe" || r.Violation == nil || r.Violation.Line == 0 || len(r.Trace) == 0 {
		t.Fatalf("exit %d, result %+v", code, r)
	}
	if r.Violation.Context_switches > 2 {
		t.Errorf("trace uses %d switches, bound 2", r.Violation.Context_switches)
	}
	last := r.Trace[len(r.Trace)-1]
	if last.Line != r.Violation.Line || last.Statement == "" || last.Thread == "" {
		t.Errorf("last step %+v does not show the violation at line %d", last, r.Violation.Line)
	}

	out.Reset()
	code = run([]string{"check", "--json", "-k", "2", "../../examples/peterson.bpl"}, &out, &errb)
	r = result{}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || code != exitSafe || r.Verdict != "safe" || r.Bounds == "" || r.Trace != nil {
		t.Fatalf("exit %d, err %v, result %+v", code, err, r)
	}
}
