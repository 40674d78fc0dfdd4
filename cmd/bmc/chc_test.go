package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bmc/internal/peer"
)

// TestExportCHCWithZ3 exports the Horn clauses of examples and has the
// z3 command decide them: "sat" (no violation at any call depth) where
// bmc check proves the program safe at any call depth, "unsat" where it
// finds a violation. Skipped when z3 is not installed, except under CI.
func TestExportCHCWithZ3(t *testing.T) {
	z3 := peer.Need(t, peer.Z3)
	for _, c := range []struct {
		file  string
		flags []string
		want  string
	}{
		{"kind_fig1.bpl", []string{"-k", "3"}, "sat"},
		{"kind_fig11.bpl", []string{"-k", "3"}, "sat"},
		{"seq_recursion.bpl", nil, "unsat"},
		{"seq_swap.bpl", nil, "sat"},
		{"peterson.bpl", []string{"--seq", "product", "-k", "2"}, "sat"},
		{"peterson_buggy.bpl", []string{"--seq", "product", "-k", "2"}, "unsat"},
	} {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"export", "--chc"}, c.flags...), "../../examples/"+c.file)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("bmc %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		file := filepath.Join(t.TempDir(), "p.smt2")
		if err := os.WriteFile(file, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		out, err := exec.CommandContext(ctx, z3, "-smt2", file).CombinedOutput()
		cancel()
		if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
			t.Errorf("z3 on bmc %s: %q (%v), want %q", strings.Join(args, " "), got, err, c.want)
		}
		peer.Case(t, peer.Z3, "bmc "+strings.Join(args, " "))
	}
}

// TestExportCHCUsage: --chc refuses what it cannot write.
func TestExportCHCUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--chc", "../../examples/kind_fig1.bpl"}, "needs a bound"},
		{[]string{"export", "--chc", "--seq", "direct", "-k", "2", "../../examples/kind_fig1.bpl"}, "not --seq direct"},
		{[]string{"export", "--chc", "--lasso", "1,1", "../../examples/kind_fig1.bpl"}, "--chc does not go with --lasso: --chc asks the safety question"},
		{[]string{"export", "--chc", "--aiger", "../../examples/seq_swap.bpl"}, "exactly one of"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("bmc %s: exit %d, want 2 with %q\n%s", strings.Join(c.args, " "), code, c.want, stderr.String())
		}
	}
}
