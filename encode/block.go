package encode

import (
	"fmt"

	"bmc/ir"
	"bmc/ts"
)

// env is the symbolic state of the running frame while a block executes.
type env struct {
	sys     *ts.System
	pool    *[]ts.Lit // inputs for nondeterministic values, shared by all blocks
	used    int       // pool inputs used so far in this step
	proc    *ir.Proc
	globals []ts.Lit
	locals  []ts.Lit
	locks   []ts.Lit // held by the running thread
	// others says, per lock, that another thread holds it; nil in a
	// sequential program, where no other thread exists.
	others []ts.Lit
	atomic ts.Lit // the running thread is in an atomic section (direct encoding only)
	feas   ts.Lit // the step so far can be taken
}

func (en *Encoding) frameEnv(p *ir.Proc) *env {
	v := &env{sys: en.Sys, pool: &en.Pool, proc: p, feas: ts.True,
		globals: append([]ts.Lit(nil), en.Globals...),
		locals:  append([]ts.Lit(nil), en.Locals[0][:len(p.Locals)]...),
		locks:   append([]ts.Lit(nil), en.Locks...),
	}
	return v
}

func (v *env) clone() *env {
	c := *v
	c.globals = append([]ts.Lit(nil), v.globals...)
	c.locals = append([]ts.Lit(nil), v.locals...)
	c.locks = append([]ts.Lit(nil), v.locks...)
	return &c
}

// enter is an env for a new frame of p with the given locals that
// continues v's step: same shared state, feasibility and pool position.
func (v *env) enter(p *ir.Proc, locals []ts.Lit) *env {
	c := *v
	c.proc, c.locals = p, locals
	return &c
}

// fresh returns the next pool input: an arbitrary value.
func (v *env) fresh() ts.Lit {
	for len(*v.pool) <= v.used {
		*v.pool = append(*v.pool, v.sys.NewInput(fmt.Sprintf("nondet.%d", len(*v.pool))))
	}
	v.used++
	return (*v.pool)[v.used-1]
}

func (v *env) read(x *ir.Var) ts.Lit {
	if x.Global {
		return v.globals[x.Index]
	}
	return v.locals[x.Index]
}

func (v *env) write(x *ir.Var, l ts.Lit) {
	if x.Global {
		v.globals[x.Index] = l
	} else {
		v.locals[x.Index] = l
	}
}

// eval builds e over the current values; post gives new values for 'x,
// passive the values of a hypothetical other thread's x$ (there is no
// other thread in a sequential program).
func (v *env) eval(e *ir.Expr, post, passive map[*ir.Var]ts.Lit) ts.Lit {
	s := v.sys
	switch e.Op {
	case ir.OpConst:
		if e.Val {
			return ts.True
		}
		return ts.False
	case ir.OpNondet:
		return v.fresh()
	case ir.OpVar:
		return v.read(e.Var)
	case ir.OpPrimed:
		if l, ok := post[e.Var]; ok {
			return l
		}
		return v.read(e.Var)
	case ir.OpPassive:
		if l, ok := passive[e.Var]; ok {
			return l
		}
		l := v.fresh()
		passive[e.Var] = l
		return l
	case ir.OpNot:
		return v.eval(e.X, post, passive).Not()
	case ir.OpChoose:
		t, f := v.eval(e.X, post, passive), v.eval(e.Y, post, passive)
		return s.Ite(t, ts.True, s.Ite(f, ts.False, v.fresh()))
	}
	x, y := v.eval(e.X, post, passive), v.eval(e.Y, post, passive)
	switch e.Op {
	case ir.OpAnd:
		return s.And(x, y)
	case ir.OpOr:
		return s.Or(x, y)
	case ir.OpXor:
		return s.Xor(x, y)
	case ir.OpEq:
		return s.Eq(x, y)
	case ir.OpImplies:
		return s.Implies(x, y)
	}
	panic(fmt.Sprintf("encode: unknown operator %d", e.Op))
}

// assume adds c to the step's feasibility.
func (v *env) assume(c ts.Lit) { v.feas = v.sys.And(v.feas, c) }

// enforce assumes p's enforce clause on the current values.
func (v *env) enforce(p *ir.Proc) {
	if p.Enforce != nil {
		v.assume(v.eval(p.Enforce, nil, nil))
	}
}

// callArgs assumes the guard of call (or spawn) edge e and evaluates its
// arguments.
func (v *env) callArgs(e *ir.Edge) []ts.Lit {
	if e.Guard != nil {
		v.assume(v.eval(e.Guard, nil, nil))
	}
	args := make([]ts.Lit, len(e.Args))
	for i, a := range e.Args {
		args[i] = v.eval(a, nil, nil)
	}
	return args
}

// held is the condition that lock i is held by any thread.
func (v *env) held(i int) ts.Lit {
	if v.others == nil {
		return v.locks[i]
	}
	return v.sys.Or(v.locks[i], v.others[i])
}

// mark applies e's atomic mark to the running thread's atomic mode.
func (v *env) mark(e *ir.Edge) {
	switch e.Atomic {
	case ir.AtomicBegin:
		v.atomic = ts.True
	case ir.AtomicEnd:
		v.atomic = ts.False
	}
}

// exec executes an edge that stays in the frame and returns the
// condition under which it violates the property (given the step got
// this far).
func (v *env) exec(e *ir.Edge) (bad ts.Lit) {
	s := v.sys
	bad = ts.False
	if e.Guard != nil {
		v.assume(v.eval(e.Guard, nil, nil))
	}
	switch e.Kind {
	case ir.Skip:
	case ir.Assert:
		c := v.eval(e.Cond, nil, nil)
		bad = s.And(v.feas, c.Not())
		v.assume(c)
	case ir.Assign:
		vals := make([]ts.Lit, len(e.Values))
		for i, x := range e.Values {
			vals[i] = v.eval(x, nil, nil)
		}
		if e.Constrain != nil {
			post := map[*ir.Var]ts.Lit{}
			for i, t := range e.Targets {
				post[t] = vals[i]
			}
			v.assume(v.eval(e.Constrain, post, map[*ir.Var]ts.Lit{}))
		}
		for i, t := range e.Targets {
			v.write(t, vals[i])
		}
	case ir.Havoc:
		for _, t := range e.Targets {
			v.write(t, v.fresh())
		}
	case ir.Acquire:
		v.assume(v.held(e.Lock.Index).Not())
		v.locks[e.Lock.Index] = ts.True
	case ir.Release:
		mine := v.locks[e.Lock.Index]
		bad = s.And(v.feas, mine.Not())
		v.assume(mine)
		v.locks[e.Lock.Index] = ts.False
	case ir.TryAcquire:
		free := v.held(e.Lock.Index).Not()
		if t := e.Targets[0]; t != nil {
			v.write(t, free)
		}
		v.locks[e.Lock.Index] = s.Or(v.locks[e.Lock.Index], free)
	default:
		panic(fmt.Sprintf("encode: %v edge inside a block", e.Kind))
	}
	v.enforce(v.proc)
	return bad
}

// Recorder receives the symbolic state after each edge of a replayed
// block; the witness builder evaluates it under a model.
type Recorder func(e *ir.Edge, globals, locals, locks []ts.Lit)

// runPath executes the straight-line part of b from the frame-0 values,
// adding its violations under sel.
//
// The step starts by assuming the running function's enforce clause on
// those values. Every step ends by assuming the clause of the frame it
// leaves on top (after each edge, on entering a callee, on returning to a
// caller, when main starts), so after the first step this adds nothing;
// in the initial state it is the explicit interpreter's rule that the
// initial frame (init's, or main's without init) satisfies its clause.
// With it, neither a violation nor a step is possible from an initial
// state that breaks the clause.
func (en *Encoding) runPath(b *Block, sel ts.Lit, rec Recorder) *env {
	v := en.frameEnv(b.Proc)
	v.enforce(b.Proc)
	if b.Proc.Nodes[b.Head].Error {
		en.addBad(sel, v.feas)
	}
	en.execPath(b, v, sel, rec)
	return v
}

// execPath executes b's straight-line edges on v (atomic marks included,
// which only the direct encoding reads), adding their violations (a
// failing step, an error label reached) under sel.
func (c *conditions) execPath(b *Block, v *env, sel ts.Lit, rec Recorder) {
	for _, e := range b.Path {
		bad := v.exec(e)
		v.mark(e)
		if rec != nil {
			rec(e, v.globals, v.locals, v.locks)
		}
		if b.Proc.Nodes[e.To].Error {
			bad = c.sys.Or(bad, v.feas)
		}
		c.addBad(sel, bad)
	}
}

// conditions collect the conditions of the properties and of the
// constraint while a system is built; once it is sealed, blocks are only
// re-run to read witnesses, which adds nothing.
type conditions struct {
	sys    *ts.System
	valid  []ts.Lit // one per alternative: selected and feasible
	bad    []ts.Lit // violation conditions
	ovf    []ts.Lit // overflow conditions
	sealed bool
}

func (c *conditions) addBad(sel, bad ts.Lit) {
	if bad != ts.False && !c.sealed {
		c.bad = append(c.bad, c.sys.And(sel, bad))
	}
}

func (c *conditions) addOvf(l ts.Lit) {
	if !c.sealed {
		c.ovf = append(c.ovf, l)
	}
}

func (c *conditions) addValid(l ts.Lit) {
	if !c.sealed {
		c.valid = append(c.valid, l)
	}
}

// encodeBlock adds the steps that start at b's head.
func (en *Encoding) encodeBlock(b *Block) {
	s := en.Sys
	sel := en.pcIs(0, b.PC)
	base := en.runPath(b, sel, nil)
	if b.InitAt {
		top := en.stackEmpty()
		en.startMain(base.clone(), s.And(sel, top))
		sel = s.And(sel, top.Not())
	}
	for i, e := range b.Last.Out {
		en.alternative(b, base.clone(), s.And(sel, en.choiceIs(i)), e, nil)
	}
}

// alternative encodes the step that ends with edge e of b's last node,
// selected by sel, from the state v after the straight-line part.
func (en *Encoding) alternative(b *Block, v *env, sel ts.Lit, e *ir.Edge, rec Recorder) {
	s := en.Sys
	switch e.Kind {
	case ir.Call:
		en.call(v, sel, e, rec)
	case ir.Return:
		en.ret(b, v, sel, e, rec)
	case ir.EndThread:
		if e.Guard != nil {
			v.assume(v.eval(e.Guard, nil, nil))
		}
		en.addValid(s.And(sel, v.feas))
		en.setPC(0, sel, PCDone)
	default:
		en.addBad(sel, v.exec(e))
		if rec != nil {
			rec(e, v.globals, v.locals, v.locks)
		}
		to, ok := en.headPC[[2]int{b.Proc.Index, e.To}]
		if !ok {
			panic("encode: a block ends at a node that is not a head")
		}
		en.addValid(s.And(sel, v.feas))
		en.setPC(0, sel, to)
		en.setFrame(sel, v.globals, v.locals, v.locks)
	}
}

// setPC sets frame d's program counter to the constant pc under sel.
func (en *Encoding) setPC(d int, sel ts.Lit, pc int) {
	for i, l := range en.pcConst(pc) {
		en.set(en.PC[d][i], sel, l)
	}
}

// setFrame sets the globals, locks and frame-0 locals under sel.
func (en *Encoding) setFrame(sel ts.Lit, globals, locals, locks []ts.Lit) {
	for i, l := range globals {
		if l != en.Globals[i] {
			en.set(en.Globals[i], sel, l)
		}
	}
	for i, l := range locks {
		if l != en.Locks[i] {
			en.set(en.Locks[i], sel, l)
		}
	}
	for k, l := range locals {
		if l != en.Locals[0][k] {
			en.set(en.Locals[0][k], sel, l)
		}
	}
}

// newLocals are the locals of a frame entering p: the arguments, then
// each local's initial value (arbitrary unless declared with one).
func (v *env) newLocals(p *ir.Proc, args []ts.Lit) []ts.Lit {
	out := make([]ts.Lit, len(p.Locals))
	for k, x := range p.Locals {
		switch {
		case k < len(args):
			out[k] = args[k]
		case x.Init == ir.True:
			out[k] = ts.True
		case x.Init == ir.False:
			out[k] = ts.False
		default:
			out[k] = v.fresh()
		}
	}
	return out
}

func (en *Encoding) call(v *env, sel ts.Lit, e *ir.Edge, rec Recorder) {
	s := en.Sys
	args := v.callArgs(e)
	full := en.pcIs(en.Depth-1, PCEmpty).Not()
	en.addOvf(s.And(sel, s.And(v.feas, full)))
	v.assume(full.Not())
	caller := v.locals
	callee := v.enter(e.Callee, v.newLocals(e.Callee, args))
	callee.enforce(e.Callee)
	if rec != nil {
		rec(e, callee.globals, callee.locals, callee.locks)
	}
	en.addValid(s.And(sel, callee.feas))
	// Shift the stack down: frame d+1 gets frame d.
	for d := en.Depth - 1; d >= 2; d-- {
		for i := range en.PC[d] {
			en.set(en.PC[d][i], sel, en.PC[d-1][i])
		}
		for k := range en.Locals[d] {
			en.set(en.Locals[d][k], sel, en.Locals[d-1][k])
		}
	}
	if en.Depth >= 2 {
		en.setPC(1, sel, en.retPC[e.ID])
		for k := range en.Locals[1] {
			val := en.Locals[0][k]
			if k < len(caller) {
				val = caller[k]
			}
			en.set(en.Locals[1][k], sel, val)
		}
	}
	en.setPC(0, sel, en.headPC[[2]int{e.Callee.Index, e.Callee.Entry}])
	locals := append([]ts.Lit(nil), en.Locals[0]...)
	copy(locals, callee.locals)
	en.setFrame(sel, callee.globals, locals, callee.locks)
}

func (en *Encoding) ret(b *Block, v *env, sel ts.Lit, e *ir.Edge, rec Recorder) {
	s := en.Sys
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
	if rec != nil {
		rec(e, v.globals, v.locals, v.locks)
	}
	// The thread's entry frame returns: the program ends (or init ends
	// and main starts).
	top := s.And(sel, en.stackEmpty())
	if b.Proc == en.Prog.Init {
		en.startMain(v.clone(), top)
	} else {
		en.addValid(s.And(top, v.feas))
		en.setPC(0, top, PCDone)
		en.setFrame(top, v.globals, nil, v.locks)
	}
	// Otherwise return to the caller whose return site frame 1 holds.
	for _, call := range en.Prog.Edges {
		if call.Kind != ir.Call || call.Callee != b.Proc || en.Depth < 2 {
			continue
		}
		selR := s.And(sel, en.pcIs(1, en.retPC[call.ID]))
		r := v.enter(call.Proc, append([]ts.Lit(nil), en.Locals[1][:len(call.Proc.Locals)]...))
		r.globals = append([]ts.Lit(nil), v.globals...)
		for i, t := range call.Targets {
			if t != nil {
				r.write(t, vals[i])
			}
		}
		r.enforce(call.Proc)
		en.addValid(s.And(selR, r.feas))
		shiftUp(en.PC, en.Locals, selR, en.set)
		en.setPC(0, selR, en.headPC[[2]int{call.Proc.Index, call.To}])
		locals := append([]ts.Lit(nil), en.Locals[1]...)
		copy(locals, r.locals)
		en.setFrame(selR, r.globals, locals, r.locks)
	}
}

// shiftUp moves the stack up under sel, as a return does: frame f gets
// frame f+1's program counter and locals for f >= 1, and the last frame
// becomes empty (frame 0 is written by the caller).
func shiftUp(pc, locals [][]ts.Lit, sel ts.Lit, set func(l, sel, val ts.Lit)) {
	depth := len(pc)
	for f := 1; f < depth; f++ {
		for i := range pc[f] {
			val := ts.False // PCEmpty
			if f+1 < depth {
				val = pc[f+1][i]
			}
			set(pc[f][i], sel, val)
		}
		if f+1 < depth {
			for k := range locals[f] {
				set(locals[f][k], sel, locals[f+1][k])
			}
		}
	}
}

// stackEmpty is the condition that frame 0 is the only frame in use.
func (en *Encoding) stackEmpty() ts.Lit {
	if en.Depth < 2 {
		return ts.True
	}
	return en.pcIs(1, PCEmpty)
}

// startMain replaces the finished init by main's entry frame under sel.
func (en *Encoding) startMain(v *env, sel ts.Lit) {
	m := en.Main
	start := v.enter(m, v.newLocals(m, nil))
	start.enforce(m)
	en.addValid(en.Sys.And(sel, start.feas))
	en.setPC(0, sel, en.headPC[[2]int{m.Index, m.Entry}])
	locals := append([]ts.Lit(nil), en.Locals[0]...)
	copy(locals, start.locals)
	en.setFrame(sel, start.globals, locals, start.locks)
}
