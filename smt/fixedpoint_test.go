//go:build !noz3

package smt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/sat"
	"bmc/solver"
)

var _ solver.Fixedpoint = (*Fixedpoint)(nil)

// A Horn system over Booleans as the tests write it, built into a
// Fixedpoint and evaluated on its own to check what the Fixedpoint says.

// fx is a formula over a rule's variables.
type fx struct {
	op   string // "t", "f", "v", "not", "and", "or", "xor"
	v    int
	a, b *fx
}

func fT() *fx             { return &fx{op: "t"} }
func fF() *fx             { return &fx{op: "f"} }
func fV(i int) *fx        { return &fx{op: "v", v: i} }
func fNot(a *fx) *fx      { return &fx{op: "not", a: a} }
func fAnd(a, b *fx) *fx   { return &fx{op: "and", a: a, b: b} }
func fOr(a, b *fx) *fx    { return &fx{op: "or", a: a, b: b} }
func fXor(a, b *fx) *fx   { return &fx{op: "xor", a: a, b: b} }
func fIff(a, b *fx) *fx   { return fNot(fXor(a, b)) }
func fVs(is ...int) []*fx { return fxs(fV, is...) }
func fxs(f func(int) *fx, is ...int) []*fx {
	r := make([]*fx, len(is))
	for k, i := range is {
		r[k] = f(i)
	}
	return r
}

func (f *fx) eval(vals []bool) bool {
	switch f.op {
	case "t":
		return true
	case "f":
		return false
	case "v":
		return vals[f.v]
	case "not":
		return !f.a.eval(vals)
	case "and":
		return f.a.eval(vals) && f.b.eval(vals)
	case "or":
		return f.a.eval(vals) || f.b.eval(vals)
	case "xor":
		return f.a.eval(vals) != f.b.eval(vals)
	}
	panic("bad formula " + f.op)
}

func (f *fx) build(b solver.Builder, vars []solver.Lit) solver.Lit {
	switch f.op {
	case "t":
		return b.True()
	case "f":
		return b.Not(b.True())
	case "v":
		return vars[f.v]
	case "not":
		return b.Not(f.a.build(b, vars))
	case "and":
		return b.And(f.a.build(b, vars), f.b.build(b, vars))
	case "or":
		return solver.Or(b, f.a.build(b, vars), f.b.build(b, vars))
	case "xor":
		return solver.Xor(b, f.a.build(b, vars), f.b.build(b, vars))
	}
	panic("bad formula " + f.op)
}

type hAtom struct {
	rel  int // index into hSystem.arity
	args []*fx
}

type hRule struct {
	nvars int
	body  []hAtom
	cons  *fx // nil: true
	// consAt is where the constraint goes among the body's conjuncts
	// (0: first); right nests the conjunction to the right.
	consAt int
	right  bool
	head   hAtom
}

type hSystem struct {
	arity []int
	rules []hRule
	goal  int // a relation of arity 0
}

func hA(rel int, args ...*fx) hAtom { return hAtom{rel, args} }

// build declares the relations and adds the rules to fp.
func (h *hSystem) build(fp solver.Fixedpoint) []solver.Rel {
	rels := make([]solver.Rel, len(h.arity))
	for i, n := range h.arity {
		rels[i] = fp.Relation(fmt.Sprintf("r%d", i), n)
	}
	for _, r := range h.rules {
		vars := make([]solver.Lit, r.nvars)
		for i := range vars {
			vars[i] = fp.NewVar()
		}
		apply := func(a hAtom) solver.Lit {
			args := make([]solver.Lit, len(a.args))
			for i, x := range a.args {
				args[i] = x.build(fp, vars)
			}
			return fp.Apply(rels[a.rel], args...)
		}
		var conj []solver.Lit
		for _, a := range r.body {
			conj = append(conj, apply(a))
		}
		if r.cons != nil {
			at := min(r.consAt, len(conj))
			conj = append(conj[:at], append([]solver.Lit{r.cons.build(fp, vars)}, conj[at:]...)...)
		}
		body := fp.True()
		switch {
		case len(conj) == 0:
		case r.right:
			body = conj[len(conj)-1]
			for i := len(conj) - 2; i >= 0; i-- {
				body = fp.And(conj[i], body)
			}
		default:
			body = conj[0]
			for _, c := range conj[1:] {
				body = fp.And(body, c)
			}
		}
		fp.Rule(vars, body, apply(r.head))
	}
	return rels
}

// derives reports whether rule r derives d's atom from its children's, in
// the order of r's body atoms, for some values of r's variables.
func (h *hSystem) derives(r hRule, d *solver.Derivation, relOf map[solver.Rel]int) bool {
	if relOf[d.Rel] != r.head.rel || len(d.Body) != len(r.body) {
		return false
	}
	for i, a := range r.body {
		if relOf[d.Body[i].Rel] != a.rel {
			return false
		}
	}
	vals := make([]bool, r.nvars)
	matches := func(a hAtom, args []bool) bool {
		if len(args) != len(a.args) {
			return false
		}
		for i, x := range a.args {
			if x.eval(vals) != args[i] {
				return false
			}
		}
		return true
	}
	for m := 0; m < 1<<r.nvars; m++ {
		for i := range vals {
			vals[i] = m>>i&1 == 1
		}
		if r.cons != nil && !r.cons.eval(vals) || !matches(r.head, d.Args) {
			continue
		}
		ok := true
		for i, a := range r.body {
			ok = ok && matches(a, d.Body[i].Args)
		}
		if ok {
			return true
		}
	}
	return false
}

// checkDerivation checks that every node of d is derived by some rule
// from its children, in the order of the rule's body, and returns the
// number of nodes and the largest number of children of one node.
func (h *hSystem) checkDerivation(t *testing.T, d *solver.Derivation, rels []solver.Rel) (nodes, width int) {
	t.Helper()
	relOf := map[solver.Rel]int{}
	for i, r := range rels {
		relOf[r] = i
	}
	if d == nil || d.Rel != rels[h.goal] {
		t.Fatalf("the derivation does not end in the goal: %+v", d)
	}
	var check func(d *solver.Derivation)
	check = func(d *solver.Derivation) {
		nodes++
		width = max(width, len(d.Body))
		ok := false
		for _, r := range h.rules {
			if h.derives(r, d, relOf) {
				ok = true
				break
			}
		}
		if !ok {
			t.Fatalf("no rule derives r%d%v from %s", relOf[d.Rel], d.Args, children(d, relOf))
		}
		for _, c := range d.Body {
			check(c)
		}
	}
	check(d)
	return nodes, width
}

func children(d *solver.Derivation, relOf map[solver.Rel]int) string {
	var parts []string
	for _, c := range d.Body {
		parts = append(parts, fmt.Sprintf("r%d%v", relOf[c.Rel], c.Args))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// checkInterpretation checks, each on a fresh gini solver, that the
// interpretations make every rule valid and the goal false.
func (h *hSystem) checkInterpretation(t *testing.T, fp solver.Fixedpoint, rels []solver.Rel) {
	t.Helper()
	ctx := context.Background()
	interp := func(g solver.Builder, a hAtom, vars []solver.Lit) solver.Lit {
		args := make([]solver.Lit, len(a.args))
		for i, x := range a.args {
			args[i] = x.build(g, vars)
		}
		l, err := fp.Interpretation(rels[a.rel], g, args)
		if err != nil {
			t.Fatalf("Interpretation of r%d: %v", a.rel, err)
		}
		return l
	}
	for i, r := range h.rules {
		g := sat.New()
		vars := make([]solver.Lit, r.nvars)
		for k := range vars {
			vars[k] = g.NewVar()
		}
		for _, a := range r.body {
			g.Assert(interp(g, a, vars))
		}
		if r.cons != nil {
			g.Assert(r.cons.build(g, vars))
		}
		g.Assert(g.Not(interp(g, r.head, vars)))
		if st := g.Solve(ctx); st != solver.Unsat {
			t.Errorf("rule %d is not valid under the interpretation (%v)", i, st)
		}
		g.Close()
	}
	g := sat.New()
	defer g.Close()
	g.Assert(interp(g, hA(h.goal), nil))
	if st := g.Solve(ctx); st != solver.Unsat {
		t.Errorf("the goal's interpretation is not false (%v)", st)
	}
}

// counter is an n-bit counter C from 0 up by step, with the goal
// reached when C(goal) holds.
func counter(n, step int, goal []bool) *hSystem {
	zero := make([]*fx, n)
	for i := range zero {
		zero[i] = fF()
	}
	// next = x + step, bit by bit with a carry.
	next := make([]*fx, n)
	carry := fF()
	for i := 0; i < n; i++ {
		s := fF()
		if step>>i&1 == 1 {
			s = fT()
		}
		next[i] = fXor(fXor(fV(i), s), carry)
		carry = fOr(fAnd(fV(i), s), fAnd(carry, fXor(fV(i), s)))
	}
	var at *fx = fT()
	for i, b := range goal {
		if b {
			at = fAnd(at, fV(i))
		} else {
			at = fAnd(at, fNot(fV(i)))
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return &hSystem{
		arity: []int{n, 0},
		rules: []hRule{
			{head: hA(0, zero...)},
			{nvars: n, body: []hAtom{hA(0, fVs(all...)...)}, head: hA(0, next...)},
			{nvars: n, body: []hAtom{hA(0, fVs(all...)...)}, cons: at, consAt: 1, head: hA(1)},
		},
		goal: 1,
	}
}

// Relations of the systems below.
const (
	rR = iota
	rS
	rG
	rU // in no rule
	rI // derivable, irrelevant to the goal
	rE // empty, in a body
)

// mixed is a system with a non-linear rule whose two body atoms are of
// the same relation, constraints between and after the atoms, and a
// goal whose body needs its atoms in order; sat tells which goal.
func mixed(sat bool) *hSystem {
	goal := fAnd(fV(0), fNot(fV(1))) // S(x) ∧ R(true, x) ∧ x is underivable
	if sat {
		goal = fAnd(fNot(fV(0)), fT())
	}
	return &hSystem{
		arity: []int{2, 1, 0, 1, 1, 1},
		rules: []hRule{
			{head: hA(rR, fF(), fF())},
			// R(x, y) ∧ z = ¬x → R(z, x)
			{nvars: 3, body: []hAtom{hA(rR, fVs(0, 1)...)}, cons: fIff(fV(2), fNot(fV(0))), consAt: 1, head: hA(rR, fVs(2, 0)...)},
			// R(x, y) ∧ x ∧ R(y, x) → S(y)
			{nvars: 2, body: []hAtom{hA(rR, fVs(0, 1)...), hA(rR, fVs(1, 0)...)}, cons: fV(0), consAt: 1, head: hA(rS, fV(1))},
			// S(x) ∧ R(true, x) ∧ goal → G
			{nvars: 2, body: []hAtom{hA(rS, fV(0)), hA(rR, fT(), fV(0))}, cons: goal, consAt: 2, right: true, head: hA(rG)},
			// R(x, x) ∧ I(x) → I(¬x); I(true)
			{nvars: 1, body: []hAtom{hA(rR, fVs(0, 0)...), hA(rI, fV(0))}, head: hA(rI, fNot(fV(0)))},
			{head: hA(rI, fT())},
			// E(x) → R(x, x)
			{nvars: 1, body: []hAtom{hA(rE, fV(0))}, head: hA(rR, fVs(0, 0)...)},
		},
		goal: rG,
	}
}

// summary is a procedure's summary P(a, r) as a recursive procedure
// computes it: P(a, r) holds when the procedure, called with a, can
// return r. Its base case returns f(a); its recursive case calls itself
// twice, on a and on the first call's result. The goal is a call whose
// result equals its argument (same) or differs from it.
func summary(f func(*fx) *fx, same bool) *hSystem {
	goal := fXor(fV(0), fV(1))
	if same {
		goal = fIff(fV(0), fV(1))
	}
	return &hSystem{
		arity: []int{2, 0},
		rules: []hRule{
			{nvars: 2, cons: fIff(fV(1), f(fV(0))), head: hA(0, fVs(0, 1)...)},
			{nvars: 3, body: []hAtom{hA(0, fVs(0, 1)...), hA(0, fVs(1, 2)...)}, head: hA(0, fVs(0, 2)...)},
			{nvars: 2, body: []hAtom{hA(0, fVs(0, 1)...)}, cons: goal, consAt: 1, head: hA(1)},
		},
		goal: 1,
	}
}

// order needs Z3's premises reordered: its body atoms are R(true) and
// R(false), which Z3 4.8.12 lists the other way round; and a rule with
// the same atom twice.
func order() *hSystem {
	return &hSystem{
		arity: []int{1, 1, 0},
		rules: []hRule{
			{nvars: 1, head: hA(0, fV(0))},
			{nvars: 1, body: []hAtom{hA(0, fV(0)), hA(0, fV(0))}, head: hA(1, fV(0))},
			{body: []hAtom{hA(0, fT()), hA(0, fF()), hA(1, fT())}, head: hA(2)},
		},
		goal: 2,
	}
}

// xorClosure derives R(a⊕c, b⊕d) from R(a, b) and R(c, d), starting
// from the facts.
func xorClosure(facts [][]*fx, goal []*fx) *hSystem {
	var rules []hRule
	for _, f := range facts {
		rules = append(rules, hRule{head: hA(0, f...)})
	}
	return &hSystem{
		arity: []int{2, 0},
		rules: append(rules, []hRule{
			{nvars: 4, body: []hAtom{hA(0, fVs(0, 1)...), hA(0, fVs(2, 3)...)}, head: hA(0, fXor(fV(0), fV(2)), fXor(fV(1), fV(3)))},
			{body: []hAtom{hA(0, goal...)}, head: hA(1)},
		}...),
		goal: 1,
	}
}

func testFixedpoint(t *testing.T) *Fixedpoint {
	t.Helper()
	s, err := newFixedpoint()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestFixedpointSat(t *testing.T) {
	tests := []struct {
		name     string
		sys      *hSystem
		minWidth int // a node with at least that many children
	}{
		{"counter", counter(3, 1, []bool{true, false, true}), 1},
		{"counter by 3", counter(4, 3, []bool{true, true, true, true}), 1},
		{"mixed", mixed(true), 2},
		{"summary", summary(fNot, true), 2},
		{"order", order(), 3},
		{"xor closure", xorClosure([][]*fx{{fT(), fF()}, {fF(), fT()}}, []*fx{fT(), fT()}), 2},
		{"xor closure to zero", xorClosure([][]*fx{{fT(), fF()}, {fF(), fT()}}, []*fx{fF(), fF()}), 2},
		{"fact", &hSystem{arity: []int{0}, rules: []hRule{{head: hA(0)}}}, 0},
		{"arity 0 twice", &hSystem{arity: []int{0, 0}, rules: []hRule{{head: hA(0)}, {body: []hAtom{hA(0), hA(0)}, head: hA(1)}}, goal: 1}, 2},
		{"local variable", &hSystem{arity: []int{1, 1, 0}, rules: []hRule{
			{head: hA(0, fT())},
			{nvars: 2, body: []hAtom{hA(0, fV(1))}, cons: fIff(fV(0), fNot(fV(1))), head: hA(1, fV(0))},
			{nvars: 2, body: []hAtom{hA(1, fV(0)), hA(0, fV(1))}, head: hA(2)},
		}, goal: 2}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fp := testFixedpoint(t)
			rels := tc.sys.build(fp)
			if st := fp.Query(context.Background(), rels[tc.sys.goal]); st != solver.Sat {
				t.Fatalf("Query: %v (%v)", st, fp.Err())
			}
			if fp.Err() != nil {
				t.Errorf("Err after Sat: %v", fp.Err())
			}
			d, err := fp.Derivation()
			if err != nil {
				t.Fatal(err)
			}
			nodes, width := tc.sys.checkDerivation(t, d, rels)
			if width < tc.minWidth {
				t.Errorf("the widest node has %d children, want at least %d", width, tc.minWidth)
			}
			t.Logf("%d nodes", nodes)
			if _, err := fp.Interpretation(rels[tc.sys.goal], sat.New(), nil); err == nil {
				t.Error("Interpretation after Sat: no error")
			}
		})
	}
}

func TestFixedpointUnsat(t *testing.T) {
	tests := []struct {
		name string
		sys  *hSystem
	}{
		{"counter by 2", counter(3, 2, []bool{true, false, false})},
		{"mixed", mixed(false)},
		{"summary", summary(func(a *fx) *fx { return a }, false)},
		{"xor closure", xorClosure([][]*fx{{fT(), fT()}}, []*fx{fT(), fF()})},
		// R is {(F,F), (T,F)}: its second argument is false, its first
		// free, which an interpretation with its arguments swapped
		// would get wrong.
		{"asymmetric", &hSystem{arity: []int{2, 0}, rules: []hRule{
			{head: hA(0, fF(), fF())},
			{nvars: 2, body: []hAtom{hA(0, fVs(0, 1)...)}, head: hA(0, fNot(fV(0)), fV(1))},
			{nvars: 1, body: []hAtom{hA(0, fV(0), fT())}, head: hA(1)},
		}, goal: 1}},
		{"three arguments", &hSystem{arity: []int{3, 0}, rules: []hRule{
			{head: hA(0, fT(), fF(), fF())},
			{nvars: 3, body: []hAtom{hA(0, fVs(0, 1, 2)...)}, head: hA(0, fV(0), fV(2), fNot(fV(1)))},
			{nvars: 2, body: []hAtom{hA(0, fF(), fV(0), fV(1))}, head: hA(1)},
		}, goal: 1}},
		{"no rule for the goal", &hSystem{arity: []int{1, 0}, rules: []hRule{{nvars: 1, head: hA(0, fV(0))}}, goal: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fp := testFixedpoint(t)
			rels := tc.sys.build(fp)
			if st := fp.Query(context.Background(), rels[tc.sys.goal]); st != solver.Unsat {
				t.Fatalf("Query: %v (%v)", st, fp.Err())
			}
			tc.sys.checkInterpretation(t, fp, rels)
			if _, err := fp.Derivation(); err == nil {
				t.Error("Derivation after Unsat: no error")
			}
		})
	}
}

// TestFixedpointUnusedRelations checks the interpretation of relations
// that are in no rule (false), derivable but irrelevant to the goal, and
// empty.
func TestFixedpointUnusedRelations(t *testing.T) {
	sys := mixed(false)
	fp := testFixedpoint(t)
	rels := sys.build(fp)
	if st := fp.Query(context.Background(), rels[sys.goal]); st != solver.Unsat {
		t.Fatalf("Query: %v (%v)", st, fp.Err())
	}
	g := sat.New()
	defer g.Close()
	x := g.NewVar()
	for _, tc := range []struct {
		rel  int
		want []bool // the interpretation at x = false, x = true; nil: any
	}{
		{rU, []bool{false, false}},
		{rE, nil},
		{rI, nil},
	} {
		l, err := fp.Interpretation(rels[tc.rel], g, []solver.Lit{x})
		if err != nil {
			t.Fatalf("r%d: %v", tc.rel, err)
		}
		for i, want := range tc.want {
			a := x
			if i == 0 {
				a = g.Not(x)
			}
			if st := g.Solve(context.Background(), a, l); (st == solver.Sat) != want {
				t.Errorf("r%d at x=%v: %v", tc.rel, i == 1, st)
			}
		}
	}
}

func TestFixedpointCancel(t *testing.T) {
	t.Run("done before", func(t *testing.T) {
		fp := testFixedpoint(t)
		rels := counter(3, 1, []bool{true, true, true}).build(fp)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if st := fp.Query(ctx, rels[1]); st != solver.Unknown || !errors.Is(fp.Err(), context.Canceled) {
			t.Fatalf("Query: %v (%v)", st, fp.Err())
		}
		if _, err := fp.Derivation(); err == nil {
			t.Error("Derivation after Unknown: no error")
		}
	})
	t.Run("timeout", func(t *testing.T) {
		fp := testFixedpoint(t)
		// 2^16-1 steps to the goal: far beyond 200 ms.
		sys := counter(16, 1, []bool{true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true})
		rels := sys.build(fp)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		st := fp.Query(ctx, rels[sys.goal])
		if st != solver.Unknown || !errors.Is(fp.Err(), context.DeadlineExceeded) {
			t.Fatalf("Query: %v (%v)", st, fp.Err())
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the interrupted query took %v", d)
		}
		// The engine still works: a goal that is a fact.
		h := fp.Relation("h", 0)
		fp.Rule(nil, fp.True(), fp.Apply(h))
		if st := fp.Query(context.Background(), h); st != solver.Sat {
			t.Fatalf("Query after the interrupt: %v (%v)", st, fp.Err())
		}
		if d, err := fp.Derivation(); err != nil || d.Rel != h || len(d.Body) != 0 {
			t.Fatalf("Derivation after the interrupt: %+v, %v", d, err)
		}
	})
}

// TestFixedpointMisuse checks that misuse is an error, never a panic.
func TestFixedpointMisuse(t *testing.T) {
	tests := []struct {
		name  string
		build func(fp *Fixedpoint) solver.Rel // returns the goal
		want  string                          // in Err after Query
	}{
		{"wrong arity", func(fp *Fixedpoint) solver.Rel {
			r, g := fp.Relation("r", 2), fp.Relation("g", 0)
			fp.Rule(nil, fp.Apply(r, fp.True()), fp.Apply(g))
			return g
		}, "has 2 arguments, not 1"},
		{"invalid Lit", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Rule(nil, fp.Not(12345), fp.Apply(g))
			return g
		}, "invalid Lit 12345"},
		{"zero Lit", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Rule(nil, fp.And(0, fp.True()), fp.Apply(g))
			return g
		}, "invalid Lit 0"},
		{"invalid relation", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Rule(nil, fp.Apply(7), fp.Apply(g))
			return g
		}, "invalid relation 7"},
		{"head no atom", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Rule(nil, fp.True(), fp.Not(fp.Apply(g)))
			return g
		}, "is not an atom"},
		{"atom under negation", func(fp *Fixedpoint) solver.Rel {
			r, g := fp.Relation("r", 0), fp.Relation("g", 0)
			fp.Rule(nil, fp.Not(fp.Apply(r)), fp.Apply(g))
			return g
		}, "not one of its conjuncts"},
		{"atom in an argument", func(fp *Fixedpoint) solver.Rel {
			r, g := fp.Relation("r", 1), fp.Relation("g", 0)
			fp.Rule(nil, fp.True(), fp.Apply(r, fp.Apply(g)))
			return g
		}, "argument of an atom"},
		{"unbound variable", func(fp *Fixedpoint) solver.Rel {
			r, g := fp.Relation("r", 1), fp.Relation("g", 0)
			x := fp.NewVar()
			fp.Rule(nil, fp.Apply(r, x), fp.Apply(g))
			return g
		}, "not among its variables"},
		{"not a variable", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Rule([]solver.Lit{fp.True()}, fp.True(), fp.Apply(g))
			return g
		}, "not a variable"},
		{"negative arity", func(fp *Fixedpoint) solver.Rel {
			fp.Relation("r", -1)
			return fp.Relation("g", 0)
		}, "negative arity"},
		{"goal with arguments", func(fp *Fixedpoint) solver.Rel {
			return fp.Relation("g", 1)
		}, "not a relation of no arguments"},
		{"goal undeclared", func(fp *Fixedpoint) solver.Rel {
			return 3
		}, "not a relation of no arguments"},
		{"closed", func(fp *Fixedpoint) solver.Rel {
			g := fp.Relation("g", 0)
			fp.Close()
			fp.Close()
			x := fp.NewVar()
			fp.Rule([]solver.Lit{x}, fp.And(x, fp.Not(x)), fp.Apply(g))
			return g
		}, "closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fp := testFixedpoint(t)
			g := tc.build(fp)
			if st := fp.Query(context.Background(), g); st != solver.Unknown || fp.Err() == nil || !strings.Contains(fp.Err().Error(), tc.want) {
				t.Fatalf("Query: %v (%v), want Unknown with %q", st, fp.Err(), tc.want)
			}
			if _, err := fp.Derivation(); err == nil {
				t.Error("Derivation: no error")
			}
			if _, err := fp.Interpretation(g, sat.New(), nil); err == nil {
				t.Error("Interpretation: no error")
			}
		})
	}
}

func TestFixedpointInterpretationErrors(t *testing.T) {
	fp := testFixedpoint(t)
	sys := mixed(false)
	rels := sys.build(fp)
	if _, err := fp.Interpretation(rels[rR], sat.New(), nil); err == nil {
		t.Error("Interpretation before Query: no error")
	}
	if st := fp.Query(context.Background(), rels[sys.goal]); st != solver.Unsat {
		t.Fatalf("Query: %v (%v)", st, fp.Err())
	}
	g := sat.New()
	defer g.Close()
	if _, err := fp.Interpretation(rels[rR], g, []solver.Lit{g.NewVar()}); err == nil {
		t.Error("Interpretation with too few arguments: no error")
	}
	if _, err := fp.Interpretation(99, g, nil); err == nil {
		t.Error("Interpretation of an undeclared relation: no error")
	}
}

// TestFixedpointClosed checks that the answers of a closed Fixedpoint are
// errors.
func TestFixedpointClosed(t *testing.T) {
	for _, want := range []solver.Status{solver.Sat, solver.Unsat} {
		fp := testFixedpoint(t)
		sys := mixed(want == solver.Sat)
		rels := sys.build(fp)
		if st := fp.Query(context.Background(), rels[sys.goal]); st != want {
			t.Fatalf("Query: %v (%v)", st, fp.Err())
		}
		g := sat.New()
		x := g.NewVar()
		if want == solver.Unsat {
			if _, err := fp.Interpretation(rels[rS], g, []solver.Lit{x}); err != nil {
				t.Fatal(err)
			}
		}
		fp.Close()
		if _, err := fp.Derivation(); err == nil {
			t.Error("Derivation after Close: no error")
		}
		if _, err := fp.Interpretation(rels[rS], g, []solver.Lit{x}); err == nil {
			t.Error("Interpretation after Close: no error")
		}
		if st := fp.Query(context.Background(), rels[sys.goal]); st != solver.Unknown || fp.Err() == nil {
			t.Errorf("Query after Close: %v (%v)", st, fp.Err())
		}
		g.Close()
	}
}

// TestFixedpointNames checks that relations of the same name, or of a
// variable's name, stay apart.
func TestFixedpointNames(t *testing.T) {
	fp := testFixedpoint(t)
	a, b, g := fp.Relation("p", 0), fp.Relation("p", 0), fp.Relation("v!0", 0)
	fp.Rule(nil, fp.True(), fp.Apply(a))
	x := fp.NewVar()
	fp.Rule([]solver.Lit{x}, fp.And(fp.Apply(b), x), fp.Apply(g))
	if st := fp.Query(context.Background(), g); st != solver.Unsat {
		t.Fatalf("Query: %v (%v)", st, fp.Err())
	}
	if st := fp.Query(context.Background(), a); st != solver.Sat {
		t.Fatalf("Query: %v (%v)", st, fp.Err())
	}
}

func TestNewFixedpoint(t *testing.T) {
	fp, err := NewFixedpoint()
	if err != nil {
		t.Fatal(err)
	}
	defer fp.Close()
	if fp.Name() != "z3" {
		t.Errorf("Name %q", fp.Name())
	}
}
