package budget

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

type memoryLimitKey struct{}

// WithMemoryLimit is ctx carrying a run's memory limit in bytes, which
// the run's limits enforce (driver.Limit) and MemoryLimit reads.
func WithMemoryLimit(ctx context.Context, bytes int64) context.Context {
	return context.WithValue(ctx, memoryLimitKey{}, bytes)
}

// MemoryLimit is the memory limit of the run ctx belongs to (0: none),
// for refusing up front what cannot fit.
func MemoryLimit(ctx context.Context) int64 {
	n, _ := ctx.Value(memoryLimitKey{}).(int64)
	return n
}

// ParseBytes reads a size such as 512M, 4G, 1.5G or 1000000 (bytes); the
// suffixes K, M, G, T count powers of 1024 and may be followed by B or iB.
func ParseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	mult := int64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			t = t[:n-1]
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || x*float64(mult) >= 1<<62 {
		return 0, fmt.Errorf("invalid size %q (examples: 512M, 4G)", s)
	}
	return int64(x * float64(mult)), nil
}

// FormatBytes writes a size the way ParseBytes reads it (to three digits).
func FormatBytes(n int64) string {
	for i, unit := range []string{"T", "G", "M", "K"} {
		if size := int64(1) << (10 * (4 - i)); n >= size {
			return strconv.FormatFloat(float64(n)/float64(size), 'g', 3, 64) + unit
		}
	}
	return strconv.FormatInt(n, 10)
}
