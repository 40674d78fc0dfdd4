// Command loopprogs writes the generated programs of the benchmark
// tables (docs/BENCHMARKS.md: "Looping programs", "Livelocks",
// "Bounded safety", "Recursion") into a directory: Burns' mutual exclusion for 2 to 7
// threads, safe and with a bug (burnsN.bpl, burnsN_bug.bpl); a flag-based
// mutual exclusion, safe and with a check-then-act race (flagsN.bpl,
// flagsN_bug.bpl); examples/permutation_late.bpl with 4, 8, ..., 20 bits
// (permutationN_late.bpl); the pump whose violation needs exactly K
// rounds, with its safe variant (pumpK.bpl, pumpK_safe.bpl, K = 2..8);
// the handshake of n takes whose proof by K-induction with amplification
// needs K of about n (handshakeN.bpl, N = 1..8); two and three threads
// that take one lock twice each (lock_unlock2.bpl, lock_unlock3.bpl);
// and the TryLock dining philosophers of mutant-fair-nontermination,
// Fig. 3(a), and their ordered variant, for 2 to 8 philosophers
// (philN.bpl, philN_ordered.bpl); and the recursions that count their
// nesting in n = 4..10 bits and fail at 2^n - 1 nested calls, each shape
// (self, helper, param, mutual), sequential and inside one of two
// threads (rec_helper7.bpl, rec_mutual5_threads.bpl). Each file starts with its `// expect:`
// lines; the programs themselves come from internal/progen.
//
// Usage:
//
//	go run ./scripts/loopprogs DIR
//
// DIR is created when missing, and files of those names in it are
// overwritten. The benchmark scripts run it into a temporary directory
// and check the programs there: scripts/bench-loops.sh (`make
// bench-loops`) the Burns and pump programs, scripts/bench-lasso.sh
// (`make bench-lasso`) the philosophers, scripts/bench-portfolio.sh all
// of them. The exit status is 2 on a wrong command line and 1 when a
// file cannot be written.
package main
