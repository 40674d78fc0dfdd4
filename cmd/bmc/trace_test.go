package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wellFormed reads data with a strict XML parser to its end and returns
// the name of its root element.
func wellFormed(t *testing.T, what string, data []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", what, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	return root
}

// TestTracePicturesOfExamples draws, through the command line, the trace
// of every example expectation that has one (unsafe, livelock) as an SVG
// picture and an HTML page, and reads both back with an XML parser.
func TestTracePicturesOfExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil || len(files) < 10 {
		t.Fatalf("want at least 10 examples, found %d (%v)", len(files), err)
	}
	drawn := 0
	for _, path := range files {
		for _, exp := range readExpectations(t, path) {
			if exp.Verdict != "unsafe" && exp.Verdict != "livelock" {
				continue
			}
			drawn++
			name := filepath.Base(path) + ":" + exp.Verdict + " " + strings.Join(exp.Flags, " ")
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				svg, html := filepath.Join(dir, "trace.svg"), filepath.Join(dir, "trace.html")
				args := append(append([]string{"check", "--quiet"}, exp.Flags...), "--trace-svg", svg, "--trace-html", html, path)
				var stdout, stderr bytes.Buffer
				if code := run(args, &stdout, &stderr); code != exitViolation {
					t.Fatalf("bmc %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitViolation, stdout.String(), stderr.String())
				}
				picture, err := os.ReadFile(svg)
				if err != nil {
					t.Fatal(err)
				}
				if root := wellFormed(t, "the SVG picture", picture); root != "svg" {
					t.Errorf("the SVG picture's root element is %q", root)
				}
				page, err := os.ReadFile(html)
				if err != nil {
					t.Fatal(err)
				}
				if root := wellFormed(t, "the HTML page", page); root != "html" {
					t.Errorf("the HTML page's root element is %q", root)
				}
				if !bytes.Contains(page, picture) {
					t.Error("the HTML page does not hold the SVG picture")
				}
				// The header names what went wrong, as the text does.
				first, _, _ := strings.Cut(stdout.String(), "\n")
				want := "livelock"
				if exp.Verdict == "unsafe" {
					_, want, _ = strings.Cut(first, ": violation: ")
				}
				if !bytes.Contains(picture, []byte(esc(want))) || !bytes.Contains(picture, []byte("data-step=")) {
					t.Errorf("the picture does not show %q or has no step", want)
				}
			})
		}
	}
	if drawn < 10 {
		t.Errorf("only %d expectations with a trace", drawn)
	}
}

// esc is XML's escaping of the text of a violation.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), "&#34;", "&quot;")
}

// TestTraceFlagsBadPath checks that a picture file that cannot be
// written is refused before the search, with exit status 2 and a
// message naming the flag, also as a JSON error document.
func TestTraceFlagsBadPath(t *testing.T) {
	dir := t.TempDir()
	prog := "../../examples/peterson_buggy.bpl"
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"missing directory", []string{"--trace-svg", filepath.Join(dir, "no", "t.svg")}, "--trace-svg"},
		{"a directory", []string{"--trace-html", dir}, "is a directory"},
		{"under a file", []string{"--trace-svg", filepath.Join(plain, "t.svg")}, "is not a directory"},
		{"the program", []string{"--trace-svg", prog}, "the program file"},
		{"one file twice", []string{"--trace-svg", plain, "--trace-html", plain}, "the same file"},
		{"empty", []string{"--trace-svg="}, "needs a file name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"check", "--switches", "2"}, c.flags...), prog)
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if code != exitBadInput || !strings.Contains(stderr.String(), c.want) || stdout.Len() > 0 {
				t.Errorf("bmc %s: exit %d, want %d with %q on stderr and nothing on stdout\nstdout:\n%s\nstderr:\n%s",
					strings.Join(args, " "), code, exitBadInput, c.want, stdout.String(), stderr.String())
			}
			stdout.Reset()
			stderr.Reset()
			args = append([]string{"check", "--json"}, args[1:]...)
			code = run(args, &stdout, &stderr)
			var doc errorDoc
			oneJSONDocument(t, stdout.Bytes(), &doc)
			if code != exitBadInput || doc.Verdict != "error" || len(doc.Errors) == 0 || !strings.Contains(doc.Errors[0].Message, c.want) {
				t.Errorf("bmc %s: exit %d, document %+v", strings.Join(args, " "), code, doc)
			}
		})
	}
}

// TestTraceNothingToDraw checks a run without a trace: it says so on
// stderr, writes no file and keeps the verdict's exit status.
func TestTraceNothingToDraw(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "--quiet", "-k", "2", "../../examples/peterson.bpl"}, exitSafe, "no violation was found"},
		{[]string{"check", "--quiet", "--lasso", "1,1", "../../examples/philosophers_ordered.bpl"}, exitSafe, "no livelock was found"},
		{[]string{"check", "--quiet", "--engine", "explicit", "--switches", "4", "--depth", "4", "../../examples/kind_fig1.bpl"}, exitUnknown, "the answer is unknown"},
	} {
		dir := t.TempDir()
		svg, html := filepath.Join(dir, "t.svg"), filepath.Join(dir, "t.html")
		args := append(append([]string(nil), c.args[:len(c.args)-1]...), "--trace-svg", svg, "--trace-html", html, c.args[len(c.args)-1])
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), "no trace to draw ("+c.want+")") {
			t.Errorf("bmc %s: exit %d, want %d and %q\nstderr:\n%s", strings.Join(args, " "), code, c.code, c.want, stderr.String())
		}
		for _, f := range []string{svg, html} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("bmc %s wrote %s", strings.Join(args, " "), f)
			}
		}
	}
}

// TestTraceWriteError checks a picture that cannot be written after the
// verdict: exit status 2 and a message; with --json the verdict stays
// the one JSON document on stdout.
func TestTraceWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fail a write")
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"check", "--quiet", "--switches", "2", "--trace-svg", "/dev/full", "../../examples/peterson_buggy.bpl"}
		if asJSON {
			args = slices.Insert(args, 1, "--json")
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != exitBadInput || !strings.Contains(stderr.String(), "--trace-svg: cannot write the picture") {
			t.Errorf("bmc %s: exit %d, want %d\nstderr:\n%s", strings.Join(args, " "), code, exitBadInput, stderr.String())
		}
		if asJSON {
			var doc struct{ Verdict string }
			oneJSONDocument(t, stdout.Bytes(), &doc)
			if doc.Verdict != "unsafe" {
				t.Errorf("with --json: verdict %q, want unsafe", doc.Verdict)
			}
		} else if !strings.Contains(stdout.String(), ": unsafe: ") {
			t.Errorf("the verdict is not printed:\n%s", stdout.String())
		}
	}
}

// TestTraceProve draws the trace of a violation that bmc prove finds.
func TestTraceProve(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "t.svg")
	var stdout, stderr bytes.Buffer
	code := run([]string{"prove", "--quiet", "--switches", "2", "--trace-svg", svg, "../../examples/peterson_buggy.bpl"}, &stdout, &stderr)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, "the picture", data)
}

// TestTraceHelp checks that the check command's help names the flags.
func TestTraceHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run([]string{"check", "--help"}, &stdout, &stderr)
	for _, want := range []string{"--trace-svg FILE", "--trace-html FILE"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("bmc check --help does not name %s", want)
		}
	}
}

// TestTraceFlagsLeaveTheCandidates checks the command line the plan's
// candidate processes get: without the picture flags, which only the
// parent obeys.
func TestTraceFlagsLeaveTheCandidates(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"bmc", "check", "--trace-svg", "a.svg", "-k", "2", "p.bpl"}, []string{"bmc", "check", "-k", "2", "p.bpl"}},
		{[]string{"bmc", "check", "--trace-html=a.html", "--trace-svg", "b", "p.bpl"}, []string{"bmc", "check", "p.bpl"}},
		{[]string{"bmc", "check", "--", "--trace-svg", "x"}, []string{"bmc", "check", "--", "--trace-svg", "x"}},
	} {
		if got := withoutTraceFlags(c.in); !slices.Equal(got, c.want) {
			t.Errorf("withoutTraceFlags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
