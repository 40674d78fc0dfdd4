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
	// heldShared: the last len(locks) globals say, per lock, that any
	// thread holds it (the context encoding keeps that in the shared
	// state, which the other threads see), kept up to date here.
	heldShared bool
	atomic     ts.Lit // the running thread is in an atomic section (direct encoding only)
	feas       ts.Lit // the step so far can be taken
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

// guard assumes e's guard.
func (v *env) guard(e *ir.Edge) {
	if e.Guard != nil {
		v.assume(v.eval(e.Guard, nil, nil))
	}
}

// callArgs assumes the guard of call (or spawn) edge e and evaluates its
// arguments.
func (v *env) callArgs(e *ir.Edge) []ts.Lit {
	v.guard(e)
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

// setLock sets whether the running thread holds lock i.
func (v *env) setLock(i int, mine ts.Lit) {
	v.locks[i] = mine
	if v.heldShared {
		v.globals[len(v.globals)-len(v.locks)+i] = v.held(i)
	}
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
	v.guard(e)
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
		v.setLock(e.Lock.Index, ts.True)
	case ir.Release:
		mine := v.locks[e.Lock.Index]
		bad = s.And(v.feas, mine.Not())
		v.assume(mine)
		v.setLock(e.Lock.Index, ts.False)
	case ir.TryAcquire:
		free := v.held(e.Lock.Index).Not()
		if t := e.Targets[0]; t != nil {
			v.write(t, free)
		}
		v.setLock(e.Lock.Index, s.Or(v.locks[e.Lock.Index], free))
	default:
		panic(fmt.Sprintf("encode: %v edge inside a block", e.Kind))
	}
	v.enforce(v.proc)
	return bad
}

// recorder receives the symbolic state after each edge of a replayed
// block; the witness builder evaluates it under a model.
type recorder func(e *ir.Edge, globals, locals, locks []ts.Lit)

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

// results are the values that return edge e gives its caller; a return
// without values returns arbitrary ones.
func (v *env) results(e *ir.Edge) []ts.Lit {
	vals := make([]ts.Lit, e.Proc.Returns)
	for i := range vals {
		if i < len(e.Values) {
			vals[i] = v.eval(e.Values[i], nil, nil)
		} else {
			vals[i] = v.fresh()
		}
	}
	return vals
}
