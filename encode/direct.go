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
	"math/bits"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
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
}

// PropThreadBound is the index in Direct.Sys.Bad of the property that a
// thread start found every thread slot in use.
const PropThreadBound = 2

// Direct is the transition system of a concurrent program with the names
// of its latches and inputs.
type Direct struct {
	Prog    *ir.Program
	Sys     *ts.System
	Opts    DirectOptions
	Depth   int
	Locs    []Loc      // indexed by program counter value
	Entries []*ir.Proc // entry function of each initial thread instance
	// Per thread: the initial instances, then the slots for started
	// threads (a slot not in use has pc PCEmpty in frame 0).
	PC     [][][]ts.Lit // [thread][frame][bit]
	Locals [][][]ts.Lit // [thread][frame][slot]
	// Saved holds per frame the atomic mode to restore when the frame (an
	// atomic function's) returns; nil when no function is atomic.
	Saved   [][]ts.Lit
	Atomic  []ts.Lit // [thread]: inside an atomic section
	Globals []ts.Lit
	Owns    [][]ts.Lit // [lock][thread]: the thread holds the lock
	Initing ts.Lit     // init is running on thread 0's stack (False without init)
	Sched   []ts.Lit   // inputs: the thread that takes the step (binary)
	Cur     []ts.Lit   // bounded modes: the current thread (binary)
	Started ts.Lit     // --switches: the first thread has been chosen
	Count   []ts.Lit   // --switches: switches used; rounds: the current round (binary)
	Choice  []ts.Lit   // inputs that pick the final edge of a block
	Pool    []ts.Lit   // inputs for nondeterministic values

	lay   *layout
	isT   []ts.Lit // Sched selects thread t
	views []view
	// The scheduled thread's state (multiplexers over the threads).
	vpc     [][]ts.Lit
	vloc    [][]ts.Lit
	vsaved  []ts.Lit
	vatomic ts.Lit
	vmine   []ts.Lit // the scheduled thread holds the lock
	others  []ts.Lit // another thread holds the lock

	slots  int      // the first thread slot for started threads (= initial instances)
	hits   []ts.Lit // thread starts without a free slot
	first  ts.Lit   // the initial frame (only when entry enforce clauses must be assumed there)
	ok0    ts.Lit   // the initial frame satisfies the entry enforce clauses
	legal  ts.Lit   // the scheduled thread may take a step
	labels ts.Lit   // some thread stands at an error label
	done   ts.Lit   // every thread has terminated

	conditions
	vnext, dnext map[ts.Lit][]guarded // writes to view bits, to latches
}

// view is one bit of the scheduled thread's state and the latch it
// stands for in each thread.
type view struct {
	lit ts.Lit
	per []ts.Lit
}

// DirectSupported reports why p cannot be encoded directly, or nil.
func DirectSupported(p *ir.Program) error {
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

// starts reports whether e starts a thread.
func starts(e *ir.Edge) bool { return e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn }

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

// EncodeDirect builds the interleaving product of p's thread instances.
// When ctx ends first, the error is its cause.
func EncodeDirect(ctx context.Context, p *ir.Program, o DirectOptions) (d *Direct, err error) {
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
	if err := DirectSupported(p); err != nil {
		return nil, err
	}
	sys := ts.New()
	d = &Direct{Prog: p, Sys: sys, conditions: conditions{sys: sys}, Opts: o, Depth: o.Depth,
		vnext: map[ts.Lit][]guarded{}, dnext: map[ts.Lit][]guarded{}}
	for _, t := range p.Threads {
		for i := 0; i < t.Count; i++ {
			d.Entries = append(d.Entries, t.Proc)
		}
	}
	// With one thread at most, no switch ever happens: the sequential
	// blocks do.
	var extra func(*ir.Proc, int) bool
	concurrent := len(d.Entries) > 1
	for _, e := range p.Edges {
		concurrent = concurrent || starts(e)
	}
	if !o.SmallSteps && concurrent {
		extra = switchPoints(p)
	}
	d.lay = newLayout(p, o.SmallSteps, extra)
	d.Locs = d.lay.locs
	d.makeState()
	for _, b := range d.lay.blocks {
		halt.Point(ctx)
		d.encodeBlock(b)
	}
	d.finish(ctx)
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

func (d *Direct) makeState() {
	s, p := d.Sys, d.Prog
	for _, g := range p.Globals {
		d.Globals = append(d.Globals, s.NewLatch(g.Name, latchInit(g.Init)))
	}
	d.slots = len(d.Entries)
	stacks := max(1, d.slots) // init needs a stack even without threads
	for _, e := range p.Edges {
		if starts(e) {
			stacks = max(stacks, d.Opts.MaxThreads)
			break
		}
	}
	for _, l := range p.Locks {
		var own []ts.Lit
		for t := 0; t < stacks; t++ {
			own = append(own, s.NewLatch(fmt.Sprintf("lock %s held by %d", l.Name, t), ts.Init0))
		}
		d.Owns = append(d.Owns, own)
	}
	d.Initing = ts.False
	if p.Init != nil {
		d.Initing = s.NewLatch("initing", ts.Init1)
	}
	width := bits.Len(uint(len(d.Locs) - 1))
	maxLocals := 0
	atomicProcs := false
	for _, pr := range p.Procs {
		maxLocals = max(maxLocals, len(pr.Locals))
		atomicProcs = atomicProcs || pr.Atomic
	}
	for t := 0; t < stacks; t++ {
		// The initial frame 0: init on thread 0, else the thread's entry.
		var start *ir.Proc
		startPC := PCEmpty
		switch {
		case p.Init != nil && t == 0:
			start = p.Init
		case p.Init == nil && t < len(d.Entries):
			start = d.Entries[t]
		case p.Init == nil && t == 0:
			startPC = PCDone // no thread at all
		}
		if start != nil {
			startPC = d.lay.headPC[[2]int{start.Index, start.Entry}]
		}
		var pcs, locs [][]ts.Lit
		var saved []ts.Lit
		for f := 0; f < d.Depth; f++ {
			pcStart := PCEmpty
			if f == 0 {
				pcStart = startPC
			}
			pcs = append(pcs, newPC(s, fmt.Sprintf("t%d.pc[%d]", t, f), width, pcStart))
			var locals []ts.Lit
			for k := 0; k < maxLocals; k++ {
				init := ts.Init0
				if f == 0 && start != nil && k < len(start.Locals) {
					init = latchInit(start.Locals[k].Init)
				}
				locals = append(locals, s.NewLatch(fmt.Sprintf("t%d.local[%d].%d", t, f, k), init))
			}
			locs = append(locs, locals)
			if atomicProcs {
				saved = append(saved, s.NewLatch(fmt.Sprintf("t%d.saved[%d]", t, f), ts.Init0))
			}
		}
		d.PC = append(d.PC, pcs)
		d.Locals = append(d.Locals, locs)
		if atomicProcs {
			d.Saved = append(d.Saved, saved)
		}
		d.Atomic = append(d.Atomic, s.NewLatch(fmt.Sprintf("t%d.atomic", t), ts.Init0))
	}
	tw := bits.Len(uint(stacks - 1))
	for i := 0; i < tw; i++ {
		d.Sched = append(d.Sched, s.NewInput(fmt.Sprintf("sched.%d", i)))
	}
	switch {
	case d.Opts.Rounds > 0:
		d.Cur = d.newBits("cur", tw)
		d.Count = d.newBits("round", bits.Len(uint(d.Opts.Rounds-1)))
	case d.Opts.Switches >= 0:
		d.Cur = d.newBits("cur", tw)
		d.Started = s.NewLatch("started", ts.Init0)
		d.Count = d.newBits("switches", bits.Len(uint(d.Opts.Switches)))
	}
	maxOut := 1
	for _, b := range d.lay.blocks {
		maxOut = max(maxOut, len(b.Last.Out))
	}
	for i := 0; i < bits.Len(uint(maxOut-1)); i++ {
		d.Choice = append(d.Choice, s.NewInput(fmt.Sprintf("choice.%d", i)))
	}

	// The view of the scheduled thread.
	for t := 0; t < stacks; t++ {
		d.isT = append(d.isT, d.bitsEq(d.Sched, constBits(t, tw)))
	}
	for f := 0; f < d.Depth; f++ {
		var pc, loc []ts.Lit
		for i := 0; i < width; i++ {
			pc = append(pc, d.newView(func(t int) ts.Lit { return d.PC[t][f][i] }))
		}
		for k := 0; k < maxLocals; k++ {
			loc = append(loc, d.newView(func(t int) ts.Lit { return d.Locals[t][f][k] }))
		}
		d.vpc, d.vloc = append(d.vpc, pc), append(d.vloc, loc)
		if atomicProcs {
			d.vsaved = append(d.vsaved, d.newView(func(t int) ts.Lit { return d.Saved[t][f] }))
		}
	}
	d.vatomic = d.newView(func(t int) ts.Lit { return d.Atomic[t] })
	for _, own := range d.Owns {
		d.vmine = append(d.vmine, d.newView(func(t int) ts.Lit { return own[t] }))
		other := ts.False
		for t, l := range own {
			other = s.Or(other, s.And(d.isT[t].Not(), l))
		}
		d.others = append(d.others, other)
	}
}

func (d *Direct) newBits(name string, n int) []ts.Lit {
	out := make([]ts.Lit, n)
	for i := range out {
		out[i] = d.Sys.NewLatch(fmt.Sprintf("%s.%d", name, i), ts.Init0)
	}
	return out
}

// newView builds the multiplexer of one state bit over the threads.
func (d *Direct) newView(of func(t int) ts.Lit) ts.Lit {
	s := d.Sys
	v := view{lit: ts.False}
	for t, sel := range d.isT {
		l := of(t)
		v.per = append(v.per, l)
		v.lit = s.Or(v.lit, s.And(sel, l))
	}
	d.views = append(d.views, v)
	return v.lit
}

func constBits(v, n int) []ts.Lit {
	out := make([]ts.Lit, n)
	for i := range out {
		out[i] = ts.False
		if v>>i&1 == 1 {
			out[i] = ts.True
		}
	}
	return out
}

// bitsEq is a = b for bit vectors of equal width.
func (d *Direct) bitsEq(a, b []ts.Lit) ts.Lit {
	r := ts.True
	for i := range a {
		r = d.Sys.And(r, d.Sys.Eq(a[i], b[i]))
	}
	return r
}

// bitsLess is a < b (unsigned) for bit vectors of equal width.
func (d *Direct) bitsLess(a, b []ts.Lit) ts.Lit {
	s := d.Sys
	lt := ts.False
	for i := range a { // from the least significant bit: higher bits decide
		lt = s.Or(s.And(a[i].Not(), b[i]), s.And(s.Eq(a[i], b[i]), lt))
	}
	return lt
}

// bitsInc is a + c for a single bit c, dropping the carry out.
func (d *Direct) bitsInc(a []ts.Lit, c ts.Lit) []ts.Lit {
	out := make([]ts.Lit, len(a))
	for i, x := range a {
		out[i] = d.Sys.Xor(x, c)
		c = d.Sys.And(x, c)
	}
	return out
}

// pcIs is the condition that thread t's frame f holds program counter v.
func (d *Direct) pcIs(t, f, v int) ts.Lit { return d.bitsEq(d.PC[t][f], constBits(v, len(d.PC[t][f]))) }

// vpcIs is the condition that the scheduled thread's frame f holds v.
func (d *Direct) vpcIs(f, v int) ts.Lit { return d.bitsEq(d.vpc[f], constBits(v, len(d.vpc[f]))) }

// stackEmptyFrom is the condition that the scheduled thread's frames f and
// below are not in use.
func (d *Direct) stackEmptyFrom(f int) ts.Lit {
	if f >= d.Depth {
		return ts.True
	}
	return d.vpcIs(f, PCEmpty)
}

func (d *Direct) choiceIs(i int) ts.Lit { return d.bitsEq(d.Choice, constBits(i, len(d.Choice))) }

// setView records that under sel the scheduled thread's bit l becomes val.
func (d *Direct) setView(l, sel, val ts.Lit) {
	if !d.sealed && val != l {
		d.vnext[l] = append(d.vnext[l], guarded{sel, val})
	}
}

// setLatch records that under sel latch l becomes val.
func (d *Direct) setLatch(l, sel, val ts.Lit) {
	if !d.sealed && val != l {
		d.dnext[l] = append(d.dnext[l], guarded{sel, val})
	}
}

func (d *Direct) setViewPC(f int, sel ts.Lit, pc int) {
	for i, l := range constBits(pc, len(d.vpc[f])) {
		d.setView(d.vpc[f][i], sel, l)
	}
}

// ---- steps ----

// frameEnv is the scheduled thread's top frame, running p.
func (d *Direct) frameEnv(p *ir.Proc) *env {
	return &env{sys: d.Sys, pool: &d.Pool, proc: p, feas: ts.True,
		globals: append([]ts.Lit(nil), d.Globals...),
		locals:  append([]ts.Lit(nil), d.vloc[0][:len(p.Locals)]...),
		locks:   append([]ts.Lit(nil), d.vmine...),
		others:  d.others,
		atomic:  d.vatomic,
	}
}

func (d *Direct) encodeBlock(b *Block) {
	sel := d.vpcIs(0, b.PC)
	base := d.runPath(b, sel, nil)
	for i, e := range b.Last.Out {
		d.alternative(b, base.clone(), d.Sys.And(sel, d.choiceIs(i)), e, nil)
	}
}

// runPath executes the straight-line part of b for the scheduled thread,
// adding its violations under sel.
func (d *Direct) runPath(b *Block, sel ts.Lit, rec Recorder) *env {
	v := d.frameEnv(b.Proc)
	d.execPath(b, v, sel, rec)
	return v
}

// alternative encodes the step that ends with edge e of b's last node.
func (d *Direct) alternative(b *Block, v *env, sel ts.Lit, e *ir.Edge, rec Recorder) {
	s, p := d.Sys, d.Prog
	switch e.Kind {
	case ir.Call:
		if e.Spawn {
			d.spawn(b, v, sel, e)
			return
		}
		d.call(v, sel, e)
	case ir.Fork:
		d.fork(b, v, sel, e)
	case ir.Return:
		d.ret(b, v, sel, e)
	case ir.EndThread:
		if e.Guard != nil {
			v.assume(v.eval(e.Guard, nil, nil))
		}
		sel = d.initEnds(v, sel, d.Initing, false)
		d.addValid(s.And(sel, v.feas))
		d.terminate(v, sel)
	default:
		d.addBad(sel, v.exec(e))
		v.mark(e)
		if rec != nil {
			rec(e, v.globals, v.locals, v.locks)
		}
		if b.Proc == p.Init && e.To == p.InitStop {
			sel = d.initEnds(v, sel, s.And(d.Initing, d.stackEmptyFrom(1)), true)
		}
		if _, ok := d.lay.headPC[[2]int{b.Proc.Index, e.To}]; !ok {
			panic("encode: a block ends at a node that is not a head")
		}
		d.addValid(s.And(sel, v.feas))
		d.stay(b, v, sel, e.To)
	}
}

// writeShared writes the globals, the scheduled thread's locks and its
// atomic mode under sel.
func (d *Direct) writeShared(sel ts.Lit, v *env) {
	for i, l := range v.globals {
		d.setLatch(d.Globals[i], sel, l)
	}
	for i, l := range v.locks {
		d.setView(d.vmine[i], sel, l)
	}
	d.setView(d.vatomic, sel, v.atomic)
}

// writeLocals writes the first len(locals) slots of frame f.
func (d *Direct) writeLocals(f int, sel ts.Lit, locals []ts.Lit) {
	for k, l := range locals {
		d.setView(d.vloc[f][k], sel, l)
	}
}

// terminate ends the scheduled thread under sel; it leaves any atomic
// section (its locks stay held).
func (d *Direct) terminate(v *env, sel ts.Lit) {
	d.setViewPC(0, sel, PCDone)
	w := *v
	w.atomic = ts.False
	d.writeShared(sel, &w)
}

// initEnds splits off the case cond of the step sel in which init ends
// with state v (at its stop label when label is set) and the threads
// start; it returns the rest of sel.
func (d *Direct) initEnds(v *env, sel, cond ts.Lit, label bool) ts.Lit {
	p, s := d.Prog, d.Sys
	if p.Init == nil {
		return sel
	}
	end := s.And(sel, cond)
	if label && p.Init.Nodes[p.InitStop].Error {
		d.addBad(end, v.feas) // init reached an error label as it ends
	}
	d.startThreads(v.clone(), end)
	return s.And(sel, cond.Not())
}

// startThreads replaces init, whose final state is v, by the entry frames
// of the thread instances under sel, assuming their enforce clauses.
func (d *Direct) startThreads(v *env, sel ts.Lit) {
	s := d.Sys
	feas, used := v.feas, v.used
	for t, pr := range d.Entries {
		te := &env{sys: s, pool: &d.Pool, used: used, proc: pr, globals: v.globals, feas: feas}
		te.locals = te.newLocals(pr, nil)
		te.enforce(pr)
		feas, used = te.feas, te.used
		for i, l := range constBits(d.lay.headPC[[2]int{pr.Index, pr.Entry}], len(d.PC[t][0])) {
			d.setLatch(d.PC[t][0][i], sel, l)
		}
		for k, l := range te.locals {
			d.setLatch(d.Locals[t][0][k], sel, l)
		}
	}
	if len(d.Entries) == 0 {
		for i, l := range constBits(PCDone, len(d.PC[0][0])) {
			d.setLatch(d.PC[0][0][i], sel, l)
		}
	}
	// Init's deeper frames (left by end_thread in a callee) are freed.
	for f := 1; f < d.Depth; f++ {
		for _, l := range d.PC[0][f] {
			d.setLatch(l, sel, ts.False)
		}
	}
	d.setLatch(d.Atomic[0], sel, ts.False)
	for i, l := range v.locks {
		d.setLatch(d.Owns[i][0], sel, l) // init's locks stay with thread 0
	}
	for i, l := range v.globals {
		d.setLatch(d.Globals[i], sel, l)
	}
	d.setLatch(d.Initing, sel, ts.False)
	d.addValid(s.And(sel, feas))
}

// nextSlots are, per slot for started threads, the condition that it is
// the next free one: threads are created in slot order, as the explicit
// checker appends them, so thread indices agree.
func (d *Direct) nextSlots() []ts.Lit {
	var out []ts.Lit
	for j := d.slots; j < len(d.PC); j++ {
		c := d.pcIs(j, 0, PCEmpty)
		if j > d.slots {
			c = d.Sys.And(c, d.pcIs(j-1, 0, PCEmpty).Not())
		}
		out = append(out, c)
	}
	return out
}

// room assumes a free slot for a thread start of the step sel, reporting
// the thread bound otherwise.
func (d *Direct) room(v *env, sel ts.Lit) []ts.Lit {
	next := d.nextSlots()
	free := d.Sys.Ors(next...)
	if !d.sealed {
		d.hits = append(d.hits, d.Sys.And(sel, d.Sys.And(v.feas, free.Not())))
	}
	v.assume(free)
	return next
}

// stay finishes a step after which the scheduled thread's frame 0 goes on
// at node to of b's procedure with the state of v.
func (d *Direct) stay(b *Block, v *env, sel ts.Lit, to int) {
	d.setViewPC(0, sel, d.lay.headPC[[2]int{b.Proc.Index, to}])
	d.writeLocals(0, sel, v.locals)
	d.writeShared(sel, v)
}

// spawn starts a thread running e.Callee in the next free slot; the
// caller goes on.
func (d *Direct) spawn(b *Block, v *env, sel ts.Lit, e *ir.Edge) {
	s := d.Sys
	args := v.callArgs(e)
	next := d.room(v, sel)
	te := &env{sys: s, pool: &d.Pool, used: v.used, proc: e.Callee, globals: v.globals}
	te.locals = te.newLocals(e.Callee, args)
	v.used = te.used
	v.mark(e)
	v.enforce(v.proc)
	te.feas = v.feas
	te.enforce(e.Callee)
	d.addValid(s.And(sel, te.feas))
	entry := constBits(d.lay.headPC[[2]int{e.Callee.Index, e.Callee.Entry}], len(d.PC[0][0]))
	for j, c := range next {
		selJ := s.And(sel, c)
		for i, l := range entry {
			d.setLatch(d.PC[d.slots+j][0][i], selJ, l)
		}
		for k, l := range te.locals {
			d.setLatch(d.Locals[d.slots+j][0][k], selJ, l)
		}
	}
	d.stay(b, v, sel, e.To)
}

// fork starts a copy of the scheduled thread (its whole stack, outside
// any atomic section) at e.ForkTo in the next free slot; the original
// goes on.
func (d *Direct) fork(b *Block, v *env, sel ts.Lit, e *ir.Edge) {
	s := d.Sys
	if e.Guard != nil {
		v.assume(v.eval(e.Guard, nil, nil))
	}
	next := d.room(v, sel)
	v.mark(e)
	v.enforce(v.proc) // the copy's top frame is the same, so is its clause
	d.addValid(s.And(sel, v.feas))
	for j, c := range next {
		selJ, t := s.And(sel, c), d.slots+j
		for f := 0; f < d.Depth; f++ {
			pc := d.vpc[f]
			if f == 0 {
				pc = constBits(d.lay.headPC[[2]int{b.Proc.Index, e.ForkTo}], len(pc))
			}
			for i, l := range pc {
				d.setLatch(d.PC[t][f][i], selJ, l)
			}
			for k, l := range d.vloc[f] {
				if f == 0 && k < len(v.locals) {
					l = v.locals[k]
				}
				d.setLatch(d.Locals[t][f][k], selJ, l)
			}
			if d.vsaved != nil {
				d.setLatch(d.Saved[t][f], selJ, d.vsaved[f])
			}
		}
	}
	d.stay(b, v, sel, e.To)
}

func (d *Direct) call(v *env, sel ts.Lit, e *ir.Edge) {
	s := d.Sys
	args := v.callArgs(e)
	full := d.vpcIs(d.Depth-1, PCEmpty).Not()
	d.addOvf(s.And(sel, s.And(v.feas, full)))
	v.assume(full.Not())
	callee := v.enter(e.Callee, v.newLocals(e.Callee, args))
	if e.Callee.Atomic {
		callee.atomic = ts.True // the whole call runs atomically
	}
	callee.mark(e)
	callee.enforce(e.Callee)
	d.addValid(s.And(sel, callee.feas))
	// Shift the stack down: frame f+1 gets frame f.
	for f := d.Depth - 1; f >= 1; f-- {
		if f == 1 {
			d.setViewPC(1, sel, d.lay.retPC[e.ID])
		} else {
			for i := range d.vpc[f] {
				d.setView(d.vpc[f][i], sel, d.vpc[f-1][i])
			}
		}
		for k := range d.vloc[f] {
			val := d.vloc[f-1][k]
			if f == 1 && k < len(v.locals) {
				val = v.locals[k]
			}
			d.setView(d.vloc[f][k], sel, val)
		}
		if d.vsaved != nil {
			d.setView(d.vsaved[f], sel, d.vsaved[f-1])
		}
	}
	d.setViewPC(0, sel, d.lay.headPC[[2]int{e.Callee.Index, e.Callee.Entry}])
	d.writeLocals(0, sel, callee.locals)
	if e.Callee.Atomic && d.vsaved != nil {
		d.setView(d.vsaved[0], sel, v.atomic)
	}
	d.writeShared(sel, callee)
}

func (d *Direct) ret(b *Block, v *env, sel ts.Lit, e *ir.Edge) {
	s, p := d.Sys, d.Prog
	if e.Guard != nil {
		v.assume(v.eval(e.Guard, nil, nil))
	}
	vals := make([]ts.Lit, b.Proc.Returns)
	for i := range vals {
		if i < len(e.Values) {
			vals[i] = v.eval(e.Values[i], nil, nil)
		} else {
			vals[i] = v.fresh() // a return without values returns arbitrary ones
		}
	}
	// The entry frame returns: the thread terminates, or init ends.
	top := s.And(sel, d.stackEmptyFrom(1))
	if b.Proc == p.Init {
		top = d.initEnds(v, top, d.Initing, false)
	}
	d.addValid(s.And(top, v.feas))
	d.terminate(v, top)
	// Otherwise return to the caller whose return site frame 1 holds.
	for _, call := range p.Edges {
		if call.Kind != ir.Call || call.Callee != b.Proc || d.Depth < 2 {
			continue
		}
		selR := s.And(sel, d.vpcIs(1, d.lay.retPC[call.ID]))
		r := v.enter(call.Proc, append([]ts.Lit(nil), d.vloc[1][:len(call.Proc.Locals)]...))
		r.globals = append([]ts.Lit(nil), v.globals...)
		for i, t := range call.Targets {
			if t != nil {
				r.write(t, vals[i])
			}
		}
		if b.Proc.Atomic && d.vsaved != nil {
			r.atomic = d.vsaved[0] // the mode before the atomic call
		}
		r.mark(e)
		r.enforce(call.Proc)
		if call.Proc == p.Init && call.To == p.InitStop {
			selR = d.initEnds(r, selR, s.And(d.Initing, d.stackEmptyFrom(2)), true)
		}
		d.addValid(s.And(selR, r.feas))
		shiftUp(d.vpc, d.vloc, selR, d.setView)
		for f := 0; d.vsaved != nil && f+1 < d.Depth; f++ {
			d.setView(d.vsaved[f], selR, d.vsaved[f+1])
		}
		d.setViewPC(0, selR, d.lay.headPC[[2]int{call.Proc.Index, call.To}])
		locals := append([]ts.Lit(nil), d.vloc[1]...)
		copy(locals, r.locals)
		d.writeLocals(0, selR, locals)
		d.writeShared(selR, r)
	}
}

// ---- scheduling, properties, constraint ----

func (d *Direct) finish(ctx context.Context) {
	s, p := d.Sys, d.Prog
	legal := s.And(d.vpcIs(0, PCEmpty).Not(), d.vpcIs(0, PCDone).Not())
	for t, a := range d.Atomic {
		legal = s.And(legal, s.Or(d.isT[t], a.Not())) // no other thread is atomic
	}
	legal = s.And(legal, s.Implies(d.Initing, d.isT[0]))
	// Init's steps cost nothing and leave the scheduler alone.
	upd := s.And(legal, d.Initing.Not())
	switch {
	case d.Opts.Rounds > 0:
		wrap := d.bitsLess(d.Sched, d.Cur) // the next round begins
		legal = s.And(legal, s.Implies(wrap, d.bitsLess(d.Count, constBits(d.Opts.Rounds-1, len(d.Count)))))
		d.setBits(d.Cur, upd, d.Sched)
		d.setBits(d.Count, upd, d.bitsInc(d.Count, wrap))
	case d.Opts.Switches >= 0:
		sw := s.And(d.Started, d.bitsEq(d.Sched, d.Cur).Not())
		legal = s.And(legal, s.Implies(sw, d.bitsLess(d.Count, constBits(d.Opts.Switches, len(d.Count)))))
		d.setBits(d.Cur, upd, d.Sched)
		d.setLatch(d.Started, upd, ts.True)
		d.setBits(d.Count, upd, d.bitsInc(d.Count, sw))
	}
	d.legal = legal

	// Writes to the view go to the scheduled thread.
	for _, vw := range d.views {
		gs := d.vnext[vw.lit]
		if len(gs) == 0 {
			continue
		}
		upd, any := ts.False, ts.False
		for _, g := range gs {
			upd = s.Or(upd, s.And(g.sel, g.val))
			any = s.Or(any, g.sel)
		}
		for t, l := range vw.per {
			d.dnext[l] = append(d.dnext[l], guarded{s.And(d.isT[t], any), upd})
		}
	}
	setNext(ctx, s, d.dnext)

	// Error labels: a thread stands at one (arrived by its last step, or
	// started there).
	d.labels, d.done = ts.False, ts.True
	for t := range d.PC {
		for _, b := range d.lay.blocks {
			if b.Proc.Nodes[b.Head].Error {
				d.labels = s.Or(d.labels, d.pcIs(t, 0, b.PC))
			}
		}
		done := d.pcIs(t, 0, PCDone)
		if t >= d.slots {
			done = s.Or(done, d.pcIs(t, 0, PCEmpty)) // a slot never used
		}
		d.done = s.And(d.done, done)
	}
	// The enforce clauses of the initial frames (init's, or the threads'
	// entries) hold in the initial state.
	d.ok0 = ts.True
	e0 := ts.True
	starts := d.Entries
	if p.Init != nil {
		starts = []*ir.Proc{p.Init}
	}
	for t, pr := range starts {
		if pr.Enforce == nil {
			continue
		}
		v := &env{sys: s, pool: &d.Pool, proc: pr, feas: ts.True, globals: d.Globals, locals: d.Locals[t][0][:len(pr.Locals)]}
		v.enforce(pr)
		e0 = s.And(e0, v.feas)
	}
	if e0 != ts.True {
		d.first = s.NewLatch("first", ts.Init1)
		s.SetNext(d.first, ts.False)
		d.ok0 = s.Implies(d.first, e0)
	}
	bad := s.And(d.ok0, s.Or(d.labels, s.And(legal, s.Ors(d.bad...))))
	ovf := s.And(d.ok0, s.And(legal, s.Ors(d.ovf...)))
	s.AddBad("violation", bad)
	s.AddBad("stack overflow", ovf)
	s.AddBad("thread bound", s.And(d.ok0, s.And(legal, s.Ors(d.hits...))))
	// A step is a legal, feasible block step of the scheduled thread; when
	// every thread has terminated, the system stays as it is.
	s.AddConstraint(s.And(d.ok0, s.Or(d.done, s.And(legal, s.Ors(d.valid...)))))
	d.sealed = true
}

func (d *Direct) setBits(ls []ts.Lit, sel ts.Lit, vals []ts.Lit) {
	for i, l := range ls {
		d.setLatch(l, sel, vals[i])
	}
}

// Running is the condition that some thread (or init) has not terminated.
func (d *Direct) Running() ts.Lit { return d.done.Not() }

// ---- witnesses ----

// Steps turns a path of the system into the statements it executes, each
// on its thread, with the values after each, for replay on the explicit
// interpreter (see Encoding.Steps): values(i) gives every variable at
// frame i, the path has frames 0..k, and the violation is reached by the
// step from frame k or stands in frame k.
func (d *Direct) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	var out []result.ReplayStep
	type rec struct {
		e               *ir.Edge
		globals, locals []ts.Lit
	}
	for i := 0; i <= k; i++ {
		vals := values(i)
		if ts.Value(vals, d.done) || i == k && ts.Value(vals, d.labels) {
			break
		}
		t := bitsValue(vals, d.Sched)
		if t >= len(d.PC) {
			return nil, fmt.Errorf("witness: frame %d schedules thread %d of %d", i, t, len(d.PC))
		}
		pc := bitsValue(vals, d.PC[t][0])
		b := d.lay.byPC[pc]
		if b == nil {
			return nil, fmt.Errorf("witness: frame %d: thread %d has pc %d, not a block head", i, t, pc)
		}
		var recs []rec
		record := func(e *ir.Edge, globals, locals, _ []ts.Lit) {
			recs = append(recs, rec{e, append([]ts.Lit(nil), globals...), append([]ts.Lit(nil), locals...)})
		}
		v := d.runPath(b, ts.True, record)
		var last *ir.Edge
		if alt := bitsValue(vals, d.Choice); alt < len(b.Last.Out) {
			last = b.Last.Out[alt]
		} else if i < k {
			return nil, fmt.Errorf("witness: frame %d chooses edge %d of %d", i, alt, len(b.Last.Out))
		}
		final := i == k && last != nil && last.Kind != ir.Call && last.Kind != ir.Return && last.Kind != ir.EndThread && last.Kind != ir.Fork
		if final {
			// The violating step's final edge stays in the frame: its
			// values come from the symbolic run, as there is no frame k+1.
			d.alternative(b, v, ts.True, last, record)
		}
		vals = values(i) // the symbolic run may have built new nodes
		for _, r := range recs {
			out = append(out, result.ReplayStep{Thread: t, Edge: r.e, Globals: evalAll(vals, r.globals), Locals: evalAll(vals, r.locals)})
		}
		if i == k {
			if last != nil && !final {
				out = append(out, result.ReplayStep{Thread: t, Edge: last})
			}
			break
		}
		next := values(i + 1)
		st := result.ReplayStep{Thread: t, Edge: last, Globals: evalAll(next, d.Globals)}
		if nb := d.lay.byPC[bitsValue(next, d.PC[t][0])]; nb != nil {
			st.Locals = evalAll(next, d.Locals[t][0][:len(nb.Proc.Locals)])
		}
		out = append(out, st)
	}
	return out, nil
}

func bitsValue(vals []bool, ls []ts.Lit) int {
	x := 0
	for i, l := range ls {
		if ts.Value(vals, l) {
			x |= 1 << i
		}
	}
	return x
}
