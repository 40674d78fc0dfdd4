package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// expectation is one `// expect: VERDICT FLAGS` header line of an example.
type expectation struct {
	line    int
	verdict string
	flags   []string
}

// readExpectations returns the header lines; the first line of the file
// must be one of them.
func readExpectations(t *testing.T, path string) []expectation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		rest, ok := strings.CutPrefix(sc.Text(), "// expect:")
		if !ok {
			break
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			t.Fatalf("%s:%d: empty expectation", path, n)
		}
		out = append(out, expectation{line: n, verdict: fields[0], flags: fields[1:]})
	}
	if len(out) == 0 {
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
			name := filepath.Base(path) + ":" + exp.verdict + " " + strings.Join(exp.flags, " ")
			t.Run(name, func(t *testing.T) {
				wantCode, wantText := 0, ""
				switch exp.verdict {
				case "safe":
					wantCode, wantText = exitSafe, ": safe: no violation within"
				case "unsafe":
					wantCode, wantText = exitViolation, ": violation: "
				case "depth-bound":
					wantCode, wantText = exitUnknown, "depth bound reached"
				case "livelock", "no-livelock":
					if !strings.Contains(strings.Join(exp.flags, " "), "--lasso") {
						t.Fatalf("%s:%d: %s needs --lasso k1,k2", path, exp.line, exp.verdict)
					}
					wantCode, wantText = exitSafe, ": no livelock"
					if exp.verdict == "livelock" {
						wantCode, wantText = exitViolation, "livelock: the last "
					}
				default:
					t.Fatalf("%s:%d: unknown verdict %q", path, exp.line, exp.verdict)
				}
				// A livelock question is asked of both engines: the lasso
				// translation (the default) and the explicit search.
				engines := [][]string{nil}
				if strings.HasSuffix(exp.verdict, "livelock") {
					engines = append(engines, []string{"--engine", "explicit"})
				}
				for _, engine := range engines {
					var stdout, stderr bytes.Buffer
					args := append(append(append([]string{"check", "--quiet"}, engine...), exp.flags...), path)
					code := run(args, &stdout, &stderr)
					out := strings.Replace(stdout.String(), ": safe: proved: ", ": safe: ", 1) // a proof is safe too
					if code != wantCode || !strings.Contains(out, wantText) {
						t.Errorf("%s:%d: bmc %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s",
							path, exp.line, strings.Join(args, " "), code, wantCode, wantText, stdout.String(), stderr.String())
					}
				}
			})
			if exp.verdict != "livelock" && exp.verdict != "no-livelock" {
				checked++
			}
		}
	}
	if checked < len(files) {
		t.Errorf("only %d safety expectations for %d examples: every example needs at least one", checked, len(files))
	}
}
