package engine

import (
	"context"

	"bmc/solver"
	"bmc/ts"
)

// LassoOutcome is Lasso's answer.
type LassoOutcome struct {
	// Status is Sat when a lasso of Bound steps witnesses the justice
	// property: Witness has frames 0..Bound, the last of which is frame
	// Loop again, state and inputs, and the loop is frames Loop..Bound-1.
	// Unsat when no lasso of up to Bound steps does; Unknown when the
	// solver stopped (the context ended) at Bound.
	Status  solver.Status
	Bound   int
	Loop    int
	Witness *Witness
}

// Lasso is bounded model checking of justice property justice of sys on
// lasso-shaped paths, the (k,l)-loops of Biere, Cimatti, Clarke and Zhu
// ("Symbolic model checking without BDDs", TACAS 1999): for k = 1..maxK,
// a path s0..sk whose state at k is that of some frame i < k, so that
// s0..s(i-1) followed by si..s(k-1) repeated forever is an infinite path,
// on which each literal of the property and each fairness literal holds
// infinitely often when it holds at some frame in [i, k). Every frame of
// the infinite path takes a step, so the constraints hold at frames
// 0..k-1 (BMC's stepsTaken(k)); frame k needs none, as it is frame i
// with frame i's inputs, which the witness gives it.
//
// The back edge compares each frame with one loop state, free variables
// the solver chooses, as the liveness-to-safety of Biere, Artho and
// Schuppan ("Liveness checking as safety checking", FMICS 2002) compares
// the state with a saved copy: the loop has begun at a frame once some
// frame up to it is the loop state, and closes at k when frame k is the
// loop state again and each literal has held since the loop began. What
// a bound adds is linear in it, frame k-1's part is built once for every
// bound after, and a bound's question is a literal assumed in its query
// alone, so one solver serves every bound.
func Lasso(ctx context.Context, sys *ts.System, s solver.Solver, justice, maxK int) *LassoOutcome {
	b := NewBMC(sys, s)
	latches := sys.Latches()
	loopState := make([]solver.Lit, len(latches))
	for n := range loopState {
		loopState[n] = s.NewVar()
	}
	isLoopState := func(k int) solver.Lit {
		same := s.True()
		for n, l := range latches {
			same = s.And(same, s.Not(solver.Xor(s, b.U.At(l.Lit, k), loopState[n])))
		}
		return same
	}
	recurring := append(append([]ts.Lit(nil), sys.Justice[justice].Lits...), sys.Fairness...)
	// Up to frame k-1: begun, some frame is the loop state; seen[j],
	// recurring[j] has held at such a frame or after one.
	begun, seen := s.Not(s.True()), make([]solver.Lit, len(recurring))
	for j := range seen {
		seen[j] = s.Not(s.True())
	}
	at := []solver.Lit{isLoopState(0)} // at[i]: frame i is the loop state
	out := &LassoOutcome{}
	for k := 1; k <= maxK; k++ {
		begun = solver.Or(s, begun, at[k-1])
		for j, l := range recurring {
			seen[j] = solver.Or(s, seen[j], s.And(begun, b.U.At(l, k-1)))
		}
		at = append(at, isLoopState(k))
		closes := solver.Ands(s, append([]solver.Lit{begun, at[k]}, seen...)...)
		out.Bound = k
		switch s.Solve(ctx, append(b.stepsTaken(k), closes)...) {
		case solver.Unknown:
			out.Status = solver.Unknown
			return out
		case solver.Sat:
			for !s.Value(at[out.Loop]) {
				out.Loop++
			}
			out.Status, out.Witness = solver.Sat, b.Witness(k)
			out.Witness.Inputs[k] = append([]bool(nil), out.Witness.Inputs[out.Loop]...)
			return out
		}
	}
	out.Status = solver.Unsat
	return out
}
