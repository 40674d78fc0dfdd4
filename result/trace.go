package result

import (
	"bmc/ir"
	"bmc/lang"
)

// Trace is a counterexample: the steps from an initial state to the
// violation, in the program's own source lines.
type Trace struct {
	Violation string   // what went wrong
	File      string   // where it went wrong
	Pos       lang.Pos //
	Steps     []Step
	Switches  int // context switches in the trace
	// Livelock marks a lasso: Steps[Loop:] is the loop, which ends in
	// the configuration it starts from and repeats forever (Violation
	// says so); Steps[:Loop] is the stem.
	Livelock bool
	Loop     int
}

// Step is one line of a trace: a statement executed by a thread, or a
// scheduling event (Event non-empty) such as a context switch.
type Step struct {
	Thread  string   `json:"thread"`
	Event   string   `json:"event,omitempty"`
	File    string   `json:"file,omitempty"`
	Pos     lang.Pos `json:"-"`
	Proc    string   `json:"function,omitempty"`
	Stmt    string   `json:"statement,omitempty"`
	Changes []string `json:"changes,omitempty"` // "x=T", "lock m held by adder#1"
}

// ReplayStep is one statement of a counterexample found by another engine:
// the thread, the edge it takes and the values the engine's model gives
// after it.
type ReplayStep struct {
	Thread  int // index among the threads in existence (init is thread 0 while it runs)
	Edge    *ir.Edge
	Globals []ir.Value // all globals after the step; nil: not given
	Locals  []ir.Value // the locals of the thread's top frame after the step; nil: not given
}
