// Package halt ends a long construction (an encoding, a
// sequentialization, a program being loaded) as soon as its context ends,
// from however deep in the construction's recursion: Point panics with a
// value of its own, and Recover, deferred at the construction's entry,
// turns it into the context's cause. The constructions build one value
// and throw it away when halted, so nothing half-built escapes; this is
// the bail-out go/parser uses for its own errors.
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
