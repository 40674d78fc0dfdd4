package encode

import (
	"context"
	"fmt"
	"math/bits"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/ts"
)

// machine is what the sequential and the direct encoding share: threads
// with shift-register call stacks, run a block per step. The blocks read
// and write the running thread's state; in the sequential encoding that
// is the thread's latches, in the direct encoding a view of the scheduled
// thread, whose writes the encoding hands on to that thread's latches.
// How threads start and end, and what a step checks first, is the
// encoding's (threading).
type machine struct {
	conditions
	prog    *ir.Program
	lay     *layout
	depth   int      // frames per stack
	globals []ts.Lit // latches
	choice  []ts.Lit // inputs that pick the final edge of a block
	pool    []ts.Lit // inputs for nondeterministic values, used in order by each block
	// The running thread.
	pc     [][]ts.Lit // [frame][bit]
	locals [][]ts.Lit // [frame][slot]
	// saved holds per frame the atomic mode to restore when the frame (an
	// atomic function's) returns; nil when no function is atomic.
	saved  []ts.Lit
	atomic ts.Lit               // inside an atomic section; False when not tracked (one thread: nothing interleaves)
	mine   []ts.Lit             // [lock]: held by the running thread
	others []ts.Lit             // [lock]: held by another thread; nil with one thread
	next   map[ts.Lit][]guarded // writes to latches
	run    map[ts.Lit][]guarded // writes to the running thread's state (next itself where that is latches)
	ends   threading
}

// threading is what an encoding adds to the machine.
type threading interface {
	// begin adds what a step of block b checks before its first edge,
	// with state v, under sel.
	begin(b *block, v *env, sel ts.Lit)
	// initEnds splits off sel the case in which init ends (at) with
	// state v, its frames from `from` on empty (0: no condition), and
	// returns the rest of sel.
	initEnds(v *env, sel ts.Lit, at initEnd, from int) ts.Lit
	// terminate ends the running thread, with state v, under sel.
	terminate(v *env, sel ts.Lit)
	// start encodes the step of b that starts a thread by edge e.
	start(b *block, v *env, sel ts.Lit, e *ir.Edge)
}

// initEnd is where init may end.
type initEnd uint8

const (
	initReturns    initEnd = iota // its entry frame returns
	initEndsThread                // it ends its thread
	initArrives                   // a step arrives at its stop label
	initStands                    // a step starts at its stop label
)

type guarded struct{ sel, val ts.Lit }

func newMachine(p *ir.Program, lay *layout, depth int, ends threading) machine {
	sys := ts.New()
	next := map[ts.Lit][]guarded{}
	return machine{conditions: conditions{sys: sys}, prog: p, lay: lay, depth: depth, atomic: ts.False,
		next: next, run: next, ends: ends}
}

// ---- blocks ----

// Reserved program counter values.
const (
	pcEmpty = 0 // a frame not in use
	pcDone  = 1 // the thread has terminated
)

// locKind says what a program counter value denotes.
type locKind uint8

const (
	locEmpty locKind = iota
	locDone
	locHead    // the head of a block: Proc, Node
	locRetSite // waiting for the callee of call edge Call to return
)

// loc is the meaning of one program counter value.
type loc struct {
	Kind locKind
	Proc *ir.Proc
	Node int
	Call *ir.Edge
}

// block is a run of edges from a head; its last node's edges are the
// alternatives that end the step.
type block struct {
	PC     int
	Proc   *ir.Proc
	Head   int
	Path   []*ir.Edge // straight-line edges before the last node
	Last   *ir.Node
	InitAt bool // the head is init's stop label
}

// layout numbers the program counter values: a block per head, then a
// return site per call edge.
type layout struct {
	locs   []loc
	headPC map[[2]int]int // nodeKey -> pc
	retPC  map[int]int    // call edge ID -> pc of its return site
	blocks []*block
	byPC   map[int]*block
}

// nodeKey identifies node id of pr across procedures.
func nodeKey(pr *ir.Proc, id int) [2]int { return [2]int{pr.Index, id} }

// head is the pc of the block whose head is node id of pr.
func (l *layout) head(pr *ir.Proc, id int) int { return l.headPC[nodeKey(pr, id)] }

// newLayout finds the blocks of p. Heads are the entries, init's stop
// label, join points, branch targets and call continuations; extra (if
// not nil) names more heads; with small every node is one.
func newLayout(p *ir.Program, small bool, extra func(pr *ir.Proc, id int) bool) *layout {
	l := &layout{locs: []loc{{Kind: locEmpty}, {Kind: locDone}}, headPC: map[[2]int]int{}, retPC: map[int]int{}, byPC: map[int]*block{}}
	for _, pr := range p.Procs {
		heads := make([]bool, len(pr.Nodes))
		in := make([]int, len(pr.Nodes))
		heads[pr.Entry] = true
		if pr == p.Init && p.InitStop >= 0 {
			// The block at the stop label ends there, so where its edges
			// lead must be heads too.
			heads[p.InitStop] = true
			for _, e := range pr.Nodes[p.InitStop].Out {
				if e.To >= 0 {
					heads[e.To] = true
				}
			}
		}
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.To >= 0 {
					in[e.To]++
					if len(n.Out) > 1 || e.Kind == ir.Call || e.Kind == ir.Fork {
						heads[e.To] = true
					}
				}
				if e.Kind == ir.Fork {
					heads[e.ForkTo] = true // where the copy starts
				}
			}
		}
		for id, c := range in {
			if c > 1 || small || extra != nil && extra(pr, id) {
				heads[id] = true
			}
		}
		for id, h := range heads {
			if !h {
				continue
			}
			b := &block{PC: len(l.locs), Proc: pr, Head: id, InitAt: pr == p.Init && id == p.InitStop}
			l.headPC[nodeKey(pr, id)] = b.PC
			l.locs = append(l.locs, loc{Kind: locHead, Proc: pr, Node: id})
			n, seen := pr.Nodes[id], map[int]bool{id: true}
			for len(n.Out) == 1 && !b.InitAt {
				e := n.Out[0]
				if e.Kind == ir.Call || e.Kind == ir.Return || e.Kind == ir.EndThread || e.Kind == ir.Fork || heads[e.To] || seen[e.To] {
					break
				}
				b.Path = append(b.Path, e)
				n = pr.Nodes[e.To]
				seen[n.ID] = true
			}
			b.Last = n
			l.blocks = append(l.blocks, b)
			l.byPC[b.PC] = b
		}
	}
	for _, e := range p.Edges {
		if e.Kind == ir.Call {
			l.retPC[e.ID] = len(l.locs)
			l.locs = append(l.locs, loc{Kind: locRetSite, Call: e})
		}
	}
	return l
}

// ---- state ----

func (m *machine) newGlobals() {
	for _, g := range m.prog.Globals {
		m.globals = append(m.globals, m.sys.NewLatch(g.Name, latchInit(g.Init)))
	}
}

// newChoice makes the inputs that pick a block's final edge.
func (m *machine) newChoice() {
	most := 1
	for _, b := range m.lay.blocks {
		most = max(most, len(b.Last.Out))
	}
	for i := 0; i < width(most); i++ {
		m.choice = append(m.choice, m.sys.NewInput(fmt.Sprintf("choice.%d", i)))
	}
}

// newStack makes the latches of a thread's stack, named after prefix:
// per frame a program counter, the locals and, with saved, the atomic
// mode to restore. Frame 0 holds startPC, with start's initial locals
// when start is not nil.
func (m *machine) newStack(prefix string, start *ir.Proc, startPC int, saved bool) (pcs, locals [][]ts.Lit, sv []ts.Lit) {
	s := m.sys
	pcw := width(len(m.lay.locs))
	slots := 0
	for _, pr := range m.prog.Procs {
		slots = max(slots, len(pr.Locals))
	}
	for f := 0; f < m.depth; f++ {
		pc := pcEmpty
		if f == 0 {
			pc = startPC
		}
		frame := make([]ts.Lit, pcw)
		for i := range frame {
			init := ts.Init0
			if pc>>i&1 == 1 {
				init = ts.Init1
			}
			frame[i] = s.NewLatch(fmt.Sprintf("%spc[%d].%d", prefix, f, i), init)
		}
		pcs = append(pcs, frame)
		var ls []ts.Lit
		for k := 0; k < slots; k++ {
			init := ts.Init0
			if f == 0 && start != nil && k < len(start.Locals) {
				init = latchInit(start.Locals[k].Init)
			}
			ls = append(ls, s.NewLatch(fmt.Sprintf("%slocal[%d].%d", prefix, f, k), init))
		}
		locals = append(locals, ls)
		if saved {
			sv = append(sv, s.NewLatch(fmt.Sprintf("%ssaved[%d]", prefix, f), ts.Init0))
		}
	}
	return pcs, locals, sv
}

// width is the bits that tell n values apart.
func width(n int) int { return bits.Len(uint(n - 1)) }

func latchInit(v ir.Value) ts.Init {
	switch v {
	case ir.True:
		return ts.Init1
	case ir.False:
		return ts.Init0
	}
	return ts.InitFree
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
func (m *machine) bitsEq(a, b []ts.Lit) ts.Lit {
	r := ts.True
	for i := range a {
		r = m.sys.And(r, m.sys.Eq(a[i], b[i]))
	}
	return r
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

// pcIs is the condition that the running thread's frame f holds v.
func (m *machine) pcIs(f, v int) ts.Lit { return m.bitsEq(m.pc[f], constBits(v, len(m.pc[f]))) }

// stackEmptyFrom is the condition that the running thread's frames f and
// below are not in use.
func (m *machine) stackEmptyFrom(f int) ts.Lit {
	if f >= m.depth {
		return ts.True
	}
	return m.pcIs(f, pcEmpty)
}

func (m *machine) choiceIs(i int) ts.Lit { return m.bitsEq(m.choice, constBits(i, len(m.choice))) }

// set records that under sel latch l becomes val.
func (m *machine) set(l, sel, val ts.Lit) { m.record(m.next, l, sel, val) }

// setRun records that under sel the running thread's bit l becomes val.
func (m *machine) setRun(l, sel, val ts.Lit) { m.record(m.run, l, sel, val) }

func (m *machine) record(to map[ts.Lit][]guarded, l, sel, val ts.Lit) {
	if !m.sealed && val != l && sel != ts.False {
		to[l] = append(to[l], guarded{sel, val})
	}
}

// setPC sets the running thread's frame f to the constant pc under sel.
func (m *machine) setPC(f int, sel ts.Lit, pc int) {
	for i, l := range constBits(pc, len(m.pc[f])) {
		m.setRun(m.pc[f][i], sel, l)
	}
}

// setNext defines each latch's next state from the guarded writes to
// it: the value of the write selected, or the latch's own value when
// none is.
func setNext(ctx context.Context, s *ts.System, next map[ts.Lit][]guarded) {
	for _, li := range s.Latches() {
		halt.Point(ctx)
		gs := next[li.Lit]
		if len(gs) == 0 {
			continue
		}
		val, none := ts.False, ts.True
		for _, g := range gs {
			val = s.Or(val, s.And(g.sel, g.val))
			none = s.And(none, g.sel.Not())
		}
		s.SetNext(li.Lit, s.Or(val, s.And(none, li.Lit)))
	}
}

// ---- steps ----

// frameEnv is the running thread's top frame, running p.
func (m *machine) frameEnv(p *ir.Proc) *env {
	return &env{sys: m.sys, pool: &m.pool, proc: p, feas: ts.True,
		globals: append([]ts.Lit(nil), m.globals...),
		locals:  append([]ts.Lit(nil), m.locals[0][:len(p.Locals)]...),
		locks:   append([]ts.Lit(nil), m.mine...),
		others:  m.others,
		atomic:  m.atomic,
	}
}

// encodeBlocks adds the steps of every block.
func (m *machine) encodeBlocks(ctx context.Context) {
	for _, b := range m.lay.blocks {
		halt.Point(ctx)
		sel := m.pcIs(0, b.PC)
		base := m.runPath(b, sel, nil)
		if b.InitAt {
			sel = m.ends.initEnds(base, sel, initStands, 1)
		}
		for i, e := range b.Last.Out {
			m.alternative(b, base.clone(), m.sys.And(sel, m.choiceIs(i)), e, nil)
		}
	}
}

// runPath executes the straight-line part of b for the running thread,
// adding its violations under sel.
func (m *machine) runPath(b *block, sel ts.Lit, rec recorder) *env {
	v := m.frameEnv(b.Proc)
	m.ends.begin(b, v, sel)
	for _, e := range b.Path {
		bad := v.exec(e)
		v.mark(e)
		if rec != nil {
			rec(e, v.globals, v.locals, v.locks)
		}
		if b.Proc.Nodes[e.To].Error {
			bad = m.sys.Or(bad, v.feas)
		}
		m.addBad(sel, bad)
	}
	return v
}

// alternative encodes the step that ends with edge e of b's last node,
// selected by sel, from the state v after the straight-line part.
func (m *machine) alternative(b *block, v *env, sel ts.Lit, e *ir.Edge, rec recorder) {
	s, p := m.sys, m.prog
	switch {
	case starts(e):
		m.ends.start(b, v, sel, e)
	case e.Kind == ir.Call:
		m.call(v, sel, e, rec)
	case e.Kind == ir.Return:
		m.ret(b, v, sel, e, rec)
	case e.Kind == ir.EndThread:
		v.guard(e)
		sel = m.ends.initEnds(v, sel, initEndsThread, 0)
		m.addValid(s.And(sel, v.feas))
		m.ends.terminate(v, sel)
	default:
		m.addBad(sel, v.exec(e))
		v.mark(e)
		if rec != nil {
			rec(e, v.globals, v.locals, v.locks)
		}
		if b.Proc == p.Init && e.To == p.InitStop {
			sel = m.ends.initEnds(v, sel, initArrives, 1)
		}
		if _, ok := m.lay.headPC[nodeKey(b.Proc, e.To)]; !ok {
			panic("encode: a block ends at a node that is not a head")
		}
		m.addValid(s.And(sel, v.feas))
		m.goOn(v, sel, b.Proc, e.To)
	}
}

// goOn finishes a step after which the running thread's frame 0 goes on
// at node id of pr with the state of v.
func (m *machine) goOn(v *env, sel ts.Lit, pr *ir.Proc, id int) {
	m.setPC(0, sel, m.lay.head(pr, id))
	for k, l := range v.locals {
		m.setRun(m.locals[0][k], sel, l)
	}
	m.writeShared(sel, v)
}

// writeShared writes the globals, the running thread's locks and its
// atomic mode under sel.
func (m *machine) writeShared(sel ts.Lit, v *env) {
	for i, l := range v.globals {
		m.set(m.globals[i], sel, l)
	}
	for i, l := range v.locks {
		m.setRun(m.mine[i], sel, l)
	}
	if m.atomic != ts.False {
		m.setRun(m.atomic, sel, v.atomic)
	}
}

func (m *machine) call(v *env, sel ts.Lit, e *ir.Edge, rec recorder) {
	s := m.sys
	args := v.callArgs(e)
	full := ts.True // frame 0 is in use while its thread runs
	if m.depth > 1 {
		full = m.pcIs(m.depth-1, pcEmpty).Not()
	}
	m.addOvf(s.And(sel, s.And(v.feas, full)))
	v.assume(full.Not())
	callee := v.enter(e.Callee, v.newLocals(e.Callee, args))
	if e.Callee.Atomic {
		callee.atomic = ts.True // the whole call runs atomically
	}
	callee.mark(e)
	callee.enforce(e.Callee)
	if rec != nil {
		rec(e, callee.globals, callee.locals, callee.locks)
	}
	m.addValid(s.And(sel, callee.feas))
	// Shift the stack down: frame f+1 gets frame f, the caller's frame
	// holding the return site.
	for f := m.depth - 1; f >= 1; f-- {
		if f == 1 {
			m.setPC(1, sel, m.lay.retPC[e.ID])
		} else {
			for i := range m.pc[f] {
				m.setRun(m.pc[f][i], sel, m.pc[f-1][i])
			}
		}
		for k := range m.locals[f] {
			val := m.locals[f-1][k]
			if f == 1 && k < len(v.locals) {
				val = v.locals[k]
			}
			m.setRun(m.locals[f][k], sel, val)
		}
		if m.saved != nil {
			m.setRun(m.saved[f], sel, m.saved[f-1])
		}
	}
	if e.Callee.Atomic && m.saved != nil {
		m.setRun(m.saved[0], sel, v.atomic)
	}
	m.goOn(callee, sel, e.Callee, e.Callee.Entry)
}

func (m *machine) ret(b *block, v *env, sel ts.Lit, e *ir.Edge, rec recorder) {
	s, p := m.sys, m.prog
	v.guard(e)
	vals := v.results(e)
	if rec != nil {
		rec(e, v.globals, v.locals, v.locks)
	}
	// The entry frame returns: the thread terminates, or init ends.
	top := s.And(sel, m.stackEmptyFrom(1))
	if b.Proc == p.Init {
		top = m.ends.initEnds(v, top, initReturns, 0)
	}
	m.addValid(s.And(top, v.feas))
	m.ends.terminate(v, top)
	// Otherwise return to the caller whose return site frame 1 holds.
	for _, call := range p.Edges {
		if call.Kind != ir.Call || call.Callee != b.Proc || m.depth < 2 {
			continue
		}
		selR := s.And(sel, m.pcIs(1, m.lay.retPC[call.ID]))
		// All of frame 1's slots, so that frame 0 becomes frame 1.
		r := v.enter(call.Proc, append([]ts.Lit(nil), m.locals[1]...))
		r.globals = append([]ts.Lit(nil), v.globals...)
		for i, t := range call.Targets {
			if t != nil {
				r.write(t, vals[i])
			}
		}
		if b.Proc.Atomic && m.saved != nil {
			r.atomic = m.saved[0] // the mode before the atomic call
		}
		r.mark(e)
		r.enforce(call.Proc)
		if call.Proc == p.Init && call.To == p.InitStop {
			selR = m.ends.initEnds(r, selR, initArrives, 2)
		}
		m.addValid(s.And(selR, r.feas))
		// Shift the stack up: frame f gets frame f+1 for f >= 1, and the
		// last frame becomes empty.
		for f := 1; f < m.depth; f++ {
			for i := range m.pc[f] {
				val := ts.False // pcEmpty
				if f+1 < m.depth {
					val = m.pc[f+1][i]
				}
				m.setRun(m.pc[f][i], selR, val)
			}
			if f+1 < m.depth {
				for k := range m.locals[f] {
					m.setRun(m.locals[f][k], selR, m.locals[f+1][k])
				}
			}
		}
		for f := 0; m.saved != nil && f+1 < m.depth; f++ {
			m.setRun(m.saved[f], selR, m.saved[f+1])
		}
		m.goOn(r, selR, call.Proc, call.To)
	}
}

// starts reports whether e starts a thread.
func starts(e *ir.Edge) bool { return e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn }
