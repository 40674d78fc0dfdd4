package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bmc/internal/progen"
	"bmc/smt"
)

// TestExactOnLoops checks that bmc check --seq eager and --seq lazy, with
// gini and with Z3, answer exactly on programs whose threads loop: the
// verdict of the explicit engine at the same bound, a safe one proved for
// executions of any length (never cut at a step bound the user did not
// give), a violation with its replayed trace. The bounds are those that
// finish in about a second (the loops unwound until that provably
// suffices, raced against PDR; docs/BENCHMARKS.md, "Looping programs"):
// 2 switches and 2 rounds; Z3, several times slower than gini, runs the
// cheaper ones.
func TestExactOnLoops(t *testing.T) {
	dir := t.TempDir()
	pump, pumpSafe := filepath.Join(dir, "pump2.bpl"), filepath.Join(dir, "pump2_safe.bpl")
	for path, src := range map[string]string{pump: progen.Pump(2, false), pumpSafe: progen.Pump(2, true)} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ex := func(name string) string { return filepath.Join("../../examples", name) }
	all := []string{"eager/gini", "lazy/gini", "eager/z3", "lazy/z3"}
	cases := []struct {
		file  string
		flags []string
		runs  []string // seq/solver
	}{
		{ex("dekker.bpl"), []string{"--switches", "2"}, all},
		{ex("dekker.bpl"), []string{"-k", "2"}, all},
		{ex("peterson.bpl"), []string{"--switches", "2"}, all},
		{ex("philosophers_trylock.bpl"), []string{"--switches", "2"}, []string{"eager/gini", "lazy/gini"}},
		{ex("permutation16.bpl"), []string{"--switches", "2"}, all},
		{ex("permutation_late.bpl"), []string{"--switches", "2"}, []string{"eager/gini", "lazy/gini"}},
		{ex("permutation_late.bpl"), []string{"-k", "2"}, []string{"eager/gini", "lazy/gini"}},
		{ex("spin_flip.bpl"), []string{"--switches", "0"}, all},
		{ex("spin_flip.bpl"), []string{"--switches", "1"}, all},
		{ex("spin_flip.bpl"), []string{"-k", "2"}, all},
		{pump, []string{"-k", "2"}, all},
		{pumpSafe, []string{"-k", "2"}, all},
	}
	for _, c := range cases {
		var want, stderr bytes.Buffer
		wantCode := run(append(append([]string{"check", "--quiet", "--engine", "explicit"}, c.flags...), c.file), &want, &stderr)
		if wantCode != exitSafe && wantCode != exitViolation {
			t.Fatalf("%s %v: explicit exit %d: %s%s", c.file, c.flags, wantCode, want.String(), stderr.String())
		}
		for _, r := range c.runs {
			seqName, solverName, _ := strings.Cut(r, "/")
			t.Run(fmt.Sprintf("%s %s %s", filepath.Base(c.file), strings.Join(c.flags, " "), r), func(t *testing.T) {
				if solverName == "z3" && !smt.Available {
					t.Skip("built without Z3")
				}
				t.Parallel()
				var out, stderr bytes.Buffer
				args := append(append([]string{"check", "--quiet", "--seq", seqName, "--solver", solverName}, c.flags...), c.file)
				code := run(args, &out, &stderr)
				text := out.String()
				switch {
				case code != wantCode:
					t.Errorf("bmc %s: exit %d, explicit says %d\n%s%s", strings.Join(args, " "), code, wantCode, text, stderr.String())
				case code == exitSafe && !strings.Contains(text, "executions of any length"):
					t.Errorf("bmc %s: safe, but not for executions of any length:\n%s", strings.Join(args, " "), text)
				case code == exitViolation && !strings.Contains(text, "trace ("):
					t.Errorf("bmc %s: a violation without a trace:\n%s", strings.Join(args, " "), text)
				}
			})
		}
	}
}
