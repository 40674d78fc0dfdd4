package batch

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"bmc/internal/corpus"
)

// Job is one check: a program and the flags of `bmc check` for it, with
// the verdict expected, if any.
type Job struct {
	File     string   // the program's path
	Flags    []string // bounds and options, as on the command line
	Expected string   // "safe", "unsafe", "livelock", ...; "" when none is known
}

// Key names a job in an output: its file and flags.
func (j Job) Key() string { return j.File + "\t" + strings.Join(j.Flags, " ") }

// Expectation is one `// expect: VERDICT FLAGS` line at the top of a
// program: the verdict bmc gives with those flags.
type Expectation struct {
	Line    int
	Verdict string
	Flags   []string
}

// Verdicts are the words an expectation may use: the verdicts of `bmc
// check --json`, and depth-bound, an unknown at the call depth.
var Verdicts = []string{"safe", "unsafe", "livelock", "no-livelock", "depth-bound"}

// ReadExpectations reads the `// expect:` lines a file begins with.
func ReadExpectations(path string) ([]Expectation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Expectation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		rest, ok := strings.CutPrefix(sc.Text(), "// expect:")
		if !ok {
			break
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return nil, fmt.Errorf("%s:%d:1: an expectation without a verdict", path, n)
		}
		known := false
		for _, v := range Verdicts {
			known = known || fields[0] == v
		}
		if !known {
			return nil, fmt.Errorf("%s:%d:12: unknown verdict %q (want one of %s)", path, n, fields[0], strings.Join(Verdicts, ", "))
		}
		out = append(out, Expectation{Line: n, Verdict: fields[0], Flags: fields[1:]})
	}
	return out, sc.Err()
}

// programExts are the file names a directory's programs have.
var programExts = []string{".bp", ".bpl"}

// Jobs makes the checks for args: a MANIFEST.tsv of the corpus gives a
// check per row, with the bounds internal/corpus derives from it and
// the row's expected verdict; a directory gives, for each program below
// it, a check per `// expect:` line, or one with the defaults; a program
// file likewise.
func Jobs(args []string) ([]Job, error) {
	var jobs []Job
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		switch {
		case info.IsDir():
			err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !isProgram(path) {
					return err
				}
				more, err := fileJobs(path)
				jobs = append(jobs, more...)
				return err
			})
		case strings.HasSuffix(arg, ".tsv"):
			var more []Job
			more, err = manifestJobs(arg)
			jobs = append(jobs, more...)
		case isProgram(arg):
			var more []Job
			more, err = fileJobs(arg)
			jobs = append(jobs, more...)
		default:
			err = fmt.Errorf("%s: neither a manifest (.tsv), a directory nor a program (%s)", arg, strings.Join(programExts, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	// A check named twice (a directory and a file in it) runs once.
	seen := map[string]bool{}
	return slices.DeleteFunc(jobs, func(j Job) bool {
		dup := seen[j.Key()]
		seen[j.Key()] = true
		return dup
	}), nil
}

func isProgram(path string) bool {
	for _, ext := range programExts {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

func fileJobs(path string) ([]Job, error) {
	exps, err := ReadExpectations(path)
	if err != nil {
		return nil, err
	}
	if len(exps) == 0 {
		return []Job{{File: path}}, nil
	}
	var jobs []Job
	for _, e := range exps {
		jobs = append(jobs, Job{File: path, Flags: e.Flags, Expected: e.Verdict})
	}
	return jobs, nil
}

// manifestJobs is a check per row of a corpus manifest, with the bounds
// internal/corpus derives (round-robin rounds for the Getafix programs,
// a thread bound for spawning ones, Boppo's error label) and the
// verdict it expects ("unknown" rows expect none).
func manifestJobs(path string) ([]Job, error) {
	cases, err := corpus.LoadManifest(path)
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, c := range cases {
		var flags []string
		b := c.Bounds()
		if b.Rounds > 0 {
			flags = append(flags, "-k", strconv.Itoa(b.Rounds))
		}
		if b.MaxThreads > 0 {
			flags = append(flags, "--max-threads", strconv.Itoa(b.MaxThreads))
		}
		if b.Target != "" {
			flags = append(flags, "--target", b.Target)
		}
		want, _ := c.Want()
		if want == "unknown" {
			want = ""
		}
		jobs = append(jobs, Job{File: c.Path(), Flags: flags, Expected: want})
	}
	return jobs, nil
}
