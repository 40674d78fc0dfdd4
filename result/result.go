package result

import "time"

// Verdict is the outcome of a check.
type Verdict int

const (
	Safe    Verdict = iota // no violation within the bounds
	Unsafe                 // a violation was found; see Trace
	Unknown                // a limit was reached before a verdict
)

func (v Verdict) String() string { return [...]string{"safe", "unsafe", "unknown"}[v] }

// Result is the outcome with its evidence; every engine reports one.
type Result struct {
	Engine  string // "explicit", "bmc+gini", ...
	Verdict Verdict
	Bounds  string // the bounds the verdict holds under, but the call depth
	// Depth is the call depth (frames per thread) the verdict holds
	// within, worded after Bounds (Within); 0 when the answer names
	// none: a program without recursion, whose stacks were searched
	// whole, or a violation when the user stated no depth.
	Depth  int
	Limits []Limit // what left the verdict open (Unknown)
	Trace  *Trace  // for Unsafe
	States int     // explicit: distinct states explored
	Bound  int     // bmc: the unrolling depth reached
	// StepsCut says (bmc) that the step bound cut the search short:
	// executions longer than it were not explored. Unless the user stated
	// the bound, that makes the verdict Unknown.
	StepsCut bool
	// Advice says, for Unknown, what would decide the question.
	Advice string
	// ContextBound is, for a violation found by deepening the rounds or
	// switches (bmc on a concurrent program), the smallest that has one.
	ContextBound int
	// Proof says, for Safe from a proof engine, what the proof rests on
	// ("inductive invariant of 38 clauses at frame 15"): the verdict
	// covers executions of any length.
	Proof string
	// Method names, for bmc prove by K-induction with amplification,
	// the method ("amplify"), and K the rounds at which both of its
	// obligations held (Safe) or the largest tried (Unknown): a proof
	// for every number of rounds.
	Method string
	K      int
	// AnyThreads says the question was about every number of threads
	// (a parameterized program): Safe holds for all of them, and Threads
	// is, for Unsafe, how many threads the trace needs.
	AnyThreads bool
	Threads    int
	// CTI is, for Unknown from k-induction, a counterexample to
	// induction: statements from a state that need not be reachable to a
	// violation. It is not a bug and is not replayed.
	CTI *Trace
	// Lasso says the question was a livelock search (--lasso): Unsafe is
	// a livelock (Trace.Livelock), Safe that none exists within Bounds.
	Lasso bool
	// AnyDepth says that the search covered every call depth: for Safe,
	// that the verdict holds at every depth, not only within a depth
	// bound (a summary engine's proof, or a complete search in which no
	// execution reached Depth).
	AnyDepth bool
	Stats    string // what the engine did, for people ("1234 states")
	Elapsed  time.Duration
	// Plan is what the run did: the engines it raced, in the order of
	// the plan (driver); Winner names the one whose answer this is.
	Plan   []Candidate
	Winner string
}

// Candidate is an engine of a run's plan, for the report: what it is,
// the cores it may keep busy and how long it waits before it starts.
type Candidate struct {
	Engine string        `json:"engine"`
	Cores  int           `json:"cores"`
	After  time.Duration `json:"-"`
}
