// Package fairness reduces the search for livelocks, fair ultimately
// periodic executions, to the safety of a sequential program: the
// translation ((P))^{k1,k2} of Atig, Bouajjani, Emmi and Lal, "Detecting
// fair non-termination in multithreaded programs"
// (mutant-fair-nontermination, sections 3 and 4, Fig. 2). Its assertion
// fails exactly when the program has an execution of k1 round-robin
// rounds (the stem) followed by k2 rounds (the loop) that end in the
// configuration the loop started from, with a step in the loop and the
// loop fair (strongly, weakly or not at all, result.Fairness).
//
// Each thread runs alone through its stem and loop contexts against
// guessed shared states, as in the eager sequentialization (package seq
// builds that part, Lasso); what is new is that the guesses close around
// the loop, that each thread compares its state when the loop ends with
// a snapshot taken when it started, and the guessed lock sets that make
// the loop fair. Threads are inlined first (inline.go), so the snapshot
// covers the whole stack and the rounds are exactly those asked for.
// Keyframes keeps the procedures instead (seq.LassoKeyframes, section
// 3.3): a recursive program, decided at every call depth by summaries.
//
// In bmc's pipeline, lang -> ir -> seq/fairness -> encode -> ts -> engine
// -> solver -> sat/smt, fairness sits beside seq; it imports ir, result
// and seq.
package fairness
