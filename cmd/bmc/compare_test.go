package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bmc/driver"
	"bmc/internal/soak"
	"bmc/smt"
)

// compareDoc is the JSON answer of bmc compare.
type compareDoc struct {
	File, Bounds, Verdict, Why string
	Runs                       []struct {
		Engine, Verdict, Detail string
		Seconds                 float64
	}
	Notes []string
}

func runCompareJSON(t *testing.T, args ...string) (int, compareDoc, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"compare", "--json", "--quiet"}, args...), &out, &errb)
	var doc compareDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("bmc compare %v: exit %d, not JSON: %v\n%s%s", args, code, err, out.String(), errb.String())
	}
	return code, doc, errb.String()
}

// TestCompare runs every engine on a small program of each verdict: all
// decide and agree (exit 0), each run is in the table, and without Moped
// the answer says so.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	unsafe := filepath.Join(dir, "unsafe.bpl")
	safe := filepath.Join(dir, "safe.bpl")
	write(t, unsafe, "decl g;\nthread void a() begin g := T; end\nthread void b() begin assert(!g); end\n")
	write(t, safe, "decl g;\nthread void a() begin g := T; end\nthread void b() begin assert(g | !g); end\n")
	for _, c := range []struct{ file, want string }{{unsafe, "unsafe"}, {safe, "safe"}} {
		code, doc, _ := runCompareJSON(t, "--switches", "1", "--timeout", "30s", c.file)
		if code != exitSafe || doc.Verdict != c.want {
			t.Fatalf("%s: exit %d, %+v", c.file, code, doc)
		}
		engines := map[string]bool{}
		for _, r := range doc.Runs {
			engines[r.Engine] = true
			if r.Verdict != c.want {
				t.Errorf("%s: %s says %s (%s)", c.file, r.Engine, r.Verdict, r.Detail)
			}
		}
		for _, e := range []string{"explicit", "bmc+gini, eager sequentialization", "bmc+gini, lazy sequentialization",
			"summaries+gini, context encoding", "summaries+bdd, context encoding", "reachability+bdd, every interleaving"} {
			if !engines[e] {
				t.Errorf("%s: no run of %s in %+v", c.file, e, doc.Runs)
			}
		}
		_, haveMoped := engines["moped eager"]
		noted := len(doc.Notes) > 0 && strings.Contains(doc.Notes[0], "Moped is not on the PATH")
		if haveMoped == noted {
			t.Errorf("%s: Moped runs %v, note %q: want exactly one", c.file, haveMoped, doc.Notes)
		}
	}
}

// TestCompareWithoutMoped hides Moped: the comparison says so and
// compares bmc's own engines.
func TestCompareWithoutMoped(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, doc, stderr := runCompareJSON(t, "../../examples/seq_swap.bpl")
	if code != exitSafe || doc.Verdict != "safe" || len(doc.Notes) != 1 || !strings.Contains(doc.Notes[0], "Moped is not on the PATH") {
		t.Fatalf("exit %d, %+v\n%s", code, doc, stderr)
	}
	for _, r := range doc.Runs {
		if strings.HasPrefix(r.Engine, "moped") {
			t.Errorf("a Moped run without Moped: %+v", r)
		}
	}
}

// TestCompareEngines: --engines keeps the runs whose names begin with
// one of its words, and only those.
func TestCompareEngines(t *testing.T) {
	code, doc, stderr := runCompareJSON(t, "--engines", "explicit,bmc eager", "--switches", "1", "../../examples/spin_flip.bpl")
	if code != exitSafe || doc.Verdict != "unsafe" {
		t.Fatalf("exit %d, %+v\n%s", code, doc, stderr)
	}
	var got []string
	for _, r := range doc.Runs {
		got = append(got, r.Engine)
	}
	want := []string{"explicit", "bmc+gini, eager sequentialization"}
	if smt.Available {
		want = append(want, "bmc+z3, eager sequentialization")
	}
	if !slices.Equal(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
}

// TestCompareUsage: bad flags and programs give exit 2 with a message,
// in JSON as well.
func TestCompareUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"../../examples/peterson.bpl"}, "give a bound for a concurrent program"},
		{[]string{"-k", "1", "--switches", "1", "../../examples/peterson.bpl"}, "not both"},
		{[]string{"-k", "99", "../../examples/peterson.bpl"}, "-k must be between"},
		{[]string{"--depth", "0", "-k", "1", "../../examples/peterson.bpl"}, "--depth must be at least 1"},
		{[]string{"--timeout", "-1s", "-k", "1", "../../examples/peterson.bpl"}, "--timeout must not be negative"},
		{[]string{"--moped", "/nonexistent/moped", "-k", "1", "../../examples/peterson.bpl"}, "--moped"},
		{[]string{"--threads", "nosuch=1", "-k", "1", "../../examples/peterson.bpl"}, "nosuch"},
		{[]string{"-k", "1", "--bogus", "../../examples/peterson.bpl"}, "unknown flag"},
		{[]string{"-k", "1", "../../examples/nosuch.bpl"}, "no such file"},
		{[]string{"--engines", "explicit,nosuch", "-k", "1", "../../examples/peterson.bpl"}, `--engines: no run is named "nosuch"`},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"compare"}, c.args...), &out, &errb)
		if code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
		out.Reset()
		code = run(append([]string{"compare", "--json"}, c.args...), &out, &errb)
		var doc errorDoc
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || code != exitBadInput || doc.Verdict != "error" {
			t.Errorf("%v --json: exit %d, %v, %q", c.args, code, err, out.String())
		}
	}
}

// TestCompareJudge: the verdict of a comparison from the runs' verdicts.
func TestCompareJudge(t *testing.T) {
	run := func(engine, verdict string) driver.Run {
		return driver.Run{Engine: engine, Verdict: verdict, Elapsed: time.Millisecond}
	}
	cases := []struct {
		runs []driver.Run
		want string
	}{
		{[]driver.Run{run("a", "safe"), run("b", "unknown"), run("c", "safe")}, "safe"},
		{[]driver.Run{run("a", "unsafe"), run("b", "unsafe")}, "unsafe"},
		{[]driver.Run{run("a", "safe"), run("b", "unsafe"), run("c", "unknown")}, "disagree"},
		{[]driver.Run{run("a", "safe"), run("b", "error")}, "error"},
		{[]driver.Run{run("a", "unknown"), run("b", "unknown")}, "unknown"},
	}
	for _, c := range cases {
		var cmp comparison
		cmp.judge(c.runs)
		if cmp.Verdict != c.want || cmp.Why == "" {
			t.Errorf("%+v: verdict %q (%s), want %q", c.runs, cmp.Verdict, cmp.Why, c.want)
		}
		if c.want == "disagree" && (!strings.Contains(cmp.Why, "safe (a)") || !strings.Contains(cmp.Why, "unsafe (b)")) {
			t.Errorf("disagreement does not show both answers: %s", cmp.Why)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompareFakeMoped runs the comparison with stand-ins for Moped: one
// that always answers YES. (a disagreement on a safe program: exit 4
// with both answers), one that prints nonsense (a failed run: exit 4)
// and one that does not finish (unknown after --timeout, the others
// agree: exit 0).
func TestCompareFakeMoped(t *testing.T) {
	dir := t.TempDir()
	fake := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cases := []struct {
		moped, verdict string
		code           int
		want           string
	}{
		{fake("yes", "echo YES."), "disagree", exitInternal, "against unsafe (moped eager, moped lazy)"},
		{fake("nonsense", "echo 'Line 1: syntax error.'; exit 1"), "error", exitInternal, "moped eager, moped lazy failed"},
		{fake("slow", "exec sleep 30"), "safe", exitSafe, ""},
	}
	for _, c := range cases {
		code, doc, stderr := runCompareJSON(t, "--moped", c.moped, "--timeout", "2s", "../../examples/seq_swap.bpl")
		if code != c.code || doc.Verdict != c.verdict || !strings.Contains(doc.Why, c.want) {
			t.Errorf("%s: exit %d, %+v\n%s", filepath.Base(c.moped), code, doc, stderr)
		}
	}
}

// TestCompareExamples runs bmc compare on the examples' expectations it
// can ask (a verdict within -k or --switches, with the call depth and
// thread counts as given): every method of the plan table that takes
// the program runs, none disagrees, and the verdict is the expected one
// wherever a run decides. make test runs a sample of the kinds of
// programs; make soak runs every expectation.
func TestCompareExamples(t *testing.T) {
	// The sample: a protocol safe and unsafe within rounds and switches,
	// a recursive program, a program that starts threads.
	sample := map[string]bool{"peterson_buggy.bpl": true, "kind_fig1.bpl": true, "worker_pool.bpl": true}
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, path := range files {
		if !soak.On() && !sample[filepath.Base(path)] {
			continue
		}
		for _, exp := range readExpectations(t, path) {
			if exp.Verdict != "safe" && exp.Verdict != "unsafe" || !compareAsks(exp.Flags) {
				continue
			}
			asked++
			args := append(append([]string{"--timeout", "1s"}, exp.Flags...), path)
			code, doc, stderr := runCompareJSON(t, args...)
			switch {
			case code == exitBadInput:
				t.Errorf("%s:%d: bmc compare %v: refused: %+v\n%s", path, exp.Line, args, doc, stderr)
			case doc.Verdict != exp.Verdict && doc.Verdict != "unknown":
				t.Errorf("%s:%d: bmc compare %v: exit %d, %s (%s), want %s\n%+v\n%s", path, exp.Line, args, code, doc.Verdict, doc.Why, exp.Verdict, doc.Runs, stderr)
			case len(doc.Runs) < 3:
				t.Errorf("%s:%d: only %d runs: %+v", path, exp.Line, len(doc.Runs), doc.Runs)
			}
		}
	}
	if asked < 4 {
		t.Fatalf("only %d expectations asked", asked)
	}
}

// compareAsks says whether bmc compare asks the question of an
// expectation's flags: a context bound, with the call depth and thread
// counts only.
func compareAsks(flags []string) bool {
	bounded := false
	for i := 0; i < len(flags); i += 2 {
		switch flags[i] {
		case "-k", "--switches":
			bounded = true
		case "--depth", "--threads":
		default:
			return false
		}
	}
	return bounded
}
