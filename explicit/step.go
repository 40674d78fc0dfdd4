package explicit

import (
	"fmt"
	"iter"
	"slices"

	"bmc/ir"
)

// reads lists the variables an edge reads before it acts.
type reads struct {
	vars    []*ir.Var // current-scope variables (globals and top-frame locals)
	passive []*ir.Var // x$ copies in the other threads
	// guard: the variables of vars that only the guard reads, which
	// satisfying splits as far as the guard's value needs.
	guard []*ir.Var
}

func (c *Checker) readsOf(e *ir.Edge) *reads {
	if r, ok := c.readCache[e]; ok {
		return r
	}
	r := &reads{}
	targets := map[*ir.Var]bool{}
	for _, v := range e.Targets {
		targets[v] = true
	}
	seenPassive := map[*ir.Var]bool{}
	// The variables the guard reads and those the rest of the step reads,
	// each in order of appearance: a variable in both is split in full.
	var inGuard, inBody []*ir.Var
	visit := func(x *ir.Expr, vars *[]*ir.Var) {
		x.Walk(func(x *ir.Expr) {
			switch {
			case x.Op == ir.OpVar, x.Op == ir.OpPrimed && !targets[x.Var]:
				if !slices.Contains(*vars, x.Var) {
					*vars = append(*vars, x.Var)
				}
			case x.Op == ir.OpPassive:
				if !seenPassive[x.Var] {
					seenPassive[x.Var] = true
					r.passive = append(r.passive, x.Var)
				}
			}
		})
	}
	visit(e.Guard, &inGuard)
	visit(e.Constrain, &inBody)
	visit(e.Cond, &inBody)
	for _, x := range e.Values {
		visit(x, &inBody)
	}
	for _, x := range e.PassiveValues {
		visit(x, &inBody)
	}
	for _, x := range e.Args {
		visit(x, &inBody)
	}
	var both, own, others []*ir.Var
	for _, v := range inGuard {
		if slices.Contains(inBody, v) {
			both = append(both, v)
		} else {
			own = append(own, v)
		}
	}
	for _, v := range inBody {
		if !slices.Contains(inGuard, v) {
			others = append(others, v)
		}
	}
	r.vars = slices.Concat(both, others, own)
	if len(r.passive) == 0 {
		// The guard's own variables go last, apart.
		r.guard = own
	}
	c.readCache[e] = r
	return r
}

// exprVars lists the variables an expression reads.
func exprVars(x *ir.Expr) []*ir.Var {
	var out []*ir.Var
	seen := map[*ir.Var]bool{}
	x.Walk(func(x *ir.Expr) {
		if x.Op == ir.OpVar && !seen[x.Var] {
			seen[x.Var] = true
			out = append(out, x.Var)
		}
	})
	return out
}

// passiveThreads are the threads that receive a broadcast of thread t:
// every other live thread currently running the same procedure.
func passiveThreads(s *state, t int, p *ir.Proc) []int {
	var out []int
	for i := range s.threads {
		if i != t && s.threads[i].alive() && s.threads[i].top().proc == p {
			out = append(out, i)
		}
	}
	return out
}

// splits yields the refinements of s in which every given slot is
// definite, one at a time: s itself when all are, otherwise one new
// state for each combination of values of the unknown slots (the first
// slot varying fastest, all F first). n unknown slots give 2^n states,
// so they are never all made at once: a consumer that stops early (at a
// timeout or the memory limit) stops their making. s is never modified.
func splits(s *state, slots []slot) iter.Seq[*state] {
	return func(yield func(*state) bool) {
		var open []slot
		for _, sl := range slots {
			if s.get(sl) == ir.Unknown && !slices.Contains(open, sl) {
				open = append(open, sl)
			}
		}
		if len(open) == 0 {
			yield(s)
			return
		}
		values := make([]bool, len(open))
		for {
			r := s.clone()
			for i, sl := range open {
				r.set(sl, single(values[i]).value())
			}
			if !yield(r) {
				return
			}
			// The next combination: count up in binary, slot 0 lowest.
			i := 0
			for i < len(values) && values[i] {
				values[i] = false
				i++
			}
			if i == len(values) {
				return
			}
			values[i] = true
		}
	}
}

// step executes edge e for thread t in s and sends every successor to
// emit; violations are reported through c.fail.
func (c *Checker) step(s *state, t int, e *ir.Edge, emit func(*state)) {
	r := c.readsOf(e)
	// The guard's own variables are split only as far as its value
	// needs: an equality with a guessed value (the eager
	// sequentialization's copies of the shared state) keeps one value
	// instead of every combination. Every other variable read is split.
	own := len(r.vars) - len(r.guard)
	var slots, guardSlots []slot
	for _, v := range r.vars[:own] {
		slots = append(slots, s.varSlot(v, t))
	}
	for _, v := range r.guard {
		guardSlots = append(guardSlots, s.varSlot(v, t))
	}
	if len(r.passive) > 0 {
		for _, p := range passiveThreads(s, t, e.Proc) {
			for _, v := range r.passive {
				slots = append(slots, s.varSlot(v, p))
			}
		}
	}
	for g := range c.satisfying(s, t, e.Guard, guardSlots) {
		for v := range splits(g, slots) {
			if c.failed || c.halted() {
				return
			}
			c.apply(v, t, e, emit)
		}
	}
}

// satisfying yields the refinements of s in which guard can be true,
// splitting the unknown slots (read by the guard only) one at a time,
// the last first, and only while the guard's value depends on them.
// When the guard needs all of them, the refinements come in the order
// of splits. The search's limits end the splitting, which can be
// exponential (x = y with both arbitrary, for many pairs).
func (c *Checker) satisfying(s *state, t int, guard *ir.Expr, slots []slot) iter.Seq[*state] {
	return func(yield func(*state) bool) {
		var walk func(s *state, n int) bool // n: slots[:n] may be unknown
		walk = func(s *state, n int) bool {
			if guard == nil {
				return yield(s)
			}
			if c.halted() {
				return false
			}
			v := (&env{s: s, t: t, passive: -1}).eval(guard)
			if v&canT == 0 {
				return true
			}
			for n > 0 && s.get(slots[n-1]) != ir.Unknown {
				n--
			}
			if v == canT || n == 0 {
				return yield(s)
			}
			for _, val := range [2]ir.Value{ir.False, ir.True} {
				r := s.clone()
				r.set(slots[n-1], val)
				if !walk(r, n-1) {
					return false
				}
			}
			return true
		}
		walk(s, len(slots))
	}
}

// apply runs e on a state in which everything e reads is definite.
func (c *Checker) apply(v *state, t int, e *ir.Edge, emit func(*state)) {
	en := &env{s: v, t: t, passive: -1}
	if e.Guard != nil && en.eval(e.Guard)&canT == 0 {
		return
	}
	advance := func() *state {
		n := v.clone()
		n.threads[t].top().pc = e.To
		return n
	}
	switch e.Kind {
	case ir.Skip:
		emit(advance())
	case ir.Assert:
		r := en.eval(e.Cond)
		if r&canF != 0 {
			c.fail(v, fmt.Sprintf("assertion failed: %s", e.Stmt))
			return
		}
		emit(advance())
	case ir.Assign:
		c.assign(v, t, e, en, emit)
	case ir.Havoc:
		n := advance()
		for _, x := range e.Targets {
			n.set(n.varSlot(x, t), ir.Unknown)
		}
		emit(n)
	case ir.Call:
		c.call(v, t, e, en, emit)
	case ir.Return:
		c.ret(v, t, e, en, emit)
	case ir.Acquire:
		if v.locks[e.Lock.Index] >= 0 {
			return // blocked
		}
		n := advance()
		n.locks[e.Lock.Index] = int16(t)
		emit(n)
	case ir.Release:
		if int(v.locks[e.Lock.Index]) != t {
			c.fail(v, fmt.Sprintf("release of lock %s, which this thread does not hold", e.Lock.Name))
			return
		}
		n := advance()
		n.locks[e.Lock.Index] = -1
		emit(n)
	case ir.TryAcquire:
		n := advance()
		taken := n.locks[e.Lock.Index] < 0
		if taken {
			n.locks[e.Lock.Index] = int16(t)
		}
		if x := e.Targets[0]; x != nil {
			n.set(n.varSlot(x, t), single(taken).value())
		}
		emit(n)
	case ir.Fork:
		if !c.roomForThread(v) {
			return
		}
		n := advance()
		child := v.threads[t].clone()
		child.atomic = false
		child.top().pc = e.ForkTo
		n.threads = append(n.threads, child)
		emit(n)
	case ir.EndThread:
		n := v.clone()
		n.threads[t].frames = nil
		n.threads[t].atomic = false
		emit(n)
	default:
		panic(fmt.Sprintf("explicit: unknown edge kind %v", e.Kind))
	}
}

func (c *Checker) roomForThread(s *state) bool {
	if len(s.threads) >= c.opts.MaxThreads {
		c.threadHit = true
		return false
	}
	return true
}

// assign performs a parallel assignment, with its constrain clause and
// broadcast targets. Targets that the constraint does not mention and
// whose value is arbitrary become Unknown instead of being enumerated.
func (c *Checker) assign(v *state, t int, e *ir.Edge, en *env, emit func(*state)) {
	vals := make([]vset, len(e.Values))
	for i, x := range e.Values {
		vals[i] = en.eval(x)
	}
	passives := passiveThreads(v, t, e.Proc)
	// Broadcast values are computed on the old state, per passive thread.
	var bcast [][]vset
	for _, p := range passives {
		pen := &env{s: v, t: t, passive: p}
		row := make([]vset, len(e.PassiveValues))
		for i, x := range e.PassiveValues {
			row[i] = pen.eval(x)
		}
		bcast = append(bcast, row)
	}
	write := func(post map[*ir.Var]ir.Value) {
		n := v.clone()
		n.threads[t].top().pc = e.To
		for i, x := range e.Targets {
			val, ok := post[x]
			if !ok {
				val = vals[i].value()
			}
			n.set(n.varSlot(x, t), val)
		}
		for j, p := range passives {
			for i, x := range e.PassiveTargets {
				n.set(n.varSlot(x, p), bcast[j][i].value())
			}
		}
		emit(n)
	}
	if e.Constrain == nil {
		write(nil)
		return
	}
	// Enumerate the new values of the targets the constraint mentions.
	primed := map[*ir.Var]bool{}
	e.Constrain.Walk(func(x *ir.Expr) {
		if x.Op == ir.OpPrimed {
			primed[x.Var] = true
		}
	})
	var enumerated []int
	for i, x := range e.Targets {
		if primed[x] {
			enumerated = append(enumerated, i)
		}
	}
	post := map[*ir.Var]ir.Value{}
	var rec func(k int)
	rec = func(k int) {
		if c.failed || c.halted() {
			return
		}
		if k == len(enumerated) {
			if c.constraintHolds(v, t, e, passives, post) {
				write(post)
			}
			return
		}
		i := enumerated[k]
		for _, b := range [2]bool{false, true} {
			if vals[i]&single(b) != 0 {
				post[e.Targets[i]] = single(b).value()
				rec(k + 1)
			}
		}
		delete(post, e.Targets[i])
	}
	rec(0)
}

// constraintHolds evaluates a constrain clause. With x$ references it must
// hold for every passive thread; without passive threads, for some values
// of a hypothetical one (the clause then only restricts the active thread).
func (c *Checker) constraintHolds(v *state, t int, e *ir.Edge, passives []int, post map[*ir.Var]ir.Value) bool {
	r := c.readsOf(e)
	inPassive := false
	e.Constrain.Walk(func(x *ir.Expr) { inPassive = inPassive || x.Op == ir.OpPassive })
	if !inPassive {
		en := &env{s: v, t: t, passive: -1, post: post}
		return en.eval(e.Constrain)&canT != 0
	}
	if len(passives) > 0 {
		for _, p := range passives {
			en := &env{s: v, t: t, passive: p, post: post}
			if en.eval(e.Constrain)&canT == 0 {
				return false
			}
		}
		return true
	}
	hyp := map[*ir.Var]ir.Value{}
	for bits := 0; bits < 1<<len(r.passive); bits++ {
		for i, x := range r.passive {
			hyp[x] = single(bits>>i&1 == 1).value()
		}
		en := &env{s: v, t: t, passive: -1, hyp: hyp, post: post}
		if en.eval(e.Constrain)&canT != 0 {
			return true
		}
	}
	return false
}

// newFrame builds the frame for entering p with the given argument values.
func newFrame(p *ir.Proc, call int, args []vset) *frame {
	f := &frame{proc: p, pc: p.Entry, call: call, locals: make([]ir.Value, len(p.Locals))}
	for i, x := range p.Locals {
		f.locals[i] = x.Init
	}
	for i, a := range args {
		f.locals[i] = a.value()
	}
	return f
}

func (c *Checker) call(v *state, t int, e *ir.Edge, en *env, emit func(*state)) {
	args := make([]vset, len(e.Args))
	for i, a := range e.Args {
		args[i] = en.eval(a)
	}
	if e.Spawn {
		if !c.roomForThread(v) {
			return
		}
		n := v.clone()
		n.threads[t].top().pc = e.To
		n.threads = append(n.threads, thread{entry: e.Callee, frames: []*frame{newFrame(e.Callee, -1, args)}})
		emit(n)
		return
	}
	if len(v.threads[t].frames) >= c.opts.Depth {
		c.depthHit = true
		return
	}
	n := v.clone()
	th := &n.threads[t]
	th.top().pc = e.To
	f := newFrame(e.Callee, e.ID, args)
	if e.Callee.Atomic {
		f.atomic = th.atomic
		th.atomic = true
	}
	th.frames = append(th.frames, f)
	emit(n)
}

func (c *Checker) ret(v *state, t int, e *ir.Edge, en *env, emit func(*state)) {
	vals := make([]vset, len(e.Values))
	for i, x := range e.Values {
		vals[i] = en.eval(x)
	}
	n := v.clone()
	th := &n.threads[t]
	callee := *th.top()
	th.frames = th.frames[:len(th.frames)-1]
	if !th.alive() {
		th.atomic = false
		emit(n)
		return
	}
	th.own(len(th.frames) - 1) // the caller's frame was shared below the top
	if callee.proc.Atomic {
		th.atomic = callee.atomic
	}
	call := c.prog.Edges[callee.call]
	for i, x := range call.Targets {
		if x == nil {
			continue
		}
		val := ir.Unknown // a return without values returns arbitrary ones
		if i < len(vals) {
			val = vals[i].value()
		}
		n.set(n.varSlot(x, t), val)
	}
	emit(n)
}
