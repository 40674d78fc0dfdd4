package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bmc/internal/progen"
	"bmc/ir"
)

// TestSeqLasso: the livelock translation printed by `bmc seq --lasso`
// reads back, and `bmc check` finds its assertion failing exactly where
// the example expects a livelock.
func TestSeqLasso(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		for _, exp := range readExpectations(t, path) {
			if !strings.HasSuffix(exp.Verdict, "livelock") || slices.Contains(exp.Flags, "2,2") || slices.Contains(exp.Flags, "--engine") {
				continue // (2,2: TestExamples decides it twice already; an engine is check's)
			}
			n++
			t.Run(filepath.Base(path)+":"+strings.Join(exp.Flags, " "), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "lasso.bp")
				var stdout, stderr bytes.Buffer
				if exp.Verdict == "livelock" {
					// The translation compares whole stacks: a keyframe
					// lasso, whose loop leaves frames behind, is the
					// explicit search's (docs/SEMANTICS.md, "Livelocks").
					run(append(append([]string{"check", "--quiet", "--engine", "explicit"}, exp.Flags...), path), &stdout, &stderr)
					if strings.Contains(stdout.String(), "deeper than at the loop's start") {
						t.Skip("a keyframe lasso: beyond the translation")
					}
					stdout.Reset()
				}
				args := append(append([]string{"seq"}, exp.Flags...), "-o", out, path)
				if code := run(args, &stdout, &stderr); code != 0 {
					t.Fatalf("bmc %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
				}
				want, text := exitSafe, ": safe: "
				if exp.Verdict == "livelock" {
					want, text = exitViolation, ": violation: assertion"
				}
				stdout.Reset()
				stderr.Reset()
				if code := run([]string{"check", "--quiet", out}, &stdout, &stderr); code != want || !strings.Contains(stdout.String(), text) {
					t.Errorf("%s:%d: bmc check on the translation: exit %d, want %d with %q\n%s%s", path, exp.Line, code, want, text, stdout.String(), stderr.String())
				}
			})
		}
	}
	if n < 4 {
		t.Errorf("only %d livelock expectations in the examples", n)
	}
}

// TestSeqLassoKeyframes: the translation with keyframes printed by `bmc
// seq --lasso --keyframes` reads back as a recursive program, and `bmc
// check` (its summary engine, at every call depth) finds its assertion
// failing where the example expects a livelock within k1,k2, and holding
// where it expects none within the longer stem k1+k2,k2 that the
// translation also admits (bmc check --lasso decides that one first).
func TestSeqLassoKeyframes(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := ir.Load(context.Background(), path, src, ir.Options{})
		if err != nil || !p.Recursive() {
			continue
		}
		for _, exp := range readExpectations(t, path) {
			if !strings.HasSuffix(exp.Verdict, "livelock") || slices.Contains(exp.Flags, "--engine") || slices.Contains(exp.Flags, "--depth") {
				continue
			}
			n++
			t.Run(filepath.Base(path)+":"+strings.Join(exp.Flags, " "), func(t *testing.T) {
				want, text := exitViolation, ": violation: assertion"
				if exp.Verdict == "no-livelock" {
					longer := slices.Clone(exp.Flags)
					i := slices.Index(longer, "--lasso")
					var k1, k2 int
					if _, err := fmt.Sscanf(longer[i+1], "%d,%d", &k1, &k2); err != nil {
						t.Fatal(err)
					}
					longer[i+1] = fmt.Sprintf("%d,%d", k1+k2, k2)
					var stdout, stderr bytes.Buffer
					if code := run(append(append([]string{"check", "--quiet"}, longer...), path), &stdout, &stderr); code != exitSafe {
						t.Skipf("bmc check %s: exit %d: the translation may fail", strings.Join(longer, " "), code)
					}
					want, text = exitSafe, ": safe"
				}
				out := filepath.Join(t.TempDir(), "lasso.bp")
				var stdout, stderr bytes.Buffer
				args := append(append([]string{"seq", "--keyframes"}, exp.Flags...), "-o", out, path)
				if code := run(args, &stdout, &stderr); code != 0 {
					t.Fatalf("bmc %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
				}
				stdout.Reset()
				stderr.Reset()
				if code := run([]string{"check", "--quiet", out}, &stdout, &stderr); code != want || !strings.Contains(stdout.String(), text) {
					t.Errorf("%s:%d: bmc check on the translation: exit %d, want %d with %q\n%s%s", path, exp.Line, code, want, text, stdout.String(), stderr.String())
				}
			})
		}
	}
	if n < 4 {
		t.Errorf("only %d livelock expectations of recursive examples", n)
	}
}

// TestLassoStemZeroReplays: a livelock right after init among nine
// TryLock philosophers, each with two locals no step has set, replays
// (the replay once split every such local at the loop's start, 2^18
// configurations, and gave up with exit 4).
func TestLassoStemZeroReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "phil9.bpl")
	if err := os.WriteFile(path, []byte(progen.Philosophers(9, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--quiet", "--lasso", "0,2", "--seq", "eager", path}, &stdout, &stderr)
	if code != exitViolation || !strings.Contains(stdout.String(), "livelock found within a stem of 0 rounds") {
		t.Errorf("exit %d, want %d with a livelock at a stem of 0 rounds:\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
}
