package engine

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"

	"bmc/chc"
	"bmc/solver"
	"bmc/ts"
)

// Spacer decides sys by property directed reachability over Horn
// clauses: GPDR (Hoder and Bjorner, "Generalized property directed
// reachability", SAT 2012) in the form of Spacer (Komuravelli,
// Gurfinkel and Chaki, "SMT-based model checking for recursive
// programs", CAV 2014), for Booleans.
//
// Level i over-approximates, per predicate, the atoms derivable by
// derivations of height at most i (may-summaries: blocked cubes over the
// predicate's arguments, stored at the highest level known, level 0
// being empty); must-summaries are atoms known derivable, each with its
// derivation. A proof spObligation asks whether a cube of a predicate's
// arguments is derivable within a level: first from must-summaries alone
// (a new must-summary, the derivation one clause longer), then from the
// level below's may-summaries; unsatisfiable, the cube is generalised by
// the core and by dropping literals and blocked, with the cube itself
// excluded from the predicate's own body atoms (relative induction, as
// in PDR); satisfiable, the first body atom not already a must-summary
// becomes an spObligation one level down. Queries are the spObligations of a
// predicate of no arguments, "error", at the top level. When a level's
// cubes all hold one level up the may-summaries above it are inductive:
// they are the interpretation returned.
//
// Each predicate has a solver holding the clauses that derive it, every
// clause under a selector, and the summaries of the predicates in their
// bodies, each may-summary under its level's activation literal and each
// must-summary on a chain of alternatives that an assumption closes.
func Spacer(ctx context.Context, sys *chc.System, o HornOptions) *HornResult {
	sp := &spacer{ctx: ctx, sys: sys, opts: o}
	defer sp.close()
	if err := sp.load(); err != nil {
		return &HornResult{Status: solver.Unknown, Reason: err.Error()}
	}
	res := sp.run()
	res.Stats = sp.stats
	return res
}

type spacer struct {
	ctx   context.Context
	sys   *chc.System
	opts  HornOptions
	preds []*spPred // sys.Preds, then the error predicate
	// lemmas[p]: the blocked cubes of predicate p with their levels.
	lemmas [][]spLemma
	levels int
	// epoch counts the changes of the may-summaries.
	epoch int
	stats HornStats
}

// spPred is one predicate's solver and summaries.
type spPred struct {
	index   int
	arity   int
	s       solver.Solver
	head    []solver.Lit // the head's arguments
	use     solver.Lit   // assumed: some clause derives the head
	clauses []*spClause  // that derive it
	acts    []solver.Lit // per level, the activation of its may-summaries
	must    map[string]*spFact
	facts   []*spFact
	// uses are the body atoms of this predicate in every solver, for
	// adding its summaries there.
	uses []*spOcc
	// deps are the predicates in the bodies of the clauses that derive
	// it; changed[l] is the epoch of its last lemma that came to level l.
	deps    []*spPred
	changed []int
}

type spClause struct {
	c   *chc.Clause
	sel solver.Lit // the clause derives the head: its constraint holds, and eq
	eq  solver.Lit // the head's and the body atoms' variables are their arguments'

	copier *chc.Copier
	occs   []*spOcc // its body atoms
}

// spOcc is a body atom of a clause in the solver of the clause's head:
// a variable per argument, equal to it when the clause is selected, so
// that a cube of them can be assumed and lifted.
type spOcc struct {
	owner *spPred
	cl    *spClause
	pred  *spPred
	args  []solver.Lit
	must  solver.Lit // assumed: the atom is a must-summary
	may   solver.Lit // assumed: the atom is in the may-summaries of the levels assumed
	open  solver.Lit // the chain's last alternative: "none of the facts so far"
}

type spFact struct {
	args   []bool
	clause *chc.Clause
	vals   map[int]bool // the clause's inputs
	body   []*spFact
}

type spLemma struct {
	cube  []spLit
	level int
	// tried is the epoch of the last attempt to push it a level up that
	// failed (-1: none): until a lemma it rests on changes (one of a
	// predicate in the bodies that derive its own, at its level or
	// above), the attempt would fail again.
	tried int
}

// spLit is an argument's value in a cube.
type spLit struct {
	arg int
	val bool
}

func (sp *spacer) close() {
	for _, p := range sp.preds {
		if p.s != nil {
			p.s.Close()
		}
	}
}

// load builds every predicate's solver.
func (sp *spacer) load() error {
	heads := sp.sys.HeadsOf()
	for i := range heads {
		arity := 0
		if i < len(sp.sys.Preds) {
			arity = sp.sys.Preds[i].Arity()
		}
		sp.preds = append(sp.preds, &spPred{index: i, arity: arity, must: map[string]*spFact{}})
	}
	sp.lemmas = make([][]spLemma, len(sp.preds))
	for i, cs := range heads {
		p := sp.preds[i]
		p.s = sp.opts.NewSolver()
		s := p.s
		for k := 0; k < p.arity; k++ {
			p.head = append(p.head, s.NewVar())
		}
		var sels []solver.Lit
		for _, c := range cs {
			cl := &spClause{c: c, sel: s.NewVar(), copier: chc.NewCopier(sp.sys.AIG, s, chc.FreshInputs(s))}
			s.AddClause(s.Not(cl.sel), cl.copier.Lit(c.Constraint))
			if c.Head != nil {
				for k, a := range cl.copier.Lits(c.Head.Args) {
					s.AddClause(s.Not(cl.sel), s.Not(p.head[k]), a)
					s.AddClause(s.Not(cl.sel), p.head[k], s.Not(a))
				}
			}
			for _, a := range c.Body {
				q := sp.preds[a.Pred.Index]
				occ := &spOcc{owner: p, cl: cl, pred: q, must: s.NewVar(), may: s.NewVar(), open: s.NewVar()}
				for _, x := range cl.copier.Lits(a.Args) {
					z := s.NewVar()
					s.AddClause(s.Not(cl.sel), s.Not(z), x)
					s.AddClause(s.Not(cl.sel), z, s.Not(x))
					occ.args = append(occ.args, z)
				}
				s.AddClause(s.Not(occ.must), s.Not(cl.sel), occ.open)
				cl.occs = append(cl.occs, occ)
				q.uses = append(q.uses, occ)
				if !slices.Contains(p.deps, q) {
					p.deps = append(p.deps, q)
				}
			}
			p.clauses = append(p.clauses, cl)
			sels = append(sels, cl.sel)
		}
		p.use = s.NewVar()
		s.AddClause(append([]solver.Lit{s.Not(p.use)}, sels...)...)
		if err := context.Cause(sp.ctx); err != nil {
			return err
		}
	}
	return nil
}

// act is p's activation literal of level l, made on first use. Level
// 0's excludes every body atom taken from the may-summaries: nothing is
// derivable within height 0.
func (p *spPred) act(l int) solver.Lit {
	for len(p.acts) <= l {
		a := p.s.Activation()
		if len(p.acts) == 0 {
			for _, cl := range p.clauses {
				for _, occ := range cl.occs {
					p.s.Under(a, p.s.Not(cl.sel), p.s.Not(occ.may))
				}
			}
		}
		p.acts = append(p.acts, a)
	}
	return p.acts[l]
}

// from are the assumptions of a query on level l: the may-summaries of
// the levels from l up.
func (sp *spacer) from(p *spPred, l int) []solver.Lit {
	var out []solver.Lit
	for k := l; k <= sp.levels+1; k++ {
		out = append(out, p.act(k))
	}
	return out
}

// cubeLits are the head literals of cube in p's solver.
func (p *spPred) cubeLits(cube []spLit) []solver.Lit {
	out := make([]solver.Lit, len(cube))
	for i, l := range cube {
		out[i] = p.head[l.arg]
		if !l.val {
			out[i] = p.s.Not(out[i])
		}
	}
	return out
}

// notCube is the clause "not cube" over the arguments args of a body atom.
func notCube(s solver.Solver, cube []spLit, args []solver.Lit) []solver.Lit {
	out := make([]solver.Lit, len(cube))
	for i, l := range cube {
		out[i] = args[l.arg]
		if l.val {
			out[i] = s.Not(out[i])
		}
	}
	return out
}

// addLemma blocks cube of p from level l down: in the solver of every
// predicate with p in a clause's body.
func (sp *spacer) addLemma(p *spPred, cube []spLit, l int) {
	sp.lemmas[p.index] = append(sp.lemmas[p.index], spLemma{cube: cube, level: l, tried: -1})
	sp.change(p, l)
	sp.stats.Lemmas++
	for _, occ := range p.uses {
		s := occ.owner.s
		s.Under(occ.owner.act(l), append(notCube(s, cube, occ.args), s.Not(occ.cl.sel), s.Not(occ.may))...)
	}
}

// change records that a lemma of p came to level l.
func (sp *spacer) change(p *spPred, l int) {
	sp.epoch++
	for len(p.changed) <= l {
		p.changed = append(p.changed, 0)
	}
	p.changed[l] = sp.epoch
}

// changedFrom is the epoch of the last lemma that came to level l or
// above of a predicate in p's clause bodies: of the may-summaries that a
// query of p at level l+1 assumes.
func (sp *spacer) changedFrom(p *spPred, l int) int {
	last := 0
	for _, q := range p.deps {
		for k := l; k < len(q.changed); k++ {
			last = max(last, q.changed[k])
		}
	}
	return last
}

// addFact records a must-summary of p and extends the chain of each of
// p's body atoms with it.
func (sp *spacer) addFact(p *spPred, f *spFact) {
	key := factKey(f.args)
	if _, ok := p.must[key]; ok {
		return
	}
	p.must[key] = f
	p.facts = append(p.facts, f)
	sp.stats.Facts++
	for _, occ := range p.uses {
		s := occ.owner.s
		is, next := s.NewVar(), s.NewVar()
		s.AddClause(s.Not(occ.open), is, next)
		for k, v := range f.args {
			a := occ.args[k]
			if !v {
				a = s.Not(a)
			}
			s.AddClause(s.Not(is), a)
		}
		occ.open = next
	}
}

func factKey(args []bool) string {
	var b strings.Builder
	for _, v := range args {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// spObligation asks whether cube of pred is derivable within level.
type spObligation struct {
	pred  *spPred
	cube  []spLit
	level int
	seq   int
}

type spObligations []*spObligation

func (q spObligations) Len() int { return len(q) }
func (q spObligations) Less(i, j int) bool {
	if q[i].level != q[j].level {
		return q[i].level < q[j].level
	}
	return q[i].seq > q[j].seq // the newest first: depth first
}
func (q spObligations) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *spObligations) Push(x any)   { *q = append(*q, x.(*spObligation)) }
func (q *spObligations) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (sp *spacer) run() *HornResult {
	errPred := sp.preds[len(sp.preds)-1]
	for n := 1; ; n++ {
		if sp.opts.MaxLevels > 0 && n > sp.opts.MaxLevels {
			return &HornResult{Status: solver.Unknown, Reason: fmt.Sprintf("level bound %d reached", sp.opts.MaxLevels), Levels: n - 1}
		}
		sp.levels = n
		f, err := sp.decide(errPred, nil, n)
		if err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error(), Levels: n}
		}
		if f != nil {
			return &HornResult{Status: solver.Sat, Derivation: sp.derivation(f), Levels: n}
		}
		at, err := sp.propagate(n)
		if err != nil {
			return &HornResult{Status: solver.Unknown, Reason: err.Error(), Levels: n}
		}
		if at > 0 {
			return &HornResult{Status: solver.Unsat, Interpretation: sp.interpretation(at), Levels: n}
		}
	}
}

// decide solves the spObligation of cube of p at level n and the ones it
// leads to: a must-summary of p in cube, or nil when cube is blocked.
func (sp *spacer) decide(p *spPred, cube []spLit, n int) (*spFact, error) {
	q := &spObligations{}
	seq := 0
	push := func(o *spObligation) {
		sp.stats.Obligations++
		seq++
		o.seq = seq
		heap.Push(q, o)
	}
	root := &spObligation{pred: p, cube: cube, level: n}
	push(root)
	for q.Len() > 0 {
		if err := context.Cause(sp.ctx); err != nil {
			return nil, err
		}
		o := (*q)[0]
		f, child, err := sp.step(o)
		if err != nil {
			return nil, err
		}
		switch {
		case f != nil:
			heap.Pop(q)
			if o == root {
				return f, nil
			}
		case child != nil:
			push(child)
		default:
			heap.Pop(q) // blocked
			if o == root {
				return nil, nil
			}
			if o.level+1 < n {
				// Blocked here, it is tried one level up (as PDR does):
				// the cubes a level needs are found before it is closed.
				push(&spObligation{pred: o.pred, cube: o.cube, level: o.level + 1})
			}
		}
	}
	return nil, fmt.Errorf("spacer: the obligations ran out")
}

// step takes one look at obligation o: a must-summary that answers it,
// an obligation one level down, or neither (o is blocked).
func (sp *spacer) step(o *spObligation) (*spFact, *spObligation, error) {
	p := o.pred
	s := p.s
	cube := p.cubeLits(o.cube)
	// From must-summaries alone.
	as := append(slices.Clone(cube), p.use)
	for _, cl := range p.clauses {
		for _, occ := range cl.occs {
			as = append(as, occ.must, s.Not(occ.open))
		}
	}
	sp.stats.Queries++
	switch s.Solve(sp.ctx, as...) {
	case solver.Unknown:
		return nil, nil, context.Cause(sp.ctx)
	case solver.Sat:
		return sp.fact(p), nil, nil
	}
	if o.level == 0 {
		return nil, nil, nil
	}
	// From the may-summaries one level down, the cube excluded from p's
	// own body atoms.
	st, err := sp.blockQuery(p, o.cube, o.level)
	if err != nil {
		return nil, nil, err
	}
	if st == solver.Unsat {
		sp.block(p, o.cube, o.level)
		return nil, nil, nil
	}
	// Spacer's order: the body atoms before k from must-summaries, k and
	// after from may-summaries, for the largest k that has a model; atom
	// k's arguments there are no must-summary, and become the
	// obligation, lifted.
	cl := p.selected()
	k := 0
	vals := sp.clauseValues(p, cl)
	for next := 1; next < len(cl.occs); next++ {
		as := append(slices.Clone(cube), cl.sel)
		as = append(as, sp.from(p, o.level-1)...)
		for j, occ := range cl.occs {
			if j < next {
				as = append(as, occ.must, s.Not(occ.open))
			} else {
				as = append(as, occ.may)
			}
		}
		sp.stats.Queries++
		st := s.Solve(sp.ctx, as...)
		if st == solver.Unknown {
			return nil, nil, context.Cause(sp.ctx)
		}
		if st == solver.Unsat {
			break
		}
		k, vals = next, sp.clauseValues(p, cl)
	}
	occ := cl.occs[k]
	if occ.pred.must[factKey(vals.atoms[k])] != nil {
		return nil, nil, fmt.Errorf("spacer: an atom from the may-summaries is a must-summary")
	}
	child, err := sp.lift(p, cl, k, vals, o.cube)
	if err != nil {
		return nil, nil, err
	}
	return nil, &spObligation{pred: occ.pred, cube: child, level: o.level - 1}, nil
}

// spValues are the values of a model at a clause: its inputs' and its
// body atoms' arguments.
type spValues struct {
	inputs map[int]bool
	atoms  [][]bool
}

func (sp *spacer) clauseValues(p *spPred, cl *spClause) spValues {
	v := spValues{inputs: map[int]bool{}}
	inputs, _ := sp.sys.Vars(cl.c)
	for _, x := range inputs {
		v.inputs[x] = p.s.Value(cl.copier.Lit(ts.Lit(2 * x)))
	}
	for _, occ := range cl.occs {
		v.atoms = append(v.atoms, values(p.s, occ.args))
	}
	return v
}

// lift generalises the arguments of body atom k in the model vals of
// clause cl (which derives cube of p): the arguments that are inputs of
// the clause of their own are kept only where the clause needs them to
// derive cube with every other input, and every other atom's
// arguments, as in the model, whatever the dropped ones are (the core of
// a query for a counterexample, as PDR lifts a predecessor); arguments
// that are functions of other inputs keep their values.
func (sp *spacer) lift(p *spPred, cl *spClause, k int, vals spValues, cube []spLit) ([]spLit, error) {
	s := p.s
	args := cl.c.Body[k].Args
	// An argument is the atom's own when it is an input that no other
	// argument of the atom reads (P(x, x) or P(x, x & y) tie x to more
	// than one place: dropping one would cover tuples the atom never
	// takes).
	uses := map[int]int{}
	for _, a := range args {
		for _, v := range sp.inputsOf(a) {
			uses[v]++
		}
	}
	own := map[int]bool{}
	for _, a := range args {
		if !a.IsNeg() && sp.sys.AIG.Kind(a.Var()) == ts.Input && uses[a.Var()] == 1 {
			own[a.Var()] = true
		}
	}
	act := s.Activation()
	defer s.Release(act)
	not := []solver.Lit{s.Not(cl.copier.Lit(cl.c.Constraint))}
	if cl.c.Head != nil {
		for _, l := range cube {
			h := cl.copier.Lit(cl.c.Head.Args[l.arg])
			if l.val {
				h = s.Not(h)
			}
			not = append(not, h)
		}
	}
	for j, a := range cl.c.Body {
		if j == k {
			continue
		}
		for i, x := range cl.copier.Lits(a.Args) {
			if vals.atoms[j][i] {
				x = s.Not(x)
			}
			not = append(not, x)
		}
	}
	s.Under(act, not...)
	as := []solver.Lit{act}
	inputs, _ := sp.sys.Vars(cl.c)
	for _, x := range inputs {
		v := vals.inputs[x]
		if own[x] {
			continue
		}
		l := cl.copier.Lit(ts.Lit(2 * x))
		if !v {
			l = s.Not(l)
		}
		as = append(as, l)
	}
	var out []spLit
	var owned []spLit
	var lits []solver.Lit
	for i, a := range args {
		l := spLit{i, vals.atoms[k][i]}
		if !own[a.Var()] || a.IsNeg() {
			out = append(out, l)
			continue
		}
		x := cl.copier.Lit(a)
		if !l.val {
			x = s.Not(x)
		}
		owned, lits = append(owned, l), append(lits, x)
	}
	sp.stats.Queries++
	switch s.Solve(sp.ctx, append(as, lits...)...) {
	case solver.Unknown:
		return nil, context.Cause(sp.ctx)
	case solver.Sat:
		return fullCube(vals.atoms[k]), nil // the model leaves something open: no lifting
	}
	failed := map[solver.Lit]bool{}
	for _, l := range s.Failed() {
		failed[l] = true
	}
	for i, l := range owned {
		if failed[lits[i]] {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b spLit) int { return a.arg - b.arg })
	return out, nil
}

// blockQuery asks whether cube of p is derivable at level from the
// may-summaries one level down with cube excluded from p's own body
// atoms.
func (sp *spacer) blockQuery(p *spPred, cube []spLit, level int) (solver.Status, error) {
	s := p.s
	var self solver.Lit
	for _, cl := range p.clauses {
		for _, occ := range cl.occs {
			if occ.pred == p && len(cube) > 0 {
				if self == 0 {
					self = s.Activation()
				}
				s.Under(self, append(notCube(s, cube, occ.args), s.Not(cl.sel), s.Not(occ.may))...)
			}
		}
	}
	as := append(p.cubeLits(cube), p.use)
	as = append(as, sp.from(p, level-1)...)
	for _, cl := range p.clauses {
		for _, occ := range cl.occs {
			as = append(as, occ.may)
		}
	}
	if self != 0 {
		as = append(as, self)
		defer s.Release(self)
	}
	sp.stats.Queries++
	st := s.Solve(sp.ctx, as...)
	if st == solver.Unknown {
		return st, context.Cause(sp.ctx)
	}
	return st, nil
}

// block generalises the blocked cube of p at level (by the core, then
// by dropping literals one at a time) and adds it.
func (sp *spacer) block(p *spPred, cube []spLit, level int) {
	cube = sp.core(p, cube)
	for i := 0; i < len(cube) && len(cube) > 1; {
		try := slices.Delete(slices.Clone(cube), i, i+1)
		if st, err := sp.blockQuery(p, try, level); err == nil && st == solver.Unsat {
			cube = sp.core(p, try)
			continue
		}
		i++
	}
	sp.addLemma(p, cube, level)
}

// core is the part of cube in the last unsatisfiable query's core.
func (sp *spacer) core(p *spPred, cube []spLit) []spLit {
	failed := map[solver.Lit]bool{}
	for _, l := range p.s.Failed() {
		failed[l] = true
	}
	lits := p.cubeLits(cube)
	var out []spLit
	for i, l := range cube {
		if failed[lits[i]] {
			out = append(out, l)
		}
	}
	if len(out) == 0 && len(cube) > 0 {
		// The core may be empty when the level alone is contradictory;
		// every cube is then blocked, and so is the empty one.
		return nil
	}
	return out
}

// selected is the clause of p's last model.
func (p *spPred) selected() *spClause {
	for _, cl := range p.clauses {
		if p.s.Value(cl.sel) {
			return cl
		}
	}
	panic("spacer: a model selects no clause")
}

// fact makes the must-summary of p's last model.
func (sp *spacer) fact(p *spPred) *spFact {
	cl := p.selected()
	s := p.s
	f := &spFact{args: values(s, p.head), clause: cl.c, vals: map[int]bool{}}
	inputs, _ := sp.sys.Vars(cl.c)
	for _, v := range inputs {
		f.vals[v] = s.Value(cl.copier.Lit(ts.Lit(2 * v)))
	}
	for _, occ := range cl.occs {
		b := occ.pred.must[factKey(values(s, occ.args))]
		if b == nil {
			panic("spacer: a must-summary's body atom is none")
		}
		f.body = append(f.body, b)
	}
	if p.arity > 0 || p.index < len(sp.sys.Preds) {
		sp.addFact(p, f)
	}
	return f
}

func values(s solver.Solver, ls []solver.Lit) []bool {
	out := make([]bool, len(ls))
	for i, l := range ls {
		out[i] = s.Value(l)
	}
	return out
}

func fullCube(args []bool) []spLit {
	out := make([]spLit, len(args))
	for i, v := range args {
		out[i] = spLit{i, v}
	}
	return out
}

// propagate pushes the cubes of levels 1..n one level up where they
// hold there; it returns the first level left empty (its cubes' levels
// above it are inductive), or 0.
func (sp *spacer) propagate(n int) (int, error) {
	for l := 1; l <= n; l++ {
		empty := true
		for _, p := range sp.preds {
			for i := range sp.lemmas[p.index] {
				lm := sp.lemmas[p.index][i]
				if lm.level != l {
					continue
				}
				if lm.tried >= sp.changedFrom(p, l) {
					empty = false // nothing it rests on has changed
					continue
				}
				st, err := sp.blockQuery(p, lm.cube, l+1)
				if err != nil {
					return 0, err
				}
				if st == solver.Unsat {
					sp.lemmas[p.index][i].level = l + 1
					sp.change(p, l+1)
					for _, occ := range p.uses {
						s := occ.owner.s
						s.Under(occ.owner.act(l+1), append(notCube(s, lm.cube, occ.args), s.Not(occ.cl.sel), s.Not(occ.may))...)
					}
				} else {
					sp.lemmas[p.index][i].tried = sp.epoch
					empty = false
				}
			}
		}
		if empty {
			return l, nil
		}
	}
	return 0, nil
}

// interpretation is the may-summaries above level l.
func (sp *spacer) interpretation(l int) *chc.Interpretation {
	in := chc.NewInterpretation(sp.sys)
	g := in.AIG
	for i := range sp.sys.Preds {
		f := ts.True
		for _, lm := range sp.lemmas[i] {
			if lm.level <= l {
				continue
			}
			c := ts.False
			for _, x := range lm.cube {
				a := in.Formals[i][x.arg]
				if x.val {
					a = a.Not()
				}
				c = g.Or(c, a)
			}
			f = g.And(f, c)
		}
		in.Of[i] = f
	}
	return in
}

// derivation is f's derivation tree, with every variable's value: a
// DAG, as the must-summaries are, one node per must-summary however
// often it is a body atom (a returned call's summary atom is derived
// from its caller's cut point again, so that the tree unfolded doubles
// with every returned call on the path).
func (sp *spacer) derivation(f *spFact) *chc.Derivation {
	return sp.derive(f, map[*spFact]*chc.Derivation{})
}

func (sp *spacer) derive(f *spFact, done map[*spFact]*chc.Derivation) *chc.Derivation {
	if d, ok := done[f]; ok {
		return d
	}
	d := &chc.Derivation{Clause: f.clause, Values: make([]bool, sp.sys.AIG.NumVars())}
	for v, x := range f.vals {
		d.Values[v] = x
	}
	sp.sys.AIG.Eval(d.Values)
	for _, b := range f.body {
		d.Body = append(d.Body, sp.derive(b, done))
	}
	done[f] = d
	return d
}

// inputsOf are the graph's inputs that literal l reads.
func (sp *spacer) inputsOf(l ts.Lit) []int {
	var out []int
	seen := map[int]bool{}
	stack := []int{l.Var()}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == 0 || seen[v] {
			continue
		}
		seen[v] = true
		if sp.sys.AIG.Kind(v) != ts.And {
			out = append(out, v)
			continue
		}
		a, b := sp.sys.AIG.Operands(v)
		stack = append(stack, a.Var(), b.Var())
	}
	return out
}
