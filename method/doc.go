// Package method holds the ways bmc answers a question, each a Method
// value: a name, the cores it can keep busy, and Run, which carries out
// its pipeline in order: encode the program (a one-thread program's own
// system, a sequentialization, the interleaving product, Horn clauses),
// run an engine on it, read the witness back as steps of the program,
// replay it on the explicit interpreter before it is shown, and word the
// answer under the verdict rule (a search that a bound the user did not
// state cut short is unknown). The driver plans which methods race; a
// method runs no other (but for the races inside one pipeline: the
// unwinding beside its proof engine, gini on a simplified formula
// beside the plain one, on cores borrowed through internal/budget).
//
// The typed names of engines (Engine), encodings (Seq), solvers
// (SolverName) and proof methods (ProofMethod) come from the command
// line's vocabulary (vocabulary.go), which help, usage errors and the
// docs are made from; the options a method reads are Options.
//
// Files:
//   - method.go: the methods, one constructor each;
//   - options.go: the options and bounds, and the checks a method makes
//     before it starts (ConcurrentFits, SeqFits);
//   - vocabulary.go: the command-line vocabulary and its typed names;
//   - explicit.go: the explicit engine (checks, the exhaustive search of
//     prove, livelocks);
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
//     the base case, the inductive case from BASE, their re-checks), the
//     one home of its pipeline; its engine on transition systems is
//     engine/amplify*.go, its translation L^K seq/amplify.go;
//   - summary.go: the summary engine (Horn clauses: our Spacer, Z3's,
//     the least model on decision diagrams), every call depth;
//   - parameterized.go: coverability and the linear interfaces, every
//     number of threads;
//   - lasso.go, lasso_direct.go, lasso_cycles.go, lasso_summary.go:
//     livelocks by the lasso translation, on the interleaving product,
//     by fair cycles (none on any interleaving), and by the keyframe
//     translation's summaries;
//   - stutter.go: the idle steps left out before encoding;
//   - encoding.go: the system (or the Horn clauses) bmc export writes.
//
// With the driver above it, this is the only package that imports the
// oracle (explicit): replaying a witness is a method's last step.
package method
