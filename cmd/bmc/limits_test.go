package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bmc/internal/progen"
	"bmc/ir"
)

// load reads a program as `bmc check` does, without limits, for tests
// that search it themselves (seqverdict_test.go).
func load(path string, opts ir.Options, stderr io.Writer) (*ir.Program, error) {
	return loadProgram(context.Background(), path, opts, stderr)
}

// writeProg writes src to prog.bpl in a fresh temporary directory.
func writeProg(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prog.bpl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestByteSizeFlag(t *testing.T) {
	tests := []struct {
		arg  string
		want int64 // -1: rejected
	}{
		{"512M", 512 << 20},
		{"4G", 4 << 30},
		{"1.5G", 3 << 29},
		{"64k", 64 << 10},
		{"2GiB", 2 << 30},
		{"1000000", 1000000},
		{"0", 0},
		{"12Q", -1},
		{"-1G", -1},
		{"", -1},
		{"G", -1},
	}
	for _, tc := range tests {
		var b byteSize
		err := b.Set(tc.arg)
		switch {
		case tc.want < 0 && err == nil:
			t.Errorf("--max-memory %q accepted as %d bytes", tc.arg, b)
		case tc.want >= 0 && err != nil:
			t.Errorf("--max-memory %q: %v", tc.arg, err)
		case tc.want >= 0 && int64(b) != tc.want:
			t.Errorf("--max-memory %q = %d bytes, want %d", tc.arg, b, tc.want)
		}
	}
}

// TestMaxMemoryOnEveryCommand checks that check, seq and export take
// --max-memory and --timeout and refuse bad values as usage errors.
func TestMaxMemoryOnEveryCommand(t *testing.T) {
	seqProg := writeProg(t, "decl g;\nvoid main()\nbegin\n  g := T;\n  assert(g);\nend\n")
	threadProg := writeProg(t, "decl g;\nthread void a() begin g := T; end\nthread void b() begin g := F; end\n")
	commands := []struct {
		name string
		args []string
	}{
		{"check", []string{"check", seqProg}},
		{"seq", []string{"seq", "--lazy", "-k", "1", threadProg}},
		{"export", []string{"export", "--dimacs", "3", seqProg}},
	}
	for _, c := range commands {
		for _, tc := range []struct {
			flags []string
			code  int
			sub   string
		}{
			{[]string{"--max-memory", "64G"}, exitSafe, ""},
			{[]string{"--max-memory", "0"}, exitSafe, ""},
			{[]string{"--max-memory=1G", "--timeout", "1m"}, exitSafe, ""},
			{[]string{"--max-memory", "lots"}, exitBadInput, `invalid argument "lots" for "--max-memory" flag: invalid size "lots"`},
			{[]string{"--timeout", "-1s"}, exitBadInput, "--timeout must not be negative"},
			{[]string{"--timeout", "soon"}, exitBadInput, `invalid argument "soon" for "--timeout" flag`},
		} {
			args := append(append(append([]string(nil), c.args[:len(c.args)-1]...), tc.flags...), c.args[len(c.args)-1])
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.sub) {
				t.Errorf("bmc %s: exit %d, want %d with %q\nstderr:\n%s", strings.Join(args, " "), code, tc.code, tc.sub, stderr.String())
			}
		}
	}
}

// TestExportRefusesSize checks that an unrolling that cannot fit in the
// memory limit is refused before it is built, and that one that fits is
// written.
func TestExportRefusesSize(t *testing.T) {
	tests := []struct {
		args []string
		code int
		sub  string // in stderr
	}{
		{[]string{"--dimacs", "1000000000"}, exitBadInput, "bmc export: --dimacs 1000000000: the unrolling of 1000000000 steps of a transition system of"},
		{[]string{"--smt2", "1000000000"}, exitBadInput, "more than the memory limit of"},
		{[]string{"--dimacs", "9223372036854775807"}, exitBadInput, "needs more than 1000T of memory"},
		{[]string{"--dimacs", "10000000", "--max-memory", "16G"}, exitBadInput, "more than the memory limit of 16G: give a smaller K or a larger --max-memory"},
		{[]string{"--smt2", "10000000", "--max-memory", "16G"}, exitBadInput, "more than the memory limit of 16G"},
		{[]string{"--dimacs", "20", "--max-memory", "64G"}, exitSafe, ""},
		{[]string{"--smt2", "20", "--max-memory", "64G"}, exitSafe, ""},
		{[]string{"--aiger", "--max-memory", "64G"}, exitSafe, ""},
	}
	for _, tc := range tests {
		args := append(append([]string{"export"}, tc.args...), "../../examples/seq_counter.bpl")
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run(args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.sub) {
			t.Errorf("bmc %s: exit %d, want %d with %q\nstderr:\n%s", strings.Join(args, " "), code, tc.code, tc.sub, stderr.String())
		}
		if tc.code == exitBadInput && (stdout.Len() > 0 || time.Since(start) > 5*time.Second) {
			t.Errorf("bmc %s: refused after %v with %d bytes written; want a refusal before the unrolling", strings.Join(args, " "), time.Since(start), stdout.Len())
		}
		if tc.code == exitSafe && stdout.Len() == 0 {
			t.Errorf("bmc %s: nothing written", strings.Join(args, " "))
		}
	}
}

// TestTimeoutCoversTheRun checks that --timeout ends a long run on time
// with an unknown result (exit 3), and that the time reported is the
// run's wall time, loading included.
func TestTimeoutCoversTheRun(t *testing.T) {
	path := writeProg(t, progen.Chain(3000, false))
	var stdout, stderr bytes.Buffer
	start := time.Now()
	// The bmc engine at the default depth, stated: the explicit one
	// would find the call depth reached at once, and without a stated
	// depth the chain is encoded whole, its own depth.
	code := run([]string{"check", "--json", "--quiet", "--engine", "bmc", "--depth", "16", "--timeout", "1s", path}, &stdout, &stderr)
	wall := time.Since(start)
	var r struct {
		Verdict string
		Limits  []struct{ Kind, Text string }
		Seconds float64
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if code != exitUnknown || r.Verdict != "unknown" || len(r.Limits) == 0 || r.Limits[0].Kind != "timeout" {
		t.Errorf("exit %d, verdict %s, limits %q; want exit 3, unknown, a timeout", code, r.Verdict, r.Limits)
	}
	if wall > 2500*time.Millisecond {
		t.Errorf("--timeout 1s returned after %v", wall)
	}
	if d := wall.Seconds() - r.Seconds; d < 0 || d > 0.2 {
		t.Errorf("JSON seconds %.3f, wall time %.3f s", r.Seconds, wall.Seconds())
	}
}

// TestLimitEndsEveryCommand checks that a timeout ends check with an
// unknown result and seq and export with exit status 3, never as bad
// input or an internal error. Each run takes longer than its timeout.
func TestLimitEndsEveryCommand(t *testing.T) {
	chain := writeProg(t, progen.Chain(3000, false))
	threads := writeProg(t, progen.Chain(3000, true))
	tests := []struct {
		args []string
		out  string // in stdout
		err  string // in stderr
	}{
		// The bmc engine at the stated default depth: the explicit one
		// reaches the call depth at once.
		{[]string{"check", "--quiet", "--engine", "bmc", "--depth", "16", "--timeout", "50ms", chain}, "but the search was incomplete: timeout", ""},
		{[]string{"check", "--quiet", "--json", "--timeout", "1ms", "--switches", "2", threads}, `"timeout`, ""},
		{[]string{"seq", "--eager", "-k", "2", "--timeout", "50ms", threads}, "", "bmc seq: gave up: timeout while"},
		{[]string{"seq", "--lazy", "-k", "2", "--for", "moped", "--timeout", "50ms", threads}, "", "bmc seq: gave up: timeout while"},
		{[]string{"export", "--dimacs", "5", "--timeout", "50ms", chain}, "", "bmc export: gave up: timeout while"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		if code != exitUnknown || !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("bmc %s: exit %d, want 3 with %q on stdout and %q on stderr\nstdout:\n%s\nstderr:\n%s",
				strings.Join(tc.args, " "), code, tc.out, tc.err, stdout.String(), stderr.String())
		}
	}
}
