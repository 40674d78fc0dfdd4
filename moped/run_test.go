package moped

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"bmc/internal/peer"
)

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
	exe := peer.Need(t, peer.Moped)
	for i, src := range readable {
		reachable, err := runText(t, exe, src.text)
		if err != nil {
			t.Errorf("text %d: %v\n%s", i, err, src.text)
		} else if reachable != src.reachable {
			t.Errorf("text %d: Moped says reachable=%v, want %v\n%s", i, reachable, src.reachable, src.text)
		}
		peer.Case(t, peer.Moped, fmt.Sprintf("checked text %d", i))
	}
}

// TestRunErrors: Moped's own errors and a missing executable are errors
// with what Moped said.
func TestRunErrors(t *testing.T) {
	if _, err := Find(filepath.Join(t.TempDir(), "no-moped")); err == nil {
		t.Error("Find of a missing file: no error")
	}
	exe := peer.Need(t, peer.Moped)
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
