package lang

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bmc/internal/corpus"
)

// TestRoundTrip checks, for every example and corpus file, that the
// formatted program parses and checks to a program equal to the original,
// and that formatting is idempotent.
func TestRoundTrip(t *testing.T) {
	var files []string
	for _, root := range []string{"../examples", corpus.Optional(t)} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".bp") || strings.HasSuffix(path, ".bpl") || strings.HasSuffix(path, ".nbp")) {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) < 10 {
		t.Fatalf("found only %d programs", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFile(context.Background(), path, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if _, err := Check(context.Background(), f); err != nil {
			t.Errorf("%v", err)
			continue
		}
		out := Format(f)
		g, err := ParseFile(context.Background(), path, out)
		if err != nil {
			t.Errorf("%s: formatted output does not parse: %v", path, err)
			continue
		}
		if _, err := Check(context.Background(), g); err != nil {
			t.Errorf("%s: formatted output does not check: %v", path, err)
			continue
		}
		if d := diffAST(f, g); d != "" {
			t.Errorf("%s: formatted program differs at %s", path, d)
		}
		if again := Format(g); string(again) != string(out) {
			t.Errorf("%s: formatting is not idempotent", path)
		}
	}
	t.Logf("%d programs", len(files))
}
