package encode

// The direct encoding of a concurrent program: the interleaving product
// of its thread instances as one transition system.
//
// Every thread instance has its own shift-register call stack (as in the
// sequential encoding), its own atomic flag and, per frame, the atomic
// mode to restore when an atomic function returns. Globals are shared;
// each lock has one "held by" bit per thread, so a release can check the
// holder. A scheduler input picks the thread that takes the step.
//
// The blocks are encoded once, not once per thread: they run on a *view*
// of the scheduled thread's frames (each view bit is a multiplexer over
// the threads, selected by the scheduler input), and every write to the
// view becomes, for each thread, a write guarded by that thread being the
// scheduled one.
//
// A step is legal when the scheduled thread is alive, no other thread is
// inside an atomic section, init (while it runs) is the one scheduled,
// and the scheduling bound allows it: with --switches a step by another
// thread than the current one is a context switch (the first choice is
// free); with rounds a step by a thread with a lower index than the
// current one starts the next round (the threads in between have empty
// contexts). Switches happen before steps only; none is ever needed after
// the last one.
//
// Large blocks: a block may only continue through nodes before which no
// context switch needs to be considered. Those are the nodes ir.VisibleNodes
// leaves unmarked (steps that touch only the thread's own locals
// and cannot be disabled, not loop heads); the others are block heads. So
// every interleaving the explicit checker explores (switching only before
// visible nodes, which keeps verdicts and switch and round counts) is a
// sequence of block steps here, with at most as many steps as it has
// statements; and every block sequence here is an interleaving of
// statements with switches only between them. With at most one thread no
// switch ever happens, and the blocks are the sequential encoding's.
//
// Init runs first, alone, on thread 0's stack; when it returns (or reaches
// its stop label with one frame, or ends its thread) the same step starts
// every thread instance at its entry, so starting costs no step.
//
// Threads started by the program (spawn, fork) take the free thread slots
// after the initial instances, in order, up to MaxThreads threads in all;
// a start without a free slot cuts the path and reaches PropThreadBound.

import (
	"context"
	"fmt"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/ts"
)

// DirectOptions shape the direct encoding.
type DirectOptions struct {
	Depth int // frames per thread
	// Rounds > 0: round-robin rounds, threads in instance order, one
	// context each per round (possibly empty).
	Rounds int
	// Switches >= 0: at most this many context switches (the first thread
	// is chosen freely; switching away from a finished or blocked thread
	// counts). -1 with Rounds == 0: every interleaving.
	Switches   int
	SmallSteps bool // one statement per step
	// MaxThreads bounds the threads in existence, terminated ones
	// included (as explicit.Options.MaxThreads), when the program starts
	// threads; a start beyond it cuts the path and makes PropThreadBound
	// reachable.
	MaxThreads int
	// Base, with Rounds, starts the system at BASE instead of at init
	// (base.go; DirectBase).
	Base *BaseOptions
	// NoSymmetry drops the symmetry-breaking constraint (see
	// breakSymmetry); for cross-checking it.
	NoSymmetry bool
}

// direct is the transition system of a concurrent program: the machine
// on the view of the scheduled thread.
type direct struct {
	machine
	opts    DirectOptions
	entries []*ir.Proc // entry function of each initial thread instance
	// Per thread: the initial instances, then the slots for started
	// threads (a slot not in use has pc pcEmpty in frame 0).
	tpc     [][][]ts.Lit // [thread][frame][bit]
	tlocals [][][]ts.Lit // [thread][frame][slot]
	tsaved  [][]ts.Lit   // [thread][frame]; nil when no function is atomic
	tatomic []ts.Lit     // [thread]: inside an atomic section
	owns    [][]ts.Lit   // [lock][thread]: the thread holds the lock
	initing ts.Lit       // init is running on thread 0's stack (False without init)
	sched   []ts.Lit     // inputs: the thread that takes the step (binary)
	cur     []ts.Lit     // bounded modes: the current thread (binary)
	started ts.Lit       // --switches: the first thread has been chosen
	count   []ts.Lit     // --switches: switches used; rounds: the current round (binary)

	isT    []ts.Lit // sched selects thread t
	views  []view
	slots  int      // the first thread slot for started threads (= initial instances)
	hits   []ts.Lit // thread starts without a free slot
	labels ts.Lit   // some thread stands at an error label
	done   ts.Lit   // every thread has terminated
	bound  int      // stepBound
	lasso  *lasso   // DirectLasso's additions; nil for Direct
	base   baseState
}

// view is one bit of the scheduled thread's state and the latch it
// stands for in each thread.
type view struct {
	lit ts.Lit
	per []ts.Lit
}

// directSupported reports why p cannot be encoded directly, or nil.
func directSupported(p *ir.Program) error {
	for _, t := range p.Threads {
		if t.Unbounded {
			return fmt.Errorf("the direct encoding does not support unboundedly many threads (%s=*)", t.Proc.Name)
		}
	}
	// Threads started by init would be dropped when init ends (the
	// initial threads replace it); no dialect does that.
	fromInit := map[*ir.Proc]bool{}
	var visit func(pr *ir.Proc)
	visit = func(pr *ir.Proc) {
		if pr == nil || fromInit[pr] {
			return
		}
		fromInit[pr] = true
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Call && !e.Spawn {
					visit(e.Callee)
				}
			}
		}
	}
	visit(p.Init)
	for _, e := range p.Edges {
		switch {
		case starts(e) && fromInit[e.Proc]:
			return fmt.Errorf("%s:%s: the direct encoding does not support starting threads during init", p.File, e.Pos)
		case len(e.PassiveTargets) > 0 || usesPassive(e):
			return fmt.Errorf("%s:%s: the direct encoding does not support broadcasts (x$)", p.File, e.Pos)
		}
	}
	return nil
}

func usesPassive(e *ir.Edge) bool {
	found := false
	for _, x := range edgeExprs(e) {
		x.Walk(func(x *ir.Expr) { found = found || x.Op == ir.OpPassive })
	}
	return found
}

func edgeExprs(e *ir.Edge) []*ir.Expr {
	out := []*ir.Expr{e.Guard, e.Constrain, e.Cond}
	out = append(out, e.Values...)
	out = append(out, e.PassiveValues...)
	return append(out, e.Args...)
}

// Direct builds the interleaving product of p's thread instances (see
// Check). When ctx ends first, the error is its cause.
func Direct(ctx context.Context, p *ir.Program, o DirectOptions) (Model, error) {
	return newDirect(ctx, p, o, nil)
}

// newDirect builds the product; with lo, the lasso system of DirectLasso.
func newDirect(ctx context.Context, p *ir.Program, o DirectOptions, lo *DirectLassoOptions) (d *direct, err error) {
	defer halt.Recover(&err)
	switch {
	case o.Depth < 1:
		return nil, fmt.Errorf("depth must be at least 1")
	case o.Rounds < 0:
		return nil, fmt.Errorf("rounds must not be negative")
	case o.Rounds > 0 && o.Switches >= 0:
		return nil, fmt.Errorf("give either a context-switch bound or a round bound, not both")
	case o.Switches < -1:
		return nil, fmt.Errorf("switches must be at least -1")
	}
	if err := directSupported(p); err != nil {
		return nil, err
	}
	d = &direct{opts: o}
	for _, t := range p.Threads {
		for i := 0; i < t.Count; i++ {
			d.entries = append(d.entries, t.Proc)
		}
	}
	// With one thread at most, no switch ever happens: the sequential
	// blocks do.
	var extra func(*ir.Proc, int) bool
	concurrent := len(d.entries) > 1
	for _, e := range p.Edges {
		concurrent = concurrent || starts(e)
	}
	if !o.SmallSteps && concurrent {
		extra = switchPoints(p)
	}
	d.machine = newMachine(p, newLayout(p, o.SmallSteps, extra), o.Depth, d)
	d.run = map[ts.Lit][]guarded{} // handed on to the scheduled thread in finish
	d.makeState()
	if lo != nil {
		d.lasso = newLasso(d, *lo)
	}
	d.encodeBlocks(ctx)
	d.finish(ctx)
	d.bound = d.stepBound()
	return d, nil
}

// ---- switch points ----

// switchPoints marks the nodes before which a context switch must be
// possible: ir.VisibleNodes (whose comment says why switching only there
// keeps every verdict and switch count). Init's own nodes need none when
// nothing calls init: it runs alone.
func switchPoints(p *ir.Program) func(*ir.Proc, int) bool {
	vis := ir.VisibleNodes(p)
	initCalled := false
	for _, e := range p.Edges {
		initCalled = initCalled || e.Kind == ir.Call && e.Callee == p.Init
	}
	if p.Init != nil && !initCalled {
		vis[p.Init.Index] = make([]bool, len(p.Init.Nodes))
	}
	return func(pr *ir.Proc, id int) bool { return vis[pr.Index][id] }
}

// ---- state ----

func (d *direct) makeState() {
	s, p := d.sys, d.prog
	d.newGlobals()
	d.slots = len(d.entries)
	stacks := max(1, d.slots) // init needs a stack even without threads
	for _, e := range p.Edges {
		if starts(e) {
			stacks = max(stacks, d.opts.MaxThreads)
			break
		}
	}
	for _, l := range p.Locks {
		var own []ts.Lit
		for t := 0; t < stacks; t++ {
			own = append(own, s.NewLatch(fmt.Sprintf("lock %s held by %d", l.Name, t), ts.Init0))
		}
		d.owns = append(d.owns, own)
	}
	d.initing = ts.False
	if p.Init != nil {
		d.initing = s.NewLatch("initing", ts.Init1)
	}
	atomicProcs := false
	for _, pr := range p.Procs {
		atomicProcs = atomicProcs || pr.Atomic
	}
	for t := 0; t < stacks; t++ {
		// The initial frame 0: init on thread 0, else the thread's entry.
		var start *ir.Proc
		startPC := pcEmpty
		switch {
		case p.Init != nil && t == 0:
			start = p.Init
		case p.Init == nil && t < len(d.entries):
			start = d.entries[t]
		case p.Init == nil && t == 0:
			startPC = pcDone // no thread at all
		}
		if start != nil {
			startPC = d.lay.head(start, start.Entry)
		}
		pcs, locals, saved := d.newStack(fmt.Sprintf("t%d.", t), start, startPC, atomicProcs)
		d.tpc, d.tlocals = append(d.tpc, pcs), append(d.tlocals, locals)
		if atomicProcs {
			d.tsaved = append(d.tsaved, saved)
		}
		d.tatomic = append(d.tatomic, s.NewLatch(fmt.Sprintf("t%d.atomic", t), ts.Init0))
	}
	tw := width(stacks)
	for i := 0; i < tw; i++ {
		d.sched = append(d.sched, s.NewInput(fmt.Sprintf("sched.%d", i)))
	}
	switch {
	case d.opts.Rounds > 0:
		d.cur = d.newBits("cur", tw)
		d.count = d.newBits("round", width(d.opts.Rounds))
	case d.opts.Switches >= 0:
		d.cur = d.newBits("cur", tw)
		d.started = s.NewLatch("started", ts.Init0)
		d.count = d.newBits("switches", width(d.opts.Switches+1))
	}
	d.newChoice()
	if d.opts.Base != nil {
		d.baseLatches()
	}

	// The view of the scheduled thread.
	for t := 0; t < stacks; t++ {
		d.isT = append(d.isT, d.bitsEq(d.sched, constBits(t, tw)))
	}
	for f := 0; f < d.depth; f++ {
		var pc, ls []ts.Lit
		for i := range d.tpc[0][f] {
			pc = append(pc, d.newView(func(t int) ts.Lit { return d.tpc[t][f][i] }))
		}
		for k := range d.tlocals[0][f] {
			ls = append(ls, d.newView(func(t int) ts.Lit { return d.tlocals[t][f][k] }))
		}
		d.pc, d.locals = append(d.pc, pc), append(d.locals, ls)
		if atomicProcs {
			d.saved = append(d.saved, d.newView(func(t int) ts.Lit { return d.tsaved[t][f] }))
		}
	}
	d.atomic = d.newView(func(t int) ts.Lit { return d.tatomic[t] })
	for _, own := range d.owns {
		d.mine = append(d.mine, d.newView(func(t int) ts.Lit { return own[t] }))
		other := ts.False
		for t, l := range own {
			other = s.Or(other, s.And(d.isT[t].Not(), l))
		}
		d.others = append(d.others, other)
	}
}

func (d *direct) newBits(name string, n int) []ts.Lit {
	out := make([]ts.Lit, n)
	for i := range out {
		out[i] = d.sys.NewLatch(fmt.Sprintf("%s.%d", name, i), ts.Init0)
	}
	return out
}

// newView builds the multiplexer of one state bit over the threads.
func (d *direct) newView(of func(t int) ts.Lit) ts.Lit {
	s := d.sys
	v := view{lit: ts.False}
	for t, sel := range d.isT {
		l := of(t)
		v.per = append(v.per, l)
		v.lit = s.Or(v.lit, s.And(sel, l))
	}
	d.views = append(d.views, v)
	return v.lit
}

// bitsLess is a < b (unsigned) for bit vectors of equal width.
func (d *direct) bitsLess(a, b []ts.Lit) ts.Lit {
	s := d.sys
	lt := ts.False
	for i := range a { // from the least significant bit: higher bits decide
		lt = s.Or(s.And(a[i].Not(), b[i]), s.And(s.Eq(a[i], b[i]), lt))
	}
	return lt
}

// bitsInc is a + c for a single bit c, dropping the carry out.
func (d *direct) bitsInc(a []ts.Lit, c ts.Lit) []ts.Lit {
	out := make([]ts.Lit, len(a))
	for i, x := range a {
		out[i] = d.sys.Xor(x, c)
		c = d.sys.And(x, c)
	}
	return out
}

// threadAt is the condition that thread t's frame 0 holds v.
func (d *direct) threadAt(t, v int) ts.Lit {
	return d.bitsEq(d.tpc[t][0], constBits(v, len(d.tpc[t][0])))
}

// setAll sets the first len(vals) latches of ls to vals under sel.
func (d *direct) setAll(ls []ts.Lit, sel ts.Lit, vals []ts.Lit) {
	for i, v := range vals {
		d.set(ls[i], sel, v)
	}
}

// ---- how threads start and end ----

// begin: nothing; the initial frames' enforce clauses are assumed in the
// initial state (finish), and a thread at an error label violates where
// it stands.
func (d *direct) begin(*block, *env, ts.Lit) {}

// initEnds: init ends when it returns, ends its thread or arrives at its
// stop label with one frame, and every thread instance starts in that
// same step.
func (d *direct) initEnds(v *env, sel ts.Lit, at initEnd, from int) ts.Lit {
	p, s := d.prog, d.sys
	if p.Init == nil || at == initStands {
		return sel
	}
	cond := d.initing
	if from > 0 {
		cond = s.And(cond, d.stackEmptyFrom(from))
	}
	end := s.And(sel, cond)
	if at == initArrives && p.Init.Nodes[p.InitStop].Error {
		d.addBad(end, v.feas) // init reached an error label as it ends
	}
	d.startThreads(v.clone(), end)
	return s.And(sel, cond.Not())
}

// startThreads replaces init, whose final state is v, by the entry frames
// of the thread instances under sel, assuming their enforce clauses.
func (d *direct) startThreads(v *env, sel ts.Lit) {
	s := d.sys
	feas, used := v.feas, v.used
	for t, pr := range d.entries {
		te := &env{sys: s, pool: &d.pool, used: used, proc: pr, globals: v.globals, feas: feas}
		te.locals = te.newLocals(pr, nil)
		te.enforce(pr)
		feas, used = te.feas, te.used
		d.setAll(d.tpc[t][0], sel, constBits(d.lay.head(pr, pr.Entry), len(d.tpc[t][0])))
		d.setAll(d.tlocals[t][0], sel, te.locals)
	}
	if len(d.entries) == 0 {
		d.setAll(d.tpc[0][0], sel, constBits(pcDone, len(d.tpc[0][0])))
	}
	// Init's deeper frames (left by end_thread in a callee) are freed.
	for f := 1; f < d.depth; f++ {
		d.setAll(d.tpc[0][f], sel, constBits(pcEmpty, len(d.tpc[0][f])))
	}
	d.set(d.tatomic[0], sel, ts.False)
	for i, l := range v.locks {
		d.set(d.owns[i][0], sel, l) // init's locks stay with thread 0
	}
	d.setAll(d.globals, sel, v.globals)
	d.set(d.initing, sel, ts.False)
	d.addValid(s.And(sel, feas))
}

// terminate ends the scheduled thread under sel; it leaves any atomic
// section (its locks stay held).
func (d *direct) terminate(v *env, sel ts.Lit) {
	d.setPC(0, sel, pcDone)
	w := *v
	w.atomic = ts.False
	d.writeShared(sel, &w)
}

// start encodes a spawn or a fork.
func (d *direct) start(b *block, v *env, sel ts.Lit, e *ir.Edge) {
	if e.Kind == ir.Fork {
		d.fork(b, v, sel, e)
	} else {
		d.spawn(b, v, sel, e)
	}
}

// nextSlots are, per slot for started threads, the condition that it is
// the next free one: threads are created in slot order, as the explicit
// checker appends them, so thread indices agree.
func (d *direct) nextSlots() []ts.Lit {
	var out []ts.Lit
	for j := d.slots; j < len(d.tpc); j++ {
		c := d.threadAt(j, pcEmpty)
		if j > d.slots {
			c = d.sys.And(c, d.threadAt(j-1, pcEmpty).Not())
		}
		out = append(out, c)
	}
	return out
}

// room assumes a free slot for a thread start of the step sel, reporting
// the thread bound otherwise.
func (d *direct) room(v *env, sel ts.Lit) []ts.Lit {
	next := d.nextSlots()
	free := d.sys.Ors(next...)
	if !d.sealed {
		d.hits = append(d.hits, d.sys.And(sel, d.sys.And(v.feas, free.Not())))
	}
	v.assume(free)
	return next
}

// spawn starts a thread running e.Callee in the next free slot; the
// caller goes on.
func (d *direct) spawn(b *block, v *env, sel ts.Lit, e *ir.Edge) {
	s := d.sys
	args := v.callArgs(e)
	next := d.room(v, sel)
	te := &env{sys: s, pool: &d.pool, used: v.used, proc: e.Callee, globals: v.globals}
	te.locals = te.newLocals(e.Callee, args)
	v.used = te.used
	v.mark(e)
	v.enforce(v.proc)
	te.feas = v.feas
	te.enforce(e.Callee)
	d.addValid(s.And(sel, te.feas))
	entry := constBits(d.lay.head(e.Callee, e.Callee.Entry), len(d.tpc[0][0]))
	for j, c := range next {
		selJ := s.And(sel, c)
		d.setAll(d.tpc[d.slots+j][0], selJ, entry)
		d.setAll(d.tlocals[d.slots+j][0], selJ, te.locals)
	}
	d.goOn(v, sel, b.Proc, e.To)
}

// fork starts a copy of the scheduled thread (its whole stack, outside
// any atomic section) at e.ForkTo in the next free slot; the original
// goes on.
func (d *direct) fork(b *block, v *env, sel ts.Lit, e *ir.Edge) {
	s := d.sys
	v.guard(e)
	next := d.room(v, sel)
	v.mark(e)
	v.enforce(v.proc) // the copy's top frame is the same, so is its clause
	d.addValid(s.And(sel, v.feas))
	for j, c := range next {
		selJ, t := s.And(sel, c), d.slots+j
		for f := 0; f < d.depth; f++ {
			pc := d.pc[f]
			if f == 0 {
				pc = constBits(d.lay.head(b.Proc, e.ForkTo), len(pc))
			}
			d.setAll(d.tpc[t][f], selJ, pc)
			for k, l := range d.locals[f] {
				if f == 0 && k < len(v.locals) {
					l = v.locals[k]
				}
				d.set(d.tlocals[t][f][k], selJ, l)
			}
			if d.saved != nil {
				d.set(d.tsaved[t][f], selJ, d.saved[f])
			}
		}
	}
	d.goOn(v, sel, b.Proc, e.To)
}

// ---- scheduling, properties, constraint ----

func (d *direct) finish(ctx context.Context) {
	s := d.sys
	legal := d.schedule()
	d.handOn()
	if d.lasso != nil {
		d.lasso.cutWrites(d)
	}
	setNext(ctx, s, d.next)
	d.endStates()
	var ok0 ts.Lit
	if d.opts.Base != nil {
		// The envelope need not hold the enforce clauses of the first
		// frames: an over-approximation of the states at BASE is sound.
		d.base.envelope = d.envelope(d.opts.Base.Envelope)
		ok0 = s.Implies(d.base.first, d.base.envelope)
	} else {
		ok0 = d.startEnforced()
	}
	if d.lasso != nil {
		d.lasso.finish(d, legal, ok0)
		d.sealed = true
		return
	}
	bad := s.And(ok0, s.Or(d.labels, s.And(legal, s.Ors(d.bad...))))
	ovf := s.And(ok0, s.And(legal, s.Ors(d.ovf...)))
	s.AddBad("violation", bad)
	s.AddBad("stack overflow", ovf)
	s.AddBad("thread bound", s.And(ok0, s.And(legal, s.Ors(d.hits...))))
	// A step is a legal, feasible block step of the scheduled thread; when
	// every thread has terminated, the system stays as it is.
	s.AddConstraint(s.And(ok0, s.Or(d.done, s.And(legal, s.Ors(d.valid...)))))
	d.sealed = true
}

// schedule is the condition that the scheduled thread may take a step,
// and records how the step moves the schedule on.
func (d *direct) schedule() ts.Lit {
	s := d.sys
	legal := s.And(d.pcIs(0, pcEmpty).Not(), d.pcIs(0, pcDone).Not())
	for t, a := range d.tatomic {
		legal = s.And(legal, s.Or(d.isT[t], a.Not())) // no other thread is atomic
	}
	legal = s.And(legal, s.Implies(d.initing, d.isT[0]))
	// Init's steps cost nothing and leave the scheduler alone.
	upd := s.And(legal, d.initing.Not())
	switch {
	case d.opts.Rounds > 0:
		wrap := d.bitsLess(d.sched, d.cur) // the next round begins
		left := s.Implies(wrap, d.bitsLess(d.count, constBits(d.opts.Rounds-1, len(d.count))))
		switch {
		case d.lasso != nil:
			left = d.lasso.roundsLeft(d, wrap)
		case d.opts.Base != nil:
			left = s.Implies(wrap, d.roundsLeftAtBase())
		}
		legal = s.And(legal, left)
		d.setAll(d.cur, upd, d.sched)
		d.setAll(d.count, upd, d.bitsInc(d.count, wrap))
	case d.opts.Switches >= 0:
		sw := s.And(d.started, d.bitsEq(d.sched, d.cur).Not())
		legal = s.And(legal, s.Implies(sw, d.bitsLess(d.count, constBits(d.opts.Switches, len(d.count)))))
		d.setAll(d.cur, upd, d.sched)
		d.set(d.started, upd, ts.True)
		d.setAll(d.count, upd, d.bitsInc(d.count, sw))
	}
	return s.And(legal, d.breakSymmetry(upd))
}

// breakSymmetry is the condition that, within each group of the thread
// order with two instances or more (f=N), an instance takes its first
// step only after the one before it has taken its first (upd: the step
// is taken and is not init's). The instances of a group run the same
// code from the same start, so renaming them in the order of their first
// steps maps every execution to one that meets the condition, with the
// same steps, switches and failures: the condition keeps every verdict
// and every shortest violation's length. Round-robin rounds order the
// instances, so it applies to every interleaving and --switches only
// (docs/SEMANTICS.md, "Symmetry of replicated threads").
func (d *direct) breakSymmetry(upd ts.Lit) ts.Lit {
	if d.opts.NoSymmetry || d.opts.Rounds > 0 || d.lasso != nil || d.opts.Base != nil {
		return ts.True
	}
	s := d.sys
	ok := ts.True
	lo := 0
	for _, g := range d.prog.Threads {
		for t := lo; t+1 < lo+g.Count; t++ {
			moved := s.NewLatch(fmt.Sprintf("t%d.moved", t), ts.Init0)
			d.set(moved, s.And(upd, d.isT[t]), ts.True)
			ok = s.And(ok, s.Implies(d.isT[t+1], moved))
		}
		lo += g.Count
	}
	return ok
}

// handOn turns the writes to the view into writes to the scheduled
// thread's latches.
func (d *direct) handOn() {
	s := d.sys
	for _, vw := range d.views {
		gs := d.run[vw.lit]
		if len(gs) == 0 {
			continue
		}
		upd, any := ts.False, ts.False
		for _, g := range gs {
			upd = s.Or(upd, s.And(g.sel, g.val))
			any = s.Or(any, g.sel)
		}
		for t, l := range vw.per {
			d.next[l] = append(d.next[l], guarded{s.And(d.isT[t], any), upd})
		}
	}
}

// endStates defines labels, a thread standing at an error label (arrived
// by its last step, or started there), and done, every thread
// terminated.
func (d *direct) endStates() {
	s := d.sys
	d.labels, d.done = ts.False, ts.True
	for t := range d.tpc {
		for _, b := range d.lay.blocks {
			if b.Proc.Nodes[b.Head].Error {
				d.labels = s.Or(d.labels, d.threadAt(t, b.PC))
			}
		}
		done := d.threadAt(t, pcDone)
		if t >= d.slots {
			done = s.Or(done, d.threadAt(t, pcEmpty)) // a slot never used
		}
		d.done = s.And(d.done, done)
	}
}

// startEnforced is the condition that the enforce clauses of the initial
// frames (init's, or the threads' entries) hold in the initial state.
func (d *direct) startEnforced() ts.Lit {
	s, p := d.sys, d.prog
	e0 := ts.True
	starts := d.entries
	if p.Init != nil {
		starts = []*ir.Proc{p.Init}
	}
	for t, pr := range starts {
		if pr.Enforce == nil {
			continue
		}
		v := &env{sys: s, pool: &d.pool, proc: pr, feas: ts.True, globals: d.globals, locals: d.tlocals[t][0][:len(pr.Locals)]}
		v.enforce(pr)
		e0 = s.And(e0, v.feas)
	}
	if e0 == ts.True {
		return ts.True
	}
	first := s.NewLatch("first", ts.Init1)
	s.SetNext(first, ts.False)
	return s.Implies(first, e0)
}

func (d *direct) System() *ts.System { return d.sys }

// Scheduler are the inputs that choose the thread of a step
// (Scheduled).
func (d *direct) Scheduler() []ts.Lit { return d.sched }

// ProgramCounters are the latches of each thread's program counter in
// its top frame (Scheduled): the scheduler's inputs choose thread t
// with the value t.
func (d *direct) ProgramCounters() [][]ts.Lit {
	out := make([][]ts.Lit, len(d.tpc))
	for t := range d.tpc {
		out[t] = d.tpc[t][0]
	}
	return out
}

// Enabled are, by thread, the condition that it can step (Scheduled):
// it has started and not terminated, and does not wait in acquire on a
// held lock (docs/SEMANTICS.md, "Livelocks": a thread that is not
// blocked).
func (d *direct) Enabled() []ts.Lit {
	out := make([]ts.Lit, len(d.tpc))
	for t := range d.tpc {
		alive := d.sys.And(d.threadAt(t, pcEmpty).Not(), d.threadAt(t, pcDone).Not())
		out[t] = d.sys.And(alive, d.blocked(t).Not())
	}
	return out
}

// Recurring are, by thread, the condition that it stands where a cycle
// of its own steps can pass (ir.Program.Recurring: on a loop of its
// control flow), which holds at every state of a cycle of the product
// on which it steps (Scheduled).
func (d *direct) Recurring() []ts.Lit {
	rec := d.prog.Recurring()
	out := make([]ts.Lit, len(d.tpc))
	for t := range d.tpc {
		out[t] = ts.False
		for _, b := range d.lay.blocks {
			if rec[b.Proc][b.Head] {
				out[t] = d.sys.Or(out[t], d.threadAt(t, b.PC))
			}
		}
	}
	return out
}

// Waiting are, by thread, the condition that it stands where it cannot
// step unless a lock is free (at a node whose every edge acquires one)
// or has terminated or not started: where a thread can be blocked at
// some time without a step of its own (Scheduled).
func (d *direct) Waiting() []ts.Lit {
	out := make([]ts.Lit, len(d.tpc))
	for t := range d.tpc {
		out[t] = d.sys.Or(d.threadAt(t, pcEmpty), d.threadAt(t, pcDone))
		for _, b := range d.lay.blocks {
			edges := b.Proc.Nodes[b.Head].Out
			acquires := len(edges) > 0
			for _, e := range edges {
				acquires = acquires && e.Kind == ir.Acquire
			}
			if acquires {
				out[t] = d.sys.Or(out[t], d.threadAt(t, b.PC))
			}
		}
	}
	return out
}

// Terminated is the condition that every thread has terminated, where
// the product's step moves no thread (Scheduled).
func (d *direct) Terminated() ts.Lit { return d.done }

// Care is part of DirectCare's condition (init runs, or every thread's
// stack is one its entry reaches and its atomic mode one the marks
// allow) where DirectCare takes the program and the system is the plain
// product; else ts.True. It leaves out DirectCare's "each lock has one
// holder at most": on diagrams that condition links every thread's
// holder bits of every lock, and a thread's step took 100,000 nodes
// within it (8 dining philosophers) where it takes 1,000 without.
func (d *direct) Care() ts.Lit {
	if d.lasso != nil || d.opts.Base != nil || BaseSupported(d.prog) != nil {
		return ts.True
	}
	return d.sys.Or(d.initing, d.stacks(true))
}

func (d *direct) Limits() []int { return []int{PropOverflow, PropThreadBound} }

func (d *direct) Running() ts.Lit { return d.done.Not() }

func (d *direct) Fixed(int) map[int]bool { return nil }

func (d *direct) Ended(k int) bool { return d.bound >= 0 && k >= d.bound }

func (d *direct) Longest() int { return 0 }
