package moped

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// mopedExe is the Moped executable the tests run: $BMC_MOPED, or moped
// on PATH; "" and why when there is none.
func mopedExe() (string, string) {
	exe := os.Getenv("BMC_MOPED")
	if exe == "" {
		exe = "moped"
	}
	path, err := Find(exe)
	if err != nil {
		return "", "Moped is not installed, so its part is skipped (" + err.Error() + "; docs/USAGE.md says how to build it, BMC_MOPED names it)"
	}
	return path, ""
}

// runText runs Moped on a program text.
func runText(t *testing.T, exe, text string) (bool, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "prog.bp")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), exe, file)
}

// TestMopedReadsCheckedText runs Moped on the texts that CheckText
// accepts in its own test: Moped must read each and answer.
func TestMopedReadsCheckedText(t *testing.T) {
	exe, why := mopedExe()
	if exe == "" {
		t.Skip(why)
	}
	for i, src := range readable {
		reachable, err := runText(t, exe, src.text)
		if err != nil {
			t.Errorf("text %d: %v\n%s", i, err, src.text)
		} else if reachable != src.reachable {
			t.Errorf("text %d: Moped says reachable=%v, want %v\n%s", i, reachable, src.reachable, src.text)
		}
	}
}

// TestRunErrors: Moped's own errors and a missing executable are errors
// with what Moped said.
func TestRunErrors(t *testing.T) {
	if _, err := Find(filepath.Join(t.TempDir(), "no-moped")); err == nil {
		t.Error("Find of a missing file: no error")
	}
	exe, why := mopedExe()
	if exe == "" {
		t.Skip(why)
	}
	_, err := runText(t, exe, "void main()\nbegin\n  x := ;\nend\n")
	if err == nil {
		t.Error("a syntax error: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, exe, filepath.Join(t.TempDir(), "none.bp")); err != context.Canceled {
		t.Errorf("ended context: got %v, want %v", err, context.Canceled)
	}
}
