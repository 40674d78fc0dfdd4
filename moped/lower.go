package moped

import (
	"context"
	"fmt"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
)

// Label is the one error label of a lowered program: Moped is asked
// whether it is reachable, and bmc's own checkers find it without
// --target, as it is a default error label.
const Label = "error"

// Lower returns a program that reaches Label exactly when p has a
// violation (a failed assertion or a reached error label of p.Targets),
// built only of what decompile.WriteSyntax prints in the Moped syntax:
//   - every violation becomes a call of a procedure `violation` whose one
//     statement carries Label (Moped asks for a label in one function, and
//     a label in a function main never calls is an error there, so main
//     calls it under `if (F)` when nothing else does);
//   - initial values become assignments at the entry of main (globals)
//     and of each procedure (its locals);
//   - `xs := es constrain c` becomes an assume of c before the assignment
//     when c reads only old values, and otherwise `ts := es;
//     assume(c[ts/'xs]); xs := ts;` over fresh locals ts;
//   - `dead xs` assigns arbitrary values, a discarded call result goes to
//     a fresh local, and atomic marks are dropped (one thread);
//   - nondeterminism inside an expression (`a & *`, a nested schoose) is
//     hoisted into fresh locals assigned just before the step, one per
//     occurrence, since each is chosen anew; schoose[a, b] inside an
//     expression is a | (!b & t) for such a t.
//
// Moped has no call depth bound: a violation it finds may need more
// frames than bmc's --depth, and one more for the call of `violation`.
// p must be sequential: one thread instance, no locks, no init, no
// enforce clause; the sequentializations of package seq are.
//
// When ctx ends first, the error is its cause.
func Lower(ctx context.Context, p *ir.Program) (low *ir.Program, err error) {
	if err := supported(p); err != nil {
		return nil, err
	}
	defer halt.Recover(&err)
	l := &lowering{ctx: ctx, procs: map[*ir.Proc]*ir.Proc{}, globals: map[*ir.Var]*ir.Var{},
		out: &ir.Program{File: p.File, Dialect: p.Dialect, InitStop: -1, Targets: []string{Label}}}
	for _, g := range p.Globals {
		l.globals[g] = copyVar(g)
		l.out.Globals = append(l.out.Globals, l.globals[g])
	}
	for _, pr := range p.Procs {
		c := &ir.Proc{Name: pr.Name, Index: len(l.out.Procs), Pos: pr.Pos, Params: pr.Params, Returns: pr.Returns}
		for _, v := range pr.Locals {
			c.Locals = append(c.Locals, copyVar(v))
		}
		l.procs[pr] = c
		l.out.Procs = append(l.out.Procs, c)
	}
	l.violation = l.violationProc()
	entry := p.Threads[0].Proc
	for _, pr := range p.Procs {
		l.lowerProc(pr)
	}
	main := l.procs[entry]
	if called(p, entry) && len(l.initial(p.Globals)) > 0 {
		// Globals get their values once, not at every call of main.
		main = l.wrap(main)
	}
	l.assignInitial(main, l.initial(p.Globals))
	if !l.called {
		l.callUnderFalse(main)
	}
	l.out.Threads = []ir.ThreadSpec{{Proc: main, Count: 1}}
	for _, pr := range l.out.Procs {
		l.hoist(pr)
	}
	return l.out, nil
}

// supported says why p cannot be lowered, or nil.
func supported(p *ir.Program) error {
	if len(p.Threads) != 1 || p.Threads[0].Count != 1 || p.Threads[0].Unbounded {
		return fmt.Errorf("moped: the program must have exactly one thread (a sequentialization has)")
	}
	if p.Init != nil {
		return fmt.Errorf("moped: the program has an init procedure (a sequentialization calls it from main)")
	}
	if len(p.Locks) > 0 {
		return fmt.Errorf("moped: the program has locks (a sequentialization keeps them in variables)")
	}
	for _, pr := range p.Procs {
		if pr.Enforce != nil {
			return fmt.Errorf("%s: procedure %s has an enforce clause (a sequentialization assumes it after every step)", pos(p, pr.Pos), pr.Name)
		}
	}
	for _, e := range p.Edges {
		switch {
		case e.Kind == ir.Call && e.Spawn, e.Kind == ir.Fork, e.Kind == ir.EndThread:
			return fmt.Errorf("%s: the program starts or ends threads", pos(p, e.Pos))
		case e.Kind == ir.Acquire, e.Kind == ir.Release, e.Kind == ir.TryAcquire:
			return fmt.Errorf("%s: the program uses locks", pos(p, e.Pos))
		case len(e.PassiveTargets) > 0:
			return fmt.Errorf("%s: the program broadcasts to other threads (x$)", pos(p, e.Pos))
		}
	}
	return nil
}

func pos(p *ir.Program, at lang.Pos) string { return fmt.Sprintf("%s:%s", p.File, at) }

// called reports whether some edge of p calls pr.
func called(p *ir.Program, pr *ir.Proc) bool {
	for _, e := range p.Edges {
		if e.Kind == ir.Call && e.Callee == pr {
			return true
		}
	}
	return false
}

type lowering struct {
	ctx     context.Context
	out     *ir.Program
	procs   map[*ir.Proc]*ir.Proc
	globals map[*ir.Var]*ir.Var
	// locals maps the locals of the procedure being lowered to its
	// copy's: clones of one procedure (package seq) share their locals,
	// and each copy gets its own.
	locals    map[*ir.Var]*ir.Var
	violation *ir.Proc
	called    bool // some step calls violation
	// temps: per procedure, the fresh locals of each pool, reused from
	// step to step (hoisted nondeterminism, new values under constrain,
	// discarded results).
	temps map[*ir.Proc]map[string][]*ir.Var
}

// v is the lowered program's variable for x, in the procedure being
// lowered.
func (l *lowering) v(x *ir.Var) *ir.Var {
	if c, ok := l.locals[x]; ok {
		return c
	}
	return l.globals[x]
}

// copyVar is v without its initial value, which lowering assigns.
func copyVar(v *ir.Var) *ir.Var {
	return &ir.Var{Name: v.Name, Global: v.Global, Index: v.Index, Init: ir.Unknown, Pos: v.Pos}
}

// temp returns local i of pool for pr, creating it when needed.
func (l *lowering) temp(pr *ir.Proc, pool string, i int) *ir.Var {
	if l.temps == nil {
		l.temps = map[*ir.Proc]map[string][]*ir.Var{}
	}
	if l.temps[pr] == nil {
		l.temps[pr] = map[string][]*ir.Var{}
	}
	for len(l.temps[pr][pool]) <= i {
		n := len(l.temps[pr][pool])
		v := &ir.Var{Name: fmt.Sprintf("%s%d", pool, n), Index: len(pr.Locals), Init: ir.Unknown, Pos: pr.Pos}
		pr.Locals = append(pr.Locals, v)
		l.temps[pr][pool] = append(l.temps[pr][pool], v)
	}
	return l.temps[pr][pool][i]
}

// violationProc is `void violation() begin error: return; end`.
func (l *lowering) violationProc() *ir.Proc {
	pr := &ir.Proc{Name: "violation", Index: len(l.out.Procs)}
	l.out.Procs = append(l.out.Procs, pr)
	n := l.node(pr, lang.Pos{}, "violation")
	pr.Nodes[n].Labels, pr.Nodes[n].Error = []string{Label}, true
	l.edge(&ir.Edge{Proc: pr, From: n, To: -1, Kind: ir.Return, Stmt: "return"})
	return pr
}

func (l *lowering) node(pr *ir.Proc, at lang.Pos, stmt string) int {
	pr.Nodes = append(pr.Nodes, &ir.Node{ID: len(pr.Nodes), Pos: at, Stmt: stmt})
	return len(pr.Nodes) - 1
}

// edge adds e (Proc, From and To set) to the program.
func (l *lowering) edge(e *ir.Edge) *ir.Edge {
	e.ID = len(l.out.Edges)
	l.out.Edges = append(l.out.Edges, e)
	n := e.Proc.Nodes[e.From]
	n.Out = append(n.Out, e)
	return e
}

// callViolation adds the step from node from of pr that calls violation
// and goes on at to.
func (l *lowering) callViolation(pr *ir.Proc, from, to int, at lang.Pos, stmt string) {
	l.called = true
	l.edge(&ir.Edge{Proc: pr, From: from, To: to, Kind: ir.Call, Callee: l.violation, Pos: at, Stmt: stmt})
}

// lowerProc fills the copy of pr.
func (l *lowering) lowerProc(pr *ir.Proc) {
	c := l.procs[pr]
	l.locals = map[*ir.Var]*ir.Var{}
	for i, v := range pr.Locals {
		l.locals[v] = c.Locals[i]
	}
	for _, n := range pr.Nodes {
		id := l.node(c, n.Pos, n.Stmt)
		c.Nodes[id].Labels = n.Labels
	}
	c.Entry = pr.Entry
	for _, n := range pr.Nodes {
		halt.Point(l.ctx)
		from := n.ID
		if n.Error {
			// Arriving here is the violation: call violation first.
			from = l.node(c, n.Pos, n.Stmt)
			l.callViolation(c, n.ID, from, n.Pos, "error label")
		}
		for _, e := range n.Out {
			l.lowerEdge(c, from, e)
		}
	}
	l.assignInitial(c, l.initial(pr.Locals[pr.Params:]))
}

// lowerEdge adds to c, from node from, the steps of original edge e.
func (l *lowering) lowerEdge(c *ir.Proc, from int, e *ir.Edge) {
	cp := &ir.Edge{Proc: c, From: from, To: e.To, Guard: l.expr(e.Guard), Kind: e.Kind, Pos: e.Pos, Stmt: e.Stmt}
	switch e.Kind {
	case ir.Skip, ir.Return:
		cp.Values = l.exprs(e.Values)
	case ir.Assign:
		l.assign(c, cp, e)
		return
	case ir.Havoc:
		cp.Kind = ir.Assign
		for _, v := range e.Targets {
			if v != nil {
				cp.Targets = append(cp.Targets, l.v(v))
				cp.Values = append(cp.Values, &ir.Expr{Op: ir.OpNondet})
			}
		}
	case ir.Assert:
		// Two branches: on when the condition can hold, the violation
		// when it can be false.
		cp.Kind, cp.Guard = ir.Skip, ir.And(cp.Guard, l.expr(e.Cond))
		l.edge(cp)
		fail := l.node(c, e.Pos, e.Stmt)
		l.edge(&ir.Edge{Proc: c, From: from, To: fail, Guard: ir.And(l.expr(e.Guard), ir.Not(l.expr(e.Cond))), Kind: ir.Skip, Pos: e.Pos, Stmt: e.Stmt})
		l.callViolation(c, fail, e.To, e.Pos, e.Stmt)
		return
	case ir.Call:
		cp.Callee, cp.Args = l.procs[e.Callee], l.exprs(e.Args)
		discarded := 0
		for _, v := range e.Targets {
			if v == nil {
				discarded++
			}
		}
		k := 0
		for _, v := range e.Targets {
			switch {
			case v != nil:
				cp.Targets = append(cp.Targets, l.v(v))
			case discarded < len(e.Targets):
				// Moped has no `_`: the value goes to a fresh local.
				cp.Targets = append(cp.Targets, l.temp(c, "discard", k))
				k++
			}
		}
	}
	l.edge(cp)
}

// assign adds the steps of Assign edge e, whose copy without targets and
// values is cp.
func (l *lowering) assign(c *ir.Proc, cp *ir.Edge, e *ir.Edge) {
	for i, v := range e.Targets {
		if v != nil {
			cp.Targets = append(cp.Targets, l.v(v))
			cp.Values = append(cp.Values, l.expr(e.Values[i]))
		}
	}
	if e.Constrain == nil {
		l.edge(cp)
		return
	}
	primed := false
	e.Constrain.Walk(func(x *ir.Expr) { primed = primed || x.Op == ir.OpPrimed })
	if !primed {
		// Over old values only: a guard, which the printer puts in an
		// assume before the assignment.
		cp.Guard = ir.And(cp.Guard, l.expr(e.Constrain))
		l.edge(cp)
		return
	}
	// ts := es; assume(c with 'x read as t_x); xs := ts.
	newValue := map[*ir.Var]*ir.Var{}
	var temps []*ir.Var
	var reads []*ir.Expr
	for i, v := range cp.Targets {
		t := l.temp(c, "new", i)
		newValue[v] = t
		temps, reads = append(temps, t), append(reads, ref(t))
	}
	cond := l.exprWith(e.Constrain, func(v *ir.Var) *ir.Var {
		if t, ok := newValue[v]; ok {
			return t
		}
		return v // 'x of a variable not assigned is its value
	})
	guessed := l.node(c, e.Pos, e.Stmt)
	checked := l.node(c, e.Pos, e.Stmt)
	l.edge(&ir.Edge{Proc: c, From: cp.From, To: guessed, Guard: cp.Guard, Kind: ir.Assign, Targets: temps, Values: cp.Values, Pos: e.Pos, Stmt: e.Stmt})
	l.edge(&ir.Edge{Proc: c, From: guessed, To: checked, Guard: cond, Kind: ir.Skip, Pos: e.Pos, Stmt: e.Stmt})
	l.edge(&ir.Edge{Proc: c, From: checked, To: e.To, Kind: ir.Assign, Targets: cp.Targets, Values: reads, Pos: e.Pos, Stmt: e.Stmt})
}

// ---- expressions ----

func ref(v *ir.Var) *ir.Expr { return &ir.Expr{Op: ir.OpVar, Var: v} }

// expr copies e over the lowered program's variables.
func (l *lowering) expr(e *ir.Expr) *ir.Expr {
	return l.exprWith(e, func(v *ir.Var) *ir.Var { return v })
}

// exprWith copies e over the lowered program's variables, reading 'x as
// the variable primed(x) (after the mapping).
func (l *lowering) exprWith(e *ir.Expr, primed func(*ir.Var) *ir.Var) *ir.Expr {
	if e == nil {
		return nil
	}
	c := &ir.Expr{Op: e.Op, Val: e.Val, X: l.exprWith(e.X, primed), Y: l.exprWith(e.Y, primed)}
	if e.Var != nil {
		c.Var = l.v(e.Var)
	}
	if e.Op == ir.OpPrimed {
		c.Op, c.Var = ir.OpVar, primed(c.Var)
	}
	return c
}

func (l *lowering) exprs(list []*ir.Expr) []*ir.Expr {
	var out []*ir.Expr
	for _, e := range list {
		out = append(out, l.expr(e))
	}
	return out
}

// ---- initial values ----

// initial lists the variables of vars (originals) that have an initial
// value.
func (l *lowering) initial(vars []*ir.Var) []*ir.Var {
	var out []*ir.Var
	for _, v := range vars {
		if v.Init != ir.Unknown {
			out = append(out, v)
		}
	}
	return out
}

// assignInitial gives the variables (originals) their initial values in
// a step before pr's entry.
func (l *lowering) assignInitial(pr *ir.Proc, vars []*ir.Var) {
	if len(vars) == 0 {
		return
	}
	var targets []*ir.Var
	var values []*ir.Expr
	for _, v := range vars {
		targets, values = append(targets, l.v(v)), append(values, ir.Const(v.Init == ir.True))
	}
	n := l.node(pr, pr.Pos, "initial values")
	l.edge(&ir.Edge{Proc: pr, From: n, To: pr.Entry, Kind: ir.Assign, Targets: targets, Values: values, Pos: pr.Pos, Stmt: "initial values"})
	pr.Entry = n
}

// wrap returns a new entry procedure that calls main with arbitrary
// arguments, so that main can be called again without assigning the
// globals' initial values anew.
func (l *lowering) wrap(main *ir.Proc) *ir.Proc {
	w := &ir.Proc{Name: "main", Index: len(l.out.Procs), Pos: main.Pos}
	l.out.Procs = append(l.out.Procs, w)
	w.Entry = l.node(w, main.Pos, "main")
	done := l.node(w, main.Pos, "end")
	var args []*ir.Expr
	for i := 0; i < main.Params; i++ {
		args = append(args, &ir.Expr{Op: ir.OpNondet})
	}
	l.edge(&ir.Edge{Proc: w, From: w.Entry, To: done, Kind: ir.Call, Callee: main, Args: args, Targets: make([]*ir.Var, main.Returns), Pos: main.Pos, Stmt: main.Name + "()"})
	l.edge(&ir.Edge{Proc: w, From: done, To: -1, Kind: ir.Return, Pos: main.Pos, Stmt: "end"})
	return w
}

// callUnderFalse adds `if (F) then violation(); fi` before main's entry:
// Moped refuses a target label in a function that main never calls.
func (l *lowering) callUnderFalse(main *ir.Proc) {
	test := l.node(main, main.Pos, "if (F)")
	call := l.node(main, main.Pos, "violation()")
	f := ir.Const(false)
	l.edge(&ir.Edge{Proc: main, From: test, To: call, Guard: f, Kind: ir.Skip, Pos: main.Pos, Stmt: "if (F)"})
	l.edge(&ir.Edge{Proc: main, From: test, To: main.Entry, Guard: ir.Not(f), Kind: ir.Skip, Pos: main.Pos, Stmt: "if (F)"})
	l.callViolation(main, call, main.Entry, main.Pos, "violation()")
	main.Entry = test
}

// ---- nondeterminism inside expressions ----

// hoist moves every `*` and schoose that Moped cannot read where it
// stands into fresh locals assigned at a step before the node: Moped's
// `*` is a whole decider only and its schoose a whole list element only.
func (l *lowering) hoist(pr *ir.Proc) {
	for id := range pr.Nodes { // the nodes added here need nothing
		halt.Point(l.ctx)
		n := pr.Nodes[id]
		var chosen []*ir.Var
		fresh := func() *ir.Expr {
			t := l.temp(pr, "nondet", len(chosen))
			chosen = append(chosen, t)
			return ref(t)
		}
		for _, e := range n.Out {
			if !ir.IsNondetDecider(e.Guard) {
				e.Guard = replaceNondet(e.Guard, fresh)
			}
			for _, list := range [][]*ir.Expr{e.Values, e.Args} {
				for i, x := range list {
					list[i] = listElement(x, fresh)
				}
			}
		}
		if len(chosen) == 0 {
			continue
		}
		// The node's labels stay where they are: the choice comes first.
		m := l.node(pr, n.Pos, n.Stmt)
		for _, e := range n.Out {
			e.From = m
		}
		pr.Nodes[m].Out, n.Out = n.Out, nil
		values := make([]*ir.Expr, len(chosen))
		for i := range values {
			values[i] = &ir.Expr{Op: ir.OpNondet}
		}
		l.edge(&ir.Edge{Proc: pr, From: id, To: m, Kind: ir.Assign, Targets: chosen, Values: values, Pos: n.Pos, Stmt: n.Stmt})
	}
}

// listElement is x as an element of a value list: `*` and a schoose of
// deterministic operands stay, any other nondeterminism is replaced.
func listElement(x *ir.Expr, fresh func() *ir.Expr) *ir.Expr {
	switch {
	case x == nil || x.Op == ir.OpNondet:
		return x
	case x.Op == ir.OpChoose && !nondet(x.X) && !nondet(x.Y):
		return x
	}
	return replaceNondet(x, fresh)
}

// replaceNondet returns x with every `*` replaced by fresh() and every
// schoose[a, b] by a | (!b & fresh()), its meaning: T when a, else F
// when b, else arbitrary.
func replaceNondet(x *ir.Expr, fresh func() *ir.Expr) *ir.Expr {
	if !nondet(x) {
		return x
	}
	switch x.Op {
	case ir.OpNondet:
		return fresh()
	case ir.OpChoose:
		a, b := replaceNondet(x.X, fresh), replaceNondet(x.Y, fresh)
		return ir.Binary(ir.OpOr, a, ir.Binary(ir.OpAnd, ir.Not(b), fresh()))
	}
	c := *x
	c.X, c.Y = replaceNondet(x.X, fresh), replaceNondet(x.Y, fresh)
	return &c
}

// nondet reports whether x contains `*` or schoose.
func nondet(x *ir.Expr) bool {
	found := false
	x.Walk(func(y *ir.Expr) { found = found || y.Op == ir.OpNondet || y.Op == ir.OpChoose })
	return found
}
