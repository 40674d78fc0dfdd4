package driver

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestRaceProgress checks that the two methods raced on a looping
// program (the unwinding and PDR) both report progress to the one
// writer, in whole lines.
func TestRaceProgress(t *testing.T) {
	src, err := readExample("dekker.bpl")
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "dekker.bpl", src, ir.Options{})
	var progress bytes.Buffer
	o := method.Options{Engine: "bmc", Seq: "eager", Solver: "gini", Progress: &progress, Bounds: method.DefaultBounds()}
	o.Bounds.Switches = 2
	res, err := Check(context.Background(), p, o)
	if err != nil || res.Verdict != result.Safe {
		t.Fatalf("dekker eager, 2 switches: %v, %v", res, err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n") {
		who, _, _ := strings.Cut(line, ": ")
		if who != "bmc" && who != "pdr" {
			t.Errorf("progress line %q is not a line of either method", line)
		}
		seen[who] = true
	}
	if !seen["pdr"] || !strings.Contains(progress.String(), "bmc: loops unwound") {
		t.Errorf("progress from one method only:\n%s", progress.String())
	}
}
