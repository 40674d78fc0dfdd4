package decompile

import (
	"fmt"
	"strings"

	"bmc/ir"
	"bmc/lang"
)

// checkEdge rejects edges whose fields do not fit their kind.
func (pf *procFmt) checkEdge(e *ir.Edge) {
	nodes := len(pf.pr.Nodes)
	switch e.Kind {
	case ir.Return, ir.EndThread:
	default:
		if e.To < 0 || e.To >= nodes {
			pf.errorf(e.Pos, "%s edge in %s leads to node %d, which does not exist", e.Kind, pf.pr.Name, e.To)
		}
	}
	switch e.Kind {
	case ir.Call:
		if _, ok := pf.procName[e.Callee]; !ok || e.Callee == nil {
			pf.errorf(e.Pos, "call in %s to a procedure that is not in the program", pf.pr.Name)
			return
		}
		if len(e.Args) != e.Callee.Params {
			pf.errorf(e.Pos, "call of %s with %d arguments; it takes %d", e.Callee.Name, len(e.Args), e.Callee.Params)
		}
		if targets(e) > 0 && (len(e.Targets) != e.Callee.Returns || e.Spawn) {
			pf.errorf(e.Pos, "call of %s assigns %d results; it returns %d", e.Callee.Name, len(e.Targets), e.Callee.Returns)
		}
	case ir.Return:
		if len(e.Values) > 0 && len(e.Values) != pf.pr.Returns {
			pf.errorf(e.Pos, "return of %d values in %s, which returns %d", len(e.Values), pf.pr.Name, pf.pr.Returns)
		}
	case ir.Acquire, ir.Release, ir.TryAcquire:
		if _, ok := pf.lockName[e.Lock]; !ok {
			pf.errorf(e.Pos, "%s of a lock that is not in the program", e.Kind)
		}
		if e.Kind == ir.TryAcquire && len(e.Targets) > 1 {
			pf.errorf(e.Pos, "tryacquire with %d targets", len(e.Targets))
		}
	case ir.Fork:
		if e.ForkTo < 0 || e.ForkTo >= nodes {
			pf.errorf(e.Pos, "start_thread goto to node %d, which does not exist", e.ForkTo)
		}
	case ir.Assign:
		if len(e.Values) != len(e.Targets) || len(e.PassiveValues) != len(e.PassiveTargets) {
			pf.errorf(e.Pos, "assignment with %d targets and %d values", len(e.Targets)+len(e.PassiveTargets), len(e.Values)+len(e.PassiveValues))
		}
		seen := map[*ir.Var]bool{}
		for _, v := range e.Targets {
			if v != nil && seen[v] {
				pf.errorf(e.Pos, "assignment to %s twice: the front end would read it relationally", v.Name)
			}
			seen[v] = true
		}
	case ir.Skip, ir.Assert, ir.Havoc, ir.EndThread:
	default:
		pf.errorf(e.Pos, "edge of unknown kind %d", e.Kind)
	}
	if e.Kind != ir.Assign && len(e.PassiveTargets) > 0 {
		pf.errorf(e.Pos, "broadcast targets on a %s edge", e.Kind)
	}
}

func targets(e *ir.Edge) int {
	n := 0
	for _, v := range e.Targets {
		if v != nil {
			n++
		}
	}
	return n
}

// edgeCode prints one edge as one statement, or a few when the guard or
// atomic mark cannot be part of it; the last continues at e.To.
func (pf *procFmt) edgeCode(e *ir.Edge) []*stmt {
	if what := pf.dialect.misses(e); what != "" {
		pf.errorf(e.Pos, "%s edge in %s has %s, which %s cannot read", e.Kind, pf.pr.Name, what, pf.dialect.name)
		return []*stmt{simple("skip")}
	}
	guard := guardOf(e)
	guardCtx := exprCtx{nondet: true, decider: true, what: "a guard"}
	if guard != nil {
		pf.expr(guard, guardCtx) // only checks it
	}
	valCtx := exprCtx{nondet: true, list: true, what: "a value"}
	var main *stmt
	carried := false // the statement itself carries the atomic mark
	blocking := false
	switch e.Kind {
	case ir.Skip:
		switch {
		case e.Atomic == ir.AtomicBegin:
			main, carried = simple("atomic_begin"), true
		case e.Atomic == ir.AtomicEnd:
			main, carried = simple("atomic_end"), true
		case guard != nil:
			main, guard = simple("assume("+pf.expr(guard, guardCtx)+")"), nil
		default:
			main = simple("skip")
			main.skip = true
		}
	case ir.Assign:
		main, guard, blocking = pf.assign(e, guard)
		carried = pf.atomicVar != nil && assignTargets(e) > 0
	case ir.Havoc:
		var names []string
		for _, v := range e.Targets {
			if v != nil {
				names = append(names, pf.varName(v, e.Pos))
			}
		}
		switch {
		case len(names) == 0 && guard != nil:
			main, guard = simple("assume("+pf.expr(guard, guardCtx)+")"), nil
		case len(names) == 0:
			main = simple("skip")
		case guard != nil:
			stars := strings.TrimSuffix(strings.Repeat("*, ", len(names)), ", ")
			main = simple(fmt.Sprintf("%s := %s constrain %s", strings.Join(names, ", "), stars, pf.expr(guard, guardCtx)))
			blocking = pf.readsShared(guard)
			guard = nil
		default:
			main = simple("dead " + strings.Join(names, ", "))
		}
	case ir.Assert:
		if e.Cond == nil {
			pf.errorf(e.Pos, "assert without a condition")
			return []*stmt{simple("skip")}
		}
		main = simple("assert(" + pf.expr(e.Cond, guardCtx) + ")")
	case ir.Call:
		var b strings.Builder
		if e.Spawn {
			b.WriteString("start_thread ")
		} else if targets(e) > 0 {
			b.WriteString(pf.targetList(e.Targets, e.Pos) + " := ")
		}
		b.WriteString(pf.procName[e.Callee] + "(" + pf.exprList(e.Args, valCtx) + ")")
		main = simple(b.String())
	case ir.Return:
		text := "return"
		if len(e.Values) > 0 {
			text += " " + pf.exprList(e.Values, valCtx)
		}
		main = simple(text)
		main.ret = guard == nil && e.Atomic == ir.NoMark && len(e.Values) == 0
	case ir.Acquire:
		main, blocking = simple("acquire("+pf.lockName[e.Lock]+")"), true
	case ir.Release:
		main = simple("release(" + pf.lockName[e.Lock] + ")")
	case ir.TryAcquire:
		t := "_"
		if len(e.Targets) == 1 && e.Targets[0] != nil {
			t = pf.varName(e.Targets[0], e.Pos)
		}
		main = simple(t + " := tryacquire(" + pf.lockName[e.Lock] + ")")
	case ir.Fork:
		main = &stmt{kind: kFork, node: -1, key: -1, jumps: []int{e.ForkTo}}
		pf.refs[e.ForkTo] = true
	case ir.EndThread:
		main, carried = simple("end_thread"), true // ending the thread ends its atomic section
	}
	if main == nil || pf.err != nil {
		return []*stmt{simple("skip")}
	}

	var code []*stmt
	concurrent := !pf.sequential
	if guard != nil {
		// The guard becomes a step of its own; another thread could change
		// what it reads before the step is taken. (atomic_end alone has
		// no effect another thread could see.)
		if concurrent && pf.readsShared(guard) && !(e.Kind == ir.Skip && e.Atomic == ir.AtomicEnd) {
			pf.errorf(e.Pos, "guarded %s edge in %s: its guard reads shared variables, so it cannot be split from the step in a concurrent program", e.Kind, pf.pr.Name)
		}
		code = append(code, simple("assume("+pf.expr(guard, guardCtx)+")"))
	}
	mark := e.Atomic
	if carried {
		mark = ir.NoMark
	}
	switch mark {
	case ir.AtomicBegin:
		if concurrent && blocking {
			pf.errorf(e.Pos, "%s edge in %s begins an atomic section but can wait for other threads; atomic_begin before it would block them", e.Kind, pf.pr.Name)
		}
		code = append(code, simple("atomic_begin"), main)
	case ir.AtomicEnd:
		switch {
		case e.Kind == ir.Call && concurrent:
			pf.errorf(e.Pos, "call in %s ends an atomic section on entering the callee, which the program text cannot express", pf.pr.Name)
		case e.Kind == ir.Return && concurrent:
			pf.errorf(e.Pos, "return in %s ends an atomic section, which the program text cannot express", pf.pr.Name)
		case e.Kind == ir.Return:
			// One thread: atomicity changes nothing; keep the mark nearby.
			code = append(code, simple("atomic_end"), main)
		default:
			code = append(code, main, simple("atomic_end"))
		}
	default:
		code = append(code, main)
	}
	if len(code) == 0 { // after an error
		code = append(code, main)
	}
	if len(code) > 1 {
		main.skip = false
	}
	return code
}

// assign prints an Assign edge, folding the guard into the constrain
// clause; it returns the guard when it could not be folded and whether
// the step can be disabled by shared state.
func (pf *procFmt) assign(e *ir.Edge, guard *ir.Expr) (*stmt, *ir.Expr, bool) {
	var names []string
	var vals []string
	valCtx := exprCtx{nondet: true, passive: true, list: true, what: "an assigned value"}
	for i, v := range e.Targets {
		if v == nil {
			continue // a discarded value has no effect
		}
		names = append(names, pf.varName(v, e.Pos))
		vals = append(vals, pf.expr(e.Values[i], valCtx))
	}
	for i, v := range e.PassiveTargets {
		if _, ok := pf.local[v]; !ok {
			pf.errorf(e.Pos, "broadcast to %s, which is not a local of %s", v.Name, pf.pr.Name)
			return simple("skip"), nil, false
		}
		names = append(names, pf.local[v]+"$")
		vals = append(vals, pf.expr(e.PassiveValues[i], valCtx))
	}
	cond := e.Constrain
	if len(names) == 0 {
		// Nothing is assigned: 'x is x, so the step is assume(guard & c).
		if cond != nil {
			cond = unprime(cond)
			cond.Walk(func(x *ir.Expr) {
				if x.Op == ir.OpPassive {
					pf.errorf(e.Pos, "constrain without targets reads other threads' copies (x$)")
				}
			})
		}
		c := ir.And(guard, cond)
		if c == nil {
			s := simple("skip")
			s.skip = true
			return s, nil, false
		}
		return simple("assume(" + pf.expr(c, exprCtx{nondet: true, decider: true, what: "a guard"}) + ")"), nil, false
	}
	text := strings.Join(names, ", ") + " := " + strings.Join(vals, ", ")
	if !pf.dialect.constrain {
		// No constrain clause (misses refused one): the guard goes before.
		return simple(text), guard, false
	}
	c := ir.And(cond, guard)
	if c != nil {
		text += " constrain " + pf.expr(c, exprCtx{nondet: true, primed: true, passive: true, what: "constrain"})
	}
	return simple(text), nil, c != nil && pf.readsShared(c)
}

// unprime returns e with every 'x read as x.
func unprime(e *ir.Expr) *ir.Expr {
	if e == nil {
		return nil
	}
	c := *e
	if c.Op == ir.OpPrimed {
		c.Op = ir.OpVar
	}
	c.X, c.Y = unprime(e.X), unprime(e.Y)
	return &c
}

// readsShared reports whether e reads a variable another thread can write.
func (pf *procFmt) readsShared(e *ir.Expr) bool {
	found := false
	e.Walk(func(x *ir.Expr) {
		found = found || x.Op == ir.OpPassive || x.Var != nil && pf.shared[x.Var]
	})
	return found
}

func (pf *procFmt) targetList(vs []*ir.Var, pos lang.Pos) string {
	var names []string
	for _, v := range vs {
		if v == nil {
			names = append(names, "_")
		} else {
			names = append(names, pf.varName(v, pos))
		}
	}
	return strings.Join(names, ", ")
}
