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

// switchEdges are the context switch of instance i at node id of clone c,
// leading to node back.
func (b *builder) switchEdges(c *ir.Proc, id, back, i int) []*ir.Edge {
	pos := c.Nodes[id].Pos
	free := not(ref(b.atomic))
	if b.eager {
		// Leave context cx in the guessed S_{cx+1}; enter the next
		// context of i with its guess, or end the thread.
		guard := ff
		for k := 0; k < b.C; k++ {
			ok := tt
			if k+1 < b.C {
				ok = b.sharedEq(k + 1)
			}
			guard = or(guard, and(ref(b.cx[k]), ok))
		}
		nx := b.next(b.cx, i)
		var targets []*ir.Var
		var values []*ir.Expr
		for d, v := range b.cx {
			targets, values = append(targets, v), append(values, nx[d])
		}
		b.load(nx, &targets, &values)
		targets, values = append(targets, b.done), append(values, not(or(nx...)))
		return []*ir.Edge{assign(c, id, back, and(free, guard), targets, values, pos, "context switch")}
	}
	// Lazy. In the newest context: store the shared state for the next
	// context and end this run.
	finish := ff
	for k := 0; k < b.C; k++ {
		finish = or(finish, and(ref(b.ic[k]), ref(b.cx[k])))
	}
	targets := []*ir.Var{b.done}
	values := []*ir.Expr{tt}
	for k := 0; k+1 < b.C; k++ {
		for j, s := range b.shared {
			cp := b.copies[k+1][j]
			targets = append(targets, cp)
			values = append(values, or(and(ref(b.cx[k]), ref(s)), and(not(ref(b.cx[k])), ref(cp))))
		}
	}
	out := []*ir.Edge{assign(c, id, back, and(free, finish), targets, values, pos, "end of the newest context")}
	// Replaying an earlier context: switch where that context ended.
	replay := ff
	for k := 0; k+1 < b.C; k++ {
		replay = or(replay, and(ref(b.ic[k]), not(ref(b.cx[k])), b.sharedEq(k+1)))
	}
	nx := b.next(b.ic, i)
	targets, values = nil, nil
	for d, v := range b.ic {
		targets, values = append(targets, v), append(values, nx[d])
	}
	b.load(nx, &targets, &values)
	return append(out, assign(c, id, back, and(free, replay), targets, values, pos, "replayed context switch"))
}
