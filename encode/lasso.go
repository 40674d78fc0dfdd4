package encode

// The livelock question on the direct product, as a safety question (a
// liveness-to-safety construction, Biere, Artho and Schuppan): the
// product with round-robin rounds, plus an input "cut" that makes a
// step of its own in which no thread moves. The first cut begins the
// loop: it saves a copy of the configuration and starts the rounds
// afresh; the next cut ends it, and the property holds there when the
// configuration is back to the copy (below), some step was taken in
// between and the loop is fair. Every other step is a legal step of a
// thread that is no violation: a failed assertion, a bad release, an
// error label or a call beyond the depth ends an execution, so no loop
// goes through one.
//
// When the loop comes back (docs/SEMANTICS.md, "Livelocks"): the
// globals, the lock holders and the atomic flags are those of the copy,
// and each thread's stack is no lower and the same from its keyframe up:
// MUTANT's keyframe lassos (mutant-fair-nontermination, section 3.3), a
// loop that each time round leaves frames behind below the lowest frame
// it returns to. A thread's dip is how far below its top frame at the
// start its stack goes in the loop; the loop must come back to its top
// dip+1 frames (the keyframe, the lowest of them, never returns, so its
// return site, frame dip+1's pc here, does not count), and the frames
// below are never on top in the loop, so untouched. Stacks are shift
// registers with the top in frame 0, so frames 0 to dip are compared
// with frames 0 to dip of the copy, unshifted: frame j counts when the
// loop's lowest height + j <= the copy's height. Latches per thread keep
// the lowest height in unary (frame i has been in use at every
// configuration so far); the first cut sets them to the stack then, and
// every other step keeps what its configuration, before the step, has in
// use, so at the closing cut they count every configuration of the loop
// but the last, which changes nothing (its stack is no lower). With
// equal heights this is plain equality, and only recursion makes a stack
// deeper with the same frames on top: without it the whole stacks are
// compared and none of this is built.
//
// Why a cut step is exact: the end of a round is not a state of the
// product. After a step of thread t in round r, the threads after t may
// still run in round r or have empty contexts; the product's state (the
// last thread and the round) says only which orders of threads are still
// possible. The explicit search ends round r when the last thread's
// context ends, and empty contexts are always possible (a context ends
// anywhere outside an atomic section). So "round Stem ends here" holds at
// a point between steps exactly when the steps so far fit in Stem rounds
// (the round counter, checked at every step, says so) and no thread is
// inside an atomic section; a cut there is that point. Likewise at the
// end of the loop, where the atomic flags are part of the configuration
// compared with the copy, made outside any atomic section. The cut
// resets the round counter, so the loop's rounds count from its start,
// as the explicit search counts them. Stem = 0 allows no thread step
// before the first cut (init's steps cost no round).
//
// Large blocks are exact here too: a block's steps after its first are
// invisible (ir.VisibleNodes), so within a block no lock changes after
// the first step and the blocked state of every other thread is the
// one at the block's end; and a livelock whose loop starts with a thread
// inside a block is one whose loop starts after that thread's invisible
// steps to the next block head (taken at the end of its last stem
// context and again at the end of its last loop context: they commute
// with every other thread's steps, read only its own locals and never
// call or return).
//
// Fairness is kept per thread in latches reset by each cut: whether it
// stepped, and whether it was blocked (waiting in acquire on a held lock)
// before every step of the loop (strong) or before some step (weak). The
// configurations before the loop's steps are all of the loop's but its
// last, where a thread that took no step is blocked exactly when it was
// at the first: its stack and the lock holders are as then.
//
// For model checkers with liveness (AIGER's justice), the same system
// says it as a justice property too: a cut after the loop has begun
// must close the loop (a constraint) and starts the next period as the
// first cut began the loop (the copy stays, the bookkeeping and the
// rounds start afresh); the justice property is that periods end
// infinitely often. Without recursion every period ends in the
// configuration the first began in, so each begins there too. With
// recursion a period may end deeper than it began; the lowest heights
// then count on from the first cut, so that each period's end closes the
// loop from the first cut to it (a keyframe loop repeated does: its
// later periods go no lower than the first and end with the same frames
// on top, deeper). Taking the copy afresh at each period's end would do
// as well, but the copy would then change after the loop has begun, and
// proofs that there is no livelock were slower with that. Once a loop
// has closed, cuts may also follow one another without steps: the
// safety property then holds from the closing frame on, so that a path
// to it of k steps stands for every shorter one (BMC need not ask every
// bound), and an infinite path with infinitely many period ends still
// has a first one that closes. (A keyframe loop cannot repeat for ever
// within the depth, but it has an infinite path all the same: its
// closing cut, then cuts alone.)
import (
	"context"
	"fmt"

	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// DirectLassoOptions shape the livelock system of DirectLasso.
type DirectLassoOptions struct {
	Depth      int // frames per thread
	Stem, Loop int // rounds before the loop, rounds of the loop
	Fairness   result.Fairness
}

// LassoModel is a Model whose property PropViolation is a livelock: a
// path to it is a stem and a loop that closes.
type LassoModel interface {
	Model
	// Lasso reads a path to the livelock as Steps does, and says where
	// in the steps the loop begins.
	Lasso(values func(i int) []bool, k int) (steps []result.ReplayStep, loop int, err error)
}

// DirectLasso builds the livelock question of p within o on the direct
// product (see above): Bad[PropViolation] is reachable exactly when p
// has a livelock of o.Stem and o.Loop rounds meeting o.Fairness;
// Bad[PropOverflow] is a call beyond the depth. It refuses what Direct
// refuses and programs that start threads (a loop that starts one cannot
// come back). When ctx ends first, the error is its cause.
func DirectLasso(ctx context.Context, p *ir.Program, o DirectLassoOptions) (LassoModel, error) {
	switch {
	case o.Stem < 0 || o.Loop < 1:
		return nil, fmt.Errorf("a livelock needs a stem of at least 0 rounds and a loop of at least 1, not %d and %d", o.Stem, o.Loop)
	case o.Fairness < result.StrongFairness || o.Fairness > result.NoFairness:
		return nil, fmt.Errorf("unknown fairness %d", o.Fairness)
	}
	if err := directSupported(p); err != nil {
		return nil, err
	}
	for _, e := range p.Edges {
		if starts(e) {
			return nil, fmt.Errorf("%s:%s: the livelock search on the direct encoding does not support starting threads", p.File, e.Pos)
		}
	}
	d, err := newDirect(ctx, p, DirectOptions{Depth: o.Depth, Rounds: max(o.Stem, o.Loop), Switches: -1}, &o)
	if err != nil {
		return nil, err
	}
	return &directLasso{d}, nil
}

// lasso is what DirectLasso adds to the product.
type lasso struct {
	o       DirectLassoOptions
	cut     ts.Lit // input: this step is a cut, no thread moves
	looping ts.Lit // the loop has begun (the first cut was taken)
}

func newLasso(d *direct, o DirectLassoOptions) *lasso {
	return &lasso{o: o, cut: d.sys.NewInput("lasso.cut"), looping: d.sys.NewLatch("lasso.looping", ts.Init0)}
}

// roundsLeft is the condition that a step whose thread comes before the
// last one (wrap) stays within the rounds of the stem or of the loop.
// Init's steps cost no round.
func (l *lasso) roundsLeft(d *direct, wrap ts.Lit) ts.Lit {
	s := d.sys
	within := func(rounds int) ts.Lit {
		if rounds == 0 {
			return ts.False
		}
		return s.Implies(wrap, d.bitsLess(d.count, constBits(rounds-1, len(d.count))))
	}
	return s.Or(d.initing, s.Ite(l.looping, within(l.o.Loop), within(l.o.Stem)))
}

// cutWrites keeps the program's state in a cut step and starts the
// rounds afresh.
func (l *lasso) cutWrites(d *direct) {
	s := d.sys
	for lit, gs := range d.next {
		for i := range gs {
			gs[i].sel = s.And(gs[i].sel, l.cut.Not())
		}
		d.next[lit] = gs
	}
	d.setAll(d.cur, l.cut, constBits(0, len(d.cur)))
	d.setAll(d.count, l.cut, constBits(0, len(d.count)))
}

// finish adds the copy, the bookkeeping, the properties and the
// constraint; legal is the product's condition for a step, ok0 that of
// the initial state.
func (l *lasso) finish(d *direct, legal, ok0 ts.Lit) {
	s := d.sys
	start := s.And(l.cut, l.looping.Not())
	s.SetNext(l.looping, s.Or(l.looping, l.cut))
	cells := l.configuration(d)
	copies := map[ts.Lit]ts.Lit{}
	for _, c := range cells {
		saved := s.NewLatch("lasso.saved "+c.name, ts.Init0)
		s.SetNext(saved, s.Ite(start, c.lit, saved))
		copies[c.lit] = saved
	}
	same := ts.True
	var kf *keyframes
	if d.prog.Recursive() {
		kf = newKeyframes(d, start, copies)
		same = kf.noLower
	}
	for _, c := range cells {
		used := c.used
		if kf != nil && c.frame >= 0 {
			used = s.And(kf.exposed[c.thread][c.frame], used)
		}
		same = s.And(same, s.Implies(used, s.Eq(c.lit, copies[c.lit])))
	}
	// Every step since the last cut is a thread's (the constraint).
	stepped := s.NewLatch("lasso.stepped", ts.Init0)
	s.SetNext(stepped, l.cut.Not())
	fair := ts.True
	if l.o.Fairness != result.NoFairness {
		for t := range d.tpc {
			ran := s.NewLatch(fmt.Sprintf("lasso.t%d.stepped", t), ts.Init0)
			s.SetNext(ran, s.And(l.cut.Not(), s.Or(ran, d.isT[t])))
			blk := s.NewLatch(fmt.Sprintf("lasso.t%d.blocked", t), ts.Init0)
			if l.o.Fairness == result.StrongFairness {
				s.SetNext(blk, s.Or(l.cut, s.And(blk, d.blocked(t))))
			} else {
				s.SetNext(blk, s.And(l.cut.Not(), s.Or(blk, d.blocked(t))))
			}
			fair = s.And(fair, s.Ors(ran, blk, d.threadAt(t, pcDone)))
		}
	}
	closes := s.Ands(l.looping, same, stepped, fair)
	// Once a loop has closed, cuts may follow one another (see above).
	closed := s.NewLatch("lasso.closed", ts.Init0)
	s.SetNext(closed, s.And(l.cut, s.Or(closes, closed)))
	closes = s.Or(closes, closed)
	noAtomic := ts.True
	for _, a := range d.tatomic {
		noAtomic = s.And(noAtomic, a.Not())
	}
	s.AddBad("livelock", s.And(l.cut, closes))
	s.AddBad("stack overflow", s.Ands(ok0, d.labels.Not(), l.cut.Not(), legal, s.Ors(d.ovf...)))
	s.AddBad("thread bound", ts.False)
	// A step is a cut where the loop may begin or closes, or a legal,
	// feasible block step that is no violation: a violation ends the
	// execution, as does standing at an error label.
	cutOK := s.Ite(l.looping, closes, s.And(d.initing.Not(), noAtomic))
	stepOK := s.Ands(legal, s.Ors(d.valid...), s.Ors(d.bad...).Not())
	s.AddConstraint(s.Ands(ok0, d.labels.Not(), s.Ite(l.cut, cutOK, stepOK)))
	s.AddJustice("livelock", s.And(l.cut, l.looping))
}

// cell is a state bit of the configuration and the condition under which
// its value matters; a bit of a stack says which frame of which thread.
type cell struct {
	name          string
	lit, used     ts.Lit
	thread, frame int // frame -1: not a stack's
}

// configuration lists the bits a loop must come back to: the globals,
// the lock holders and each thread's atomic flag and stack. Of a frame,
// only the locals its procedure has and, while it is in use, its saved
// atomic mode matter: the other latches keep stale values.
func (l *lasso) configuration(d *direct) []cell {
	s := d.sys
	var out []cell
	add := func(lit, used ts.Lit, t, f int) {
		li, _ := s.LatchOf(lit.Var())
		out = append(out, cell{li.Name, lit, used, t, f})
	}
	for _, g := range d.globals {
		add(g, ts.True, -1, -1)
	}
	for _, own := range d.owns {
		for _, o := range own {
			add(o, ts.True, -1, -1)
		}
	}
	for t := range d.tpc {
		add(d.tatomic[t], ts.True, t, -1)
		for f, pc := range d.tpc[t] {
			for _, b := range pc {
				add(b, ts.True, t, f)
			}
			for k, x := range d.tlocals[t][f] {
				add(x, l.slotUsed(d, pc, k), t, f)
			}
			if d.tsaved != nil {
				add(d.tsaved[t][f], s.And(inUse(d, pc), d.bitsEq(pc, constBits(pcDone, len(pc))).Not()), t, f)
			}
		}
	}
	return out
}

// inUse is the condition that the frame whose pc bits are pc is in use.
func inUse(d *direct, pc []ts.Lit) ts.Lit { return d.bitsEq(pc, constBits(pcEmpty, len(pc))).Not() }

// keyframes is what a recursive program's loop compares of the stacks
// (see above).
type keyframes struct {
	// exposed[t][j]: frame j (0 the top) of thread t counts: at some
	// configuration of the loop its stack was at least j frames lower
	// than at the loop's start.
	exposed [][]ts.Lit
	noLower ts.Lit // no thread's stack is lower than at the loop's start
}

// newKeyframes adds the latches that keep, per thread and frame, whether
// the frame has been in use at every configuration of the loop so far:
// the loop's lowest height in unary. The cut that begins the loop (start)
// sets them to the stack then, and every other step keeps what its
// configuration, before the step, has in use; so at the closing cut they
// count every configuration of the loop but the last, which, no lower
// than the first, changes nothing. copies are the latches that save the
// configuration's bits.
func newKeyframes(d *direct, start ts.Lit, copies map[ts.Lit]ts.Lit) *keyframes {
	s := d.sys
	kf := &keyframes{noLower: ts.True}
	for t, pcs := range d.tpc {
		// Stacks are contiguous, so frame i in use says height > i: the
		// heights in unary, now, in the copy (was), and the loop's
		// lowest so far (held; frame 0 is in use from init's end on).
		now, was, held := make([]ts.Lit, d.depth), make([]ts.Lit, d.depth), make([]ts.Lit, d.depth)
		for f, pc := range pcs {
			saved := make([]ts.Lit, len(pc))
			for i, b := range pc {
				saved[i] = copies[b]
			}
			now[f], was[f] = inUse(d, pc), inUse(d, saved)
			kf.noLower = s.And(kf.noLower, s.Implies(was[f], now[f]))
			held[f] = ts.True
			if f > 0 {
				held[f] = s.NewLatch(fmt.Sprintf("lasso.t%d.held[%d]", t, f), ts.Init0)
				s.SetNext(held[f], s.Ite(start, now[f], s.And(held[f], now[f])))
			}
		}
		// Frame j is exposed when the lowest height + j <= the copy's.
		exposed := []ts.Lit{ts.True}
		for j := 1; j < d.depth; j++ {
			lower := ts.True
			for i := range held {
				w := ts.False
				if i+j < d.depth {
					w = was[i+j]
				}
				lower = s.And(lower, s.Implies(held[i], w))
			}
			exposed = append(exposed, lower)
		}
		kf.exposed = append(kf.exposed, exposed)
	}
	return kf
}

// slotUsed is the condition that the frame whose pc bits are pc runs a
// procedure with more than k locals.
func (l *lasso) slotUsed(d *direct, pc []ts.Lit, k int) ts.Lit {
	used := ts.False
	for v, lc := range d.lay.locs {
		pr := lc.Proc
		if lc.Kind == locRetSite {
			pr = lc.Call.Proc
		}
		if pr != nil && len(pr.Locals) > k {
			used = d.sys.Or(used, d.bitsEq(pc, constBits(v, len(pc))))
		}
	}
	return used
}

// blocked is the condition that thread t waits in acquire on a held
// lock: it stands at a node whose every edge acquires a lock some thread
// holds. Such nodes are block heads wherever it matters: with two
// threads or more, acquires are visible and visible nodes are heads;
// with one, the loop's step is the thread's own.
func (d *direct) blocked(t int) ts.Lit {
	s := d.sys
	out := ts.False
	for _, b := range d.lay.blocks {
		edges := b.Proc.Nodes[b.Head].Out
		waits := s.And(d.threadAt(t, b.PC), boolLit(len(edges) > 0))
		for _, e := range edges {
			if e.Kind != ir.Acquire {
				waits = ts.False
				break
			}
			waits = s.And(waits, s.Ors(d.owns[e.Lock.Index]...))
		}
		out = s.Or(out, waits)
	}
	return out
}

func boolLit(b bool) ts.Lit {
	if b {
		return ts.True
	}
	return ts.False
}

// directLasso is the product with the lasso's additions.
type directLasso struct{ *direct }

func (m *directLasso) Limits() []int { return []int{PropOverflow} }

// Ended: a livelock needs a loop, so a product whose runs all end has
// none; within one step past the longest run (the first cut) every path
// to the property has been seen.
func (m *directLasso) Ended(k int) bool { return m.bound >= 0 && k >= m.bound+1 }

func (m *directLasso) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	steps, _, err := m.Lasso(values, k)
	return steps, err
}

// Lasso reads the block steps of a path to the livelock: the loop
// begins with the step after the first cut and ends at the next cut (at
// k on a shortest path; where an earlier one closes, the livelock is
// that one).
func (m *directLasso) Lasso(values func(i int) []bool, k int) ([]result.ReplayStep, int, error) {
	var out []result.ReplayStep
	loop := -1
	ends := func(vals []bool) bool { return ts.Value(vals, m.lasso.cut) && ts.Value(vals, m.lasso.looping) }
	for i := 0; i < k; i++ {
		vals := values(i)
		switch {
		case ends(vals):
			return out, loop, nil
		case ts.Value(vals, m.lasso.cut):
			loop = len(out)
			continue
		}
		steps, err := m.stepsAt(values, i, k)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, steps...)
	}
	if !ends(values(k)) {
		return nil, 0, fmt.Errorf("witness: frame %d does not end a loop", k)
	}
	return out, loop, nil
}
