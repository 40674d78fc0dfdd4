// Package seq turns a concurrent program into a sequential one whose
// violations are exactly those of the concurrent program within a bound on
// round-robin rounds or context switches, so that the sequential engines
// (encode, engine) check concurrent programs.
//
// Both translations follow La Torre, Madhusudan and Parlato (CAV 2009):
// an execution is cut into C contexts, each run by one thread (the
// schedule: fixed round-robin for rounds, guessed for switches); the shared
// state at the start of every context is kept in a copy S_c, and a thread
// switches out of a context only where the shared state can be handed on.
//
//   - Eager (section 4; Lal and Reps for rounds): the copies are guessed up
//     front, each thread runs once through all of its contexts, checking at
//     every switch that it ends context c in the guessed S_{c+1}; a
//     violation counts only if all guesses are confirmed, which is checked
//     when every thread has run.
//   - Lazy (section 5): context c re-runs its thread from scratch through
//     the thread's earlier contexts, matching the stored S_{c'+1} at each of
//     its switches, so only reachable states are ever visited and a
//     violation is real the moment it is reached.
//   - Amplify (amplify.go; kinduction-with-amplification, section 4.2):
//     eager from any state of the envelope instead of the initial one,
//     built by an initialization phase that walks each thread's code with
//     data ignored and stops anywhere (L^K of K-induction with
//     amplification, for printing and comparing).
//   - Lasso (lasso.go; mutant-fair-nontermination, section 4): eager over
//     the rounds of a stem and a loop whose guesses close around the loop,
//     for livelocks; with whole stacks compared (calls inlined by package
//     fairness), or with keyframes (keyframe.go, LassoKeyframes), where the
//     procedures stay and the answer holds at every call depth.
//
// The code of every thread instance is cloned (its procedures get the
// instance's name as prefix), so lock ownership is static. Control code (a
// possible context switch) is inserted only after steps that touch shared
// state, locks or atomic marks, at thread start, after calls and where a
// thread has ended: a switch before a purely local step can always be
// moved back to the previous such point without changing what other
// threads see or how many switches are used. A switch point is a node in
// front of the step: no switch, a switch to any later context of the
// thread (passing over its own contexts that stay empty, which start and
// end in the same shared state), or the end of its contexts. So a thread
// switches at most once at a point, every way through costs one step, and
// loop-free threads give a loop-free sequential program, whose every
// execution the unrolling can cover (encode.Model.Ended).
//
// In bmc's pipeline, lang -> ir -> seq/moped -> encode -> ts -> engine ->
// solver -> sat/smt (run by package driver, wrapped by the command
// cmd/bmc), seq takes a concurrent ir program to a sequential one for
// encode and moped. Of bmc's packages it imports lang, ir, result and
// internal/halt, none of the stages after it.
package seq
