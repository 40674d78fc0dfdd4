package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"testing"
)

// Dir is BenchDir for a test that needs the corpus. When the directory
// is missing the test is skipped, except under CI (CI=true in the
// environment), where it fails: there a missing corpus would silently
// check nothing.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := Optional(tb)
	if dir == "" {
		tb.SkipNow()
	}
	return dir
}

// Optional is BenchDir for a test that also checks other programs, or ""
// when the directory is missing (said in the log; under CI the test
// fails, as with Dir). Load and filepath.WalkDir find nothing in "".
func Optional(tb testing.TB) string {
	tb.Helper()
	dir, err := BenchDir()
	if err == nil {
		if _, err = os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("no benchmark corpus at %s (../shared/bench beside the repository root)", dir)
		}
	}
	if err != nil {
		missing(tb, err.Error())
		return ""
	}
	return dir
}

// Cases are the manifest rows of the corpus, for a test that needs them;
// a corpus without manifests counts as missing (see Dir).
func Cases(tb testing.TB) []Case {
	tb.Helper()
	dir := Dir(tb)
	cases, err := Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if len(cases) == 0 {
		missing(tb, "no MANIFEST.tsv in the folders of "+dir)
		tb.SkipNow()
	}
	return cases
}

// missing says why the corpus is not checked: a failure under CI, a log
// line elsewhere.
func missing(tb testing.TB, why string) {
	tb.Helper()
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		tb.Fatalf("%s; CI=%s, and under CI the corpus must be checked", why, os.Getenv("CI"))
	}
	tb.Log(why)
}
