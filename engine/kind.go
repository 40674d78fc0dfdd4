package engine

import (
	"context"
	"fmt"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// K-induction after "K-induction with amplification" §3.1 (in the
// project's shared papers). Both engines below share the base case,
// obligation (2) = (4): incremental BMC from the initial states, Target at
// frame k.
// They differ in the step case.
//
// A bad run of j steps from a state s is a path of frames 0..j from s with
// the constraints at frames 0..j-1 and Target at frame j, with frame j's
// own inputs: Target may read inputs, so a state is bad only together with
// the inputs of its frame, and "not bad at frame i" in a step case means
// Target false under the inputs the path takes at frame i. Let d(s) be the
// fewest steps of a bad run from s (infinite if there is none).

// KInduction is classic k-induction (Thm. 3.1) with simple-path
// constraints: for k = 0..t.MaxK, a path of k steps from an initial state
// to Target is a violation (Sat, its witness); else, when no path of k+1
// steps from any state with pairwise distinct latch states, not bad at
// frames 0..k, is bad at frame k+1, Target is unreachable (Unsat, Bound
// k). The base case at k is decided before the step case at k, so a proof
// at k has obligation (2) for every bound up to k. Reaching MaxK leaves
// the question open, with the last step-case path as the CTI.
func KInduction(ctx context.Context, sys *ts.System, t ProofTask) *Proof {
	bs, ps := t.NewSolver(), t.NewSolver()
	defer bs.Close()
	defer ps.Close()
	base := NewBMC(sys, bs)
	step := newKindPath(sys, ps, t.Target)
	for k := 0; k <= t.MaxK; k++ {
		if p := kindBase(ctx, base, t, k, "kind-simple"); p != nil {
			return p
		}
		st := step.solve(ctx, k)
		if st == solver.Unknown {
			return kindStopped(ctx, k)
		}
		if t.Progress != nil {
			fmt.Fprintf(t.Progress, "kind-simple: k=%d: base ok, step: %s (%d repeated states cut)\n", k, kindVerdict(st), step.cut)
		}
		if st == solver.Unsat {
			return &Proof{Status: solver.Unsat, Bound: k}
		}
	}
	return kindOpen(t, step)
}

// ImprovedInduction is Claessen's improved induction (Thm. 3.2): the step
// case at k, obligation (5), fails only for a start state s with
// d(s) = k+1, from which some run reaches Target in k+1 steps and no run
// in at most k. That is an exists-forall question, asked of two solvers in
// turn: the candidate solver proposes s with a path of k+1 steps to Target
// (the step case of KInduction: the path may be required to be simple
// and not bad before its end, since a shortest bad run from s is both);
// the run solver looks for a run of at most k steps from s to Target. If
// it finds one, it lifts s to a cube of states that reach Target within k
// steps alike, which the candidate solver blocks; if not, s is a
// counterexample to induction at k and k grows. No candidate left proves
// Target unreachable (Unsat, Bound k). As in KInduction, the base case at
// k comes first.
//
// Soundness (the paper's sketch, made exact): let the base case hold up to
// k, (4): d(i) > k for every initial i, and (5) hold at k: no state has
// d = k+1. Suppose some initial i has d(i) = n, finite, on a shortest bad
// run i = s_0 .. s_n; n > k by (4). The suffix from s_(n-k-1) is a bad run
// of k+1 steps, so d(s_(n-k-1)) <= k+1; a shorter bad run from s_(n-k-1),
// after the prefix s_0 .. s_(n-k-1), would be a bad run from i shorter
// than n, so d(s_(n-k-1)) = k+1, against (5).
//
// Blocked cubes stay blocked as k grows: every state of a cube blocked at
// k has d <= k, as a run of at most k steps is one of at most k' steps
// for every k' > k, so none is ever a counterexample to induction again
// (d = k'+1 > k).
func ImprovedInduction(ctx context.Context, sys *ts.System, t ProofTask) *Proof {
	bs, cs, rs := t.NewSolver(), t.NewSolver(), t.NewSolver()
	defer bs.Close()
	defer cs.Close()
	defer rs.Close()
	base := NewBMC(sys, bs)
	cand := newKindPath(sys, cs, t.Target)
	runs := &kindRuns{s: rs, u: NewUnrolling(sys, rs), target: t.Target, ok: sys.Ands(sys.Constraints...)}
	runs.u.FreeStart = true
	for k := 0; k <= t.MaxK; k++ {
		if p := kindBase(ctx, base, t, k, "kind"); p != nil {
			return p
		}
		st, refuted := kindImprovedStep(ctx, cand, runs, k)
		if st == solver.Unknown {
			return kindStopped(ctx, k)
		}
		if t.Progress != nil {
			fmt.Fprintf(t.Progress, "kind: k=%d: base ok, step: %d candidates refuted, %s\n", k, refuted, kindVerdict(st))
		}
		if st == solver.Unsat {
			return &Proof{Status: solver.Unsat, Bound: k}
		}
	}
	return kindOpen(t, cand)
}

// kindImprovedStep decides obligation (5) at k: Unsat when the run solver
// refutes every candidate, Sat when one is a counterexample to induction
// (the candidate solver's model), with the number of candidates refuted.
func kindImprovedStep(ctx context.Context, cand *kindPath, runs *kindRuns, k int) (solver.Status, int) {
	latches, cs := cand.Sys.Latches(), cand.S
	for refuted := 0; ; refuted++ {
		if st := cand.solve(ctx, k); st != solver.Sat {
			return st, refuted
		}
		s := make([]bool, len(latches))
		for i, l := range latches {
			s[i] = cs.Value(cand.U.At(l.Lit, 0))
		}
		cube, st := runs.refute(ctx, s, k)
		switch st {
		case solver.Unsat:
			return solver.Sat, refuted
		case solver.Unknown:
			return st, refuted
		}
		block := cs.Not(cs.True())
		for _, i := range cube {
			block = solver.Or(cs, block, cs.Not(kindLatch(cand.U, latches[i], 0, s[i])))
		}
		cs.Assert(block)
	}
}

// kindBase is the base case at k: nil when no path of k steps from an
// initial state ends in Target, else the answer to return.
func kindBase(ctx context.Context, base *BMC, t ProofTask, k int, method string) *Proof {
	if err := base.U.Extend(ctx, k); err != nil {
		return kindStopped(ctx, k)
	}
	switch base.Query(ctx, k, base.U.At(t.Target, k)) {
	case solver.Unsat:
		return nil
	case solver.Sat:
		if t.Progress != nil {
			fmt.Fprintf(t.Progress, "%s: k=%d: base: violation\n", method, k)
		}
		return &Proof{Status: solver.Sat, Bound: k, Witness: base.Witness(k)}
	}
	return kindStopped(ctx, k)
}

// kindStopped is the answer when a solver stops at k.
func kindStopped(ctx context.Context, k int) *Proof {
	return &Proof{Status: solver.Unknown, Bound: k, Reason: stopReason(ctx)}
}

// kindOpen is the answer at MaxK: the step case's last path (a
// counterexample to induction at MaxK, frames 0..MaxK+1) is the CTI.
func kindOpen(t ProofTask, step *kindPath) *Proof {
	p := &Proof{Status: solver.Unknown, Bound: t.MaxK, Reason: fmt.Sprintf("k bound reached (k = %d)", t.MaxK), AtMaxK: true}
	if t.MaxK >= 0 {
		p.CTI = step.Witness(t.MaxK + 1)
	}
	return p
}

func kindVerdict(step solver.Status) string {
	if step == solver.Unsat {
		return "proved"
	}
	return "a counterexample to induction"
}

// kindLatch is latch l at frame k of u with value v.
func kindLatch(u *Unrolling, l ts.LatchInfo, k int, v bool) solver.Lit {
	x := u.At(l.Lit, k)
	if !v {
		x = u.B.Not(x)
	}
	return x
}

// kindPath is the step case of Thm. 3.1, obligation (3), in one
// incremental solver: a path of k+1 steps from any state (a BMC on a
// FreeStart unrolling, whose Query requires the constraints at frames
// 0..k), not bad at frames 0..k, bad at frame k+1. The hypotheses only
// grow with k, so they are asserted for good.
//
// Its frames' latch states must be pairwise distinct: the frames
// n-k-1..n of a shortest bad run from an initial state (the path the
// induction argument takes) repeat no state, since a repeat between
// frames i < j would let the run skip frames i+1..j (taking frame j's
// inputs at frame i) and reach Target sooner. The O(k^2) distinctness
// constraints are added lazily, only for the pairs of frames that a model
// repeats, as most pairs of a path never meet; each stays valid for every
// larger k, as the frames remain on the path.
type kindPath struct {
	*BMC
	target ts.Lit
	hyp    int // frames 0..hyp-1 have "not bad" asserted
	cut    int // repeated pairs of frames excluded so far
}

func newKindPath(sys *ts.System, s solver.Solver, target ts.Lit) *kindPath {
	b := NewBMC(sys, s)
	b.U.FreeStart = true
	return &kindPath{BMC: b, target: target}
}

// solve asks for a simple path of k+1 steps, not bad before its end, that
// ends bad; after Sat, the model is such a path (Witness(k+1) reads it).
func (p *kindPath) solve(ctx context.Context, k int) solver.Status {
	if err := p.U.Extend(ctx, k+1); err != nil {
		return solver.Unknown
	}
	for ; p.hyp <= k; p.hyp++ {
		p.S.Assert(p.S.Not(p.U.At(p.target, p.hyp)))
	}
	for {
		st := p.Query(ctx, k+1, p.U.At(p.target, k+1))
		if st != solver.Sat || !p.cutRepeats(k+1) {
			return st
		}
	}
}

// cutRepeats requires the latch states of each pair of frames among
// 0..n that the last model repeats (each frame with the last frame
// before it in the same state) to differ, and reports whether there was
// one.
func (p *kindPath) cutRepeats(n int) bool {
	latches := p.Sys.Latches()
	seen := map[string]int{}
	var pairs [][2]int
	for j := 0; j <= n; j++ {
		key := make([]byte, len(latches))
		for i, l := range latches {
			if p.S.Value(p.U.At(l.Lit, j)) {
				key[i] = 1
			}
		}
		if i, ok := seen[string(key)]; ok {
			pairs = append(pairs, [2]int{i, j})
		}
		seen[string(key)] = j
	}
	// Asserted after reading the whole model, which they invalidate.
	for _, ij := range pairs {
		differ := p.S.Not(p.S.True())
		for _, l := range latches {
			differ = solver.Or(p.S, differ, solver.Xor(p.S, p.U.At(l.Lit, ij[0]), p.U.At(l.Lit, ij[1])))
		}
		p.S.Assert(differ)
	}
	p.cut += len(pairs)
	return len(pairs) > 0
}

// kindRuns answers, for a start state s, whether some run of at most k
// steps from s reaches Target (R<=k(s) ∩ E ≠ ∅ in obligation (5)), on a
// FreeStart unrolling in a solver of its own in which nothing is asserted,
// so that a core of its assumptions is a fact about the system alone.
// Hard literals (over frame 0) are assumed in every query and the latches
// in fixed are never part of a cube: K-induction with amplification
// (amplify.go) asks about its start states only, with the round bound
// given.
type kindRuns struct {
	s          solver.Solver
	u          *Unrolling
	target, ok ts.Lit
	hard       []solver.Lit
	fixed      map[int]bool // latch indices assumed with hard, not lifted
	steps      []solver.Lit // steps[j]: the constraints at frames 0..j-1
	bad        []solver.Lit // bad[j]: a bad run of j steps (steps[j], Target at j)
}

// extend builds the bad runs of up to k steps.
func (r *kindRuns) extend(ctx context.Context, k int) error {
	b := r.s
	if err := r.u.Extend(ctx, k); err != nil {
		return err
	}
	for j := len(r.bad); j <= k; j++ {
		prev := b.True()
		if j > 0 {
			prev = b.And(r.steps[j-1], r.u.At(r.ok, j-1))
		}
		r.steps = append(r.steps, prev)
		r.bad = append(r.bad, b.And(prev, r.u.At(r.target, j)))
	}
	return nil
}

// state is s at frame 0 as assumptions, without the fixed latches.
func (r *kindRuns) state(s []bool) []solver.Lit {
	var cube []solver.Lit
	for i, l := range r.u.Sys.Latches() {
		if !r.fixed[i] {
			cube = append(cube, kindLatch(r.u, l, 0, s[i]))
		}
	}
	return cube
}

// refute returns Unsat when no run of at most k steps from s reaches
// Target. Otherwise it returns Sat and a cube of s (indices into
// Sys.Latches()) whose every state reaches Target within k steps: the run
// found has its inputs fixed, and lift makes the cube.
func (r *kindRuns) refute(ctx context.Context, s []bool, k int) ([]int, solver.Status) {
	inputs, st := r.find(ctx, s, k)
	if st != solver.Sat {
		return nil, st
	}
	return r.lift(ctx, s, inputs)
}

// find returns, with Sat, the inputs at frames 0..j of a run from s that
// reaches Target at frame j <= k; Unsat when there is none.
func (r *kindRuns) find(ctx context.Context, s []bool, k int) ([][]bool, solver.Status) {
	b, sys := r.s, r.u.Sys
	if err := r.extend(ctx, k); err != nil {
		return nil, solver.Unknown
	}
	assume := append(slices.Clone(r.hard), r.state(s)...)
	if st := b.Solve(ctx, append(assume, solver.Ors(b, r.bad[:k+1]...))...); st != solver.Sat {
		return nil, st
	}
	j := 0
	for !b.Value(r.bad[j]) {
		j++
	}
	inputs := make([][]bool, j+1)
	for i := range inputs {
		for _, in := range sys.Inputs() {
			inputs[i] = append(inputs[i], b.Value(r.u.At(in, i)))
		}
	}
	return inputs, solver.Sat
}

// lift returns the latches of s (indices into Sys.Latches()) that the
// solver needs to show that the run from s with the given inputs at
// frames 0..j reaches Target at frame j (the failed assumptions of
// asking for it not to): every state that agrees with s on them (and
// meets the hard literals) reaches Target by the same run. It is Unsat
// when s itself does not.
func (r *kindRuns) lift(ctx context.Context, s []bool, inputs [][]bool) ([]int, solver.Status) {
	b, sys := r.s, r.u.Sys
	j := len(inputs) - 1
	if err := r.extend(ctx, j); err != nil {
		return nil, solver.Unknown
	}
	cube := r.state(s)
	index := make(map[solver.Lit]int, len(cube))
	n := 0
	for i := range sys.Latches() {
		if !r.fixed[i] {
			index[cube[n]] = i
			n++
		}
	}
	fixed := append(slices.Clone(r.hard), r.inputsAt(inputs)...)
	fixed = append(fixed, b.Not(r.bad[j]))
	// The latches at frame 0 and the inputs at frames 0..j decide every
	// frame up to j, so the first question is Unsat unless the solver
	// stops. A core need not be minimal, so each latch left is then
	// dropped in turn if the run reaches Target without it, which pays
	// on runs that read few latches.
	core := cube
	for drop := -1; drop < len(core); {
		try := core
		if drop >= 0 {
			try = slices.Delete(slices.Clone(core), drop, drop+1)
		}
		switch b.Solve(ctx, append(slices.Clone(try), fixed...)...) {
		case solver.Unsat:
			failed := map[solver.Lit]bool{}
			for _, x := range b.Failed() {
				failed[x] = true
			}
			core = slices.DeleteFunc(try, func(x solver.Lit) bool { return !failed[x] })
			drop = max(drop, 0)
		case solver.Sat:
			if drop < 0 {
				return nil, solver.Unsat // s does not reach Target this way
			}
			drop++
		default:
			return nil, solver.Unknown
		}
	}
	lifted := make([]int, len(core))
	for n, x := range core {
		lifted[n] = index[x]
	}
	return lifted, solver.Sat
}

// inputsAt is the inputs of frames 0..len(inputs)-1 with the given
// values, as assumptions.
func (r *kindRuns) inputsAt(inputs [][]bool) []solver.Lit {
	var out []solver.Lit
	for i, vals := range inputs {
		for k, in := range r.u.Sys.Inputs() {
			x := r.u.At(in, i)
			if !vals[k] {
				x = r.s.Not(x)
			}
			out = append(out, x)
		}
	}
	return out
}
