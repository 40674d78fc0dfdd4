package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"bmc/ir"
	"bmc/picture"
	"bmc/result"
)

// traceFlags are --trace-svg and --trace-html of check and prove: the
// files to draw the trace of a violation or livelock in (package
// picture).
type traceFlags struct {
	svg, html string
}

func (f *traceFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.svg, "trace-svg", "", "draw the trace of a violation or livelock as an SVG picture in `FILE` (one lane per thread, switches as arrows, lock bars)")
	fl.StringVar(&f.html, "trace-html", "", "draw the trace as a self-contained HTML page in `FILE`: the same picture, with the source lines on hover")
}

// files are the pictures asked for: flag name and file.
func (f *traceFlags) files() [][2]string {
	var out [][2]string
	if f.svg != "" {
		out = append(out, [2]string{"--trace-svg", f.svg})
	}
	if f.html != "" {
		out = append(out, [2]string{"--trace-html", f.html})
	}
	return out
}

// check refuses, before the search runs, a picture file that could not
// be written: an empty name, a directory, a missing directory, the
// program itself, or the same file for both pictures.
func (f *traceFlags) check(cmd string, fl *pflag.FlagSet, program string) error {
	for _, name := range []string{"trace-svg", "trace-html"} {
		if fl.Changed(name) && fl.Lookup(name).Value.String() == "" {
			return usageErr("%s: --%s needs a file name", cmd, name)
		}
	}
	for _, nf := range f.files() {
		flag, file := nf[0], nf[1]
		if st, err := os.Stat(file); err == nil {
			if st.IsDir() {
				return usageErr("%s: %s %s: is a directory", cmd, flag, file)
			}
			if prog, err := os.Stat(program); err == nil && os.SameFile(st, prog) {
				return usageErr("%s: %s %s: that is the program file; the picture would overwrite it", cmd, flag, file)
			}
		}
		dir := filepath.Dir(file)
		st, err := os.Stat(dir)
		switch {
		case err != nil:
			return usageErr("%s: %s %s: the directory %s cannot be used: %v", cmd, flag, file, dir, unwrapPath(err))
		case !st.IsDir():
			return usageErr("%s: %s %s: %s is not a directory", cmd, flag, file, dir)
		}
	}
	if f.svg != "" && f.html != "" && filepath.Clean(f.svg) == filepath.Clean(f.html) {
		return usageErr("%s: --trace-svg and --trace-html name the same file %s", cmd, f.svg)
	}
	return nil
}

// unwrapPath is the reason of a file error without the path it repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// draw writes the pictures of res's trace, after the verdict was
// printed; verdict is the exit the verdict stands for, returned unless
// a picture cannot be written (exit status 2, the reason on stderr: the
// verdict already went to stdout, as a JSON document with --json).
// Without a trace it says so on stderr and keeps the verdict's exit.
func (f *traceFlags) draw(c *cobra.Command, res *result.Result, p *ir.Program, path string, verdict error, stderr io.Writer) error {
	files := f.files()
	if len(files) == 0 {
		return verdict
	}
	name := "bmc " + c.Name()
	if res.Verdict != result.Unsafe || res.Trace == nil {
		why := "no violation was found"
		switch {
		case res.Verdict == result.Unknown:
			why = "the answer is unknown"
		case res.Lasso:
			why = "no livelock was found"
		}
		fmt.Fprintf(stderr, "%s: no trace to draw (%s): %s not written\n", name, why, joinFiles(files))
		return verdict
	}
	o := picture.Options{Globals: globalNames(p), Sources: sourcesOf(res.Trace, path), Title: title(c, path)}
	failed := false
	for _, nf := range files {
		flag, file := nf[0], nf[1]
		var buf bytes.Buffer
		var err error
		if flag == "--trace-svg" {
			err = picture.TraceSVG(&buf, res.Trace, o)
		} else {
			err = picture.TraceHTML(&buf, res.Trace, o)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: drawing the trace: %v\n", name, flag, err)
			return internalErr("")
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "%s: %s: cannot write the picture: %v\n", name, flag, err)
			failed = true
		}
	}
	if failed {
		return &exitError{code: exitBadInput}
	}
	return verdict
}

func joinFiles(files [][2]string) string {
	var names []string
	for _, nf := range files {
		names = append(names, nf[1])
	}
	return strings.Join(names, " and ")
}

// globalNames are the program's shared variables; nil without a program.
func globalNames(p *ir.Program) map[string]bool {
	if p == nil {
		return nil
	}
	g := map[string]bool{}
	for _, v := range p.Globals {
		g[v.Name] = true
	}
	return g
}

// sourcesOf reads the source lines of the files the trace's steps are
// in (the program file). A file that cannot be read has none: the
// picture then shows the statements alone.
func sourcesOf(t *result.Trace, path string) map[string][]string {
	src := map[string][]string{}
	for _, s := range t.Steps {
		if s.File == "" {
			continue
		}
		if _, ok := src[s.File]; ok {
			continue
		}
		data, err := os.ReadFile(s.File)
		if err != nil && s.File != path {
			data, err = os.ReadFile(path)
		}
		if err != nil {
			continue
		}
		src[s.File] = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	return src
}

// title is the picture's first line: the command, with the flags that
// shape the question.
func title(c *cobra.Command, path string) string {
	parts := []string{"bmc", c.Name()}
	c.Flags().Visit(func(fl *pflag.Flag) {
		switch fl.Name {
		case "trace-svg", "trace-html", "json", "quiet", "verbose":
			return
		}
		if fl.Value.Type() == "bool" {
			parts = append(parts, "--"+fl.Name)
			return
		}
		parts = append(parts, "--"+fl.Name, fl.Value.String())
	})
	return strings.Join(append(parts, path), " ")
}

// withoutTraceFlags is the command line args without --trace-svg and
// --trace-html: the command the candidates of a plan run as processes
// of their own (method.Options.Command), which must not draw.
func withoutTraceFlags(args []string) []string {
	if args == nil {
		return nil
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--trace-svg" || a == "--trace-html" {
			i++ // and its value
			continue
		}
		if strings.HasPrefix(a, "--trace-svg=") || strings.HasPrefix(a, "--trace-html=") {
			continue
		}
		out = append(out, a)
	}
	return out
}
