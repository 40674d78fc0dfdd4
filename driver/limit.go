package driver

import (
	"bufio"
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"bmc/internal/budget"
	"bmc/internal/halt"
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
	ctx = budget.WithMemoryLimit(ctx, maxMemory)
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
					cancel(&halt.MemoryLimitError{Limit: budget.FormatBytes(maxMemory)})
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

// goSysBytes is the memory the Go runtime holds from the system.
func goSysBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
