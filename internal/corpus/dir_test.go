package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBenchDir: from this package's directory, two levels below the
// repository root, the corpus is ../shared/bench beside the root.
func TestBenchDir(t *testing.T) {
	got, err := BenchDir()
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Abs("../../../shared/bench")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("BenchDir() = %s, want %s", got, want)
	}
}

func TestModuleName(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		"module bmc\n\ngo 1.26\n":          "bmc",
		"// x\nmodule \"bmc\" // quoted\n": "bmc",
		"module bmc/other\n":               "bmc/other",
		"modulebmc\n":                      "",
		"go 1.26\n":                        "",
	} {
		gomod := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(gomod, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := moduleName(gomod); got != want {
			t.Errorf("moduleName(%q) = %q, want %q", text, got, want)
		}
	}
}
