package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const program = "void main() begin assert(T); end\n"

func TestJobs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "progs", "a.bpl"), "// expect: safe -k 2\n// expect: unsafe --switches 3 --threads t=2\n"+program)
	write(t, filepath.Join(dir, "progs", "sub", "b.bp"), program)
	write(t, filepath.Join(dir, "progs", "notes.txt"), "not a program")
	// A manifest as the corpus has them: a Getafix folder (4 rounds), a
	// spawning one (a thread bound) and a row with no verdict.
	write(t, filepath.Join(dir, "bench", "getafix-trucnguyenlam", "MANIFEST.tsv"),
		"file\tkind\texpected\tverdict_source\n"+
			"x.bp\tconcurrent\tunsafe\tfile name; 5 round-robin rounds\n"+
			"y.bp\tconcurrent\tunknown\tnone\n")
	write(t, filepath.Join(dir, "bench", "ijit-ase16", "MANIFEST.tsv"),
		"file\tkind\texpected\tverdict_source\n"+
			"z/satabs.1.bp\tparameterized\tsafe\tcoverability; found the target with <=2 threads\n")
	jobs, err := Jobs([]string{
		filepath.Join(dir, "progs"),
		filepath.Join(dir, "bench", "getafix-trucnguyenlam", "MANIFEST.tsv"),
		filepath.Join(dir, "bench", "ijit-ase16", "MANIFEST.tsv"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, strings.TrimPrefix(j.File, dir+"/")+" ["+strings.Join(j.Flags, " ")+"] "+j.Expected)
	}
	want := []string{
		"progs/a.bpl [-k 2] safe",
		"progs/a.bpl [--switches 3 --threads t=2] unsafe",
		"progs/sub/b.bp [] ",
		"bench/getafix-trucnguyenlam/x.bp [-k 5] unsafe",
		"bench/getafix-trucnguyenlam/y.bp [-k 4] ",
		"bench/ijit-ase16/z/satabs.1.bp [--max-threads 2] safe",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("jobs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestJobsBadInput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "bad.bpl"), "// expect: fine -k 2\n"+program)
	write(t, filepath.Join(dir, "empty.bpl"), "// expect:\n"+program)
	write(t, filepath.Join(dir, "x.txt"), "")
	cases := []struct{ arg, want string }{
		{filepath.Join(dir, "bad.bpl"), `bad.bpl:1:12: unknown verdict "fine"`},
		{filepath.Join(dir, "empty.bpl"), "empty.bpl:1:1: an expectation without a verdict"},
		{filepath.Join(dir, "x.txt"), "neither a manifest"},
		{filepath.Join(dir, "missing"), "no such file"},
	}
	for _, c := range cases {
		if _, err := Jobs([]string{c.arg}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Jobs(%s): %v, want %q", c.arg, err, c.want)
		}
	}
}
