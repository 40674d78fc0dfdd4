package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"bmc/batch"
	"bmc/internal/progen"
)

// TestBatchGoesOn runs a batch in which one check panics, one is killed
// by a signal, one times out and one has a syntax error: each gets its
// record, with what ended it, and the batch checks the rest.
func TestBatchGoesOn(t *testing.T) {
	dir := t.TempDir()
	progs := filepath.Join(dir, "progs")
	if err := os.Mkdir(progs, 0o755); err != nil {
		t.Fatal(err)
	}
	// Each program but the last has its `// expect:` lines (progen's):
	// a check at 3 rounds each, and fine.bpl's at 1 and 2.
	write(t, filepath.Join(progs, "boom.bpl"), progen.FlagMutex(2, false))
	write(t, filepath.Join(progs, "killed.bpl"), progen.FlagMutex(2, false))
	write(t, filepath.Join(progs, "slow.bpl"), progen.Burns(7))
	write(t, filepath.Join(progs, "fine.bpl"), progen.BurnsBuggy(2))
	write(t, filepath.Join(progs, "syntax.bpl"), "void main() begin x := ; end\n")
	out := filepath.Join(dir, "out.jsonl")
	mark := fmt.Sprintf("BMC_TEST_BATCH_%d", os.Getpid())
	code, stdout, stderr := bmcProcessEnv(t, []string{faultEnv + "=panic:boom.bpl"}, mark,
		"batch", "--timeout", "1s", "-o", out, progs)
	if code != exitSafe {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	recs, _, err := batch.ReadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]batch.Record{}
	for _, r := range recs {
		byFile[filepath.Base(r.File)+" "+strings.Join(r.Flags, " ")] = r
	}
	if len(recs) != 6 || len(byFile) != 6 {
		t.Fatalf("%d records for 6 checks:\n%s", len(recs), stderr)
	}
	errorsOf := func(r batch.Record) string {
		var out []string
		for _, e := range r.Errors {
			out = append(out, e.String())
		}
		return strings.Join(out, "; ")
	}
	if r := byFile["boom.bpl -k 3"]; r.Verdict != "error" || r.ExitStatus != exitInternal || !strings.Contains(errorsOf(r), "injected fault") {
		t.Errorf("the check that panics: %+v", r)
	}
	if r := byFile["slow.bpl -k 3"]; r.Verdict != "unknown" || !r.TimedOut() || r.ExitStatus != exitUnknown {
		t.Errorf("the check that times out: %+v", r)
	}
	if r := byFile["syntax.bpl "]; r.Verdict != "error" || r.ExitStatus != exitBadInput || !strings.Contains(errorsOf(r), "syntax.bpl:1:") {
		t.Errorf("the check with a syntax error: %+v", r)
	}
	if r := byFile["fine.bpl -k 2"]; r.Verdict != "unsafe" || r.Expected != "unsafe" || r.Wall <= 0 || r.PeakMemory <= 0 || r.Version == "" || !slices.Equal(r.Flags, []string{"-k", "2"}) {
		t.Errorf("the check that works: %+v", r)
	}
	for _, want := range []string{"[6/6]", "6 checks: error 2, safe 2, unknown 1, unsafe 1", "disagreements with the expected verdict: 0"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// A check killed by a signal (faultEnv names one fault a run).
	killed := filepath.Join(dir, "killed.jsonl")
	code, stdout, stderr = bmcProcessEnv(t, []string{faultEnv + "=kill:killed.bpl"}, mark,
		"batch", "-o", killed, filepath.Join(progs, "killed.bpl"), filepath.Join(progs, "fine.bpl"))
	recs, _, err = batch.ReadRecords(killed)
	if err != nil || code != exitSafe || len(recs) != 3 {
		t.Fatalf("exit %d, %d records (%v)\n%s%s", code, len(recs), err, stdout, stderr)
	}
	for _, r := range recs {
		switch filepath.Base(r.File) {
		case "killed.bpl":
			if r.Verdict != "error" || !strings.Contains(errorsOf(r), "signal: killed") {
				t.Errorf("the killed check: %+v", r)
			}
		case "fine.bpl":
			if r.Verdict != r.Expected {
				t.Errorf("the check after it: %+v", r)
			}
		}
	}
	if pids := marked(t, mark); len(pids) > 0 {
		t.Errorf("processes %v outlive the batch", pids)
	}
}

// TestBatchResume interrupts a batch and resumes it: the records are
// those of a batch that ran through, each check once.
func TestBatchResume(t *testing.T) {
	dir := t.TempDir()
	progs := filepath.Join(dir, "progs")
	if err := os.Mkdir(progs, 0o755); err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 4; n++ {
		// A check at 3 rounds of the first, at 1 and 2 of the second.
		write(t, filepath.Join(progs, fmt.Sprintf("flags%d.bpl", n)), progen.FlagMutex(n, false))
		write(t, filepath.Join(progs, fmt.Sprintf("burns%d_bug.bpl", n)), progen.BurnsBuggy(n))
	}
	// The last check runs to its --timeout, so that the interrupt below
	// lands before the batch ends.
	write(t, filepath.Join(progs, "zz_slow.bpl"), progen.Burns(7))
	records := func(path string) []string {
		t.Helper()
		recs, _, err := batch.ReadRecords(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.Key()+"\t"+r.Verdict)
		}
		slices.Sort(out)
		return out
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if code, stdout, stderr := bmcProcess(t, "BMC_TEST_RESUME", "batch", "--jobs", "1", "--timeout", "1s", "-o", whole, progs); code != exitSafe {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	want := records(whole)
	if len(want) != 10 {
		t.Fatalf("%d records for 10 checks", len(want))
	}

	// Interrupt the batch after its third record.
	parts := filepath.Join(dir, "parts.jsonl")
	cmd := exec.Command(os.Args[0], "batch", "--jobs", "1", "--timeout", "1s", "-o", parts, progs)
	cmd.Env = append(os.Environ(), asBMC+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if b, _ := os.ReadFile(parts); strings.Count(string(b), "\n") >= 3 || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	first := records(parts)
	if len(first) >= 10 {
		t.Fatalf("the batch ended (%v) before it was interrupted", err)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUnknown {
		t.Errorf("interrupted batch: %v, want exit %d", err, exitUnknown)
	}
	// A line the interrupted batch left half written is dropped.
	f, err := os.OpenFile(parts, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"file":"half`)
	f.Close()
	code, stdout, stderr := bmcProcess(t, "BMC_TEST_RESUME", "batch", "--jobs", "1", "--timeout", "1s", "--resume", "-o", parts, progs)
	if code != exitSafe {
		t.Fatalf("resumed: exit %d\n%s%s", code, stdout, stderr)
	}
	if got := records(parts); !slices.Equal(got, want) {
		t.Errorf("resumed after %d records:\n%s\nwant:\n%s", len(first), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(stderr, fmt.Sprintf("%d of 10 checks recorded", len(first))) {
		t.Errorf("stderr:\n%s", stderr)
	}

	// The report of the output: the summary again, and the plot.
	svg := filepath.Join(dir, "times.svg")
	code, stdout, stderr = bmcProcess(t, "BMC_TEST_RESUME", "report", "--svg", svg, parts)
	if code != exitSafe || !strings.Contains(stdout, "10 checks: safe 6, unknown 1, unsafe 3 (1 of the unknown at their --timeout)") {
		t.Errorf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct{})); err != nil {
		t.Errorf("the plot is not XML: %v", err)
	}
}

// TestBatchBadInput: usage errors are exit 2 with a message.
func TestBatchBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bpl")
	write(t, bad, "// expect: fine\n"+progen.FlagMutex(2, false))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"batch"}, "bmc batch: expected manifests, directories or programs"},
		{[]string{"batch", "--resume", bad}, "--resume needs the output file"},
		{[]string{"batch", "--jobs", "-1", bad}, "--jobs must not be negative"},
		{[]string{"batch", bad}, `bad.bpl:1:12: unknown verdict "fine"`},
		{[]string{"batch", filepath.Join(dir, "none")}, "no such file"},
		{[]string{"report", filepath.Join(dir, "none")}, "bmc report: "},
		{[]string{"report", bad}, "not a batch record"},
	}
	for _, c := range cases {
		var out, errb strings.Builder
		if code := run(c.args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("bmc %s: exit %d, stderr %q, want 2 and %q", strings.Join(c.args, " "), code, errb.String(), c.want)
		}
	}
}

// TestVersionAndRootErrors: bmc --version names the version, and the
// root command's errors name bmc once.
func TestVersionAndRootErrors(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"--version"}, &out, &errb); code != exitSafe || !strings.HasPrefix(out.String(), "bmc version ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("--version: exit %d, %q %q", code, out.String(), errb.String())
	}
	for _, args := range [][]string{{"--bogus"}, {"--bogus", "check"}} {
		out.Reset()
		errb.Reset()
		code := run(args, &out, &errb)
		want := "bmc: unknown flag: --bogus\nRun 'bmc --help' for usage.\n"
		if code != exitBadInput || errb.String() != want {
			t.Errorf("bmc %s: exit %d, stderr %q, want 2 and %q", strings.Join(args, " "), code, errb.String(), want)
		}
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"check", "--cores", "-2", "x.bpl"}, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "bmc check: --cores must not be negative") {
		t.Errorf("--cores -2: exit %d, stderr %q", code, errb.String())
	}
}
