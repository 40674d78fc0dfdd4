package sat

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"bmc/solver"

	"github.com/go-air/gini"
	"github.com/go-air/gini/logic"
	"github.com/go-air/gini/z"
)

// Solver is a solver.Solver backed by gini. It is not safe for concurrent
// use by several goroutines.
type Solver struct {
	c *logic.C
	g *gini.Gini

	// The clauses of a gate are in g only once something needs them
	// (define): defined marks those gates; fanout counts, per node, the
	// gates of c that read it, for the nodes before counted.
	defined []bool
	fanout  []int32
	counted int
	stack   []z.Var // scratch for define
	leaves  []z.Lit // scratch for define
	roots   []z.Lit // scratch for Temporary
	assert  []z.Lit // every asserted formula, in order
	nAssert int     // assert[:nAssert] are unit clauses in g
	// pending holds the clauses added since the last sync, each ended by
	// z.LitNull, for g once their variables exist there.
	pending []z.Lit
	// fixedOff: activation literals that Under made false for good (a
	// clause all of whose literals were false); Release must not hand
	// them out again, as gini cannot activate a clause under them.
	fixedOff map[z.Lit]bool

	// After Simplify, the first Solve simplifies the formula before gini
	// sees it (simplifier): loading collects its clauses meanwhile, and
	// simp keeps what the simplification removed. From then on, a clause
	// waits in clause until it is complete (see add).
	simplifyNext bool
	// long says that a query of g went on past gini's first deadline
	// check: the later ones start uninterrupted (solveWithin).
	long    bool
	loading []z.Lit
	simp    *simplifier
	clause  []z.Lit

	status solver.Status // result of the last Solve
	// refuted: a Solve found the assertions alone unsatisfiable. Every
	// later Solve is Unsat without asking gini, which, asked again after
	// deriving the empty clause, may return a "model" that falsifies it.
	refuted bool
	failed  []solver.Lit // failed assumptions of the last Solve (Unsat)
	// model holds, per variable, the values of the last Solve that returned
	// Sat. Variables built after that Solve are filled in lazily by
	// evaluating the circuit (new inputs are false).
	model []bool

	// borrow, when set, lends simplify a core for the simplified formula
	// beside the plain one (SetBorrow).
	borrow func() (release func(), ok bool)
}

// SetBorrow makes the race of a whole formula's first Solve (plain
// against simplified, see simplify) ask borrow for a core of its own;
// without one, the simplified formula is solved after the plain one's
// short try, on the caller's core. Unset, the race always runs.
func (s *Solver) SetBorrow(borrow func() (release func(), ok bool)) { s.borrow = borrow }

var (
	_ solver.Solver     = (*Solver)(nil)
	_ solver.Simplifier = (*Solver)(nil)
)

// New returns an empty solver.
func New() *Solver {
	return &Solver{c: logic.NewC(), g: gini.New()}
}

// Name returns "gini".
func (s *Solver) Name() string { return "gini" }

// lit converts a solver.Lit made by s to a circuit literal, panicking on
// handles that s never made (including the zero Lit).
func (s *Solver) lit(a solver.Lit) z.Lit {
	m := z.Lit(uint32(a))
	if a <= 0 || m.Var() < 1 || int(m.Var()) >= s.c.Len() {
		panic(fmt.Sprintf("sat: invalid literal %d", a))
	}
	return m
}

func out(m z.Lit) solver.Lit { return solver.Lit(int32(m)) }

// True returns the constant true.
func (s *Solver) True() solver.Lit { return out(s.c.T) }

// NewVar returns a fresh input of the circuit.
func (s *Solver) NewVar() solver.Lit { return out(s.c.Lit()) }

// Not returns the negation of a.
func (s *Solver) Not(a solver.Lit) solver.Lit { return out(s.lit(a).Not()) }

// And returns a & b, shared with any equal And built before and folded
// when an operand is constant or the operands are equal or complementary.
func (s *Solver) And(a, b solver.Lit) solver.Lit {
	return out(s.c.And(s.lit(a), s.lit(b)))
}

// Assert adds a permanently; it reaches the SAT solver at the next Solve.
func (s *Solver) Assert(a solver.Lit) {
	s.assert = append(s.assert, s.lit(a))
}

// sync makes gini's variables those of the circuit and hands gini the
// assertions and clauses given since the last call, with the definitions
// of the gates they read.
func (s *Solver) sync() {
	n := s.c.Len()
	if s.counted < n {
		s.defined = grow(s.defined, n)
		s.fanout = grow(s.fanout, n)
		for v := max(s.counted, 2); v < n; v++ {
			if a, b := s.c.Ins(z.Var(v).Pos()); a != z.LitNull {
				s.fanout[a.Var()]++
				s.fanout[b.Var()]++
			}
		}
		if s.counted == 0 {
			s.add(s.c.T) // variable 1 is the constant true
			s.add(z.LitNull)
		}
		s.counted = n
		// Every variable exists in gini, gates not yet defined and inputs
		// in no clause included: Value and Assume may name any of them.
		for int(s.g.MaxVar()) < n-1 {
			s.g.Lit()
		}
	}
	for _, m := range s.assert[s.nAssert:] {
		s.define(m)
		s.add(m)
		s.add(z.LitNull)
	}
	s.nAssert = len(s.assert)
	// Definitions first: define adds clauses of its own, which must not
	// land inside a pending clause.
	for _, m := range s.pending {
		if m != z.LitNull {
			s.define(m)
		}
	}
	for _, m := range s.pending {
		s.add(m)
	}
	s.pending = s.pending[:0]
}

// add hands gini the next literal of a clause, z.LitNull ending it.
// While a simplification loads its clauses, they go to loading instead;
// after one, the clause goes to gini once complete, after the clauses of
// the eliminated variables it reads have returned (restore).
func (s *Solver) add(m z.Lit) {
	switch {
	case s.loading != nil:
		s.loading = append(s.loading, m)
	case s.simp == nil:
		s.g.Add(m)
	case m != z.LitNull:
		s.clause = append(s.clause, m)
	default:
		for _, n := range s.clause {
			s.restore(n)
		}
		for _, n := range s.clause {
			s.g.Add(n)
		}
		s.g.Add(z.LitNull)
		s.clause = s.clause[:0]
	}
}

// restore gives gini back the clauses removed with m's variable, if the
// simplification eliminated it, so that a clause or assumption may read it.
func (s *Solver) restore(m z.Lit) {
	if s.simp != nil {
		s.simp.restore(m.Var(), s.addClause)
	}
}

// addClause hands gini the clause c directly.
func (s *Solver) addClause(c []z.Lit) { addClause(s.g, c) }

// addClause adds the clause c to g.
func addClause(g *gini.Gini, c []z.Lit) {
	for _, m := range c {
		g.Add(m)
	}
	g.Add(z.LitNull)
}

// Simplify makes the first Solve, if none has run yet, hand gini the
// formula asserted by then simplified (see simplifier).
func (s *Solver) Simplify() { s.simplifyNext = true }

// simplify decides the formula asserted so far under the assumptions
// two ways at once and returns the first answer (as Try does; 0 when ctx
// ended first): gini on the formula as it is and gini on the formula
// simplified (simplifier), each in a goroutine, after a short try of
// the plain one alone. Most whole programs are
// decided on the plain formula before a simplification would end, but
// the hardest UNSAT ones (the lasso translation's last unwinding) are
// decided sooner simplified; when that one answers first it becomes the
// solver's gini. The constant and the assumptions' variables are frozen;
// any other variable that a clause or assumption reads later gets its
// clauses back then.
func (s *Solver) simplify(ctx context.Context, assumptions []z.Lit) int {
	s.loading = []z.Lit{}
	s.sync()
	for _, m := range assumptions {
		s.define(m)
	}
	cs := s.loading
	s.loading = nil
	for _, m := range cs {
		s.g.Add(m)
	}
	if tryPlain {
		// Small formulas are decided before a simplification would have
		// started: the plain one runs alone first, for about an eighth of
		// the time a simplification takes (10 µs per clause of about 3
		// literals), at most 50 ms.
		if r := solveWithin(ctx, s.g, assumptions, min(time.Duration(len(cs)/32)*10*time.Microsecond, 50*time.Millisecond), &s.long); r != 0 {
			return r
		}
	}
	other, stop := context.WithCancel(ctx)
	defer stop() // the other goroutine stops at gini's next deadline check
	answer := make(chan simplified, 1)
	nvars := s.c.Len()
	go func() { answer <- solveSimplified(other, cs, assumptions, nvars) }()
	adopt := func(a simplified) int {
		if a.r != 0 { // else ctx ended
			s.g, s.simp, s.long = a.g, a.f, true
		}
		return a.r
	}
	if !tryPlain {
		return adopt(<-answer)
	}
	if s.borrow != nil {
		release, ok := s.borrow()
		if !ok {
			return adopt(<-answer)
		}
		defer release()
	}
	plain := make(chan int, 1)
	g, long := s.g, s.long
	go func() { plain <- trySolve(other, g, assumptions, &long) }()
	select {
	case r := <-plain:
		s.long = long
		return r
	case a := <-answer:
		if a.r == 0 {
			<-plain // ctx ended: the plain one stops at its next check, and s.g is free again
		}
		return adopt(a)
	}
}

// tryPlain: simplify decides the plain formula too (tests set it false,
// to decide every formula simplified).
var tryPlain = true

func grow[T any](xs []T, n int) []T {
	for len(xs) < n {
		var zero T
		xs = append(xs, zero)
	}
	return xs
}

// maxLeaves bounds the conjuncts of one collapsed gate.
const maxLeaves = 64

// define puts the definition of m's gate, and of every gate it reads, in
// g. A tree of conjunctions whose inner gates nothing else reads (yet)
// becomes one gate g = l1 & ... & ln: n binary clauses and one long one,
// and no variables for the inner gates. The sequentialized programs'
// circuits are mostly such trees (conditions over program counter bits,
// guarded writes), and SAT queries cost time per variable and clause.
// An inner gate that something reads later is defined then.
func (s *Solver) define(m z.Lit) {
	s.stack = append(s.stack[:0], m.Var())
	for len(s.stack) > 0 {
		v := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		if s.defined[v] {
			continue
		}
		s.defined[v] = true
		a, b := s.c.Ins(v.Pos())
		if v == 1 || a == z.LitNull {
			continue // the constant, or an input
		}
		s.leaves = s.leaves[:0]
		s.collect(a)
		s.collect(b)
		g := v.Pos()
		for _, l := range s.leaves {
			s.add(g.Not())
			s.add(l)
			s.add(z.LitNull)
			s.stack = append(s.stack, l.Var())
		}
		s.add(g)
		for _, l := range s.leaves {
			s.add(l.Not())
		}
		s.add(z.LitNull)
	}
}

// collect adds the conjuncts that l contributes to a collapsed gate: l
// itself, or, for an undefined gate read once and positively, its
// operands' conjuncts.
func (s *Solver) collect(l z.Lit) {
	v := l.Var()
	if a, b := s.c.Ins(l); l.IsPos() && v != 1 && a != z.LitNull && !s.defined[v] && s.fanout[v] == 1 &&
		len(s.leaves) < maxLeaves {
		s.collect(a)
		s.collect(b)
		return
	}
	s.leaves = append(s.leaves, l)
}

// AddClause adds the disjunction of lits as one clause of g (at the next
// Solve), building no gate.
func (s *Solver) AddClause(lits ...solver.Lit) {
	for _, a := range lits {
		s.pending = append(s.pending, s.lit(a))
	}
	s.pending = append(s.pending, z.LitNull)
}

// Activation returns an activation literal of gini's: new, or one that
// Release has freed. The clauses under it are gini's to remove on
// Release, with the clauses learnt from them, so that many short-lived
// clauses cost neither variables nor clauses.
func (s *Solver) Activation() solver.Lit {
	s.sync()
	return out(s.activation())
}

// activation takes a literal from gini's activation literals, at
// decision level 0 from then on. A new one gets the same number in the
// circuit: an input no gate reads.
func (s *Solver) activation() z.Lit {
	act := s.g.ActivationLit()
	for int(act.Var()) >= s.c.Len() {
		s.c.Lit()
	}
	s.defined, s.fanout = grow(s.defined, s.c.Len()), grow(s.fanout, s.c.Len())
	s.counted = s.c.Len()
	return act
}

// Under adds the clause lits under act. gini refuses a clause that a
// literal true at decision level 0 satisfies (it needs adding no more
// than a tautology does) and one whose literals are all false there
// (it is "not act", a clause of its own).
func (s *Solver) Under(act solver.Lit, lits ...solver.Lit) {
	a := s.lit(act)
	if s.fixedOff[a] {
		return // an earlier empty clause switched act off for good
	}
	s.sync()
	for _, l := range lits {
		s.define(s.lit(l))
		s.restore(s.lit(l))
	}
	// At decision level 0 (where Value tells what gini has derived for
	// good), through the one public call that goes there alone.
	s.g.Deactivate(s.activation())
	if s.g.Value(a.Not()) {
		return // act is false for good: the clause will never hold
	}
	keep := s.roots[:0]
	for _, l := range lits {
		m := s.lit(l)
		switch {
		case s.g.Value(m):
			return
		case s.g.Value(m.Not()):
			continue
		}
		dup := false
		for _, n := range keep {
			if n == m.Not() {
				return
			}
			dup = dup || n == m
		}
		if !dup {
			keep = append(keep, m)
		}
	}
	s.roots = keep[:0]
	if len(keep) == 0 {
		s.g.Add(a.Not())
		s.g.Add(z.LitNull)
		if s.fixedOff == nil {
			s.fixedOff = map[z.Lit]bool{}
		}
		s.fixedOff[a] = true
		return
	}
	for _, m := range keep {
		s.g.Add(m)
	}
	s.g.ActivateWith(a)
}

// Release removes the clauses under act, and the learnt clauses that
// depend on them, and frees act for another Activation.
func (s *Solver) Release(act solver.Lit) bool {
	if a := s.lit(act); !s.fixedOff[a] {
		s.g.Deactivate(a)
	}
	return true
}

// Solve decides the assertions under the assumptions. It returns
// solver.Unknown when ctx is done before gini finishes (see trySolve).
func (s *Solver) Solve(ctx context.Context, assumptions ...solver.Lit) solver.Status {
	ms := make([]z.Lit, len(assumptions))
	for i, a := range assumptions {
		ms[i] = s.lit(a)
	}
	s.failed = nil
	s.status = solver.Unknown
	if ctx.Err() != nil {
		return solver.Unknown
	}
	if s.refuted {
		s.status = solver.Unsat
		return s.status
	}
	var r int
	if s.simplifyNext && s.counted == 0 {
		r = s.simplify(ctx, ms)
	}
	if r == 0 {
		s.sync()
		for _, m := range ms {
			s.define(m)
			s.restore(m)
		}
		r = trySolve(ctx, s.g, ms, &s.long)
	}

	switch r {
	case 1:
		s.status = solver.Sat
		s.snapshot()
	case -1:
		s.status = solver.Unsat
		s.failed = s.why(ms)
		s.refuted = s.failed == nil
	}
	return s.status
}

// simplified is a gini on a simplified formula, the simplification
// (to rebuild a model, and bring clauses back) and gini's answer.
type simplified struct {
	g *gini.Gini
	f *simplifier
	r int
}

// solveSimplified simplifies the clauses cs (each ended by z.LitNull)
// over nvars variables, the assumptions' variables frozen, and decides
// them in a fresh gini while ctx lives (r 0 when it ends first).
func solveSimplified(ctx context.Context, cs, assumptions []z.Lit, nvars int) simplified {
	g := gini.New()
	for int(g.MaxVar()) < nvars-1 {
		g.Lit()
	}
	f := newSimplifier(nvars)
	start := 0
	for i, m := range cs {
		if m == z.LitNull {
			f.add(cs[start:i])
			start = i + 1
		}
	}
	frozen := map[z.Var]bool{1: true}
	for _, m := range assumptions {
		frozen[m.Var()] = true
	}
	f.run(func(v z.Var) bool { return frozen[v] }, func() bool { return ctx.Err() != nil })
	f.clauses(func(c []z.Lit) { addClause(g, c) })
	f.release()
	long := true // a whole program's formula
	return simplified{g, f, trySolve(ctx, g, assumptions, &long)}
}

// trySolve decides g under the assumptions ms while ctx lives (0 when
// it ends first); see solveWithin.
func trySolve(ctx context.Context, g *gini.Gini, ms []z.Lit, long *bool) int {
	return solveWithin(ctx, g, ms, 0, long)
}

// solveWithin decides g under the assumptions ms while ctx lives and,
// with a positive budget, for at most that long (0 when either ends
// first), the same way from run to run. Gini's Solve starts its restart
// schedule and its phases anew, so a solve interrupted at a point in
// time and asked again (gini's Try in slices of time) takes another
// course each run: a query of seconds took 0.2 s to 1.5 s from run to
// run on one formula (the lasso on the interleaving product of eight
// philosophers). Here a query is interrupted only at a point of the
// search, and once at most: gini's first deadline check, after 20,000
// propagations (a millisecond or so). Most queries of the engines end
// before it, in this goroutine, at no cost. One that goes on past it
// marks the solver's queries long (*long): it and every later one run
// uninterrupted in a goroutine of their own, which this one asks for
// the answer at growing intervals and stops when ctx or the budget
// ends. (Every query in a goroutine costs the short ones a goroutine's
// wake-up each: PDR took 1.37x the time.)
func solveWithin(ctx context.Context, g *gini.Gini, ms []z.Lit, budget time.Duration, long *bool) int {
	var end <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(budget)
		defer t.Stop()
		end = t.C
	}
	if !*long {
		g.Assume(ms...)
		if r := g.Try(time.Nanosecond); r != 0 || ctx.Err() != nil {
			return r
		}
		*long = true
		// Gini keeps the Try's deadline, which every later solve would
		// meet at once; a Try under contradictory assumptions, which
		// fails before it searches, moves it out of reach.
		g.Assume(z.Var(1).Pos(), z.Var(1).Neg())
		g.Try(100 * 365 * 24 * time.Hour)
	}
	g.Assume(ms...)
	solve := g.GoSolve()
	const maxWait = time.Millisecond
	wait := 20 * time.Microsecond
	for {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return solve.Stop()
		case <-end:
			t.Stop()
			return solve.Stop()
		case <-t.C:
		}
		if r, done := solve.Test(); done {
			return r
		}
		wait = min(2*wait, maxWait)
	}
}

// why converts gini's failed assumptions back, keeping only literals that
// really were assumptions of this call.
func (s *Solver) why(ms []z.Lit) []solver.Lit {
	if len(ms) == 0 {
		return nil
	}
	ws := s.g.Why(nil)
	if len(ws) == 0 {
		return nil
	}
	assumed := make(map[z.Lit]bool, len(ms))
	for _, m := range ms {
		assumed[m] = true
	}
	var res []solver.Lit
	seen := make(map[z.Lit]bool, len(ws))
	for _, w := range ws {
		if assumed[w] && !seen[w] {
			seen[w] = true
			res = append(res, out(w))
		}
	}
	return res
}

// snapshot copies gini's model so that Value keeps answering for it after
// later Solves. A gate whose definition is not in gini (collapsed into
// another, or read by nothing asserted) takes the value of its operands.
func (s *Solver) snapshot() {
	n := s.c.Len()
	if cap(s.model) < n {
		s.model = make([]bool, n)
	}
	s.model = s.model[:n]
	val := func(m z.Lit) bool { return s.model[m.Var()] == m.IsPos() }
	for v := 1; v < n; v++ {
		if a, _ := s.c.Ins(z.Var(v).Pos()); v == 1 || a == z.LitNull || s.defined[v] {
			s.model[v] = s.g.Value(z.Var(v).Pos())
		}
	}
	if s.simp != nil {
		s.simp.extend(s.model)
	}
	for v := 2; v < n; v++ {
		if a, b := s.c.Ins(z.Var(v).Pos()); a != z.LitNull && !s.defined[v] {
			s.model[v] = val(a) && val(b)
		}
	}
}

// Value returns a's value in the model of the last Solve that returned Sat.
// Formulas built after that Solve are evaluated on the circuit with new
// inputs false; before any Sat Solve every input counts as false.
func (s *Solver) Value(a solver.Lit) bool {
	m := s.lit(a)
	v := int(m.Var())
	if v >= len(s.model) {
		s.extendModel(v + 1)
	}
	return s.model[v] == m.IsPos()
}

// extendModel evaluates nodes len(model)..n-1, which are in topological
// order in logic.C.
func (s *Solver) extendModel(n int) {
	val := func(m z.Lit) bool { return s.model[m.Var()] == m.IsPos() }
	for v := len(s.model); v < n; v++ {
		var b bool
		switch a, c := s.c.Ins(z.Var(v).Pos()); {
		case v == 1:
			b = true // the constant: c.T is variable 1, positive
		case a == z.LitNull:
			b = false // an input unseen by the last Sat Solve
		default:
			b = val(a) && val(c)
		}
		s.model = append(s.model, b)
	}
}

// Failed returns the failed assumptions of the last Solve if it returned
// Unsat: a subset of its assumptions that is unsatisfiable together with
// the assertions. It is nil when no assumption took part in the refutation
// (the assertions alone are unsatisfiable), and after Sat or Unknown.
func (s *Solver) Failed() []solver.Lit {
	if s.status != solver.Unsat || len(s.failed) == 0 {
		return nil
	}
	return append([]solver.Lit(nil), s.failed...)
}

// Close drops the circuit and the SAT solver; s must not be used after.
func (s *Solver) Close() {
	s.c, s.g = nil, nil
	s.defined, s.fanout, s.stack, s.leaves, s.roots = nil, nil, nil, nil, nil
	s.assert, s.pending, s.failed, s.model = nil, nil, nil, nil
	s.simp, s.clause = nil, nil
}

// clauses collects clauses in the form logic.C's CnfSince emits them
// (inter.Adder: literals, each clause ended by z.LitNull).
type clauses struct {
	lits   []z.Lit
	n      int
	maxVar z.Var
}

func (cs *clauses) Add(m z.Lit) {
	cs.lits = append(cs.lits, m)
	if m == z.LitNull {
		cs.n++
	} else if m.Var() > cs.maxVar {
		cs.maxVar = m.Var()
	}
}

// cone returns the positive literals of all nodes reachable from roots, in
// increasing variable order.
func (s *Solver) cone(roots []z.Lit) []z.Lit {
	in := make([]bool, s.c.Len())
	stack := make([]z.Var, 0, len(roots))
	for _, m := range roots {
		stack = append(stack, m.Var())
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[v] {
			continue
		}
		in[v] = true
		if a, b := s.c.Ins(v.Pos()); a != z.LitNull {
			stack = append(stack, a.Var(), b.Var())
		}
	}
	var res []z.Lit
	for v, ok := range in {
		if ok {
			res = append(res, z.Var(v).Pos())
		}
	}
	return res
}

// WriteDIMACS writes in DIMACS CNF the Tseitin encoding of the cone of
// everything asserted so far, plus extraUnits as unit clauses: satisfiable
// exactly when Solve with extraUnits as assumptions would return Sat.
// Variables are gini's (circuit) variables; variable 1 is the constant true.
func (s *Solver) WriteDIMACS(w io.Writer, extraUnits ...solver.Lit) error {
	units := make([]z.Lit, 0, len(s.assert)+len(extraUnits))
	units = append(units, s.assert...)
	for _, a := range extraUnits {
		units = append(units, s.lit(a))
	}
	cs := &clauses{}
	// Passing the cone's nodes in index (topological) order keeps
	// CnfSince's recursion one level deep however deep the circuit is.
	s.c.CnfSince(cs, nil, s.cone(units)...) // also emits the unit for true
	for _, m := range units {
		cs.Add(m)
		cs.Add(z.LitNull)
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "c bmc\np cnf %d %d\n", cs.maxVar, cs.n)
	var buf []byte
	first := true
	for _, m := range cs.lits {
		if !first {
			buf = append(buf, ' ')
		}
		first = m == z.LitNull
		buf = strconv.AppendInt(buf, int64(m.Dimacs()), 10)
		if first {
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return bw.Flush()
}
