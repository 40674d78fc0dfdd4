// Package encode turns a Boolean program (package ir) into a transition
// system (package ts) for the bounded model checker, in one of three
// ways, each a Model:
//
//   - Sequential: one thread, step by step. State: a latch per global and
//     per lock (held), and a call stack of D frames kept as a shift
//     register: frame 0 is always the running frame, a call shifts every
//     frame down by one and a return shifts them up, so the running
//     frame's variables are read and written without any mux over the
//     stack depth. Each frame holds a program counter (binary) and the
//     locals (as many slots as the procedure with most locals). A
//     caller's pc holds the *return site* of the call it waits in, which
//     tells the return which variables receive the results and where
//     execution continues.
//   - Direct: a concurrent program as the interleaving product of its
//     thread instances, each with such a stack, and a scheduler
//     (direct.go). DirectLasso asks the livelock question (--lasso) on
//     it, as a safety question about a copy of the configuration saved
//     where the loop begins (lasso.go).
//   - Whole: a loop-free, non-recursive sequential program in one frame,
//     every call inlined and every statement once (whole.go); Unwind does
//     the same for a program with loops, each activation of a loop
//     unwound to a given number of iterations, and gives the cuts (an
//     iteration beyond that starts in a new state) that say whether the
//     unwinding covers every execution.
//
// Horn (horn.go) is the fourth way, and no transition system: a
// one-thread program as constrained Horn clauses (package chc) whose
// least model is its reachable configurations at every call depth,
// procedure summaries with large blocks between cut points; Steps reads
// a derivation back as program steps. Contexts (horn_contexts.go) is the
// fifth: a concurrent program's question within rounds or switches as
// Horn clauses directly, Getafix's summary relation, per context and
// with the history of shared states at the context switches. Product
// (horn_product.go) is the sixth, for threads without calls or locks:
// the same question as forward reachability over the product of the
// threads' states (Getafix's cross-product formula), the running
// thread's cut point per predicate and the suspended threads' states as
// arguments. All three build their clauses from regions
// (horn_region.go), the DAG of the blocks from a cut point.
//
// The direct encoding can also start at BASE (base.go), in any state of
// the envelope of K-induction with amplification, for its inductive
// case.
//
// The sequential and the direct encoding are one machine of threads with
// stacks (machine.go): they differ in whose frames the blocks run on (the
// latches of the one thread, or a view of the scheduled one) and in how
// threads start and end.
//
// Steps are large blocks: one step executes a maximal straight-line run of
// edges from a block head and then one edge of its last node (a branch,
// a call or a return), so loop-free code costs one step per basic block
// instead of one per statement. Violations inside a block (a failing
// assert, a reached error label, a bad release) are detected in the step
// that executes them; a step that cannot be taken (assume, constrain,
// enforce, a blocked acquire) is excluded by the system's constraint.
// Nondeterminism comes from a pool of inputs shared by all blocks (only one
// block runs per step), so the number of inputs is the largest need of any
// one block.
//
// A witness (a model of the unrolled system) is read back as the program
// steps it executes (Model.Steps), which the explicit interpreter
// replays.
//
// The package builds on ir, ts and chc (and internal/halt to stop with a
// context, result for the replay step type); it never imports the
// explicit engine it is tested against.
package encode
