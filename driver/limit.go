package driver

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/seq"
)

// memoryPoll is how often Limit measures the process: often enough that a
// run allocating as fast as Go can (a few GB/s) overshoots the limit by a
// small fraction only.
const memoryPoll = 20 * time.Millisecond

// Limit returns a context that ends after timeout (when positive) or as
// soon as the process's resident memory exceeds maxMemory bytes (when
// positive); context.Cause then is context.DeadlineExceeded or a
// *halt.MemoryLimitError. Every stage of a run (loading, sequentializing,
// encoding, solving, the explicit search) watches the context, so that
// both limits end the run with an answer instead of an endless or
// unbounded one. The Go heap is also told the limit, so that garbage is
// collected harder before the limit ends the run. In a candidate's
// process the parent holds the limits (candidateLimit).
func Limit(parent context.Context, timeout time.Duration, maxMemory int64) (context.Context, context.CancelFunc) {
	if cp, ok := thisCandidate(); ok {
		return candidateLimit(parent, cp, maxMemory)
	}
	ctx, cancelTimeout := parent, context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancelTimeout = context.WithTimeout(ctx, timeout)
	}
	if maxMemory <= 0 {
		return ctx, cancelTimeout
	}
	ctx = context.WithValue(ctx, memoryLimitKey{}, maxMemory)
	ctx, cancel := context.WithCancelCause(ctx)
	old := debug.SetMemoryLimit(maxMemory)
	go func() {
		t := time.NewTicker(memoryPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if residentBytes() > maxMemory {
					cancel(&halt.MemoryLimitError{Limit: FormatBytes(maxMemory)})
					return
				}
			}
		}
	}()
	return ctx, func() {
		cancel(context.Canceled)
		cancelTimeout()
		debug.SetMemoryLimit(old)
	}
}

type memoryLimitKey struct{}

// MemoryLimit is the memory limit a context from Limit enforces (0: none),
// for refusing up front what cannot fit.
func MemoryLimit(ctx context.Context) int64 {
	n, _ := ctx.Value(memoryLimitKey{}).(int64)
	return n
}

// residentBytes is the resident set size (Linux) of the process and of
// the candidates' processes it runs, or the memory the Go runtime has
// obtained from the system elsewhere.
func residentBytes() int64 {
	if n := statmBytes("/proc/self/statm"); n > 0 {
		return n + childrenBytes()
	}
	return int64(goSysBytes())
}

// statmBytes is the resident set size a statm file gives (0: none).
func statmBytes(path string) int64 {
	if b, err := os.ReadFile(path); err == nil {
		if f := strings.Fields(string(b)); len(f) > 1 {
			if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return pages * int64(os.Getpagesize())
			}
		}
	}
	return 0
}

// DefaultMaxMemory is the memory limit when the user gives none: half of
// the machine's (or the container's) memory, so that a run that cannot
// fit ends with an answer before the machine starts to swap.
func DefaultMaxMemory() int64 {
	total := int64(0)
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				total = kb << 10
			}
		}
		f.Close()
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(path); err == nil {
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
				total = n
			}
		}
	}
	if total <= 0 {
		return 4 << 30
	}
	return total / 2
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

// goSysBytes is the memory the Go runtime holds from the system.
func goSysBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// seqBytesPerNode is what one expression node of a sequentialization
// costs in memory, measured on the Bluetooth driver with 6 to 20 threads
// and 2 to 8 rounds: 90 to 105 bytes eager, about 180 lazy. The lower
// figure makes the refusal below err on the side of trying.
const seqBytesPerNode = 90

// SeqFits refuses, before it is built, a sequentialization of p within bd
// that cannot fit in maxMemory bytes (0: no limit): the contexts' shared
// state copies and switches grow with the square of the contexts, and
// many threads with many rounds need more memory than any machine has.
func SeqFits(p *ir.Program, bd seq.Bound, maxMemory int64) error {
	if maxMemory <= 0 {
		return nil
	}
	nodes, err := seq.Size(p, bd)
	if err != nil {
		return err
	}
	if need := nodes * seqBytesPerNode; nodes > maxMemory/seqBytesPerNode {
		return &UsageError{fmt.Sprintf("the sequentialization within %s would need about %s of memory (%d expression nodes), more than the memory limit of %s: give fewer rounds, switches or threads, or a larger --max-memory",
			bd, FormatBytes(need), nodes, FormatBytes(maxMemory))}
	}
	return nil
}
