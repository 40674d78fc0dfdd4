package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bmc/batch"
)

// readExpectations returns the header lines (batch.ReadExpectations);
// the first line of the file must be one of them.
func readExpectations(t *testing.T, path string) []batch.Expectation {
	t.Helper()
	out, err := batch.ReadExpectations(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 || out[0].Line != 1 {
		t.Fatalf("%s: the first line must be `// expect: VERDICT FLAGS`", path)
	}
	return out
}

// TestExamples runs every `// expect:` line of examples/*.bpl through the
// command line and checks the verdict and the exit status.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil || len(files) < 10 {
		t.Fatalf("want at least 10 examples, found %d (%v)", len(files), err)
	}
	checked := 0
	for _, path := range files {
		for _, exp := range readExpectations(t, path) {
			name := filepath.Base(path) + ":" + exp.Verdict + " " + strings.Join(exp.Flags, " ")
			t.Run(name, func(t *testing.T) {
				wantCode, wantText := 0, ""
				switch exp.Verdict {
				case "safe":
					wantCode, wantText = exitSafe, ": safe: no violation within"
				case "unsafe":
					wantCode, wantText = exitViolation, ": violation: "
				case "depth-bound":
					wantCode, wantText = exitUnknown, "depth bound reached"
				case "livelock", "no-livelock":
					if !strings.Contains(strings.Join(exp.Flags, " "), "--lasso") {
						t.Fatalf("%s:%d: %s needs --lasso k1,k2", path, exp.Line, exp.Verdict)
					}
					wantCode, wantText = exitSafe, ": no livelock"
					if exp.Verdict == "livelock" {
						wantCode, wantText = exitViolation, "livelock: the last "
					}
				default:
					t.Fatalf("%s:%d: unknown verdict %q", path, exp.Line, exp.Verdict)
				}
				// A livelock question is asked of both engines: the lasso
				// translation (the default) and the explicit search, unless
				// the expectation names the engine.
				engines := [][]string{nil}
				if strings.HasSuffix(exp.Verdict, "livelock") && !slices.Contains(exp.Flags, "--engine") {
					engines = append(engines, []string{"--engine", "explicit"})
				}
				for _, engine := range engines {
					var stdout, stderr bytes.Buffer
					args := append(append(append([]string{"check", "--quiet"}, engine...), exp.Flags...), path)
					code := run(args, &stdout, &stderr)
					out := strings.Replace(stdout.String(), ": safe: proved: ", ": safe: ", 1) // a proof is safe too
					out = strings.Replace(out, ": safe at any call depth: proved: ", ": safe: ", 1)
					out = strings.Replace(out, ": safe at any call depth: ", ": safe: ", 1)
					if code != wantCode || !strings.Contains(out, wantText) {
						t.Errorf("%s:%d: bmc %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s",
							path, exp.Line, strings.Join(args, " "), code, wantCode, wantText, stdout.String(), stderr.String())
					}
				}
			})
			if exp.Verdict != "livelock" && exp.Verdict != "no-livelock" {
				checked++
			}
		}
	}
	if checked < len(files) {
		t.Errorf("only %d safety expectations for %d examples: every example needs at least one", checked, len(files))
	}
}
