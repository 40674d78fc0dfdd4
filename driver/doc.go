// Package driver runs bmc's pipeline for a question, so that the command
// line stays thin. It is the only place that chooses: one function
// (makePlan) makes the plan of a run from the program and the options
// (which engines, sequentializations, encodings and proof methods may
// answer, in which order, on how many cores), and the rest only executes
// it: the candidates race on the machine's cores, the first decisive
// answer wins and the others are stopped. It is also the only place above
// the engines that knows programs: it reads a witness back as steps of
// the program (through the encoding and the sequentialization), has it
// replayed on the explicit interpreter before it is shown, and words the
// result under the verdict rule (a search that a bound the user did not
// state cut short is unknown). It holds the time and memory limits and
// the comparison with Moped.
//
// Files:
//   - driver.go: the options and the entry points Check, Prove and
//     Livelock, which make the plan and run it;
//   - plan.go: the plan (every choice of engine, encoding and method;
//     the one place that reads "auto"; one question, one plan: check
//     without a bound races what prove races), and the call depth the
//     question has (a program's own deepest stack unless it recurses
//     or the user states one) and its answers name;
//   - vocabulary.go: the command-line vocabulary (the values of the
//     flags that name one of a list, and the flags that do not go
//     together), from which cmd/bmc makes help and usage errors;
//   - portfolio.go: the race of a plan's candidates on the run's cores,
//     and the cores lent to an engine's own race;
//   - process.go: the candidates as processes of their own, pinned to
//     their cores (internal/cpus: the processors), the processors
//     lent to them when others end, and the limits held by the parent;
//   - explicit.go: the explicit engine as a candidate (checks, the
//     exhaustive search of prove, livelocks);
//   - bmc.go: BMC on one encoded program (a one-thread program, a
//     sequentialization, the interleaving product), with its proof
//     engine behind the step bound;
//   - unwind.go: loops unwound until the unwinding provably suffices,
//     raced with PDR;
//   - concurrent.go: BMC on a concurrent program, the context bounds
//     deepened one at a time;
//   - prove.go: the proof engines and certificates, and the bounded
//     question answered for every interleaving by reachability;
//   - amplify.go: K-induction with amplification (Alg. 1 of its paper:
//     the base case, the inductive case from BASE, their re-checks);
//   - summary.go: the summary engine (Horn clauses, our Spacer or Z3's)
//     that decides recursive programs at every call depth;
//   - lasso.go, lasso_direct.go, lasso_cycles.go: livelocks by the
//     lasso translation, on the interleaving product, and by its fair
//     cycles (none on any interleaving);
//   - stutter.go: the idle steps left out before encoding;
//   - encoding.go: the system (or the Horn clauses) bmc export writes;
//   - compare.go: bmc compare;
//   - limit.go: time and memory limits.
//
// It may import every bmc package but cmd/bmc; explicit is imported only
// here and in tests.
package driver
