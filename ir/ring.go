package ir

import (
	"slices"
	"strconv"
	"strings"
)

// Ring is the rotational symmetry of a program whose threads form a
// ring: thread i+1 runs thread i's code with each global and lock
// renamed to the next one's (philosopher i takes forks i and i+1,
// philosopher i+1 forks i+1 and i+2), and the last thread's renamed
// code is the first thread's. Moving every thread one place on, and
// every global and lock along the renaming, then maps each execution to
// an execution and each violation to a violation, so a search may keep
// one state of each rotation class (Emerson and Sistla, "Symmetry and
// model checking", FMSD 1996, §2: the symmetry group here is the
// rotations, of order N, not all N! permutations, because the threads
// differ by their index).
type Ring struct {
	// Procs are the threads' procedures in the thread order: thread i
	// runs Procs[i], one instance each.
	Procs []*Proc
	// Globals and Locks are the renaming by one place: a global (lock)
	// of index g is renamed to index Globals[g] (Locks[g]).
	Globals, Locks []int
}

// FindRing returns p's ring, or nil when p is none: three threads or
// more, one instance each, none calling, starting threads or reading
// another thread's locals, whose control-flow graphs match node for
// node and step for step, each step the previous thread's with the
// renaming (the operands of &, |, ^ and = in any order, the pairs of a
// parallel assignment too), a renaming that maps every global and lock
// to one and keeps their initial values, init's steps, and the error
// labels.
func FindRing(p *Program) *Ring {
	n := len(p.Threads)
	if n < 3 {
		return nil
	}
	r := &Ring{}
	seen := map[*Proc]bool{}
	for _, t := range p.Threads {
		if t.Count != 1 || t.Unbounded || seen[t.Proc] || !ringable(t.Proc) {
			return nil
		}
		seen[t.Proc] = true
		r.Procs = append(r.Procs, t.Proc)
	}
	// First the bindings where the operands' places are fixed, then,
	// for what is left, those of the operands of commutative operators
	// in the order written (which the check below confirms or refutes).
	m := &renaming{globals: map[int]int{}, locks: map[int]int{}}
	for _, soft := range []bool{false, true} {
		m.soft = soft
		for i, pr := range r.Procs {
			if !m.unifyProcs(pr, r.Procs[(i+1)%n]) {
				return nil
			}
		}
	}
	var ok bool
	if r.Globals, ok = permutation(m.globals, len(p.Globals)); !ok {
		return nil
	}
	if r.Locks, ok = permutation(m.locks, len(p.Locks)); !ok {
		return nil
	}
	for g, to := range r.Globals {
		if p.Globals[g].Init != p.Globals[to].Init {
			return nil
		}
	}
	for i, pr := range r.Procs {
		if !r.sameProc(pr, r.Procs[(i+1)%n]) {
			return nil
		}
	}
	if p.Init != nil && (!ringable(p.Init) || !r.sameProc(p.Init, p.Init)) {
		return nil
	}
	return r
}

// ringable says whether pr's steps stay within its thread: no calls, no
// threads started, no other thread's locals, no enforce clause.
func ringable(pr *Proc) bool {
	if pr.Enforce != nil || pr.Atomic {
		return false
	}
	passive := false
	for _, nd := range pr.Nodes {
		for _, e := range nd.Out {
			if e.Kind == Call || e.Kind == Fork || len(e.PassiveTargets) > 0 {
				return false
			}
			for _, x := range append([]*Expr{e.Guard, e.Cond, e.Constrain}, e.Values...) {
				x.Walk(func(y *Expr) { passive = passive || y.Op == OpPassive })
			}
		}
	}
	return !passive
}

// renaming collects the renaming of globals and locks that maps one
// thread's code to the next's, from the places where the operands'
// order is fixed.
type renaming struct {
	globals, locks map[int]int
	// soft binds only what is not bound yet and takes the operands of
	// commutative operators in the order written; a clash is no failure.
	soft bool
}

func (m *renaming) bind(to map[int]int, a, b int) bool {
	if x, ok := to[a]; ok {
		return x == b || m.soft
	}
	to[a] = b
	return true
}

// unifyProcs binds the renaming that maps a's steps to b's, node for
// node; false when the graphs differ in shape or the bindings clash.
func (m *renaming) unifyProcs(a, b *Proc) bool {
	if len(a.Nodes) != len(b.Nodes) || a.Entry != b.Entry || len(a.Locals) != len(b.Locals) || a.Params != b.Params || a.Returns != b.Returns {
		return false
	}
	for i, na := range a.Nodes {
		nb := b.Nodes[i]
		if na.Error != nb.Error || len(na.Out) != len(nb.Out) {
			return false
		}
		for k, ea := range na.Out {
			eb := nb.Out[k]
			if ea.Kind != eb.Kind || ea.To != eb.To || ea.Atomic != eb.Atomic || len(ea.Targets) != len(eb.Targets) || len(ea.Values) != len(eb.Values) {
				return false
			}
			if (ea.Lock == nil) != (eb.Lock == nil) || ea.Lock != nil && !m.bind(m.locks, ea.Lock.Index, eb.Lock.Index) {
				return false
			}
			if len(ea.Targets) == 1 || m.soft {
				// A single target's place is fixed; a parallel
				// assignment's pairs may come in another order.
				for k, x := range ea.Targets {
					y := eb.Targets[k]
					if (x == nil) != (y == nil) || x != nil && !m.unifyVar(x, y) {
						return false
					}
				}
				for k, x := range ea.Values {
					if !m.unify(x, eb.Values[k]) {
						return false
					}
				}
			}
			if !m.unify(ea.Guard, eb.Guard) || !m.unify(ea.Cond, eb.Cond) {
				return false
			}
		}
	}
	return true
}

func (m *renaming) unifyVar(a, b *Var) bool {
	switch {
	case a.Global && b.Global:
		return m.bind(m.globals, a.Index, b.Index)
	case !a.Global && !b.Global && a.Index == b.Index:
		return true
	}
	return m.soft
}

// unify binds the renaming that maps expression a to b, where their
// shapes fix the operands' places (within &, |, ^ and = they do not,
// and it binds nothing there).
func (m *renaming) unify(a, b *Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op {
		return false
	}
	switch a.Op {
	case OpVar, OpPrimed:
		return m.unifyVar(a.Var, b.Var)
	case OpNot:
		return m.unify(a.X, b.X)
	case OpImplies, OpChoose:
		return m.unify(a.X, b.X) && m.unify(a.Y, b.Y)
	case OpAnd, OpOr, OpXor, OpEq:
		return !m.soft || m.unify(a.X, b.X) && m.unify(a.Y, b.Y)
	}
	return true
}

// permutation is the map as a slice over n indices, the indices it
// does not name kept in place, and whether it is one to one.
func permutation(to map[int]int, n int) ([]int, bool) {
	out := make([]int, n)
	hit := make([]bool, n)
	for i := range out {
		j, ok := to[i]
		if !ok {
			j = i
		}
		if j < 0 || j >= n || hit[j] {
			return nil, false
		}
		out[i], hit[j] = j, true
	}
	return out, true
}

// sameProc says whether b's steps are a's with the renaming, node for
// node, the operands of commutative operators and the pairs of a
// parallel assignment in any order.
func (r *Ring) sameProc(a, b *Proc) bool {
	if len(a.Nodes) != len(b.Nodes) || a.Entry != b.Entry || len(a.Locals) != len(b.Locals) {
		return false
	}
	for i, l := range a.Locals {
		if b.Locals[i].Init != l.Init {
			return false
		}
	}
	for i, na := range a.Nodes {
		nb := b.Nodes[i]
		if na.Error != nb.Error || len(na.Out) != len(nb.Out) || !slices.Equal(na.Labels, nb.Labels) {
			return false
		}
		for k, ea := range na.Out {
			if r.step(ea, true) != r.step(nb.Out[k], false) {
				return false
			}
		}
	}
	return true
}

// step is e's canonical text, renamed when rename is set.
func (r *Ring) step(e *Edge, rename bool) string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	b.WriteString(" " + strconv.Itoa(e.To) + " " + strconv.Itoa(int(e.Atomic)))
	if e.Lock != nil {
		l := e.Lock.Index
		if rename {
			l = r.Locks[l]
		}
		b.WriteString(" lock" + strconv.Itoa(l))
	}
	b.WriteString(" [" + r.expr(e.Guard, rename) + "] [" + r.expr(e.Cond, rename) + "] [" + r.expr(e.Constrain, rename) + "]")
	pairs := make([]string, len(e.Targets))
	for i, x := range e.Targets {
		t := "_"
		if x != nil {
			t = r.variable(x, rename)
		}
		v := ""
		if i < len(e.Values) {
			v = r.expr(e.Values[i], rename)
		}
		pairs[i] = t + ":=" + v
	}
	if e.Kind != Return {
		slices.Sort(pairs) // a parallel assignment's pairs commute
	}
	b.WriteString(" " + strings.Join(pairs, ","))
	return b.String()
}

func (r *Ring) variable(v *Var, rename bool) string {
	if !v.Global {
		return "l" + strconv.Itoa(v.Index)
	}
	g := v.Index
	if rename {
		g = r.Globals[g]
	}
	return "g" + strconv.Itoa(g)
}

// expr is e's canonical text: chains of one commutative operator
// flattened and their operands sorted.
func (r *Ring) expr(e *Expr, rename bool) string {
	if e == nil {
		return ""
	}
	switch e.Op {
	case OpConst:
		if e.Val {
			return "T"
		}
		return "F"
	case OpNondet:
		return "*"
	case OpVar:
		return r.variable(e.Var, rename)
	case OpPrimed:
		return "'" + r.variable(e.Var, rename)
	case OpNot:
		return "!(" + r.expr(e.X, rename) + ")"
	case OpAnd, OpOr, OpXor, OpEq:
		var ops []string
		var flatten func(x *Expr)
		flatten = func(x *Expr) {
			if x.Op == e.Op {
				flatten(x.X)
				flatten(x.Y)
				return
			}
			ops = append(ops, r.expr(x, rename))
		}
		flatten(e)
		slices.Sort(ops)
		return "op" + strconv.Itoa(int(e.Op)) + "(" + strings.Join(ops, ",") + ")"
	}
	return "op" + strconv.Itoa(int(e.Op)) + "(" + r.expr(e.X, rename) + "," + r.expr(e.Y, rename) + ")"
}
