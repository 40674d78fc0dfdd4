package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"

	"bmc/bdd"
	"bmc/solver"
	"bmc/ts"
)

// AmplifyDiagrams decides the inductive case of amplify.go the way the
// paper does (kinduction-with-amplification, §4.2, Alg. 1 lines 9-13,
// on Moped's decision diagrams): as a difference of sets. Y is the least
// fixpoint of the states from which a step reaches Target or a step
// leads into Y (backward reachability, pre*); with Short frozen, Y's
// first states with Short false are M^(K+1) and with Short true M^K,
// both intersected with the envelope (Eqn. 9). The obligation holds when
// M^(K+1) - M^K is empty; otherwise any state of the difference is a
// counterexample to induction, whose run of K+1 epochs the layers of the
// fixpoint give step by step.
//
// The diagrams range over the inputs, the latches and the next values of
// the latches, in stepOrder's order (its second one with second, which
// the independent re-check uses); a step's image is a relational product
// with the relation of one thread's step.
func AmplifyDiagrams(ctx context.Context, sys *ts.System, t AmplifyTask, second bool) *Amplified {
	out := &Amplified{}
	var cti *Witness
	err := withDiagrams(ctx, sys, t.Sched, t.Envelope, second, func(d *diagrams) error {
		m := d.m
		start := m.And(d.lit(t.First), d.lit(t.Envelope))
		for _, l := range sys.Latches() {
			if l.Lit != t.Short && l.Lit != t.First {
				start = m.And(start, d.initial(l))
			}
		}
		// The envelope's condition holds in every state a run from BASE
		// passes (each thread's stack stays one the control-flow graph
		// reaches, its atomic mode one the marks allow, each lock with one
		// holder at most): the fixpoint need not look outside it.
		d.keep = append(d.keep, &start)
		layers, err := d.backward(t.Target, d.care, t.Progress)
		if err != nil {
			return err
		}
		short := d.level[t.Short.Var()]
		reached := m.And(start, layers[len(layers)-1])
		longer := m.Restrict(reached, map[int]bool{short: false})
		within := m.Restrict(reached, map[int]bool{short: true})
		diff := m.Diff(m.Diff(longer, within), d.lit(t.Short))
		if diff != bdd.False {
			cti = d.run(m.Witness(diff), layers, t.Target)
		}
		return nil
	})
	switch {
	case err != nil:
		out.Status, out.Reason = solver.Unknown, err.Error()
	case cti == nil:
		out.Status = solver.Unsat
	default:
		out.Status, out.CTI = solver.Sat, cti
	}
	return out
}

// Reached is the answer of ReachableByDiagrams.
type Reached struct {
	Status solver.Status // Sat: a path reaches the target; Unknown: stopped, for Reason
	Run    *Witness      // the path, with Sat
	States float64       // the states reached
	Reason string
}

// ReachableByDiagrams decides by decision diagrams whether a path from an
// initial state of sys reaches target, and gives one. Care must hold in
// every state of such a path; the search looks no further. Sched are the
// inputs that choose the thread of a step; second takes stepOrder's
// second order, for an independent second pass; the paths start in the
// initial states where the literals from hold. It decides the base case
// of amplification, forward from the initial states, and finds the runs
// of its counterexamples to induction.
func ReachableByDiagrams(ctx context.Context, sys *ts.System, target, care ts.Lit, sched []ts.Lit, second bool, from ...ts.Lit) Reached {
	out := Reached{Status: solver.Unsat}
	err := withDiagrams(ctx, sys, sched, care, second, func(d *diagrams) error {
		m := d.m
		init := d.initialStates(from)
		d.keep = append(d.keep, &init)
		reach, _, err := d.forward(init, bdd.False)
		if err != nil {
			return err
		}
		out.States = m.Count(reach, d.latchLevels())
		if m.And(reach, m.Exists(d.lit(target), d.inputs)) == bdd.False {
			return nil
		}
		// A path: the layers back from the target within the states
		// reached, which are few beside all of care.
		d.keep = append(d.keep, &reach)
		layers, err := d.backward(target, reach, nil)
		if err != nil {
			return err
		}
		start := m.And(init, layers[len(layers)-1])
		out.Status, out.Run = solver.Sat, d.run(m.Witness(start), layers, target)
		return nil
	})
	if err != nil {
		return Reached{Status: solver.Unknown, Reason: err.Error()}
	}
	return out
}

// diagrams are a system's nodes as decision diagrams over its latches and
// inputs.
type diagrams struct {
	ctx    context.Context
	sys    *ts.System
	m      *bdd.Manager
	level  map[int]int // system variable -> diagram variable
	memo   map[int]bdd.Node
	inputs bdd.Set
	okLit  ts.Lit       // the constraints
	fixed  map[int]bool // the latches that keep their initial value (fixLatches), by level
	care   bdd.Node     // holds in every state of the paths asked about
	keep   []*bdd.Node  // the caller's diagrams that a collection keeps
	phase  bdd.Node     // init's phase (onceAtFirst)
	// parts are the step split by the thread that takes it: the
	// scheduler's inputs fixed, the latches it leaves alone (the other
	// threads') are no part of the substitution, which is what makes a
	// step cheap.
	parts []*stepPart
}

// stepPart is the step of one value of the scheduler's inputs.
type stepPart struct {
	thread  int          // the value of the scheduler's inputs
	inPhase bool         // init's steps (onceAtFirst), apart from the thread's others
	at      map[int]bool // the scheduler's inputs
	ok      bdd.Node     // the constraints, within care
	// rel is the step as a relation of the latches and the next values
	// of those it changes (the inputs quantified): a backward image is
	// one relational product with it, the latches changed renamed to
	// their next values (pre), which keeps the order. Composing with the
	// next-state functions instead cost 80% of the time on the wide rows
	// (flag mutex with 4 threads: 690,000 nodes made for a fixpoint of
	// 3,900).
	rel     bdd.Node
	changed []int   // the levels of the latches it may change
	pre     bdd.Set // their next values, renamed from the latches
	post    bdd.Set // the latches changed, their next values renamed to them
}

// changes says whether the part may change the latch at level v.
func (p *stepPart) changes(v int) bool { return slices.Contains(p.changed, v) }

// withDiagrams runs f on sys's diagrams, in a manager of its own (whose
// panics, such as running out of nodes, become errors). The variables
// are ordered by stepOrder (its second order with second).
func withDiagrams(ctx context.Context, sys *ts.System, sched []ts.Lit, care ts.Lit, second bool, f func(*diagrams) error) error {
	first, again, err := stepOrders(ctx, sys, sched, nil, care)
	if err != nil {
		return err
	}
	if second {
		first = again
	}
	return buildDiagrams(ctx, sys, sched, nil, care, inOrder(sys, first), true, f)
}

// stepOrders are stepOrder's two orders of sys's latches (indices in
// sys.Latches()), found by a first pass: which latches each thread's
// step changes, which the orders depend on. The first pass takes the
// latches in the reverse of the system's order: the interleaving
// product declares the globals first, and its constraint (the block
// the scheduled thread's counter selects, and that block's guard over
// the globals) is small only with the counters above the globals (with
// Burns' mutual exclusion of 7 threads, 1.9 s of the pass against
// 0.05 s).
func stepOrders(ctx context.Context, sys *ts.System, sched []ts.Lit, pcs [][]ts.Lit, care ts.Lit) (first, second []int, err error) {
	reversed := slices.Clone(sys.Latches())
	slices.Reverse(reversed)
	err = buildDiagrams(ctx, sys, sched, pcs, care, reversed, false, func(d *diagrams) error {
		first, second = d.stepOrder(false), d.stepOrder(true)
		return nil
	})
	return first, second, err
}

// inOrder is sys's latches in order (indices in sys.Latches()).
func inOrder(sys *ts.System, order []int) []ts.LatchInfo {
	latches := make([]ts.LatchInfo, len(order))
	for i, j := range order {
		latches[i] = sys.Latches()[j]
	}
	return latches
}

// buildDiagrams runs f on sys's diagrams with the inputs first (the
// scheduler's select every thread's bits) and the latches in the order
// given, each latch's next value right after it, so that renaming the
// latches to their next values keeps the order. pcs are, by the value
// of sched that chooses a thread, the latches of its program counter
// (nil where not known): a step's constraints are then built one value
// of the counter at a time (stepPieces).
func buildDiagrams(ctx context.Context, sys *ts.System, sched []ts.Lit, pcs [][]ts.Lit, care ts.Lit, latches []ts.LatchInfo, relation bool, f func(*diagrams) error) error {
	d := &diagrams{ctx: ctx, sys: sys, m: bdd.New(), level: map[int]int{}, memo: map[int]bdd.Node{0: bdd.False}}
	// A single image can take seconds: the manager asks as it goes.
	d.m.Stop = func() bool { return ctx.Err() != nil }
	inputs := sys.Inputs()
	var ins []int
	for j, in := range inputs {
		d.level[in.Var()] = j
		ins = append(ins, j)
	}
	for i, l := range latches {
		d.level[l.Lit.Var()] = len(inputs) + 2*i
	}
	d.okLit = sys.Ands(sys.Constraints...)
	var ferr error
	defer d.m.Free()
	err := d.m.Run(func() {
		d.inputs = d.m.NewSet(ins)
		d.care = d.lit(care)
		d.fixLatches()
		pieces := make([][]stepPiece, 1<<len(sched))
		for a := range pieces {
			at := map[int]bool{}
			for b, x := range sched {
				at[d.level[x.Var()]] = a>>b&1 == 1
			}
			var pc []ts.Lit
			if a < len(pcs) {
				pc = pcs[a]
			}
			pieces[a] = d.stepPieces(at, pc)
		}
		d.phase = d.onceAtFirst(pieces)
		for a := range pieces {
			for _, part := range d.stepParts(pieces[a], d.phase, relation) {
				part.thread = a
				d.parts = append(d.parts, part)
			}
		}
		ferr = f(d)
	})
	if err != nil {
		return err
	}
	return ferr
}

// stepParts are the step of pieces (those of one value of the
// scheduler's inputs, none if no step has it) as parts. Without
// relation, the parts' relations are not built (only the latches they
// change are found).
//
// A part's relation keeps every latch it changes anywhere at its value
// where it does not change it, so the steps of init's phase (onceAtFirst)
// are parts of their own, one a piece: init runs on thread 0's stack
// and its end starts every thread, which made each of the first
// philosopher's pieces keep all 85 latches of 10 ordered philosophers
// (8 s and 18 million nodes for that one relation, where each other
// thread's took 0.05 s).
func (d *diagrams) stepParts(whole []stepPiece, phase bdd.Node, relation bool) []*stepPart {
	m := d.m
	if len(whole) == 0 {
		return nil // no such thread
	}
	// Each piece split by the phase, with the latches it changes there.
	var pieces []stepPiece
	for _, piece := range whole {
		for _, in := range []bool{true, false} {
			where := phase
			if !in {
				where = m.Not(phase)
			}
			if ok := m.And(piece.ok, where); ok != bdd.False {
				p := stepPiece{fix: piece.fix, ok: ok, inPhase: in, next: map[int]bdd.Node{}}
				for v, n := range piece.next {
					if m.And(ok, m.Xor(n, m.Var(v))) != bdd.False {
						p.next[v] = n
					}
				}
				pieces = append(pieces, p)
			}
		}
	}
	// The pieces of init's phase apart from the others where they change
	// a latch the others do not.
	var in, out []int
	for i, piece := range pieces {
		if piece.inPhase {
			in = append(in, i)
		} else {
			out = append(out, i)
		}
	}
	groups := [][]int{append(in, out...)}
	if len(in) > 0 && len(out) > 0 && !subset(union(pieces, in), union(pieces, out)) {
		groups = [][]int{out}
		for _, i := range in {
			groups = append(groups, []int{i})
		}
	}
	var parts []*stepPart
	for k, g := range groups {
		if part := d.stepPart(whole[0].at, pieces, g, relation); part != nil {
			part.inPhase = k > 0
			parts = append(parts, part)
		}
	}
	return parts
}

// union is the set of latches the pieces g change.
func union(pieces []stepPiece, g []int) map[int]bool {
	out := map[int]bool{}
	for _, i := range g {
		for v := range pieces[i].next {
			out[v] = true
		}
	}
	return out
}

// subset says whether every element of a is in b.
func subset(a, b map[int]bool) bool {
	for v := range a {
		if !b[v] {
			return false
		}
	}
	return true
}

// stepPart is the step of pieces g (indices in pieces) of the step with
// the scheduler's inputs at. Its relation is built from the bottom up
// (in the system's order, the relation of the flag mutex's init step
// with 7 threads took 2.3 s).
func (d *diagrams) stepPart(at map[int]bool, pieces []stepPiece, g []int, relation bool) *stepPart {
	m := d.m
	slices.Sort(g)
	part := &stepPart{at: at, ok: bdd.False}
	for _, i := range g {
		part.ok = m.Or(part.ok, pieces[i].ok)
	}
	if part.ok == bdd.False {
		return nil
	}
	part.changed = slices.Collect(maps.Keys(union(pieces, g)))
	slices.Sort(part.changed)
	slices.Reverse(part.changed)
	var primes []int
	nexts := make([][]bdd.Node, len(g)) // per piece, the next values of the latches changed
	for _, v := range part.changed {
		primes = append(primes, v+1)
		for k, i := range g {
			n, ok := pieces[i].next[v]
			if !ok {
				n = m.Var(v) // it keeps its value within the piece
			}
			nexts[k] = append(nexts[k], n)
		}
	}
	if relation {
		part.rel = bdd.False
		for k, i := range g {
			// An input that one next value alone reads (a local that
			// starts at any value) is quantified there: above every
			// latch, each such input held a copy of every latch below
			// its own (2 to the 16 at the start of 16 philosophers).
			uses := map[int]int{}
			for _, v := range d.inputsOf(pieces[i].ok) {
				uses[v] += 2
			}
			for _, n := range nexts[k] {
				for _, v := range d.inputsOf(n) {
					uses[v]++
				}
			}
			rel := pieces[i].ok
			for j, v := range part.changed {
				step := m.Iff(m.Var(v+1), nexts[k][j])
				var own []int
				for _, x := range d.inputsOf(nexts[k][j]) {
					if uses[x] == 1 {
						own = append(own, x)
					}
				}
				if len(own) > 0 {
					step = m.Exists(step, m.NewSet(own))
				}
				rel = m.And(rel, step)
			}
			part.rel = m.Or(part.rel, m.Exists(rel, d.inputs))
		}
	}
	ren, back := map[int]int{}, map[int]int{}
	for _, v := range part.changed {
		ren[v], back[v+1] = v+1, v
	}
	var err, err2 error
	part.pre, err = m.NewRenamedSet(primes, ren)
	part.post, err2 = m.NewRenamedSet(part.changed, back)
	if err != nil || err2 != nil {
		panic(errors.Join(err, err2)) // each latch's next value sits right below it
	}
	return part
}

// stepPiece is the step from the states where the latches of fix have
// their values (and the scheduler's inputs theirs): ok, the constraints
// within care.
type stepPiece struct {
	at      map[int]bool // the scheduler's inputs
	fix     map[int]bool
	ok      bdd.Node
	next    map[int]bdd.Node // by level, the next values of the latches it may change
	inPhase bool             // its states are init's phase (onceAtFirst)
}

// stepPieces splits the step with the scheduler's inputs at (the
// constraints built with the fixed latches' values too: those of every
// thread at once, in the system's order, took most of the time of the
// first pass) by the values of the latches pc of the chosen thread's
// program counter, the values within care only. The step of each value
// reads only the variables of the block there, and a thread's whole
// step, with the shared variables above the counter in the order, grew
// with every variable some block reads: the constraints of the thread
// that acquires its forks last among 6 dining philosophers took 146,000
// nodes (20,000 within care), and the relation of init's step with 7 of
// them 1.3 million before the constraints cut it down.
func (d *diagrams) stepPieces(at map[int]bool, pc []ts.Lit) []stepPiece {
	m := d.m
	vals := maps.Clone(d.fixed)
	maps.Copy(vals, at)
	var out []stepPiece
	add := func(fix map[int]bool, ok bdd.Node) {
		if ok != bdd.False {
			out = append(out, d.changes(stepPiece{at: at, fix: fix, ok: ok}))
		}
	}
	if pc == nil {
		add(vals, m.And(d.litUnder(d.okLit, vals, map[int]bdd.Node{0: bdd.False}), d.care))
		return out
	}
	for v := 0; v < 1<<len(pc); v++ {
		fix, where := maps.Clone(vals), d.care
		for b, x := range pc {
			l, one := d.level[x.Var()], v>>b&1 == 1
			fix[l] = one
			where = m.And(where, m.Ite(m.Var(l), leaf(one), leaf(!one)))
		}
		if where == bdd.False {
			continue
		}
		add(fix, m.And(where, d.litUnder(d.okLit, fix, map[int]bdd.Node{0: bdd.False})))
	}
	return out
}

// litWithin is l within the states of within, built so throughout (every
// diagram on the way within them too), memo its diagrams so far: a
// condition on the threads that is large on every state can be small on
// the reachable ones.
func (d *diagrams) litWithin(l ts.Lit, within bdd.Node, memo map[int]bdd.Node) bdd.Node {
	return d.build(l, nil, within, memo)
}

// implied are the values of the variables that f implies (each false
// or true wherever f holds), by level: those that every path to true
// tests, each the same way (a path that skips a variable leaves it
// free). Asking the manager whether f and each variable's negation has
// a solution took a fifth of the pairwise views' time on Burns.
func (d *diagrams) implied(f bdd.Node) map[int]bool {
	m := d.m
	memo := map[bdd.Node]map[int]bool{}
	var walk func(n bdd.Node) map[int]bool
	walk = func(n bdd.Node) map[int]bool {
		if n == bdd.True {
			return map[int]bool{}
		}
		if out, ok := memo[n]; ok {
			return out
		}
		v := m.Level(n)
		lo, hi := m.Branches(n)
		var out map[int]bool
		switch {
		case lo == bdd.False:
			out = maps.Clone(walk(hi))
			out[v] = true
		case hi == bdd.False:
			out = maps.Clone(walk(lo))
			out[v] = false
		default:
			out = map[int]bool{}
			a, b := walk(lo), walk(hi)
			for w, x := range a {
				if y, ok := b[w]; ok && x == y {
					out[w] = x
				}
			}
		}
		memo[n] = out
		return out
	}
	if f == bdd.False {
		return map[int]bool{}
	}
	return walk(f)
}

// inputsOf are the levels of the inputs f reads, in increasing order.
func (d *diagrams) inputsOf(f bdd.Node) []int {
	m, inputs := d.m, len(d.sys.Inputs())
	var out []int
	seen := map[bdd.Node]bool{}
	var walk func(n bdd.Node)
	walk = func(n bdd.Node) {
		if n <= bdd.True || seen[n] || m.Level(n) >= inputs {
			return // the inputs are above every latch
		}
		seen[n] = true
		if !slices.Contains(out, m.Level(n)) {
			out = append(out, m.Level(n))
		}
		lo, hi := m.Branches(n)
		walk(lo)
		walk(hi)
	}
	walk(f)
	slices.Sort(out)
	return out
}

// changes is piece with the next values of the latches it changes
// within care (the thread's pc may in principle stand in another
// thread's code, whose writes it would then make), built with the
// piece's values fixed: whole, the next value of a tryacquire's result
// reads every thread's holder bit of the lock and took 70,000 to
// 150,000 nodes a thread among 12 dining philosophers.
func (d *diagrams) changes(piece stepPiece) stepPiece {
	m := d.m
	piece.next = map[int]bdd.Node{}
	memo := map[int]bdd.Node{0: bdd.False}
	// And with the values the constraints imply: at the end of init
	// (init has ended, the threads start) the next values of 154
	// latches of 16 ordered philosophers are then constants, and their
	// relation took 22 s without them.
	maps.Copy(piece.fix, d.implied(piece.ok))
	for _, l := range d.sys.Latches() {
		v := d.level[l.Lit.Var()]
		if _, ok := d.fixed[v]; ok {
			// It keeps its value in every reachable state (its next
			// value, with the fixed ones', would differ from it only in
			// states never reached).
			continue
		}
		if n := d.litUnder(l.Next, piece.fix, memo); m.And(piece.ok, m.Xor(n, m.Var(v))) != bdd.False {
			piece.next[v] = n
		}
	}
	return piece
}

// onceAtFirst is, by the pieces of each thread's steps, the condition
// that each latch that no step gives back its (constant) initial value
// once it has left it, and while it has it one thread alone moves,
// still has it: init's phase in the interleaving product (init runs on
// thread 0's stack), which no step returns to. (A thread's counter bit
// that only ever rises is no such latch: the other threads move
// meanwhile.) False where no latch is such.
func (d *diagrams) onceAtFirst(pieces [][]stepPiece) bdd.Node {
	m := d.m
	phase, any := bdd.True, false
	for _, l := range d.sys.Latches() {
		v := d.level[l.Lit.Var()]
		if _, fixed := d.fixed[v]; fixed || l.Init == ts.InitFree {
			continue
		}
		first := leaf(l.Init == ts.Init1)
		left := m.Not(m.Iff(m.Var(v), first))
		once, movers := true, 0
		for _, ps := range pieces {
			moves := false
			for _, p := range ps {
				if n, ok := p.next[v]; ok && m.And(m.And(p.ok, left), m.Iff(n, first)) != bdd.False {
					once = false
				}
				// (Each test apart: the union of where a thread moves
				// took 6 of 9 s with 10 ordered philosophers.)
				for w, n := range p.next {
					if moves {
						break
					}
					moves = m.And(m.Diff(p.ok, left), m.Xor(n, m.Var(w))) != bdd.False
				}
			}
			if moves {
				movers++
			}
		}
		if once && movers <= 1 {
			phase, any = m.And(phase, m.Not(left)), true
		}
	}
	if !any {
		return bdd.False
	}
	return phase
}

// latchLevels are the levels of the latches, in increasing order.
func (d *diagrams) latchLevels() []int {
	var out []int
	for _, l := range d.sys.Latches() {
		out = append(out, d.level[l.Lit.Var()])
	}
	slices.Sort(out)
	return out
}

// stepOrder orders the latches (by index in sys.Latches()) for the
// relational products: first those every step changes or none does (the
// schedule's, and shared variables every thread writes), then the rest
// grouped by the steps that change them, in the order of those steps, so
// that each thread's program counter sits beside the variables only it
// writes. With the system's order (every global above every thread) the
// flag mutex with 4 threads made 1.3 million nodes where this order
// makes 0.6 million, in half the time. The second order, for an
// independent second pass, has the latches within each group reversed
// (on the flag mutex with 7 threads it takes about as long as the first
// one; reversing the order of the groups took 5 times as long, the
// system's order 50 times).
func (d *diagrams) stepOrder(second bool) []int {
	latches := d.sys.Latches()
	changers := make([][]int, len(latches)) // by latch, the threads that change it after init's phase
	threads := map[int]bool{}
	for i, l := range latches {
		v := d.level[l.Lit.Var()]
		for _, part := range d.parts {
			threads[part.thread] = true
			if part.changes(v) && !part.inPhase && !slices.Contains(changers[i], part.thread) {
				changers[i] = append(changers[i], part.thread)
			}
		}
	}
	group := func(i int) int {
		if n := len(changers[i]); n == 0 || n == len(threads) {
			return 0
		}
		return 1
	}
	order := make([]int, len(latches))
	for i := range order {
		order[i] = i
	}
	sign := 1
	if second {
		sign = -1
	}
	slices.SortFunc(order, func(i, j int) int {
		if c := group(i) - group(j); c != 0 {
			return c
		}
		if c := slices.Compare(changers[i], changers[j]); c != 0 {
			return c
		}
		return sign * (i - j)
	})
	return order
}

// fixLatches finds the latches that keep their initial value in every
// state reachable from an initial one (the greatest set whose next-state
// functions give back that value when all of them have it): d.fixed,
// to which the steps' next-state functions and constraints are
// specialized. An encoding's phase that cannot recur (init, which BASE
// has left behind) otherwise makes every thread's latches look changed
// by every step. States where a fixed latch has another value are never
// reached, so their steps do not matter.
func (d *diagrams) fixLatches() {
	latches := d.sys.Latches()
	fixed := map[int]bool{}
	for _, l := range latches {
		if l.Init != ts.InitFree {
			fixed[d.level[l.Lit.Var()]] = l.Init == ts.Init1
		}
	}
	for changed := true; changed; {
		// The functions built with the values fixed (litUnder), not
		// restricted after; a latch left out leaves out every one whose
		// value it kept (the values only shrink).
		changed = false
		memo := map[int]bdd.Node{0: bdd.False}
		var out []int
		for _, l := range latches {
			v := d.level[l.Lit.Var()]
			if val, ok := fixed[v]; ok && d.litUnder(l.Next, fixed, memo) != leaf(val) {
				out = append(out, v)
			}
		}
		for _, v := range out {
			delete(fixed, v)
			changed = true
		}
	}
	d.fixed = fixed
}

// leaf is the diagram of b.
func leaf(b bool) bdd.Node {
	if b {
		return bdd.True
	}
	return bdd.False
}

// lit is the diagram of l.
func (d *diagrams) lit(l ts.Lit) bdd.Node { return d.litUnder(l, nil, d.memo) }

// litUnder is the diagram of l with the variables of vals (by level)
// fixed to their values, memo its diagrams so far (0 is false): built
// so, rather than restricted after, it never builds what the values cut
// off.
func (d *diagrams) litUnder(l ts.Lit, vals map[int]bool, memo map[int]bdd.Node) bdd.Node {
	return d.build(l, vals, bdd.True, memo)
}

// build is the diagram of l within the states of within, the variables
// of vals fixed to their values, memo its diagrams so far.
func (d *diagrams) build(l ts.Lit, vals map[int]bool, within bdd.Node, memo map[int]bdd.Node) bdd.Node {
	m := d.m
	x, ok := memo[l.Var()]
	if !ok {
		v := l.Var()
		if d.sys.Kind(v) == ts.And {
			a, b := d.sys.Operands(v)
			if x = d.build(a, vals, within, memo); x != bdd.False {
				x = m.And(x, d.build(b, vals, within, memo))
			}
		} else if val, fixed := vals[d.level[v]]; fixed {
			x = m.And(within, leaf(val))
		} else {
			x = m.And(within, m.Var(d.level[v]))
		}
		memo[v] = x
	}
	switch {
	case !l.IsNeg():
		return x
	case within == bdd.True:
		return m.Not(x)
	}
	return m.Diff(within, x)
}

// initialStates are the initial states within care where the latch
// literals start hold.
func (d *diagrams) initialStates(start []ts.Lit) bdd.Node {
	init := d.care
	for _, l := range d.sys.Latches() {
		init = d.m.And(init, d.initial(l))
	}
	for _, l := range start {
		init = d.m.And(init, d.lit(l))
	}
	return init
}

// initial is latch l's initial value as a condition (true when free).
func (d *diagrams) initial(l ts.LatchInfo) bdd.Node {
	switch l.Init {
	case ts.Init0:
		return d.m.Not(d.lit(l.Lit))
	case ts.Init1:
		return d.lit(l.Lit)
	}
	return bdd.True
}

// backward computes the states in within (part of care) from which a path reaches
// target, as layers: every state of layers[n] (n > 0) not in layers[n-1]
// has a step into layers[n-1], layers[0] are the target's states, and
// the last layer holds all of them. Care must hold all along the paths
// asked about.
//
// The images are chained (one thread's steps to their fixpoint, then
// the next thread's, from the last thread back to the first, sweep after
// sweep) rather than breadth first: a round-robin run is a sequence of
// one thread's steps after another's, and breadth-first frontiers mix
// every thread's partial progress. On the flag mutex with 5 threads the
// chained fixpoint takes 0.29 s and 0.43 million nodes, breadth first
// 2.7 s and 0.84 million.
func (d *diagrams) backward(target ts.Lit, within bdd.Node, progress io.Writer) ([]bdd.Node, error) {
	m := d.m
	y := m.AndExists(within, d.lit(target), d.inputs)
	layers := []bdd.Node{y}
	collected := m.Nodes()
	for sweep := 1; ; sweep++ {
		grew := false
		for p := len(d.parts) - 1; p >= 0; p-- {
			part := d.parts[p]
			for f := y; ; {
				if d.ctx.Err() != nil {
					return nil, errors.New(stopReason(d.ctx))
				}
				if d.collectDue(collected) {
					roots := append([]*bdd.Node{&y, &f, &within}, d.keep...)
					for i := range layers {
						roots = append(roots, &layers[i])
					}
					d.gc(roots)
					collected = m.Nodes()
				}
				// The predecessors by this thread's step of the states
				// new in its last image (all of y at first).
				f = m.RenameAndExists(part.rel, f, part.pre)
				if within != d.care {
					// The relation keeps to care already.
					f = m.And(f, within)
				}
				f = m.Diff(f, y)
				if f == bdd.False {
					break
				}
				grew = true
				y = m.Or(y, f)
				layers = append(layers, y)
			}
		}
		if !grew {
			return layers, nil
		}
		if progress != nil && sweep%4 == 0 {
			fmt.Fprintf(progress, "amplify: diagrams: sweep %d over the threads, %d nodes\n", sweep, m.Nodes())
		}
	}
}

// forward computes the states in care that paths from the states from
// reach, chained as backward is (each thread's steps to their fixpoint,
// from the first thread to the last, sweep after sweep, the order of a
// round-robin run). With target (a diagram over the latches and
// inputs) other than false, it stops as soon as a state it reaches has
// inputs that make target true, and says so (hit): the states reached
// so far hold a path to it.
func (d *diagrams) forward(from, target bdd.Node) (r bdd.Node, hit bool, err error) {
	steps := make([]imageStep, len(d.parts))
	for i, part := range d.parts {
		steps[i] = imageStep{part.rel, part.post}
	}
	return d.chained(from, steps, target, nil)
}

// imageStep is a step for the forward images: a relation over the
// latches and the next values of those post renames back.
type imageStep struct {
	rel  bdd.Node
	post bdd.Set
}

// chained is the least fixpoint of the images of from by steps, each
// step to its fixpoint, then the next one's, sweep after sweep; with
// target other than false it stops at the first image with a state
// whose inputs make target true (hit). A collection keeps keep too.
func (d *diagrams) chained(from bdd.Node, steps []imageStep, target bdd.Node, keep []*bdd.Node) (r bdd.Node, hit bool, err error) {
	m := d.m
	r = from
	if target != bdd.False && m.AndExists(r, target, d.inputs) != bdd.False {
		return r, true, nil
	}
	collected := m.Nodes()
	for grew := true; grew; {
		grew = false
		// By index: a collection renumbers the nodes, steps' too.
		for i := range steps {
			for f := r; ; {
				if d.ctx.Err() != nil {
					return bdd.False, false, errors.New(stopReason(d.ctx))
				}
				if d.collectDue(collected) {
					roots := append([]*bdd.Node{&r, &f, &from, &target}, d.keep...)
					for j := range steps {
						roots = append(roots, &steps[j].rel)
					}
					d.gc(append(roots, keep...))
					collected = m.Nodes()
				}
				// The successors by this step of the states new in its
				// last image (all of r at first).
				f = m.Diff(m.AndExists(steps[i].rel, f, steps[i].post), r)
				if f == bdd.False {
					break
				}
				grew = true
				r = m.Or(r, f)
				if target != bdd.False && m.AndExists(f, target, d.inputs) != bdd.False {
					return r, true, nil
				}
			}
		}
	}
	return r, false, nil
}

// run is the path from the state s (a partial assignment of diagram
// variables, the rest false) to target that the layers give: from a
// state first in layer n, inputs that satisfy the constraints and lead
// into layer n-1, down to layer 0, where inputs make target true.
func (d *diagrams) run(s map[int]bool, layers []bdd.Node, target ts.Lit) *Witness {
	m, sys := d.m, d.sys
	latches, inputs := sys.Latches(), sys.Inputs()
	state := make([]bool, len(latches))
	for i, l := range latches {
		state[i] = s[d.level[l.Lit.Var()]]
	}
	w := &Witness{}
	for {
		// The first layer that holds the state (they grow): a step may
		// lead further down than into the layer below.
		n := sort.Search(len(layers), func(j int) bool { return d.holds(layers[j], state) })
		at := map[int]bool{}
		for i, l := range latches {
			at[d.level[l.Lit.Var()]] = state[i]
		}
		var choice map[int]bool
		if n == 0 {
			choice = m.Witness(m.Restrict(d.lit(target), at))
		} else {
			for _, part := range d.parts {
				// The step from this one state: the latches it changes
				// become their next values as functions of the inputs,
				// the others keep this state's values.
				vals := maps.Clone(at)
				maps.Copy(vals, part.at)
				sub, memo := map[int]bdd.Node{}, map[int]bdd.Node{0: bdd.False}
				for _, l := range latches {
					if v := d.level[l.Lit.Var()]; part.changes(v) {
						sub[v] = d.litUnder(l.Next, vals, memo)
					}
				}
				g := m.And(m.Restrict(part.ok, at), m.Restrict(m.Compose(layers[n-1], sub), at))
				if g != bdd.False {
					choice = m.Witness(g)
					for v, x := range part.at {
						choice[v] = x
					}
					break
				}
			}
		}
		vals := make([]bool, sys.NumVars())
		for i, l := range latches {
			vals[l.Lit.Var()] = state[i]
		}
		in := make([]bool, len(inputs))
		for j, x := range inputs {
			in[j] = choice[d.level[x.Var()]]
			vals[x.Var()] = in[j]
		}
		w.Latches, w.Inputs = append(w.Latches, state), append(w.Inputs, in)
		if n == 0 {
			return w
		}
		sys.Eval(vals)
		next := make([]bool, len(latches))
		for i, l := range latches {
			next[i] = ts.Value(vals, l.Next)
		}
		state = next
	}
}

// holds reports whether the diagram f holds in the latch state s.
func (d *diagrams) holds(f bdd.Node, s []bool) bool {
	at := map[int]bool{}
	for i, l := range d.sys.Latches() {
		at[d.level[l.Lit.Var()]] = s[i]
	}
	return d.m.Restrict(f, at) != bdd.False
}

// collectDue says whether the nodes have doubled, and grown by a
// million, since the last collection left collected; always while
// collectAlways holds (the test that collections change no answer).
func (d *diagrams) collectDue(collected int) bool {
	return collectAlways || d.m.Nodes() > 2*collected+1<<20
}

// collectAlways makes every fixpoint collect at each image (tests only).
var collectAlways = false

// gc collects the nodes that neither roots, the constraints, the
// next-state functions nor d.keep hold; the memo of literals goes.
func (d *diagrams) gc(roots []*bdd.Node) {
	roots = append(roots, &d.care, &d.phase)
	for _, part := range d.parts {
		roots = append(roots, &part.ok, &part.rel)
	}
	d.m.GC(roots)
	d.memo = map[int]bdd.Node{0: bdd.False}
}
