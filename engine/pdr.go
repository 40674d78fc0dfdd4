package engine

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// PDR decides t on sys by IC3 (Bradley, "SAT-based model checking
// without unrolling", VMCAI 2011) in the form of property directed
// reachability (Een, Mishchenko, Brayton, "Efficient implementation of
// property directed reachability", FMCAD 2011; EMB below).
//
// A state is bad when some inputs make Target true, and a step from a
// state requires the constraints there (with the step's inputs). F_0 is
// the initial states; F_1..F_k are sets of blocked cubes over the
// latches, kept as EMB's delta encoding of the trace: a cube is stored
// only at the highest frame it is known blocked in, and F_i is the union
// of the deltas from i up. All frames share one solver that holds one
// copy of the transition relation (an Unrolling with a free frame 0,
// frame 1 its successor), each delta's clauses under the delta's
// activation literal, so that a query on F_i assumes the literals of the
// frames from i up (and the others false), and everything the solver
// learns serves every frame. Predecessors and bad states are generalized
// by lifting, blocked cubes by the core of the relative induction query
// and then by dropping literals one at a time, and pushed cubes by the
// core of the push query. A blocked obligation is tried again one frame
// up (EMB), which finds far more of the cubes a frame needs before the
// frame is closed; its counterexamples are therefore not always shortest
// ones.
//
// Counterexamples are confirmed by BMC and invariants by CheckInvariant,
// each on a fresh solver from t.NewSolver, before they are returned.
func PDR(ctx context.Context, sys *ts.System, t ProofTask) *Proof {
	p := &pdr{ctx: ctx, sys: sys, task: t}
	// The conjunction may add nodes to sys: before any frame is built.
	p.okNode = sys.Ands(append(slices.Clone(sys.Constraints), t.Constraints...)...)
	p.start = map[ts.Lit]bool{}
	for _, l := range t.Start {
		p.start[l] = true
	}
	p.acts = []solver.Lit{0} // F_0 is p.init, not a delta
	p.delta = [][]cube{nil}
	if err := p.load(); err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error()}
	}
	proof, err := p.run()
	p.s.Close()
	if err != nil {
		return &Proof{Status: solver.Unknown, Reason: err.Error(), AtMaxK: errors.Is(err, errFrameBound)}
	}
	return proof
}

// errFrameBound is run's error when the frames reach MaxK.
var errFrameBound = errors.New("frame bound reached")

// load makes a new solver with the transition relation and the frames:
// each frame's activation literal, implying the next one's, and the
// clauses of its delta.
func (p *pdr) load() error {
	if p.s != nil {
		p.s.Close()
	}
	s := p.task.NewSolver()
	p.s, p.u, p.retired, p.init = s, NewUnrolling(p.sys, s), 0, nil
	p.inSolver = 0
	p.u.FreeStart = true
	if err := p.u.Extend(p.ctx, 1); err != nil {
		return errors.New(p.stopReason())
	}
	p.ok = p.u.At(p.okNode, 0)
	p.bad = p.u.At(p.task.Target, 0)
	for _, l := range p.sys.Latches() {
		switch {
		case p.start[l.Lit] || l.Init == ts.Init1 && !p.start[l.Lit.Not()]:
			p.init = append(p.init, p.u.At(l.Lit, 0))
		case p.start[l.Lit.Not()] || l.Init == ts.Init0:
			p.init = append(p.init, s.Not(p.u.At(l.Lit, 0)))
		}
	}
	for i := 1; i < len(p.acts); i++ {
		p.acts[i] = s.Activation()
	}
	for i := 1; i < len(p.delta); i++ {
		for _, c := range p.delta[i] {
			s.Under(p.acts[i], p.negated(p.at(c, 0))...)
			p.inSolver++
		}
	}
	return nil
}

// cube is a conjunction of latch literals, sorted, each latch at most
// once.
type cube []ts.Lit

// subsumes reports whether every literal of c is in d, so that blocking
// c blocks d.
func (c cube) subsumes(d cube) bool {
	j := 0
	for _, l := range c {
		for j < len(d) && d[j] < l {
			j++
		}
		if j == len(d) || d[j] != l {
			return false
		}
	}
	return true
}

// obligation is EMB's proof obligation: the cube c must be blocked at
// frame level or else extended to a counterexample. Every state of c,
// with inputs, steps into next's cube (satisfying the constraints), or
// makes Target true when next is nil; state is one state of c.
type obligation struct {
	c      cube
	level  int
	state  []bool // [latch index]
	inputs []bool // [input index]
	next   *obligation
	seq    int // order of creation, to break ties
}

// queue orders obligations by frame, lowest first (as EMB's priority
// queue), the newest first within a frame.
type queue []*obligation

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].level != q[j].level {
		return q[i].level < q[j].level
	}
	return q[i].seq > q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*obligation)) }
func (q *queue) Pop() any {
	o := (*q)[len(*q)-1]
	*q = (*q)[:len(*q)-1]
	return o
}

type pdr struct {
	ctx    context.Context
	sys    *ts.System
	task   ProofTask
	s      solver.Solver
	u      *Unrolling
	okNode ts.Lit          // the conjunction of the constraints
	ok     solver.Lit      // the constraints at frame 0
	bad    solver.Lit      // Target at frame 0
	init   []solver.Lit    // F_0: the latches with a fixed initial value, at frame 0
	start  map[ts.Lit]bool // task.Start, as a set
	// acts[i] switches on the clauses of delta[i]; a query on F_i
	// assumes acts[i:]. Index 0 is unused.
	acts  []solver.Lit
	delta [][]cube
	seq   int
	// retired counts the activation literals of temporary clauses that
	// have been switched off in s (see retire).
	retired int
	// inSolver counts the cube clauses s holds. Those of cubes that were
	// since subsumed or pushed up stay in s, and every query pays for
	// them, so s is rebuilt when they outnumber the live ones.
	inSolver int
}

// top is the highest frame.
func (p *pdr) top() int { return len(p.acts) - 1 }

// frame returns the assumptions that make frame 0 of the unrolling a
// state of F_i.
func (p *pdr) frame(i int) []solver.Lit {
	if i == 0 {
		return slices.Clone(p.init)
	}
	ls := slices.Clone(p.acts[i:])
	for _, a := range p.acts[1:i] {
		ls = append(ls, p.s.Not(a))
	}
	return ls
}

// addFrame opens frame top+1, empty, with an activation literal for its
// delta. (Not one that implies the next frame's: gini's activation
// literals must not occur positively in any clause.)
func (p *pdr) addFrame() {
	p.acts = append(p.acts, p.s.Activation())
	p.delta = append(p.delta, nil)
}

// stopReason words why a query ended without an answer.
func (p *pdr) stopReason() string { return stopReason(p.ctx) }

// solve runs a query; an Unknown becomes an error with its reason.
func (p *pdr) solve(assumptions ...solver.Lit) (solver.Status, error) {
	st := p.s.Solve(p.ctx, assumptions...)
	if st == solver.Unknown {
		return st, errors.New(p.stopReason())
	}
	return st, nil
}

// at returns the literals of c at time k of the unrolling.
func (p *pdr) at(c cube, k int) []solver.Lit {
	ls := make([]solver.Lit, len(c))
	for i, l := range c {
		ls[i] = p.u.At(l, k)
	}
	return ls
}

// excludesInit reports whether c has no initial state: one of its
// literals contradicts a latch's fixed initial value.
func (p *pdr) excludesInit(c cube) bool {
	for _, l := range c {
		if v, ok := p.initValue(l); ok && v != !l.IsNeg() {
			return true
		}
	}
	return false
}

// initValue is the fixed initial value of the latch of l (Start's, else
// its own), if it has one.
func (p *pdr) initValue(l ts.Lit) (value, fixed bool) {
	pos := l
	if l.IsNeg() {
		pos = l.Not()
	}
	li, _ := p.sys.LatchOf(pos.Var())
	switch {
	case p.start[pos]:
		return true, true
	case p.start[pos.Not()]:
		return false, true
	case li.Init == ts.InitFree:
		return false, false
	}
	return li.Init == ts.Init1, true
}

// run is the main loop of IC3 as EMB present it: block the bad states
// of the top frame, open the next frame and propagate clauses forward
// until two adjacent frames are equal.
func (p *pdr) run() (*Proof, error) {
	for k := 0; ; k++ {
		if k > p.task.MaxK {
			return nil, fmt.Errorf("%w (%d frames)", errFrameBound, p.task.MaxK)
		}
		if k > p.top() {
			p.addFrame()
		}
		for {
			st, err := p.solve(append(p.frame(k), p.bad)...)
			if err != nil {
				return nil, err
			}
			if st == solver.Unsat {
				break
			}
			o, err := p.lifted([]solver.Lit{p.bad}, nil)
			if err != nil {
				return nil, err
			}
			o.level = k
			cex, err := p.block(o)
			if err != nil {
				return nil, err
			}
			if cex != nil {
				return p.counterexample(cex)
			}
		}
		if p.task.Progress != nil {
			fmt.Fprintf(p.task.Progress, "pdr: frame %d: %d clauses\n", k, len(p.clauses(k)))
		}
		if k == 0 {
			continue
		}
		p.addFrame()
		i, err := p.propagate()
		if err != nil {
			return nil, err
		}
		if i > 0 {
			return p.converged(i)
		}
	}
}

// live counts the cubes of every delta.
func (p *pdr) live() int {
	n := 0
	for _, d := range p.delta {
		n += len(d)
	}
	return n
}

// clauses returns the cubes of F_i (none for F_0 before F_1 exists).
func (p *pdr) clauses(i int) []cube {
	var cs []cube
	for _, d := range p.delta[i:] {
		cs = append(cs, d...)
	}
	return cs
}

// lifted reads the state and inputs of the last model and generalizes the
// state by lifting (Chockler et al., "Incremental formal verification of
// hardware", FMCAD 2011; EMB's ternary simulation serves the same
// end): with the inputs fixed, the latches whose values a core of
// "state ∧ inputs ∧ ¬goal" needs are a cube all of whose states reach
// goal (the conjunction of the literals). The obligation that the cube
// would lead to is next.
func (p *pdr) lifted(goal []solver.Lit, next *obligation) (*obligation, error) {
	o := &obligation{next: next, seq: p.seq}
	p.seq++
	// Only what the solver holds is read and assumed: a latch or input
	// outside every query's cone is in no core, and false serves.
	var assume []solver.Lit
	read := func(l ts.Lit) (bool, solver.Lit, bool) {
		x, ok := p.u.Built(l, 0)
		v := ok && p.s.Value(x)
		if ok {
			if !v {
				x = p.s.Not(x)
			}
			assume = append(assume, x)
		}
		return v, x, ok
	}
	latchOf := map[solver.Lit]int{}
	for j, l := range p.sys.Latches() {
		v, x, ok := read(l.Lit)
		o.state = append(o.state, v)
		if ok {
			latchOf[x] = j
		}
	}
	for _, in := range p.sys.Inputs() {
		v, _, _ := read(in)
		o.inputs = append(o.inputs, v)
	}
	act := p.temporary(p.negated(goal))
	defer p.retire(act)
	st, err := p.solve(append(assume, act)...)
	if err != nil {
		return nil, err
	}
	if st != solver.Unsat {
		return nil, errors.New("internal error: a state and inputs do not determine a step")
	}
	for _, x := range p.s.Failed() {
		if j, ok := latchOf[x]; ok {
			l := p.sys.Latches()[j].Lit
			if !o.state[j] {
				l = l.Not()
			}
			o.c = append(o.c, l)
		}
	}
	slices.Sort(o.c)
	return o, nil
}

// failedSet returns the failed assumptions of s's last Unsat as a set.
func failedSet(s solver.Solver) map[solver.Lit]bool {
	m := map[solver.Lit]bool{}
	for _, x := range s.Failed() {
		m[x] = true
	}
	return m
}

// relative asks whether c is inductive relative to F_{i-1} (Bradley's
// relative induction): F_{i-1} ∧ ¬c ∧ constraints ∧ T ∧ c'
// unsatisfiable. When it is, it returns the literals of c whose primed
// forms are in the core, which are a cube inductive relative to F_{i-1}
// too, as every state outside it is outside c (EMB's use of the final
// conflict), though it may meet F_0.
func (p *pdr) relative(c cube, i int) (solver.Status, cube, error) {
	if p.retired > 2*p.sys.NumVars()+1000 || p.inSolver > 2*p.live()+500 {
		if err := p.load(); err != nil {
			return solver.Unknown, nil, err
		}
	}
	next := p.at(c, 1)
	act := p.temporary(p.negated(p.at(c, 0)))
	defer p.retire(act)
	// EMB's use of the property as an inductive hypothesis: no state of
	// F_{i-1} is bad (the bad states of every frame up to the top one
	// are blocked before it grows), so assuming it is free and prunes.
	assume := append(p.frame(i-1), p.ok, p.s.Not(p.bad), act)
	st, err := p.solve(append(assume, next...)...)
	if st != solver.Unsat {
		return st, nil, err
	}
	failed := failedSet(p.s)
	var core cube
	for j, l := range c {
		if failed[next[j]] {
			core = append(core, l)
		}
	}
	return st, core, nil
}

// temporary adds the clause under an activation literal, which it
// returns: the clause holds in the queries that assume the literal.
func (p *pdr) temporary(clause []solver.Lit) solver.Lit {
	return solver.Temporary(p.s, clause...)
}

// retire switches off a temporary clause for good. A solver that keeps
// it (switched off) spends time on it in every query, so such a solver
// is rebuilt when the retired clauses outnumber the frames' variables,
// as Bradley's IC3ref does.
func (p *pdr) retire(act solver.Lit) {
	if !p.s.Release(act) {
		p.retired++
	}
}

// negated returns the negations of ls: as a clause, the negation of
// their conjunction.
func (p *pdr) negated(ls []solver.Lit) []solver.Lit {
	out := make([]solver.Lit, len(ls))
	for i, l := range ls {
		out[i] = p.s.Not(l)
	}
	return out
}

// withoutInit makes the core of c exclude F_0 again by adding back a
// literal of c (which excludes it) that contradicts an initial value:
// Bradley and EMB both keep generalized cubes out of the initial states.
func (p *pdr) withoutInit(core, c cube) cube {
	if p.excludesInit(core) {
		return core
	}
	for _, l := range c {
		if p.excludesInit(cube{l}) {
			core = append(core, l)
			slices.Sort(core)
			return core
		}
	}
	panic("pdr: a cube meant to exclude the initial states does not")
}

// generalize shrinks a cube c blocked at frame i, whose core is core,
// by dropping each remaining literal in turn while the rest stays
// inductive relative to F_{i-1} and excludes F_0: the one-pass form of
// Bradley's MIC, EMB's literal-dropping generalization.
func (p *pdr) generalize(c, core cube, i int) (cube, error) {
	g := p.withoutInit(core, c)
	for _, l := range slices.Clone(g) {
		j := slices.Index(g, l)
		if j < 0 {
			continue // dropped with an earlier core
		}
		d := slices.Delete(slices.Clone(g), j, j+1)
		if !p.excludesInit(d) {
			continue
		}
		st, dcore, err := p.relative(d, i)
		if err != nil {
			return nil, err
		}
		if st == solver.Unsat {
			g = p.withoutInit(dcore, d)
		}
	}
	return g, nil
}

// blocked reports whether F_i already blocks c syntactically: a cube of
// F_i subsumes it.
func (p *pdr) blocked(c cube, i int) bool {
	for _, d := range p.clauses(i) {
		if d.subsumes(c) {
			return true
		}
	}
	return false
}

// addCube blocks c in F_1..F_i: delta[i] gets it, and the cubes of lower
// deltas it subsumes go (EMB's subsumption in the delta encoding).
func (p *pdr) addCube(c cube, i int) {
	for j := 1; j <= i; j++ {
		p.delta[j] = slices.DeleteFunc(p.delta[j], c.subsumes)
	}
	p.delta[i] = append(p.delta[i], c)
	p.s.Under(p.acts[i], p.negated(p.at(c, 0))...)
	p.inSolver++
}

// block blocks o and the obligations it leads to (EMB's recursive
// blocking, with a priority queue). It returns the obligation that starts
// a counterexample, one whose cube has an initial state, or nil when
// every obligation has been blocked.
func (p *pdr) block(o *obligation) (*obligation, error) {
	q := &queue{o}
	for q.Len() > 0 {
		o := heap.Pop(q).(*obligation)
		if !p.excludesInit(o.c) {
			return o, nil
		}
		if p.blocked(o.c, o.level) {
			continue
		}
		// Blocked by several cubes together, which no one of them shows
		// (ABC's pdr asks the same): without this, a redundant cube is
		// learnt, and obligations tried again one frame up are often
		// blocked there already.
		st, err := p.solve(append(p.frame(o.level), p.at(o.c, 0)...)...)
		if err != nil {
			return nil, err
		}
		if st == solver.Unsat {
			continue
		}
		st, core, err := p.relative(o.c, o.level)
		if err != nil {
			return nil, err
		}
		if st == solver.Sat {
			// A predecessor in F_{level-1}: block it first, then o again.
			pred, err := p.lifted(append(p.at(o.c, 1), p.ok), o)
			if err != nil {
				return nil, err
			}
			pred.level = o.level - 1
			heap.Push(q, pred)
			// Back in the queue as the newest of its frame (as ABC does).
			o.seq = p.seq
			p.seq++
			heap.Push(q, o)
			continue
		}
		g, err := p.generalize(o.c, core, o.level)
		if err != nil {
			return nil, err
		}
		// Push the cube as far as it stays blocked, as EMB do.
		i := o.level
		for i < p.top() {
			st, _, err := p.relative(g, i+1)
			if err != nil {
				return nil, err
			}
			if st != solver.Unsat {
				break
			}
			i++
		}
		p.addCube(g, i)
		if i < p.top() {
			// EMB: the states of o lead to bad ones, so they are likely
			// to come up again at the next frame: block them there now.
			p.seq++
			heap.Push(q, &obligation{c: o.c, level: i + 1, state: o.state, inputs: o.inputs, next: o.next, seq: p.seq})
		}
	}
	return nil, nil
}

// propagate pushes every clause of frames 1..top-1 that stays inductive
// relative to its frame one frame up (Bradley's and EMB's propagation).
// It returns the first frame i whose delta empties, so that F_i =
// F_{i+1}, or 0.
func (p *pdr) propagate() (int, error) {
	for i := 1; i < p.top(); i++ {
		for _, c := range slices.Clone(p.delta[i]) {
			if !slices.ContainsFunc(p.delta[i], func(d cube) bool { return slices.Equal(c, d) }) {
				continue // subsumed by a cube pushed before it
			}
			st, core, err := p.relative(c, i+1)
			if err != nil {
				return 0, err
			}
			if st == solver.Unsat {
				// The core of the push query shrinks the cube for free
				// (as ABC's pdr does).
				p.addCube(p.withoutInit(core, c), i+1)
			}
		}
		if len(p.delta[i]) == 0 {
			return i, nil
		}
	}
	return 0, nil
}

// converged returns the proof for F_i = F_{i+1}: F_i's clauses are an
// inductive invariant that excludes the bad states. It is re-checked on
// a fresh solver first.
func (p *pdr) converged(i int) (*Proof, error) {
	var inv [][]ts.Lit
	for _, c := range p.clauses(i) {
		clause := make([]ts.Lit, len(c))
		for j, l := range c {
			clause[j] = l.Not()
		}
		inv = append(inv, clause)
	}
	s := p.task.NewSolver()
	defer s.Close()
	if err := checkInvariant(p.ctx, p.sys, s, p.task, inv); err != nil {
		if p.ctx.Err() != nil {
			return nil, errors.New(p.stopReason())
		}
		return nil, fmt.Errorf("internal error: %v", err)
	}
	return &Proof{Status: solver.Unsat, Bound: i, Invariant: inv}, nil
}

// counterexample turns the chain of obligations from o, whose cube has
// an initial state, into a path: that state and the inputs of each
// obligation. BMC on a fresh solver confirms it, and its witness is the
// answer.
func (p *pdr) counterexample(o *obligation) (*Proof, error) {
	s := p.task.NewSolver()
	defer s.Close()
	b := NewBMC(p.sys, s)
	in := make(map[ts.Lit]bool, len(o.c))
	for _, l := range o.c {
		in[l] = true
	}
	var assume []solver.Lit
	for j, l := range p.sys.Latches() {
		// A state of o.c and F_0: the cube's value, else the initial
		// one, else the value of the state o was found with.
		v := o.state[j]
		if in[l.Lit] || in[l.Lit.Not()] {
			v = in[l.Lit]
		} else if iv, fixed := p.initValue(l.Lit); fixed {
			v = iv
		}
		x := b.U.At(l.Lit, 0)
		if !v {
			x = s.Not(x)
		}
		assume = append(assume, x)
	}
	n := 0
	for ; o != nil; o = o.next {
		for j, l := range p.sys.Inputs() {
			x := b.U.At(l, n)
			if !o.inputs[j] {
				x = s.Not(x)
			}
			assume = append(assume, x)
		}
		n++
	}
	n--
	switch b.Query(p.ctx, n, solver.Ands(s, append(assume, b.U.At(p.task.Target, n))...)) {
	case solver.Unknown:
		return nil, errors.New(p.stopReason())
	case solver.Unsat:
		return nil, fmt.Errorf("internal error: BMC does not confirm a counterexample of %d steps", n)
	}
	return &Proof{Status: solver.Sat, Bound: n, Witness: b.Witness(n)}, nil
}
