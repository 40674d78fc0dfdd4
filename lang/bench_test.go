package lang

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"bmc/internal/corpus"
)

// BenchmarkFrontEnd parses and checks the largest corpus program.
func BenchmarkFrontEnd(b *testing.B) {
	path := filepath.Join(corpus.Dir(b), "getafix-trucnguyenlam/SafeStack", "SafeStack_seqcst_forCSEQ_unrolled_over_approx.bp")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		f, err := ParseFile(context.Background(), path, src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Check(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
