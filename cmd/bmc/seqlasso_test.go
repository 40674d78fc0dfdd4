package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
			if !strings.HasSuffix(exp.Verdict, "livelock") || slices.Contains(exp.Flags, "2,2") {
				continue // (2,2: TestExamples decides it twice already)
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
