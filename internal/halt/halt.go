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

// Reason names why ctx ended, for a result's limits: "timeout" for its
// deadline, else its cause (the memory limit, say). Every engine words
// its limits with it.
func Reason(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.DeadlineExceeded) {
		return "timeout"
	}
	return cause.Error()
}
