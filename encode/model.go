package encode

import (
	"fmt"

	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// Model is an encoded program as a bounded model checker needs it. Its
// system's property PropViolation is the program's violation.
type Model interface {
	System() *ts.System
	// Limits are the indices in System().Bad of the properties that cut
	// an execution short (PropOverflow, PropThreadBound): reaching one is
	// not a violation, but leaves "no violation" inconclusive.
	Limits() []int
	// Running is the condition that the program has not terminated.
	Running() ts.Lit
	// Fixed gives the values that nodes are known to have at frame k of
	// every path whose earlier steps are valid (nil: none known).
	Fixed(k int) map[int]bool
	// Ended reports that every execution has terminated after k steps.
	Ended(k int) bool
	// Longest is, for the whole-program encoding, the statements on its
	// longest execution (at least 1): frame 0 is the whole program. The
	// step-by-step encodings give 0.
	Longest() int
	// Steps turns a path of the system into the statements it executes,
	// each on its thread, with the values after each, for replay on the
	// explicit interpreter: values(i) gives every variable of the system
	// at frame i (latches and inputs from a model, the rest evaluated),
	// the path has frames 0..k, and the violation is reached by the step
	// from frame k or stands in frame k.
	Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error)
}

// Scheduled is a Model whose steps are one thread's each: the
// interleaving product (Direct), whose Scheduler inputs choose the
// thread, so that a step splits into one per thread. Care holds in
// every state a path from an initial state passes (ts.True where
// nothing is known). ProgramCounters, Enabled (the thread can step:
// started, not terminated, not waiting on a held lock), Recurring (it
// stands where a cycle of its own steps can pass) and Waiting (it stands
// where only a held lock can block it, or has terminated) are by thread,
// the value of the scheduler's inputs that chooses it; ProgramCounters
// are the latches of its program counter in its top frame. Terminated
// holds where every thread has terminated and the steps move none.
type Scheduled interface {
	Model
	Scheduler() []ts.Lit
	Care() ts.Lit
	ProgramCounters() [][]ts.Lit
	Enabled() []ts.Lit
	Recurring() []ts.Lit
	Waiting() []ts.Lit
	Terminated() ts.Lit
}

// Properties of the encoded systems, by index in ts.System.Bad.
const (
	PropViolation   = 0 // assert failure, error label, bad release
	PropOverflow    = 1 // a call with all frames in use (not in the whole encoding)
	PropThreadBound = 2 // the direct encoding: a thread start found every thread slot in use
)

// Kind is a way of encoding programs.
type Kind uint8

const (
	KindSequential Kind = iota // Sequential
	KindDirect                 // Direct
	KindWhole                  // Whole
	KindUnwound                // Unwind
)

// Supported reports why p cannot be encoded in kind k with call stacks of
// at most depth frames, or nil. Only the whole encoding, which inlines
// every call, can find calls nested too deep; the others report such a
// call as PropOverflow.
func Supported(p *ir.Program, k Kind, depth int) error {
	switch k {
	case KindSequential:
		return oneThread(p)
	case KindDirect:
		return directSupported(p)
	case KindWhole, KindUnwound:
		iterations := map[Loop]int{} // one iteration each, for the check
		if k == KindWhole {
			iterations = nil
		}
		_, err := unwindable(p, depth, iterations)
		return err
	}
	return fmt.Errorf("unknown kind of encoding %d", k)
}
