package engine

import (
	"context"
	"fmt"
	"io"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// The inductive case of K-induction with amplification
// (kinduction-with-amplification, Thm. 3.3, obligation (7), restricted to
// the envelope as in Eqn. (9)): no state s at BASE (the start of an
// epoch, the first thread about to run) in the envelope reaches Target
// in K+1 epochs but in no run of K epochs. With d(s) the fewest epochs
// of a run from s to Target, no state of the envelope has d(s) = K+1.
// The system is the program's started at BASE (encode.Base): a latch
// First true only in the first state, whose condition Envelope the
// constraints require, and a frozen latch Short that takes the last of
// the K+1 rounds away.
//
// It is an exists-forall question, asked of two solvers in turn, as
// Claessen's improved induction is in kind.go: the candidate search
// proposes s with a run of K+1 epochs (Short false) to Target; the run
// search looks for a run of at most K epochs (Short true) from s. If it
// finds one, it lifts s to a cube of states that reach Target by the same
// run (kindRuns.lift, with what every first state is assumed), which the
// candidate search blocks; if not, s is a counterexample to induction.
// Epochs are runs of any length, so both searches are bounded model
// checking up to Steps steps first (most runs are short) and PDR after:
// the candidate search ends, with the obligation proved, only when PDR
// finds no run from an unblocked state of the envelope.
//
// A blocked cube holds only states with d <= K, whatever the candidate
// search proposes later; a cube blocked at K stays valid at every larger
// K, so the driver hands the cubes of one K on to the next (Known).

// AmplifyTask is one inductive case.
type AmplifyTask struct {
	Target   ts.Lit // the violation
	First    ts.Lit // latch: true in the first state only
	Short    ts.Lit // frozen latch: one round fewer
	Envelope ts.Lit // the condition on the first state
	// Sched are the inputs that choose the thread of a step: the
	// decision diagrams take a step thread by thread (amplify_diagrams.go).
	Sched []ts.Lit
	// Steps is the length up to which runs are searched by bounded model
	// checking before PDR decides.
	Steps int
	// MaxK bounds PDR's frames.
	MaxK int
	// Known are cubes of first states known to reach Target within K
	// epochs (those blocked at a smaller K, with their runs): blocked
	// from the start, and part of the answer's Blocked.
	Known     []AmplifyCube
	NewSolver func() solver.Solver
	Progress  io.Writer
}

// AmplifyCube is a blocked cube: latch literals, and the inputs of the
// run of at most K epochs by which each of its states in the envelope
// reaches Target (frames 0..len-1, Target at the last), for the
// re-check.
type AmplifyCube struct {
	Lits   []ts.Lit
	Inputs [][]bool
}

// Amplified is the answer of AmplifyInduction.
type Amplified struct {
	// Status is Unsat when the obligation holds, Sat when a state at
	// BASE is a counterexample to induction (CTI), Unknown when the
	// search stopped (Reason).
	Status solver.Status
	// CTI is the counterexample's run of K+1 epochs to Target.
	CTI *Witness
	// Blocked are the cubes of states that reach Target within K epochs.
	Blocked []AmplifyCube
	// Invariant is PDR's inductive invariant for the candidate search's
	// last question (Blocked as constraints on the first state).
	Invariant [][]ts.Lit
	// Candidates counts the states proposed (and refuted, but for a CTI).
	Candidates int
	Reason     string
}

// AmplifyInduction decides the inductive case on sys (see above).
func AmplifyInduction(ctx context.Context, sys *ts.System, t AmplifyTask) *Amplified {
	a := &amplify{ctx: ctx, sys: sys, task: t, out: &Amplified{}, blockedLit: ts.True}
	// Every node is made before the unrollings read the system; the
	// blocked constraints PDR gets are added later (Unrolling.fit).
	a.target = sys.And(t.Target, t.First.Not())
	cs, rs := t.NewSolver(), t.NewSolver()
	defer cs.Close()
	defer rs.Close()
	a.cand = NewBMC(sys, cs)
	a.runs = &kindRuns{s: rs, u: NewUnrolling(sys, rs), target: t.Target, ok: sys.Ands(sys.Constraints...), fixed: map[int]bool{}}
	a.runs.u.FreeStart = true
	a.runs.hard = firstState(sys, a.runs.u, t, a.runs.fixed)
	for _, c := range t.Known {
		a.out.Blocked = append(a.out.Blocked, c)
		a.block(c.Lits)
	}
	a.run()
	return a.out
}

// firstState is what every first state of the inductive case is, as
// assumptions at frame 0 of u: First, Short (the run has K epochs), the
// envelope, and the latches' fixed initial values (the schedule at its
// start, init done). Their latches go into fixed (when not nil): a cube
// never names them, so it means the same in a system with more rounds,
// whose schedule has more latches.
func firstState(sys *ts.System, u *Unrolling, t AmplifyTask, fixed map[int]bool) []solver.Lit {
	hard := []solver.Lit{u.At(t.First, 0), u.At(t.Short, 0), u.At(t.Envelope, 0)}
	for i, l := range sys.Latches() {
		switch {
		case l.Lit == t.Short || l.Lit == t.First:
		case l.Init == ts.Init0:
			hard = append(hard, u.B.Not(u.At(l.Lit, 0)))
		case l.Init == ts.Init1:
			hard = append(hard, u.At(l.Lit, 0))
		default:
			continue
		}
		if fixed != nil {
			fixed[i] = true
		}
	}
	return hard
}

type amplify struct {
	ctx    context.Context
	sys    *ts.System
	task   AmplifyTask
	target ts.Lit // Target after the first state
	cand   *BMC
	runs   *kindRuns
	out    *Amplified
	// blockedLit is the blocked cubes as a constraint on the first state.
	blockedLit ts.Lit
}

// run is the loop of candidates and refutations: bounded model checking
// proposes the candidates with runs of up to Steps steps, then PDR one
// with a longer run, if any, after which bounded model checking goes on
// up to that run's length (cheaper per candidate than a PDR each).
func (a *amplify) run() {
	t, s := a.task, a.cand.S
	for n, longest := 1, t.Steps; ; {
		for ; n <= longest; n++ {
			if t.Progress != nil {
				fmt.Fprintf(t.Progress, "amplify: candidates with runs of %d steps (%d refuted so far)\n", n, a.out.Candidates)
			}
			for {
				goal := solver.Ands(s, a.cand.U.At(a.target, n), s.Not(a.cand.U.At(t.Short, 0)))
				st := a.cand.Query(a.ctx, n, goal)
				if st == solver.Unknown {
					a.stop(stopReason(a.ctx))
					return
				}
				if st == solver.Unsat {
					break
				}
				if !a.refute(a.cand.Witness(n)) {
					return
				}
			}
		}
		if t.Progress != nil {
			fmt.Fprintf(t.Progress, "amplify: no candidate with a run of at most %d steps (%d refuted); PDR\n", longest, a.out.Candidates)
		}
		pf := PDR(a.ctx, a.sys, ProofTask{Target: a.target, MaxK: t.MaxK, NewSolver: t.NewSolver,
			Start: []ts.Lit{t.Short.Not()}, Constraints: []ts.Lit{a.blockedLit}})
		switch pf.Status {
		case solver.Unknown:
			a.stop(pf.Reason)
			return
		case solver.Unsat:
			a.out.Status, a.out.Invariant = solver.Unsat, pf.Invariant
			return
		}
		if !a.refute(pf.Witness) {
			return
		}
		longest = max(longest, pf.Bound)
	}
}

// stop ends the search without an answer.
func (a *amplify) stop(reason string) {
	a.out.Status, a.out.Reason = solver.Unknown, reason
}

// refute asks whether the first state of w, a candidate, reaches Target
// within K epochs: if so, it blocks the lifted cube and reports true; if
// not, the candidate is a counterexample to induction (reported false,
// as is a search that stopped).
func (a *amplify) refute(w *Witness) bool {
	t := a.task
	a.out.Candidates++
	s0 := w.Latches[0]
	inputs, st := a.runs.find(a.ctx, s0, t.Steps)
	if st == solver.Unsat {
		// No short run: PDR decides from s0 itself, with Short.
		var start []ts.Lit
		for i, l := range a.sys.Latches() {
			if l.Lit != t.Short {
				start = append(start, latchLit(l.Lit, s0[i]))
			}
		}
		pf := PDR(a.ctx, a.sys, ProofTask{Target: t.Target, MaxK: t.MaxK, NewSolver: t.NewSolver, Start: append(start, t.Short)})
		switch pf.Status {
		case solver.Unknown:
			a.stop(pf.Reason)
			return false
		case solver.Unsat:
			a.out.Status, a.out.CTI = solver.Sat, w
			return false
		}
		inputs, st = pf.Witness.Inputs, solver.Sat
	}
	var cube []int
	if st == solver.Sat {
		cube, st = a.runs.lift(a.ctx, s0, inputs)
	}
	switch st {
	case solver.Unknown:
		a.stop(stopReason(a.ctx))
		return false
	case solver.Unsat:
		panic("amplify: a run found from a state does not lift")
	}
	c := AmplifyCube{Inputs: inputs}
	for _, i := range cube {
		c.Lits = append(c.Lits, latchLit(a.sys.Latches()[i].Lit, s0[i]))
	}
	slices.Sort(c.Lits)
	a.out.Blocked = append(a.out.Blocked, c)
	a.block(c.Lits)
	return true
}

// block leaves the first states of cube out of the candidate search.
func (a *amplify) block(cube []ts.Lit) {
	t, cs := a.task, a.cand.S
	clause := []solver.Lit{cs.Not(a.cand.U.At(t.First, 0))}
	for _, l := range cube {
		clause = append(clause, cs.Not(a.cand.U.At(l, 0)))
	}
	cs.Assert(solver.Ors(cs, clause...))
	a.blockedLit = a.sys.And(a.blockedLit, a.sys.Implies(t.First, a.sys.Ands(cube...).Not()))
}

// latchLit is latch l with value v.
func latchLit(l ts.Lit, v bool) ts.Lit {
	if v {
		return l
	}
	return l.Not()
}

// CheckAmplified re-checks an inductive case that AmplifyInduction
// proved on from, on sys, the same system built anew (its latches in the
// same order), with s, a solver neither search used: every blocked cube's
// first states reach Target by the cube's run with Short (so they have
// d <= K), and PDR's invariant holds initially (Short false),
// is kept by every step from a first state outside the blocked cubes,
// and excludes Target after the first state. It returns nil or what
// fails.
func CheckAmplified(ctx context.Context, from, sys *ts.System, s solver.Solver, t AmplifyTask, out *Amplified) error {
	fl, tl := from.Latches(), sys.Latches()
	if len(fl) != len(tl) {
		return fmt.Errorf("the systems differ: %d and %d latches", len(fl), len(tl))
	}
	index := map[int]int{}
	for i, l := range fl {
		if l.Name != tl[i].Name {
			return fmt.Errorf("the systems differ at latch %d: %s and %s", i, l.Name, tl[i].Name)
		}
		index[l.Lit.Var()] = i
	}
	conv := func(ls []ts.Lit) []ts.Lit {
		out := make([]ts.Lit, len(ls))
		for i, l := range ls {
			out[i] = tl[index[l.Var()]].Lit
			if l.IsNeg() {
				out[i] = out[i].Not()
			}
		}
		return out
	}
	blocked := ts.True
	for _, c := range out.Blocked {
		blocked = sys.And(blocked, sys.Implies(t.First, sys.Ands(conv(c.Lits)...).Not()))
	}
	target := sys.And(t.Target, t.First.Not())
	runs := &kindRuns{s: s, u: NewUnrolling(sys, s), target: t.Target, ok: sys.Ands(sys.Constraints...)}
	runs.u.FreeStart = true
	hard := firstState(sys, runs.u, t, nil)
	for n, c := range out.Blocked {
		j := len(c.Inputs) - 1
		if err := runs.extend(ctx, j); err != nil {
			return err
		}
		assume := append(slices.Clone(hard), runs.inputsAt(c.Inputs)...)
		for _, l := range conv(c.Lits) {
			assume = append(assume, runs.u.At(l, 0))
		}
		switch s.Solve(ctx, append(assume, s.Not(runs.bad[j]))...) {
		case solver.Sat:
			return fmt.Errorf("blocked cube %d has a state in the envelope that its run does not take to the violation", n+1)
		case solver.Unknown:
			return fmt.Errorf("the re-check stopped: %s", stopReason(ctx))
		}
	}
	return checkInvariant(ctx, sys, s, ProofTask{Target: target, Start: []ts.Lit{t.Short.Not()}, Constraints: []ts.Lit{blocked}}, convClauses(out.Invariant, conv))
}

// convClauses converts every clause of inv.
func convClauses(inv [][]ts.Lit, conv func([]ts.Lit) []ts.Lit) [][]ts.Lit {
	out := make([][]ts.Lit, len(inv))
	for i, c := range inv {
		out[i] = conv(c)
	}
	return out
}
