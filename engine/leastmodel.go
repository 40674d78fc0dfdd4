package engine

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"bmc/bdd"
	"bmc/chc"
	"bmc/solver"
	"bmc/ts"
)

// LeastModel decides sys by computing its least model with binary
// decision diagrams, as Getafix computes summaries (the fixed-point
// calculus slides: reachability in a recursive program is the least
// fixpoint of its summary relation; Getafix evaluates it on BDDs).
// Each predicate's relation starts empty; a clause whose body's
// relations grew is applied again (the image: its constraint and its
// body atoms' relations, the clause's variables quantified, onto the
// head's arguments) until nothing grows or a query's body holds. The
// predicates' strongly connected components are completed one after
// the other in the order the clauses lead through them, so that a
// relation is rarely applied before it is whole (on the context
// encoding of SafeStack at 1 round: 160 growths against 1586 in plain
// worklist order). Diagrams no relation or clause holds are freed when
// the nodes double.
//
// Only the predicates a query depends on are computed (chc.Relevant);
// the others are interpreted as true.
//
// Every growth of a relation is kept with the clause that made it, so
// a derivation is read back top-down: an atom is explained by the
// clause of the first growth that holds it, applied to the body's
// relations as they were before that growth. Without a violation the
// relations are the interpretation.
//
// The variables' order decides the diagrams' size: an argument name
// (G3.top, entry top, top, exit top: the same program variable) is one
// group, its copies next to each other, and each clause variable sits in
// the group of the first argument it is passed as.
func LeastModel(ctx context.Context, sys *chc.System, o HornOptions) *HornResult {
	lm := &leastModel{ctx: ctx, sys: sys, m: bdd.New(), subID: map[string]int{}, composed: map[[2]int]bdd.Node{}}
	lm.m.MaxNodes = o.MaxNodes
	if lm.m.MaxNodes == 0 {
		lm.m.MaxNodes = 1 << 26
	}
	lm.m.Stop = func() bool { return ctx.Err() != nil }
	defer lm.m.Free() // the interpretation is a graph of its own
	var res *HornResult
	err := lm.m.Run(func() { res = lm.run() })
	switch err {
	case bdd.ErrLimit:
		return &HornResult{Status: solver.Unknown, Reason: fmt.Sprintf("the decision diagrams reached %d nodes", lm.m.MaxNodes), Levels: lm.step}
	case bdd.ErrStopped:
		return &HornResult{Status: solver.Unknown, Reason: context.Cause(ctx).Error(), Levels: lm.step}
	}
	return res
}

type leastModel struct {
	ctx  context.Context
	sys  *chc.System
	m    *bdd.Manager
	step int // growths so far
	// formal[p][k] is the variable of argument k of predicate p.
	formal [][]int
	// input is each graph input's variable; gate the diagrams of the
	// graph's literals built so far.
	input map[int]int
	home  map[int]string // the argument name an input was placed by
	gate  chc.GraphMemo
	rel   []bdd.Node      // per predicate, its relation so far
	grown [][]lmGrowth    // per predicate, its growths in order
	cl    []*lmClause     // per clause
	users [][]*chc.Clause // per predicate, the clauses with it in their body
	// subID numbers the distinct substitutions of body atoms, and
	// composed holds a relation composed with one (cleared by gc): the
	// clauses from one cut point share their body atom's substitution
	// (their block's inputs), so its relation is renamed once for all
	// of them.
	subID    map[string]int
	composed map[[2]int]bdd.Node
	// relevant marks the predicates a query depends on (chc.Relevant);
	// the others are never computed and interpreted as true.
	relevant []bool
}

// lmGrowth is a relation after a growth, and the clause that made it.
type lmGrowth struct {
	step   int
	rel    bdd.Node
	clause *chc.Clause
}

// lmClause is a clause's image, ready: its constraint and the head's
// arguments tied to the head's variables, the variables to quantify,
// and per body atom the substitution of its arguments for the
// predicate's variables.
type lmClause struct {
	t        bdd.Node
	vars     bdd.Set
	subs     []map[int]bdd.Node
	prepared []*bdd.Substitution // subs, for ComposeWith (sharing their maps, which gc updates)
	subIDs   []int               // subs' numbers in leastModel.subID
	inputs   []int               // the clause's graph inputs (chc.System.Vars)
	// at is each graph input's variable in the clause: a head argument
	// that is a plain input is the head's variable itself (no copy and
	// no equation for the many arguments a clause passes on unchanged).
	at map[int]int
}

// lmHistory and lmCopy match a program variable's copy for a context:
// the context encoding's history (G3.top) and the eager
// sequentialization's copies (top_c3).
var (
	lmHistory = regexp.MustCompile(`^G(\d+)\.(.*)$`)
	lmCopy    = regexp.MustCompile(`^(.*)_c(\d+)$`)
)

// groupOf splits an argument name into its program variable and its
// place among that variable's copies: the copies for the contexts in
// order, then the entry value, the value now and the exit value (of
// the copy, for a copy's).
func groupOf(name string) (string, int) {
	kind := 1
	switch {
	case strings.HasPrefix(name, "entry "):
		name, kind = name[6:], 0
	case strings.HasPrefix(name, "exit "):
		name, kind = name[5:], 2
	}
	if m := lmHistory.FindStringSubmatch(name); m != nil {
		c, _ := strconv.Atoi(m[1])
		return m[2], 4*c + kind
	}
	if m := lmCopy.FindStringSubmatch(name); m != nil {
		c, _ := strconv.Atoi(m[2])
		return m[1], 4*c + kind
	}
	return name, 1<<30 + kind
}

// order gives every argument name and every clause variable its level.
func (lm *leastModel) order() {
	type member struct {
		sub   int
		name  string // a formal's argument name
		input int    // a clause variable's graph input; -1: a formal
	}
	var groups []string
	members := map[string][]member{}
	known := map[string]bool{}
	names := make([][]string, len(lm.sys.Preds))
	for i, p := range lm.sys.Preds {
		for k := range p.Args {
			n := argName(p, k)
			names[i] = append(names[i], n)
			if known[n] {
				continue
			}
			known[n] = true
			g, sub := groupOf(n)
			if _, ok := members[g]; !ok {
				groups = append(groups, g)
			}
			members[g] = append(members[g], member{sub: sub, name: n, input: -1})
		}
	}
	placed := map[int]bool{}
	lm.home = map[int]string{}
	var loose []int // inputs passed as no argument
	place := func(l ts.Lit, name string) {
		v := l.Var()
		if lm.sys.AIG.Kind(v) != ts.Input || placed[v] {
			return
		}
		placed[v] = true
		lm.home[v] = name
		g, sub := groupOf(name)
		members[g] = append(members[g], member{sub: sub, input: v})
	}
	for _, c := range lm.sys.Clauses {
		for _, a := range c.Body {
			for k, l := range a.Args {
				place(l, names[a.Pred.Index][k])
			}
		}
		if c.Head != nil {
			for k, l := range c.Head.Args {
				place(l, names[c.Head.Pred.Index][k])
			}
		}
	}
	for _, c := range lm.sys.Clauses {
		inputs, _ := lm.sys.Vars(c)
		for _, v := range inputs {
			if !placed[v] {
				placed[v] = true
				loose = append(loose, v)
			}
		}
	}
	formal := map[string]int{}
	lm.input = map[int]int{}
	level := 0
	for _, g := range groups {
		ms := members[g]
		// Copies by their place (entry, G0, G1, ..., now, exit); within
		// a place the formal first.
		slices.SortStableFunc(ms, func(a, b member) int { return a.sub - b.sub })
		for _, mb := range ms {
			if mb.input < 0 {
				formal[mb.name] = level
			} else {
				lm.input[mb.input] = level
			}
			level++
		}
	}
	for _, v := range loose {
		lm.input[v] = level
		level++
	}
	lm.formal = make([][]int, len(lm.sys.Preds))
	for i := range lm.sys.Preds {
		for _, n := range names[i] {
			lm.formal[i] = append(lm.formal[i], formal[n])
		}
	}
}

// sameGroup tells whether two argument names are copies of one
// program variable.
func sameGroup(a, b string) bool {
	ga, _ := groupOf(a)
	gb, _ := groupOf(b)
	return ga == gb
}

// argName is argument k's name in p; a name that repeats within a
// predicate (a local shadowing a global) is told apart by its
// occurrence.
func argName(p *chc.Pred, k int) string {
	n, seen := p.Args[k], 0
	for _, a := range p.Args[:k] {
		if a == p.Args[k] {
			seen++
		}
	}
	if seen > 0 {
		n += "#" + strconv.Itoa(seen)
	}
	return n
}

// lit is the diagram of a graph literal.
func (lm *leastModel) lit(l ts.Lit) bdd.Node {
	return chc.GraphDiagram(lm.m, lm.sys.AIG, l, &lm.gate, func(v int) bdd.Node { return lm.m.Var(lm.input[v]) })
}

// prepare builds clause c's image.
func (lm *leastModel) prepare(c *chc.Clause) *lmClause {
	if x := lm.cl[c.Index]; x != nil {
		return x
	}
	m := lm.m
	inputs, _ := lm.sys.Vars(c)
	x := &lmClause{inputs: inputs, at: map[int]int{}}
	for _, v := range inputs {
		x.at[v] = lm.input[v]
	}
	ren := map[int]bdd.Node{}
	t := lm.lit(c.Constraint)
	if c.Head != nil {
		formal := lm.formal[c.Head.Pred.Index]
		var eqs []int
		for k, l := range c.Head.Args {
			v := l.Var()
			if lm.sys.AIG.Kind(v) == ts.Input && !l.IsNeg() && x.at[v] == lm.input[v] && sameGroup(lm.home[v], argName(c.Head.Pred, k)) {
				x.at[v] = formal[k]
				ren[lm.input[v]] = m.Var(formal[k])
				continue
			}
			eqs = append(eqs, k)
		}
		for _, k := range eqs {
			t = m.And(t, m.Iff(m.Var(formal[k]), lm.lit(c.Head.Args[k])))
		}
	}
	renamed := m.NewSubstitution(ren)
	at := func(n bdd.Node) bdd.Node {
		if len(ren) == 0 {
			return n
		}
		return m.ComposeWith(n, renamed)
	}
	x.t = at(t)
	var vs []int
	for _, v := range inputs {
		if _, ok := ren[lm.input[v]]; !ok {
			vs = append(vs, lm.input[v])
		}
	}
	x.vars = m.NewSet(vs)
	for _, a := range c.Body {
		sub := map[int]bdd.Node{}
		for k, l := range a.Args {
			sub[lm.formal[a.Pred.Index][k]] = at(lm.lit(l))
		}
		x.subs = append(x.subs, sub)
		x.prepared = append(x.prepared, m.NewSubstitution(sub))
		x.subIDs = append(x.subIDs, lm.substitutionID(sub))
	}
	lm.cl[c.Index] = x
	return x
}

// body is the conjunction of c's body atoms under the relations rels.
func (lm *leastModel) body(c *chc.Clause, x *lmClause, rels func(p int) bdd.Node) bdd.Node {
	b := bdd.True
	for j, a := range c.Body {
		r := rels(a.Pred.Index)
		if r == bdd.False {
			return bdd.False
		}
		key := [2]int{int(r), x.subIDs[j]}
		composed, ok := lm.composed[key]
		if !ok {
			composed = lm.m.ComposeWith(r, x.prepared[j])
			lm.composed[key] = composed
		}
		b = lm.m.And(b, composed)
	}
	return b
}

// substitutionID is the number of a body atom's substitution: equal
// maps, equal numbers.
func (lm *leastModel) substitutionID(sub map[int]bdd.Node) int {
	keys := make([]int, 0, len(sub))
	for k := range sub {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d:%d ", k, sub[k])
	}
	id, ok := lm.subID[b.String()]
	if !ok {
		id = len(lm.subID)
		lm.subID[b.String()] = id
	}
	return id
}

func (lm *leastModel) run() *HornResult {
	sys := lm.sys
	lm.order()
	lm.rel = make([]bdd.Node, len(sys.Preds))
	lm.grown = make([][]lmGrowth, len(sys.Preds))
	lm.cl = make([]*lmClause, len(sys.Clauses))
	lm.users = make([][]*chc.Clause, len(sys.Preds))
	for _, c := range sys.Clauses {
		for _, a := range c.Body {
			if u := lm.users[a.Pred.Index]; len(u) == 0 || u[len(u)-1] != c {
				lm.users[a.Pred.Index] = append(u, c)
			}
		}
	}
	// The predicates' strongly connected components in the order the
	// clauses lead through them: each component's relations are complete
	// before any clause from them into a later one is applied, and a
	// query is asked once its body's relations are complete.
	comp, n := lm.components()
	heads := make([][]*chc.Clause, n)
	where := make([]int, len(sys.Clauses)) // the component a clause is applied in
	lm.relevant = sys.Relevant()
	for _, c := range sys.Clauses {
		if c.Head != nil && !lm.relevant[c.Head.Pred.Index] {
			continue // no query depends on it: its predicate is true
		}
		at := -1
		if c.Head != nil {
			at = comp[c.Head.Pred.Index]
		}
		for _, a := range c.Body {
			at = max(at, comp[a.Pred.Index])
		}
		if at < 0 {
			at = 0 // a query of no body atoms
		}
		heads[at], where[c.Index] = append(heads[at], c), at
	}
	queued := make([]bool, len(sys.Clauses))
	lastGC := 0
	for k := 0; k < n; k++ {
		queue := slices.Clone(heads[k])
		for _, c := range queue {
			queued[c.Index] = true
		}
		for len(queue) > 0 {
			if err := context.Cause(lm.ctx); err != nil {
				return &HornResult{Status: solver.Unknown, Reason: err.Error(), Levels: lm.step}
			}
			if lm.m.Nodes() > max(1<<22, 2*lastGC) {
				lm.gc()
				lastGC = lm.m.Nodes()
			}
			c := queue[0]
			queue = queue[1:]
			queued[c.Index] = false
			if !lm.apply(c) {
				continue
			}
			if c.Head == nil {
				return &HornResult{Status: solver.Sat, Derivation: lm.derive(c, nil, lm.step+1, map[string]*chc.Derivation{}), Levels: lm.step}
			}
			for _, u := range lm.users[c.Head.Pred.Index] {
				if where[u.Index] == k && !queued[u.Index] && (u.Head == nil || lm.relevant[u.Head.Pred.Index]) {
					queue, queued[u.Index] = append(queue, u), true
				}
			}
		}
	}
	return &HornResult{Status: solver.Unsat, Interpretation: lm.interpretation(), Levels: lm.step, Order: lm.input, Formals: lm.formal}
}

// apply applies clause c to the relations: it reports whether its head's
// relation grew (a query: whether its body holds).
func (lm *leastModel) apply(c *chc.Clause) bool {
	m := lm.m
	x := lm.prepare(c)
	b := lm.body(c, x, func(p int) bdd.Node { return lm.rel[p] })
	if b == bdd.False {
		return false
	}
	img := m.AndExists(b, x.t, x.vars)
	if c.Head == nil {
		return img != bdd.False
	}
	h := c.Head.Pred.Index
	grown := m.Or(lm.rel[h], img)
	if grown == lm.rel[h] {
		return false
	}
	lm.step++
	lm.rel[h] = grown
	lm.grown[h] = append(lm.grown[h], lmGrowth{lm.step, grown, c})
	return true
}

// components numbers the predicates' strongly connected components (an
// edge from each body atom's predicate to the head's) in topological
// order, by Tarjan's algorithm.
func (lm *leastModel) components() (comp []int, n int) {
	np := len(lm.sys.Preds)
	succ := make([][]int, np)
	for _, c := range lm.sys.Clauses {
		if c.Head == nil {
			continue
		}
		for _, a := range c.Body {
			succ[a.Pred.Index] = append(succ[a.Pred.Index], c.Head.Pred.Index)
		}
	}
	index, low := make([]int, np), make([]int, np)
	on := make([]bool, np)
	comp = make([]int, np)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, found := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range succ[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = found
				if w == v {
					break
				}
			}
			found++
		}
	}
	for v := range np {
		if index[v] < 0 {
			visit(v)
		}
	}
	// Tarjan finds a component after every component it leads to.
	for v := range comp {
		comp[v] = found - 1 - comp[v]
	}
	return comp, found
}

// gc frees the diagrams no longer needed: the graph's nodes are built
// anew when needed.
func (lm *leastModel) gc() {
	var roots []*bdd.Node
	for i := range lm.rel {
		roots = append(roots, &lm.rel[i])
		for j := range lm.grown[i] {
			roots = append(roots, &lm.grown[i][j].rel)
		}
	}
	var subs []map[int]bdd.Node
	for _, x := range lm.cl {
		if x == nil {
			continue
		}
		roots = append(roots, &x.t)
		subs = append(subs, x.subs...)
	}
	type entry struct {
		sub map[int]bdd.Node
		k   int
		n   bdd.Node
	}
	var entries []*entry
	for _, s := range subs {
		for k, n := range s {
			e := &entry{s, k, n}
			entries = append(entries, e)
			roots = append(roots, &e.n)
		}
	}
	lm.gate.Clear()
	clear(lm.composed)
	lm.m.GC(roots)
	for _, e := range entries {
		e.sub[e.k] = e.n
	}
}

// before is predicate p's relation before growth step.
func (lm *leastModel) before(p, step int) bdd.Node {
	g := lm.grown[p]
	i, _ := slices.BinarySearchFunc(g, step, func(x lmGrowth, s int) int { return x.step - s })
	if i == 0 {
		return bdd.False
	}
	return g[i-1].rel
}

// derive is a derivation of c's head with the arguments args (a query:
// none) from the relations before growth step, which hold it. An atom
// met again is derived once (done, by predicate and arguments): the
// derivation is a DAG, where the tree can be exponential.
func (lm *leastModel) derive(c *chc.Clause, args []bool, step int, done map[string]*chc.Derivation) *chc.Derivation {
	m := lm.m
	x := lm.prepare(c)
	f := m.And(lm.body(c, x, func(p int) bdd.Node { return lm.before(p, step) }), x.t)
	if c.Head != nil {
		fix := map[int]bool{}
		for k, v := range lm.formal[c.Head.Pred.Index] {
			fix[v] = args[k]
		}
		f = m.Restrict(f, fix)
	}
	if f == bdd.False {
		panic(fmt.Sprintf("engine: the least model lost the derivation of clause %s", c.Name))
	}
	w := m.Witness(f)
	if c.Head != nil {
		for k, v := range lm.formal[c.Head.Pred.Index] {
			w[v] = args[k]
		}
	}
	vals := make([]bool, lm.sys.AIG.NumVars())
	for _, v := range x.inputs {
		vals[v] = w[x.at[v]]
	}
	lm.sys.AIG.Eval(vals)
	d := &chc.Derivation{Clause: c, Values: vals}
	for _, a := range c.Body {
		p := a.Pred.Index
		at := map[int]bool{}
		sub := make([]bool, len(a.Args))
		for k, l := range a.Args {
			sub[k] = ts.Value(vals, l)
			at[lm.formal[p][k]] = sub[k]
		}
		key := fmt.Sprint(p, ":", factKey(sub))
		if b, ok := done[key]; ok {
			d.Body = append(d.Body, b)
			continue
		}
		// The first growth that holds the atom, before step. A relation
		// only grows, so the growths that hold it are a suffix: a binary
		// search finds the first (a deep counterexample has thousands of
		// growths and atoms).
		gs := lm.grown[p]
		n, _ := slices.BinarySearchFunc(gs, step, func(x lmGrowth, s int) int { return x.step - s })
		i := sort.Search(n, func(i int) bool { return m.Eval(gs[i].rel, at) })
		if i == n {
			panic(fmt.Sprintf("engine: the least model lost an atom of %s", a.Pred.Name))
		}
		g := &gs[i]
		b := lm.derive(g.clause, sub, g.step, done)
		done[key] = b
		d.Body = append(d.Body, b)
	}
	return d
}

// interpretation is the relations as formulas over the predicates'
// arguments.
func (lm *leastModel) interpretation() *chc.Interpretation {
	in := chc.NewInterpretation(lm.sys)
	lit, done := make([]ts.Lit, lm.m.Nodes()), make([]int32, lm.m.Nodes())
	var formal []ts.Lit // by variable: the argument input of the predicate at hand
	for i := range lm.sys.Preds {
		if !lm.relevant[i] {
			in.Of[i] = ts.True
			continue
		}
		for k, v := range lm.formal[i] {
			for len(formal) <= v {
				formal = append(formal, ts.False)
			}
			formal[v] = in.Formals[i][k]
		}
		// Node n's literal is lit[n] when done[n] is this predicate's
		// (each has its own argument inputs).
		pass := int32(i + 1)
		lit[bdd.False], lit[bdd.True] = ts.False, ts.True
		done[bdd.False], done[bdd.True] = pass, pass
		var conv func(n bdd.Node) ts.Lit
		conv = func(n bdd.Node) ts.Lit {
			if done[n] == pass {
				return lit[n]
			}
			lo, hi := lm.m.Branches(n)
			l := in.AIG.Ite(formal[lm.m.Level(n)], conv(hi), conv(lo))
			lit[n], done[n] = l, pass
			return l
		}
		in.Of[i] = conv(lm.rel[i])
	}
	return in
}
