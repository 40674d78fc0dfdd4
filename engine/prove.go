package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// ProofTask asks a proof engine (k-induction, PDR) whether Target is
// reachable on any path of the system, however long.
type ProofTask struct {
	Target ts.Lit
	// MaxK bounds the work: the largest k of k-induction, the most
	// frames of PDR. Reaching it leaves the question open.
	MaxK int
	// NewSolver makes a solver; an engine may use several (PDR, the two
	// of improved induction) and closes every one it made.
	NewSolver func() solver.Solver
	Progress  io.Writer // nil: quiet; else a line per k or per frame
	// Start narrows the initial states (PDR and the engines on
	// decision diagrams): latch literals that hold in every initial
	// state, beside the latches' own initial values.
	Start []ts.Lit
	// Constraints must hold, beside the system's, in every state from
	// which a step is taken (PDR only).
	Constraints []ts.Lit
	// Threads, when not nil, says that each step is one thread's
	// (ForwardReach and PairViews only; PairViews needs it).
	Threads *Threads
}

// Threads is what a reachability engine uses of an interleaving
// product: the inputs that choose the thread of a step, which split
// the step into one per thread, and a condition that holds in every
// state a path from an initial state passes (ts.True if none is known),
// outside which it need not look.
type Threads struct {
	Sched []ts.Lit
	Care  ts.Lit
	// PC are, by the value of Sched that chooses a thread (bit b the
	// value of Sched[b]), the latches of its program counter (its top
	// frame's); nil where not known.
	PC [][]ts.Lit
}

// Proof is a proof engine's answer.
type Proof struct {
	// Status is Unsat when no path reaches Target (proved), Sat when one
	// does (Witness, of Bound steps), Unknown when the engine stopped
	// (Reason: the context ended, or MaxK was reached).
	Status solver.Status
	// Bound is, for Sat, the witness's steps; for Unsat, the k at which
	// induction closed or the PDR frame that converged.
	Bound   int
	Witness *Witness
	// Invariant is, for Unsat by PDR, an inductive invariant that
	// excludes Target: clauses over latch literals (each clause a
	// disjunction), re-checked by CheckInvariant before it is returned.
	Invariant [][]ts.Lit
	// Nodes is, for Unsat by ForwardReach, the size of the diagram of
	// the reachable states, the inductive invariant (re-checked on
	// fresh diagrams before it is returned).
	Nodes int
	// Views is, for Unsat by PairViews, the pairs of threads whose views
	// make Invariant.
	Views int
	// CTI is, for Unknown by k-induction at MaxK, a counterexample to
	// induction: a path of MaxK+1 steps from a state that need not be
	// reachable to Target. It is not a bug.
	CTI *Witness
	// Reason words why an Unknown engine stopped: "timeout" or the
	// context's cause, "the solver gave up", or its bound (AtMaxK).
	Reason string
	// AtMaxK says that the engine stopped at MaxK.
	AtMaxK bool
	// Coarse says that the engine's abstraction (PairViews) admits a
	// violation it cannot confirm, or does not take the system.
	Coarse bool
}

// stopReason words why a solver query ended without an answer: the end
// of ctx ("timeout" for its deadline, else its cause), or the solver's
// giving up while ctx lives.
func stopReason(ctx context.Context) string {
	if ctx.Err() == nil {
		return "the solver gave up"
	}
	if cause := context.Cause(ctx); !errors.Is(cause, context.DeadlineExceeded) {
		return cause.Error()
	}
	return "timeout"
}

// CheckInvariant re-checks inv with s (a solver the engine that found
// inv has not used): every initial state satisfies it, every step from a
// state that satisfies it (and the constraints) ends in one that does,
// and no state that satisfies it has Target. It returns nil, or which of
// the three fails.
func CheckInvariant(ctx context.Context, sys *ts.System, s solver.Solver, target ts.Lit, inv [][]ts.Lit) error {
	return checkInvariant(ctx, sys, s, ProofTask{Target: target}, inv)
}

// checkInvariant is CheckInvariant for t's target, with t's Start and
// Constraints.
func checkInvariant(ctx context.Context, sys *ts.System, s solver.Solver, t ProofTask, inv [][]ts.Lit) error {
	return checkInvariantParts(ctx, sys, s, t, [][][]ts.Lit{inv})
}

// checkInvariantParts re-checks an invariant that is the conjunction of
// parts (PDR's has one; PairViews' one per pair of threads): every
// initial state satisfies it, every step from a state that satisfies
// it ends in one that satisfies each part, and no state that satisfies
// it has t.Target. A query per part keeps the goal small: on Burns'
// protocol with 8 threads one query whose goal was a step out of any of
// the 2,596 clauses of all 28 views took 5.8 s.
func checkInvariantParts(ctx context.Context, sys *ts.System, s solver.Solver, t ProofTask, parts [][][]ts.Lit) error {
	target := t.Target
	holds := func(u *Unrolling, k int, inv [][]ts.Lit) solver.Lit {
		all := s.True()
		for _, c := range inv {
			any := s.Not(s.True())
			for _, l := range c {
				any = solver.Or(s, any, u.At(l, k))
			}
			all = s.And(all, any)
		}
		return all
	}
	var inv [][]ts.Lit
	for _, part := range parts {
		inv = append(inv, part...)
	}
	init := NewUnrolling(sys, s)
	free := NewUnrolling(sys, s)
	free.FreeStart = true
	ok := sys.Ands(append(slices.Clone(sys.Constraints), t.Constraints...)...)
	initial := []solver.Lit{s.Not(holds(init, 0, inv))}
	for _, l := range t.Start {
		initial = append(initial, init.At(l, 0))
	}
	type query struct {
		what string
		lits []solver.Lit
	}
	now := holds(free, 0, inv)
	queries := []query{{"an initial state violates the invariant", initial}}
	for _, part := range parts {
		queries = append(queries, query{"a step leaves the invariant", []solver.Lit{now, free.At(ok, 0), s.Not(holds(free, 1, part))}})
	}
	queries = append(queries, query{"the invariant admits a bad state", []solver.Lit{now, free.At(target, 0)}})
	for _, q := range queries {
		switch s.Solve(ctx, q.lits...) {
		case solver.Sat:
			return fmt.Errorf("the invariant does not check: %s", q.what)
		case solver.Unknown:
			if ctx.Err() == nil {
				return fmt.Errorf("the invariant check stopped: the solver gave up")
			}
			return fmt.Errorf("the invariant check stopped: %v", context.Cause(ctx))
		}
	}
	return nil
}
