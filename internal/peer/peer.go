package peer

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Tool is a peer: a program a test runs beside bmc.
type Tool struct {
	Name string // as the summary names it: "ABC"
	// Commands are the names it is looked up by on the PATH, in order;
	// Env, when set, names a variable that gives its path instead.
	Commands []string
	Env      string
	// Debian is the package that has it; "" for a tool that no package
	// registry has, which a test may skip even under CI.
	Debian string
	// Build says how to get a tool that no registry has.
	Build string
}

// The peers of bmc's tests.
var (
	ABC   = Tool{Name: "ABC", Commands: []string{"berkeley-abc", "abc"}, Debian: "berkeley-abc"}
	Z3    = Tool{Name: "z3", Commands: []string{"z3"}, Debian: "z3"}
	Moped = Tool{Name: "Moped", Commands: []string{"moped"}, Env: "BMC_MOPED",
		Build: "docs/USAGE.md, \"Comparing with Moped\", says how to build it; BMC_MOPED names it"}
	Aigtoaig = Tool{Name: "aigtoaig", Commands: []string{"aigtoaig"},
		Build: "the AIGER tools (fmv.jku.at/aiger), built from source: no package registry has them"}
)

// Find returns the tool's path, or "" when it is not installed.
func Find(tool Tool) string {
	names := tool.Commands
	if tool.Env != "" {
		if v := os.Getenv(tool.Env); v != "" {
			names = []string{v}
		}
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// Need returns the tool's path. When it is missing, a test of a Debian
// peer fails under CI and is skipped elsewhere; a test of a hand-built
// one is skipped. The message names what installs it.
func Need(t testing.TB, tool Tool) string {
	t.Helper()
	if path := Find(tool); path != "" {
		return path
	}
	why := tool.Build
	if tool.Debian != "" {
		why = "apt-get install " + tool.Debian + "; make test installs it"
		if underCI() {
			t.Fatalf("peer required: %s: it is not installed (%s); CI=%s, and under CI the comparison with it must run", tool.Name, why, os.Getenv("CI"))
		}
	}
	t.Skipf("peer missing: %s: %s is not installed, so this comparison is skipped (%s)", tool.Name, strings.Join(tool.Commands, " or "), why)
	return ""
}

// Optional returns the tool's path, or "" when it is missing, for a
// test whose own checks run either way: the comparison with the tool is
// the part left out, and logged as skipped. Only tools that no registry
// has are optional.
func Optional(t testing.TB, tool Tool) string {
	t.Helper()
	if tool.Debian != "" {
		return Need(t, tool)
	}
	path := Find(tool)
	if path == "" {
		t.Logf("peer missing: %s: %s is not installed, so the comparison with it is skipped (%s)", tool.Name, strings.Join(tool.Commands, " or "), tool.Build)
	}
	return path
}

// Case logs one case a test decided with the tool, for the count at the
// end of make test.
func Case(t testing.TB, tool Tool, what string) {
	t.Helper()
	t.Logf("peer case: %s: %s", tool.Name, what)
}

// underCI says whether the tests run under CI (CI=true).
func underCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}
