package engine

import (
	"context"
	"fmt"
	"io"
	"time"

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

// Witness reads frames 0..k of the last model: the state of frame 0 and
// every frame's inputs, and the states after frame 0 by simulating the
// system on them. A latch or input the query's cone does not reach is
// not in the solver; any value of it serves (a latch's initial one, when
// it has one, else false), so the path is read without building
// anything after the query.
func (b *BMC) Witness(k int) *Witness {
	return readWitness(b.Sys, b.S, b.U, k)
}

func readWitness(sys *ts.System, s solver.Solver, u *Unrolling, k int) *Witness {
	w := &Witness{}
	read := func(l ts.Lit, i int) bool {
		x, ok := u.Built(l, i)
		return ok && s.Value(x)
	}
	var ls []bool
	for _, l := range sys.Latches() {
		_, built := u.Built(l.Lit, 0)
		ls = append(ls, read(l.Lit, 0) || !built && !u.FreeStart && l.Init == ts.Init1)
	}
	for i := 0; i <= k; i++ {
		var ins []bool
		for _, in := range sys.Inputs() {
			ins = append(ins, read(in, i))
		}
		w.Latches = append(w.Latches, ls)
		w.Inputs = append(w.Inputs, ins)
		vals := w.Values(sys, i)
		ls = nil
		for _, l := range sys.Latches() {
			ls = append(ls, ts.Value(vals, l.Next))
		}
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

// Task is a safety question for Check: is Target reachable within
// MaxSteps steps?
type Task struct {
	Target ts.Lit // the bad states searched for
	// Limits are bad states that cut executions short (a full call
	// stack, no free thread slot): a path that reaches one is searched
	// no further by the encoding, so reaching one leaves "Target is not
	// reachable" inconclusive. Each is searched for only until it is
	// first seen.
	Limits []ts.Lit
	// Running holds in the states from which the system can still take
	// a step that matters (the program has not ended); ts.False when no
	// path is longer than the bound.
	Running  ts.Lit
	MaxSteps int
	// Ended, when not nil, says that every path has ended by step k, so
	// that the search can stop with an answer for every path.
	Ended func(k int) bool
	// Fixed gives per frame the node values known on every valid path
	// (Unrolling.Fixed); nil: none.
	Fixed func(k int) map[int]bool
	// Whole says that the system is a whole program in frame 0 and
	// MaxSteps is 0: the one query is asserted rather than assumed, so
	// that the solver may simplify with it (gini's binding eliminates
	// variables first, solver.Simplifier, and Z3 uses its preprocessing
	// SAT strategy instead of the incremental core).
	Whole bool
	// Prefer, for a Whole query, is a part of Target whose models are
	// preferred: when the model found misses it, the same solver is
	// asked for one of Prefer before the answer is given. ts.False (the
	// zero Lit): none.
	Prefer   ts.Lit
	Progress io.Writer // nil: quiet; else a line a bound after the first second
}

// Outcome is Check's answer.
type Outcome struct {
	// Status is Sat when Target holds at the end of a path of Bound
	// steps (Witness), Unsat when it holds on no path of up to Bound
	// steps, Unknown when the solver stopped (the context ended) at
	// Bound.
	Status  solver.Status
	Bound   int
	Witness *Witness
	// Seen says which Limits some path reaches within Bound.
	Seen []bool
	// Ended says, for Unsat, that no path runs longer than Bound (Running
	// is false at Bound on every path), so that Bound covers them all.
	Ended bool
}

// Check is bounded model checking of t on sys with s: one query per
// bound for Target or a limit not yet seen; once a limit has been seen,
// the bound's query asks for Target alone.
func Check(ctx context.Context, sys *ts.System, s solver.Solver, t Task) *Outcome {
	start := time.Now()
	b := NewBMC(sys, s)
	b.U.Fixed = t.Fixed
	out := &Outcome{Seen: make([]bool, len(t.Limits))}
	// target is Target or a limit not yet seen, at frame k.
	target := func(k int) solver.Lit {
		g := b.U.At(t.Target, k)
		for i, l := range t.Limits {
			if !out.Seen[i] {
				g = solver.Or(s, g, b.U.At(l, k))
			}
		}
		return g
	}
	for k := 0; k <= t.MaxSteps; k++ {
		out.Bound = k
		if err := b.U.Extend(ctx, k); err != nil {
			out.Status = solver.Unknown
			return out
		}
		var st solver.Status
		if t.Whole && len(t.Limits) == 0 {
			s.Assert(target(k))
			if p, ok := s.(solver.Simplifier); ok {
				p.Simplify()
			}
			st = s.Solve(ctx)
			if st == solver.Sat && t.Prefer != ts.False {
				if p := b.U.At(t.Prefer, k); !s.Value(p) {
					// Without a model of Prefer, any model of Target again.
					if st = s.Solve(ctx, p); st == solver.Unsat {
						st = s.Solve(ctx)
					}
				}
			}
		} else {
			st = b.Query(ctx, k, target(k))
		}
		for st == solver.Sat && !s.Value(b.U.At(t.Target, k)) {
			// A limit, not the target: note it and ask again without it.
			for i, l := range t.Limits {
				out.Seen[i] = out.Seen[i] || s.Value(b.U.At(l, k))
			}
			st = b.Query(ctx, k, target(k))
		}
		if t.Progress != nil && time.Since(start) > time.Second {
			fmt.Fprintf(t.Progress, "bmc: bound %d: %s (%s, %.1fs)\n", k, map[solver.Status]string{
				solver.Unsat: "no violation", solver.Sat: "violation", solver.Unknown: "interrupted"}[st], s.Name(), time.Since(start).Seconds())
		}
		if st != solver.Unsat {
			out.Status = st
			if st == solver.Sat {
				out.Witness = b.Witness(k)
			}
			return out
		}
		if t.Ended != nil && t.Ended(k) {
			out.Status, out.Ended = solver.Unsat, true
			return out
		}
	}
	// Does any path run longer than the bound?
	switch _, st := b.Search(ctx, t.Running, t.MaxSteps, t.MaxSteps); st {
	case solver.Unsat:
		out.Ended = true
	case solver.Unknown:
		out.Status = solver.Unknown
		return out
	}
	out.Status = solver.Unsat
	return out
}
