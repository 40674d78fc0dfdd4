package engine

import (
	"context"

	"bmc/solver"
	"bmc/ts"
)

// BMC is incremental bounded model checking on one solver: frames are
// added as the bound grows and everything learnt carries over to deeper
// bounds and other targets. The constraints of frame i are asserted under
// an activation literal, so that each query (a target at frame k, under
// assumptions) requires them exactly at the frames before k.
type BMC struct {
	Sys *ts.System
	S   solver.Solver
	U   *Unrolling

	acts []solver.Lit // acts[i] switches on the constraints of frame i
	ok   ts.Lit
}

// NewBMC prepares bounded model checking of sys with s.
func NewBMC(sys *ts.System, s solver.Solver) *BMC {
	b := &BMC{Sys: sys, S: s, U: NewUnrolling(sys, s)}
	b.ok = sys.Ands(sys.Constraints...)
	return b
}

// stepsTaken returns the assumptions that require the constraints at the
// frames before k: a path to frame k takes a step from each of them.
func (b *BMC) stepsTaken(k int) []solver.Lit {
	for i := len(b.acts); i < k; i++ {
		act := b.S.NewVar()
		b.S.Assert(solver.Implies(b.S, act, b.U.At(b.ok, i)))
		b.acts = append(b.acts, act)
	}
	return append([]solver.Lit(nil), b.acts[:k]...)
}

// Query decides whether target (a formula over frame k) holds at the end
// of a path of k steps.
func (b *BMC) Query(ctx context.Context, k int, target solver.Lit) solver.Status {
	return b.S.Solve(ctx, append(b.stepsTaken(k), target)...)
}

// Search returns the least k in [from, to] at which target holds on some
// path, with Sat; Unsat when there is none; Unknown (and the bound
// reached) when ctx ends first.
func (b *BMC) Search(ctx context.Context, target ts.Lit, from, to int) (int, solver.Status) {
	for k := from; k <= to; k++ {
		if st := b.Query(ctx, k, b.U.At(target, k)); st != solver.Unsat {
			return k, st
		}
	}
	return to, solver.Unsat
}

// Witness is a path read from the last satisfying model: the value of
// every latch and input at each frame.
type Witness struct {
	Latches [][]bool // [frame][latch index in Sys.Latches()]
	Inputs  [][]bool // [frame][input index in Sys.Inputs()]
}

// Witness reads frames 0..k of the last model.
func (b *BMC) Witness(k int) *Witness {
	w := &Witness{}
	for i := 0; i <= k; i++ {
		var ls, ins []bool
		for _, l := range b.Sys.Latches() {
			ls = append(ls, b.S.Value(b.U.At(l.Lit, i)))
		}
		for _, in := range b.Sys.Inputs() {
			ins = append(ins, b.S.Value(b.U.At(in, i)))
		}
		w.Latches = append(w.Latches, ls)
		w.Inputs = append(w.Inputs, ins)
	}
	return w
}

// Values evaluates every variable of the system at frame i of w.
func (w *Witness) Values(sys *ts.System, i int) []bool {
	vals := make([]bool, sys.NumVars())
	for j, l := range sys.Latches() {
		vals[l.Lit.Var()] = w.Latches[i][j]
	}
	for j, in := range sys.Inputs() {
		vals[in.Var()] = w.Inputs[i][j]
	}
	sys.Eval(vals)
	return vals
}
