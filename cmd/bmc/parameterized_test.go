package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestParameterizedExamples checks the answers for every number of
// threads on our two kernel/driver examples, method by method: the bug
// needs three drivers (four threads in the trace), and mutual exclusion
// holds for every number of drivers, by coverability and by the linear
// interfaces with the adequacy check; and on the worker pool, whose
// workers main starts on the way: three are needed, from round 2.
func TestParameterizedExamples(t *testing.T) {
	const threads = "kernel=1,driver=*"
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--engine", "coverability", "../../examples/kernel_drivers.bpl"}, exitViolation,
			[]string{"driver#3", "unsafe: violation found within every interleaving, 4 threads (0: kernel; 1: driver", "3: driver"}},
		{[]string{"--engine", "interfaces", "-k", "2", "../../examples/kernel_drivers.bpl"}, exitViolation,
			[]string{"driver#3", "within 2 round-robin rounds, 4 threads"}},
		{[]string{"--engine", "coverability", "../../examples/drivers_exclusive.bpl"}, exitSafe,
			[]string{"no violation within every interleaving, every number of threads (backward coverability fixpoint"}},
		{[]string{"--engine", "interfaces", "../../examples/drivers_exclusive.bpl"}, exitSafe,
			[]string{"no violation within every interleaving, every number of threads (no violation within 2 rounds, and the adequacy check shows that 2 rounds reach every reachable configuration"}},
		{[]string{"--engine", "interfaces", "-k", "3", "../../examples/drivers_exclusive.bpl"}, exitSafe,
			[]string{"no violation within 3 round-robin rounds, every number of threads (linear interfaces"}},
		{[]string{"--engine", "interfaces", "-k", "1", "../../examples/worker_pool.bpl"}, exitSafe,
			[]string{"no violation within 1 round-robin round, every number of threads (linear interfaces"}},
		{[]string{"--engine", "interfaces", "-k", "2", "../../examples/worker_pool.bpl"}, exitViolation,
			[]string{"new thread worker#3", "within 2 round-robin rounds, 4 threads", "3: worker, started by thread 0 in round 1 at line 41"}},
		{[]string{"--engine", "coverability", "../../examples/worker_pool.bpl"}, exitViolation,
			[]string{"within every interleaving, 4 threads", "3: worker, started by thread 0 at line 41"}},
	}
	for _, c := range cases {
		args := append([]string{"check", "--quiet"}, c.args...)
		if !strings.Contains(c.args[len(c.args)-1], "worker_pool") {
			args = append([]string{"check", "--quiet", "--threads", threads}, c.args...)
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		out := stdout.String()
		if code != c.code {
			t.Errorf("bmc %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, c.code, out, stderr.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("bmc %s: the output does not say %q:\n%s", strings.Join(args, " "), w, out)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--quiet", "--json", "--engine", "coverability", "--threads", threads, "../../examples/kernel_drivers.bpl"}, &stdout, &stderr); code != exitViolation {
		t.Fatalf("--json: exit %d\n%s", code, stderr.String())
	}
	var got struct {
		AnyThreads bool   `json:"any_threads"`
		Threads    int    `json:"threads"`
		Method     string `json:"method"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || !got.AnyThreads || got.Threads != 4 || got.Method != "coverability" {
		t.Errorf("--json says %+v (%v), want any_threads, 4 threads, method coverability:\n%s", got, err, stdout.String())
	}
}
