package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bmc/internal/progen"
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
			CallDepth        int `json:"call_depth"`
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

	if r.Violation.CallDepth != 1 {
		t.Errorf("call_depth %d, want 1 (no thread of peterson_buggy calls)", r.Violation.CallDepth)
	}

	// The summaries find deep_thread's violation at every call depth; the
	// trace says how deep it went: t1's frame and twenty of down().
	out.Reset()
	code = run([]string{"check", "--json", "-k", "1", "../../examples/deep_thread.bpl"}, &out, &errb)
	r = result{}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || code != exitViolation || r.Violation == nil || r.Violation.CallDepth != 21 {
		t.Fatalf("deep_thread: exit %d, err %v, result %+v, want call_depth 21", code, err, r.Violation)
	}

	out.Reset()
	code = run([]string{"check", "--json", "-k", "2", "../../examples/peterson.bpl"}, &out, &errb)
	r = result{}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || code != exitSafe || r.Verdict != "safe" || r.Bounds == "" || r.Trace != nil {
		t.Fatalf("exit %d, err %v, result %+v", code, err, r)
	}
}

// errorDoc is the JSON answer of a run without verdict.
type errorDoc struct {
	File       string
	Verdict    string
	ExitStatus int `json:"exit_status"`
	Errors     []struct {
		Message   string
		File      string
		Line, Col int
	}
}

// oneJSONDocument decodes stdout, which must hold exactly one JSON
// document, into v.
func oneJSONDocument(t *testing.T, stdout []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON document:\n%s", stdout)
	}
}

// TestJSONErrors checks that `bmc check --json` answers every failure
// with one JSON document on stdout: verdict "error", the exit status, and
// every message, with its position for errors in the program text.
func TestJSONErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name, src string) string {
		path := filepath.Join(dir, name)
		write(t, path, src)
		return path
	}
	syntax := file("syntax.bpl", "thread void producer()\nbegin\n  skip;\nthread void consumer()\nbegin\n  skip\n  skip;\nend\n")
	semantic := file("semantic.bpl", "decl x;\nvoid main()\nbegin\n  x, x := T, T;\n  y := T;\n  x := z;\nend\n")
	threads := file("threads.bpl", "decl g;\nthread void a() begin g := T; end\nthread void b() begin g := F; end\n")
	type pos struct{ line, col int }
	tests := []struct {
		name      string
		args      []string
		file      string // the document's file; "" for none
		messages  []string
		positions []pos  // of each message; nil: none
		stderr    string // in stderr
	}{
		{"syntax errors", []string{"check", "--json", syntax}, syntax,
			[]string{"expected end, found keyword thread", "expected ';', found keyword skip"}, []pos{{4, 1}, {7, 3}}, ""},
		{"semantic errors, warnings on stderr", []string{"check", "--json", semantic}, semantic,
			[]string{"undeclared variable y", "undeclared variable z"}, []pos{{5, 3}, {6, 8}}, "semantic.bpl:4:6: warning: x assigned twice"},
		{"bad flag value", []string{"check", "--json", "--max-memory", "lots", threads}, "",
			[]string{`bmc check: invalid argument "lots" for "--max-memory" flag: invalid size "lots" (examples: 512M, 4G)`}, nil, ""},
		{"unknown flag", []string{"check", "--bogus", "--json=true", threads}, "",
			[]string{"bmc check: unknown flag: --bogus"}, nil, ""},
		{"no file argument", []string{"check", "--json"}, "",
			[]string{"bmc check: expected one program file, got 0 arguments"}, nil, ""},
		{"two file arguments", []string{"check", "--json", threads, threads}, "",
			[]string{"bmc check: expected one program file, got 2 arguments"}, nil, ""},
		{"missing file", []string{"check", "--json", filepath.Join(dir, "none.bpl")}, filepath.Join(dir, "none.bpl"),
			[]string{"bmc: open " + filepath.Join(dir, "none.bpl") + ": no such file or directory"}, nil, ""},
		{"contradicting flags", []string{"check", "--json", "--engine", "explicit", "--solver", "z3", threads}, threads,
			[]string{"bmc check: --solver does not go with --engine explicit: the explicit engine uses no solver"}, nil, ""},
		{"option that does not fit the program", []string{"check", "--json", "--threads", "nope=1", threads}, threads,
			[]string{threads + ": --threads: no function named nope"}, nil, ""},
		{"engine that does not fit the program", []string{"check", "--json", "--engine", "bmc", threads}, threads,
			[]string{"bmc check: the bmc engine needs a bound for a concurrent program: -k K or --switches N"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			var doc errorDoc
			oneJSONDocument(t, stdout.Bytes(), &doc)
			if code != exitBadInput || doc.Verdict != "error" || doc.ExitStatus != exitBadInput || doc.File != tc.file {
				t.Errorf("exit %d, document %+v; want exit 2, verdict error, file %q", code, doc, tc.file)
			}
			if len(doc.Errors) != len(tc.messages) {
				t.Fatalf("errors %+v, want %q", doc.Errors, tc.messages)
			}
			for i, e := range doc.Errors {
				var want pos
				wantFile := ""
				if tc.positions != nil {
					want, wantFile = tc.positions[i], tc.file
				}
				if e.Message != tc.messages[i] || e.File != wantFile || e.Line != want.line || e.Col != want.col {
					t.Errorf("error %d: %+v, want %q at %s:%d:%d", i, e, tc.messages[i], wantFile, want.line, want.col)
				}
			}
			if !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() > 0 {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}

// TestJSONOnlyWhenAsked checks that --json=false and other commands
// report errors as text.
func TestJSONOnlyWhenAsked(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--json=false", "--bogus", "x.bpl"},
		{"check", "--", "--json"},
		{"fmt", "--json", "x.bpl"},
		{"seq", "--json", "x.bpl"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitBadInput || stdout.Len() > 0 || stderr.Len() == 0 {
			t.Errorf("bmc %s: exit %d, stdout %q, stderr %q; want exit 2 and the error on stderr", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
	}
}

// panicOnce is a writer whose first write panics, as a bug while the
// result is printed would.
type panicOnce struct {
	bytes.Buffer
	panicked bool
}

func (w *panicOnce) Write(p []byte) (int, error) {
	if !w.panicked {
		w.panicked = true
		panic("bug while writing")
	}
	return w.Buffer.Write(p)
}

// TestJSONInternalError checks that an internal error, a panic included,
// is exit status 4 with a JSON document.
func TestJSONInternalError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := report(internalErr("bmc: counterexample does not replay"), true, &stdout, &stderr)
	var doc errorDoc
	oneJSONDocument(t, stdout.Bytes(), &doc)
	if code != exitInternal || doc.Verdict != "error" || doc.ExitStatus != exitInternal || len(doc.Errors) != 1 || doc.Errors[0].Message != "bmc: counterexample does not replay" {
		t.Errorf("exit %d, document %+v", code, doc)
	}

	var out panicOnce
	stderr.Reset()
	code = run([]string{"check", "--json", "--quiet", "../../examples/seq_swap.bpl"}, &out, &stderr)
	doc = errorDoc{}
	oneJSONDocument(t, out.Bytes(), &doc)
	if code != exitInternal || doc.Verdict != "error" || len(doc.Errors) != 1 || doc.Errors[0].Message != "bmc: internal error: bug while writing" {
		t.Errorf("after a panic: exit %d, document %+v\nstderr:\n%s", code, doc, stderr.String())
	}
	if !strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("no stack for the bug report on stderr:\n%s", stderr.String())
	}
}

// TestJSONLimits checks the unknown result of a run that the memory
// limit ends: one document, the limit named, the run's time.
func TestJSONLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chain.bpl")
	if err := os.WriteFile(path, []byte(progen.Chain(3000, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--json", "--quiet", "--max-memory", "1M", path}, &stdout, &stderr)
	var r struct {
		Verdict, Advice string
		Limits          []struct{ Kind, Text string }
		Seconds         float64
	}
	oneJSONDocument(t, stdout.Bytes(), &r)
	if code != exitUnknown || r.Verdict != "unknown" || len(r.Limits) != 1 || r.Limits[0].Kind != "memory" || !strings.HasPrefix(r.Limits[0].Text, "memory limit (1M)") ||
		!strings.Contains(r.Advice, "--max-memory") || r.Seconds <= 0 {
		t.Errorf("exit %d, result %+v", code, r)
	}
}

// TestJSONPlan: the JSON result names the plan (the engines raced, with
// their cores) and the winner, one of them; a pinned engine is a plan of
// one.
func TestJSONPlan(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		engines []string
	}{
		{[]string{"--switches", "4", "--threads", "adder=2,stopper=1"}, []string{"explicit", "counter abstraction, every interleaving", "reachability+bdd, every interleaving", "bmc+gini, eager sequentialization", "bmc+gini, lazy sequentialization"}},
		{[]string{"--switches", "4", "--threads", "adder=2,stopper=1", "--seq", "lazy"}, []string{"bmc+gini, lazy sequentialization"}},
		// Two threads: the explicit search first.
		{[]string{"--lasso", "1,1"}, []string{"explicit", "fair cycles+bdd, every interleaving", "bmc+gini, lasso translation"}},
		{[]string{"--lasso", "1,1", "--fairness", "none"}, []string{"explicit", "bmc+gini, direct interleaving product", "bmc+gini, lasso translation", "fair cycles+bdd, every interleaving"}},
	} {
		var stdout, stderr bytes.Buffer
		file := "../../examples/bluetooth.bpl"
		if tc.args[0] == "--lasso" {
			file = "../../examples/mutant_fig1b.bpl"
		}
		run(append(append([]string{"check", "--json", "--quiet"}, tc.args...), file), &stdout, &stderr)
		var r struct {
			Verdict string
			Plan    []struct {
				Engine string
				Cores  int
			}
			Winner string
		}
		oneJSONDocument(t, stdout.Bytes(), &r)
		var engines []string
		for _, c := range r.Plan {
			engines = append(engines, c.Engine)
			if c.Cores < 1 {
				t.Errorf("%v: %s has %d cores", tc.args, c.Engine, c.Cores)
			}
		}
		if !slices.Equal(engines, tc.engines) || !slices.Contains(engines, r.Winner) || r.Verdict != "unsafe" && r.Verdict != "livelock" {
			t.Errorf("%v: %s, plan %v, winner %q; want the plan %v", tc.args, r.Verdict, engines, r.Winner, tc.engines)
		}
	}
}
