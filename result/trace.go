package result

import (
	"strings"

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
	// Depth is the call depth the trace needs: the most frames a
	// thread's stack holds along it (a trace found at every call depth
	// says here how deep it went).
	Depth int
	// Livelock marks a lasso: Steps[Loop:] is the loop, which ends in
	// the configuration it starts from and repeats forever (Violation
	// says so); Steps[:Loop] is the stem.
	Livelock bool
	Loop     int
	// Threads names the threads in instance order (init not among them),
	// for a picture's lanes; nil when the engine did not say.
	Threads []string
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
	Changes []string `json:"changes,omitempty"` // "x=T", LockChange("m", "adder#1")
	// Sched says what an event is, so that a reader (a picture) need
	// not parse its English; Switch and Round number it: the context
	// switch it makes (from 1 in its part of the trace: the stem and
	// the loop of a livelock count afresh) and, under a round bound, the
	// round the thread (Thread) runs in.
	Sched  Sched `json:"sched,omitempty"`
	Switch int   `json:"switch,omitempty"`
	Round  int   `json:"round,omitempty"`
}

// Sched is the kind of a scheduling event.
type Sched string

const (
	SchedInitial Sched = "initial"  // the initial values that the steps read
	SchedStart   Sched = "start"    // init has ended; the threads start
	SchedFirst   Sched = "first"    // Thread runs first (--switches)
	SchedRound   Sched = "round"    // a round begins: Thread runs
	SchedSwitch  Sched = "switch"   // a context switch: Thread runs
	SchedLoop    Sched = "loop"     // a livelock's loop begins
	SchedLoopEnd Sched = "loop-end" // what each time round the loop leaves behind
)

// LockChange is the change of a step that gives lock to holder, or
// frees it when holder is "": "lock m held by t1", "lock m free".
func LockChange(lock, holder string) string {
	if holder == "" {
		return "lock " + lock + " free"
	}
	return "lock " + lock + " held by " + holder
}

// ParseLockChange reads a change made by LockChange: the lock and its
// new holder ("" when freed); ok is false for any other change.
func ParseLockChange(change string) (lock, holder string, ok bool) {
	rest, found := strings.CutPrefix(change, "lock ")
	if !found {
		return "", "", false
	}
	if lock, found = strings.CutSuffix(rest, " free"); found && lock != "" && !strings.Contains(lock, " ") {
		return lock, "", true
	}
	lock, holder, found = strings.Cut(rest, " held by ")
	if !found || lock == "" || holder == "" || strings.Contains(lock, " ") || strings.Contains(holder, " ") {
		return "", "", false
	}
	return lock, holder, true
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

// StackDepth is the most frames a thread's stack holds over steps: each
// thread's stack starts with its entry frame, and a thread that returns
// from that frame has an empty one (init, which runs as thread 0,
// returns before thread 0 starts on a stack of its own).
func StackDepth(steps []ReplayStep) int {
	depth := map[int]int{}
	most := 1
	for _, st := range steps {
		t := st.Thread
		if depth[t] == 0 {
			depth[t] = 1
		}
		switch {
		case st.Edge.Kind == ir.Call && !st.Edge.Spawn:
			depth[t]++
			most = max(most, depth[t])
		case st.Edge.Kind == ir.Return:
			depth[t]--
		}
	}
	return most
}
