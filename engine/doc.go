// Package engine decides safety questions (and justice questions on
// lasso-shaped paths) on transition systems with a solver: it sees a
// ts.System and a solver.Solver and nothing of the program they came
// from, the way go-air/reach's BMC sees circuits.
// Each engine is one file: bmc.go is incremental bounded model checking
// (Check: one query per bound, limits searched until first seen, a
// final query for paths longer than the bound); kind.go is k-induction,
// classic with simple-path constraints and Claessen's improved induction;
// pdr.go is IC3/PDR; amplify.go is the inductive case of K-induction
// with amplification (an exists-forall question: candidate and run
// searches, refuted states blocked as cubes), amplify_diagrams.go the
// same by decision diagrams (a difference of backward-reachable sets on
// a system that counts rounds, and forward reachability for the base
// case), amplify_rounds.go by decision diagrams for every K at once,
// rounds counted by the algorithm; reach.go is forward reachability on
// the same diagrams as a proof engine (the reachable states are the
// invariant), fair.go the fair cycles of an interleaving product
// (Emerson and Lei's fixpoint, strong and weak fairness);
// prove.go is what the proof engines share (ProofTask,
// Proof) and the independent re-check of an invariant; lasso.go is
// bounded model checking of a justice property on lasso-shaped paths;
// unroll.go maps a system's variables at each time frame to solver
// formulas; formula.go builds the whole "bad within k steps" formula for
// export. Beside transition systems, three engines decide systems of
// Horn clauses (package chc), at every call depth: spacer.go is our own
// Spacer/GPDR on a solver.Solver, leastmodel.go computes the least model
// on decision diagrams, fixedpoint.go hands the clauses to a
// solver.Fixedpoint (Z3's Spacer); horn.go holds their answer
// (HornResult) and bounds.
//
// Choosing an encoding, reading a witness back as program steps and
// replaying it are the driver's work. It imports only ts, chc, bdd
// (the least model and amplification's diagrams) and solver.
package engine
