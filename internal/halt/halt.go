package halt

import (
	"context"
	"errors"
)

// halted is the panic value of Point.
type halted struct{ cause error }

// Point halts the construction when ctx has ended. It costs a mutex
// acquisition, so call it once per piece of work that takes at least
// microseconds (a block, a node, a declaration), not per bit.
func Point(ctx context.Context) {
	if ctx.Err() != nil {
		panic(halted{context.Cause(ctx)})
	}
}

// Recover, deferred, sets *err to the cause of a halt by Point and lets
// every other panic through.
func Recover(err *error) {
	if r := recover(); r != nil {
		h, ok := r.(halted)
		if !ok {
			panic(r)
		}
		*err = h.cause
	}
}

// MemoryLimitError is the cause of a context ended because the process
// grew beyond its memory limit (driver.Limit).
type MemoryLimitError struct{ Limit string }

func (e *MemoryLimitError) Error() string { return "memory limit (" + e.Limit + ")" }

// Reason names why ctx ended: "timeout" for its deadline, else its cause
// (the memory limit, say). result.Stopped words it for a result's limits.
func Reason(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.DeadlineExceeded) {
		return "timeout"
	}
	return cause.Error()
}
