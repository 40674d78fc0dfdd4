package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bmc/internal/progen"
)

// asBMC makes the test binary run as bmc (main) when set, so that the
// tests below run bmc as a process whose plan's candidates are processes
// of their own, as they are for users.
const asBMC = "BMC_TEST_AS_BMC"

func TestMain(m *testing.M) {
	if os.Getenv(asBMC) != "" {
		main()
	}
	os.Exit(m.Run())
}

// bmcProcess runs bmc with args as a process, its candidates too (marked
// with the environment variable mark), and returns its exit status,
// stdout and stderr.
func bmcProcess(t *testing.T, mark string, args ...string) (int, string, string) {
	t.Helper()
	return bmcProcessEnv(t, nil, mark, args...)
}

// bmcProcessEnv is bmcProcess with the variables env ("NAME=value") set
// too.
func bmcProcessEnv(t *testing.T, env []string, mark string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), asBMC+"=1", mark+"=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatalf("bmc %s: %v", strings.Join(args, " "), err)
	}
	return 0, out.String(), errb.String()
}

// marked is the processes whose environment has mark, other than this
// one.
func marked(t *testing.T, mark string) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/environ")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, d := range dirs {
		env, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		var pid int
		fmt.Sscanf(d, "/proc/%d/environ", &pid)
		if pid != os.Getpid() && bytes.Contains(env, []byte("\x00"+mark+"=1\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestCandidateProcesses runs plans whose candidates are processes: the
// winner's answer (a replayed trace, a livelock, a proof) comes back
// whole with the plan and its progress lines, the core of a candidate
// that ended goes to the race of one still running, the limits of the run end
// every candidate with the limit's own answer, and no candidate's
// process outlives the run.
func TestCandidateProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to find the candidates' processes")
	}
	dir := t.TempDir()
	file := func(name, src string) string {
		path := filepath.Join(dir, name)
		write(t, path, src)
		return path
	}
	// No engine decides it in a second or within 150 MB.
	hard := file("phil10_ordered.bpl", progen.Philosophers(10, true))
	// A handshake whose every cycle needs 3 rounds: taker hands the
	// token over, giver hands it back and counts modulo 3.
	const ring3 = `decl tok, c0, c1;
void init() begin tok, c0, c1 := F, F, F; end
thread void taker() begin while (T) do assume(!tok); tok := T; od end
thread void giver() begin while (T) do assume(tok); tok, c0, c1 := F, !c0 & !c1, c0; od end
`
	cases := []struct {
		name string
		args []string
		code int
		out  []string // in stdout
		err  []string // in stderr
	}{
		{"violation", []string{"check", "--json", "--verbose", "--switches", "6", "--threads", "adder=2,stopper=1", "../../examples/bluetooth.bpl"},
			exitViolation, []string{`"verdict": "unsafe"`, `"winner": "`, `"trace": [`}, []string{"plan: ", "each in a process of its own"}},
		{"safe", []string{"check", "-k", "3", file("flags3.bpl", progen.FlagMutex(3, false))},
			exitSafe, []string{": safe: ", "no violation within 3 round-robin rounds"}, nil}, // the explicit search or the summaries ("proved: ...")
		{"livelock", []string{"check", "--lasso", "2,2", file("phil3.bpl", progen.Philosophers(3, false))},
			exitViolation, []string{"livelock", "loop"}, nil},
		// The explicit search (at its state limit) and the fair cycles
		// (each cycle needs 3 rounds) end without a verdict; the core of
		// the one that ends second goes to the translation.
		{"lent core", []string{"check", "--lasso", "2,2", "--max-states", "100", file("ring3.bpl", ring3)},
			exitSafe, []string{"no livelock", "bmc+gini"}, []string{"; its core goes to the own race of bmc+gini, lasso translation"}},
		{"proof", []string{"prove", file("flags2.bpl", progen.FlagMutex(2, false))},
			exitSafe, []string{"proved"}, nil},
		{"timeout", []string{"check", "-k", "3", "--timeout", "1s", hard},
			exitUnknown, []string{"incomplete: timeout", "explicit, ", " states", "timeout: no proof that a violation is unreachable", "a longer --timeout"}, nil},
		{"memory", []string{"check", "-k", "3", "--max-memory", "150M", hard},
			exitUnknown, []string{"memory limit (150M)", "a larger --max-memory"}, nil},
		// Two summary candidates race; the winner's summaries are the
		// certificate (they stayed in the winner's process once).
		{"certificate", []string{"prove", "--method", "summaries", "-k", "3", "--certificate", filepath.Join(dir, "cert.txt"), "../../examples/kind_fig11.bpl"},
			exitSafe, []string{"safe at any call depth"}, nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mark := fmt.Sprintf("BMC_TEST_RUN_%d_%d", os.Getpid(), i)
			start := time.Now()
			code, out, errs := bmcProcess(t, mark, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errs)
			}
			for _, want := range c.out {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, want := range c.err {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			if c.name == "certificate" {
				if text, err := os.ReadFile(filepath.Join(dir, "cert.txt")); err != nil || !strings.Contains(string(text), "procedure summaries") {
					t.Errorf("no certificate of summaries written (%v):\n%.300s", err, text)
				}
			}
			if c.name == "timeout" && time.Since(start) > 10*time.Second {
				t.Errorf("a run with --timeout 1s took %v", time.Since(start))
			}
			if strings.Contains(out, `"plan"`) {
				var doc struct {
					Plan []struct{ Engine string }
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Plan) < 2 {
					t.Errorf("plan %+v (%v): want the candidates raced", doc.Plan, err)
				}
			}
			if pids := marked(t, mark); len(pids) > 0 {
				t.Errorf("candidates' processes %v outlive the run", pids)
			}
		})
	}
}
