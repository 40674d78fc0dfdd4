package seq

import (
	"fmt"

	"bmc/ir"
	"bmc/lang"
)

// start builds main's prologue: init (cloned to return at endinit), then
// copy 0 of the shared state; it returns main and the node reached.
func (b *builder) start() (*ir.Proc, int) {
	m := b.newProc("main", nil)
	b.out.Threads = []ir.ThreadSpec{{Proc: m, Count: 1}}
	cur := b.node(m, lang.Pos{}, "begin")
	m.Entry = cur
	if b.orig.Init != nil {
		initRun := b.cloneThread(-1, b.orig.Init)
		next := b.node(m, lang.Pos{}, "init done")
		b.edge(&ir.Edge{Proc: m, From: cur, To: next, Kind: ir.Call, Callee: initRun, Args: nondet(initRun.Params), Stmt: initRun.Name + "()"}, origin{thread: -1})
		cur = next
	}
	for i, entry := range b.instances {
		b.entries = append(b.entries, b.cloneThread(i, entry))
	}
	// In switch mode every context's thread must exist.
	valid := tt
	if b.bound.Rounds == 0 {
		for c := 0; c < b.C; c++ {
			some := ff
			for i := 0; i < b.n; i++ {
				some = or(some, b.owner(c, i))
			}
			valid = and(valid, some)
		}
	}
	var targets []*ir.Var
	var values []*ir.Expr
	for k, s := range b.shared {
		targets, values = append(targets, b.copies[0][k]), append(values, ref(s))
	}
	next := b.node(m, lang.Pos{}, "threads start")
	b.edge(assign(m, cur, next, valid, targets, values, lang.Pos{}, "save the initial shared state"), origin{thread: -1})
	return m, next
}

func nondet(n int) []*ir.Expr {
	var out []*ir.Expr
	for i := 0; i < n; i++ {
		out = append(out, &ir.Expr{Op: ir.OpNondet})
	}
	return out
}

// runThread adds to main, from node cur, the call of instance i's code
// entered with the shared state of the context selected by the one-hot
// ctx (which goes into the context variable vars); extra are further
// assignments; the call returns to node after.
func (b *builder) runThread(m *ir.Proc, cur, after, i int, guard *ir.Expr, ctx []*ir.Expr, vars []*ir.Var, extra map[*ir.Var]*ir.Expr) {
	var targets []*ir.Var
	var values []*ir.Expr
	for c, v := range vars {
		targets, values = append(targets, v), append(values, ctx[c])
	}
	for _, v := range b.cx { // keep a stable order
		if x, ok := extra[v]; ok {
			targets, values = append(targets, v), append(values, x)
		}
	}
	b.load(ctx, &targets, &values)
	targets, values = append(targets, b.done, b.atomic), append(values, ff, ff)
	for _, hs := range b.held {
		// Lazy runs the thread from its start again: it holds nothing.
		targets, values = append(targets, hs[i]), append(values, ff)
	}
	if l := b.lasso; l != nil {
		targets, values = append(targets, l.moved, l.snapped), append(values, ff, ff)
	}
	call := b.node(m, lang.Pos{}, "run "+b.instNames[i])
	b.edge(assign(m, cur, call, guard, targets, values, lang.Pos{}, "enter "+b.instNames[i]), origin{thread: -1})
	entry := b.entries[i]
	e := b.edge(&ir.Edge{Proc: m, From: call, To: after, Kind: ir.Call, Callee: entry, Args: nondet(entry.Params), Stmt: entry.Name + "()"}, origin{thread: -1})
	b.runs[e.ID] = i
}

// eagerMain: every thread once, in instance order, through all of its
// contexts; at the end the violation counts if the guesses held (which
// every switch has checked).
func (b *builder) eagerMain() {
	m, cur := b.start()
	for i := range b.instances {
		firsts := make([]*ir.Expr, b.C)
		for c := range firsts {
			firsts[c] = b.first(c, i)
		}
		has := or(firsts...)
		after := b.node(m, lang.Pos{}, "after "+b.instNames[i])
		b.runThread(m, cur, after, i, has, firsts, b.cx, nil)
		if !isConst(has, true) {
			b.edge(control(m, cur, after, not(has), lang.Pos{}, b.instNames[i]+" never runs"), origin{thread: -1})
		}
		cur = after
	}
	end := b.node(m, lang.Pos{}, "end")
	b.edge(&ir.Edge{Proc: m, From: cur, To: end, Kind: ir.Assert, Cond: not(ref(b.errVar)), Stmt: "assert(!violated)"}, origin{thread: -1})
	b.edge(&ir.Edge{Proc: m, From: end, To: -1, Kind: ir.Return, Stmt: "end"}, origin{thread: -1})
}

// lazyMain: context by context, the context's thread re-runs from its
// first context up to this one.
func (b *builder) lazyMain() {
	m, cur := b.start()
	for c := 0; c < b.C; c++ {
		after := b.node(m, lang.Pos{}, fmt.Sprintf("context %d done", c))
		for i := range b.instances {
			own := b.owner(c, i)
			if isConst(own, false) {
				continue
			}
			firsts := make([]*ir.Expr, b.C)
			for d := range firsts {
				firsts[d] = ff
				if d <= c {
					firsts[d] = b.first(d, i)
				}
			}
			newest := map[*ir.Var]*ir.Expr{}
			for d, v := range b.cx {
				newest[v] = ir.Const(d == c)
			}
			b.runThread(m, cur, after, i, own, firsts, b.ic, newest)
		}
		cur = after
	}
	b.edge(&ir.Edge{Proc: m, From: cur, To: -1, Kind: ir.Return, Stmt: "end"}, origin{thread: -1})
}

// switchEdges are the context switches of instance i at node id of clone
// c: jumps to each of its later contexts that the run can reach, and the
// end of its contexts (To is set by the caller).
func (b *builder) switchEdges(c *ir.Proc, id, i int) (jumps []*ir.Edge, end *ir.Edge) {
	pos := c.Nodes[id].Pos
	free := not(ref(b.atomic))
	cur := b.cx // eager: the current context; lazy: the replayed one is ic
	if !b.eager {
		cur = b.ic
	}
	// pass[d]: the thread has left its context before d, and every own
	// context between stays empty (starts and ends in the same state).
	// Eager leaves a context in the guess for the next one; lazy checks
	// that a replayed context ends where the next context started, and
	// passes only contexts before the newest (lazy's cx).
	pass := make([]*ir.Expr, b.C+1)
	pass[0] = ff
	for d := 0; d < b.C; d++ {
		if isConst(b.owner(d, i), false) {
			// With rounds the thread never runs context d, so it neither
			// leaves it nor has to keep it empty: nothing to build.
			pass[d+1] = pass[d]
			if !b.eager {
				pass[d+1] = and(b.before(d), pass[d+1])
			}
			continue
		}
		leave, empty := tt, tt
		if nx := b.next(d); nx >= 0 {
			leave, empty = b.sharedEq(nx), b.copiesEq(d, nx)
		}
		pass[d+1] = or(and(ref(cur[d]), leave), and(pass[d], or(not(b.owner(d, i)), empty)))
		if !b.eager {
			pass[d+1] = and(b.before(d), pass[d+1])
		}
	}
	for d := 1; d < b.C; d++ {
		guard := and(free, pass[d], b.owner(d, i))
		if !b.eager {
			guard = and(guard, b.before(d-1)) // d is not after the newest
		}
		var targets []*ir.Var
		var values []*ir.Expr
		for k, v := range cur {
			targets, values = append(targets, v), append(values, ir.Const(k == d))
		}
		for k, s := range b.shared {
			targets, values = append(targets, s), append(values, ref(b.copies[d][k]))
		}
		jumps = append(jumps, assign(c, id, -1, guard, targets, values, pos, fmt.Sprintf("context switch to context %d", d)))
	}
	if b.eager {
		return jumps, assign(c, id, -1, and(free, pass[b.C]), []*ir.Var{b.done}, []*ir.Expr{tt}, pos, "end of the contexts")
	}
	// Lazy: the run ends in the newest context, at once or after passing
	// empty own contexts (then the newest is empty too and ends where it
	// started); what it leaves is the start of the next context.
	fin := ff
	targets, values := []*ir.Var{b.done}, []*ir.Expr{tt}
	for k := 0; k < b.C; k++ {
		now := and(ref(b.ic[k]), ref(b.cx[k]))
		fin = or(fin, and(ref(b.cx[k]), or(ref(b.ic[k]), pass[k])))
		if k+1 < b.C {
			for j, s := range b.shared {
				cp := b.copies[k+1][j]
				left := or(and(now, ref(s)), and(not(now), ref(b.copies[k][j])))
				targets = append(targets, cp)
				values = append(values, or(and(ref(b.cx[k]), left), and(not(ref(b.cx[k])), ref(cp))))
			}
		}
	}
	return jumps, assign(c, id, -1, and(free, fin), targets, values, pos, "end of the newest context")
}
