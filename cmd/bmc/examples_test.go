package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bmc/batch"
	"bmc/ir"
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
					if fault := sentenceFault(answer(stdout.String(), path), exp.Flags, recursive(t, path, exp.Flags)); fault != "" {
						t.Errorf("%s:%d: bmc %s: %s:\n%s", path, exp.Line, strings.Join(args, " "), fault, stdout.String())
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

// answer is the line of out that gives the verdict: the last that
// starts with the program's path and a colon and a space.
func answer(out, path string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], path+": ") {
			return lines[i]
		}
	}
	return ""
}

// recursive says whether the program at path, with the flags' threads,
// can recurse.
func recursive(t *testing.T, path string, flags []string) bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var opts ir.Options
	if i := slices.Index(flags, "--threads"); i >= 0 && i+1 < len(flags) {
		if opts.Threads, err = ir.ParseThreads(flags[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	p, _, err := ir.Load(context.Background(), path, []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p.Recursive()
}

var (
	depthWords = regexp.MustCompile(`call depth (\d+)`)
	stepWords  = regexp.MustCompile(`within (\d+ steps|.*, \d+ steps)`)
)

// sentenceFault says what is wrong with the answer's sentence, or "": it
// names no empty bound, the call depth only where the user stated it or
// the program recurses, "any call depth" only for a recursive program, a
// violation's depth only as stated (--depth D: "call depth D"), and
// steps only where the user stated --max-steps.
func sentenceFault(answer string, flags []string, recursive bool) string {
	if answer == "" {
		return "no answer"
	}
	sentence, _, _ := strings.Cut(answer, " (") // the engine's statistics follow
	flag := func(name string) string {
		if i := slices.Index(flags, name); i >= 0 && i+1 < len(flags) {
			return flags[i+1]
		}
		return ""
	}
	depth, steps := flag("--depth"), flag("--max-steps")
	unsafe := strings.Contains(sentence, "violation found") && !strings.Contains(sentence, "no violation found") ||
		strings.Contains(sentence, "livelock found") && !strings.Contains(sentence, "no livelock found")
	m := depthWords.FindStringSubmatch(sentence)
	switch {
	case strings.Contains(answer, "within ,") || strings.Contains(answer, "within  ") || strings.HasSuffix(sentence, "within"):
		return "an empty bound"
	case strings.Contains(sentence, "any call depth") && !recursive:
		return `"any call depth" for a program without recursion`
	case m != nil && depth == "" && (!recursive || unsafe):
		return "a call depth the user did not state"
	case unsafe && depth != "" && (m == nil || m[1] != depth):
		return fmt.Sprintf("a violation within --depth %s that does not say so", depth)
	case steps == "" && stepWords.MatchString(sentence) && !strings.Contains(sentence, "each ends within"):
		return "a step bound the user did not state"
	}
	return ""
}
