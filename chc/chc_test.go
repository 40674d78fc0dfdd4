package chc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bmc/internal/peer"
	"bmc/sat"
	"bmc/solver"
	"bmc/ts"
)

func newSAT() solver.Solver { return sat.New() }

// testOrder places the graph's inputs first, then each predicate's
// arguments, each with its next variable, for re-checks on diagrams.
var testOrder = DiagramOrder{
	Input:  func(v int) int { return v },
	Formal: func(p, k int) int { return 1000 + 100*p + 2*k },
	Next:   func(p, k int) int { return 1000 + 100*p + 2*k + 1 },
}

// counter is a two-bit counter (b0 the low bit) from 0 that a step
// increments: modulo 4 when wrap, otherwise saturating at 2, so that 3
// is reachable only with wrap. Full, of no arguments, holds when the
// counter can be 3, and the query is Full.
type counter struct {
	sys             *System
	inv, full       *Pred
	x0, x1, y0, y1  ts.Lit // the step's current and next bits
	init, step, top *Clause
	bad             *Clause
}

func newCounter(wrap bool) *counter {
	s := New()
	g := s.AIG
	k := &counter{sys: s}
	k.inv = s.NewPred("Inv", []string{"b0", "b1"})
	k.full = s.NewPred("Full", nil)
	k.x0, k.x1 = g.NewInput("x0"), g.NewInput("x1")
	k.y0, k.y1 = g.NewInput("y0"), g.NewInput("y1")
	n0, n1 := k.x0.Not(), g.Xor(k.x1, k.x0)
	if !wrap {
		n0, n1 = g.Ite(k.x1, k.x0, k.x0.Not()), g.Or(k.x1, k.x0)
	}
	k.init = s.Add(&Atom{k.inv, []ts.Lit{ts.False, ts.False}}, nil, ts.True, "init")
	k.step = s.Add(&Atom{k.inv, []ts.Lit{k.y0, k.y1}}, []Atom{{k.inv, []ts.Lit{k.x0, k.x1}}},
		g.And(g.Eq(k.y0, n0), g.Eq(k.y1, n1)), "step")
	k.top = s.Add(&Atom{k.full, nil}, []Atom{{k.inv, []ts.Lit{k.x0, k.x1}}}, g.And(k.x0, k.x1), "top")
	k.bad = s.Add(nil, []Atom{{k.full, nil}}, ts.True, "bad")
	return k
}

// node applies c with the inputs given their values (the others false).
func (k *counter) node(c *Clause, inputs map[ts.Lit]bool, body ...*Derivation) *Derivation {
	vals := make([]bool, k.sys.AIG.NumVars())
	for l, v := range inputs {
		vals[l.Var()] = v
	}
	k.sys.AIG.Eval(vals)
	return &Derivation{Clause: c, Values: vals, Body: body}
}

// stepNode derives Inv(to) from sub, which derives Inv(from).
func (k *counter) stepNode(from, to [2]bool, sub *Derivation) *Derivation {
	return k.node(k.step, map[ts.Lit]bool{k.x0: from[0], k.x1: from[1], k.y0: to[0], k.y1: to[1]}, sub)
}

// derivation is the wrapping counter's derivation of the query:
// 0, 1, 2, 3, Full, bad.
func (k *counter) derivation() *Derivation {
	d := k.node(k.init, nil)
	prev := [2]bool{}
	for _, v := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		d = k.stepNode(prev, v, d)
		prev = v
	}
	d = k.node(k.top, map[ts.Lit]bool{k.x0: true, k.x1: true}, d)
	return k.node(k.bad, nil, d)
}

// interpretation interprets Inv and Full by functions of the arguments.
func (k *counter) interpretation(inv func(in *Interpretation, b0, b1 ts.Lit) ts.Lit, full ts.Lit) *Interpretation {
	in := NewInterpretation(k.sys)
	in.Of[k.inv.Index] = inv(in, in.Formals[k.inv.Index][0], in.Formals[k.inv.Index][1])
	in.Of[k.full.Index] = full
	return in
}

func TestCheckInterpretation(t *testing.T) {
	ctx := context.Background()
	below3 := func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return in.AIG.And(b0, b1).Not() }
	tests := []struct {
		name   string
		wrap   bool
		inv    func(in *Interpretation, b0, b1 ts.Lit) ts.Lit
		full   ts.Lit
		failed string // the clause the error names; "" for none
	}{
		{"reachable states exactly", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return below3(in, b0, b1) }, ts.False, ""},
		{"built through Builder", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit {
			b := in.Builder()
			return in.Lit(b.Not(b.And(in.Formal(0, 0), in.Formal(0, 1))))
		}, ts.False, ""},
		{"Builder's true", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return in.Lit(in.Builder().True()) }, ts.False, "top"},
		{"1 removed", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return b0.Not() }, ts.False, "step"},
		{"2 removed", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return b1.Not() }, ts.False, "step"},
		{"0 removed", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit {
			return in.AIG.And(below3(in, b0, b1), in.AIG.Or(b0, b1))
		}, ts.False, "init"},
		{"nothing", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return ts.False }, ts.False, "init"},
		{"3 added, Full false", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return ts.True }, ts.False, "top"},
		{"query not excluded", false, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return below3(in, b0, b1) }, ts.True, "bad"},
		{"wrapping, below 3", true, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return below3(in, b0, b1) }, ts.False, "step"},
		{"wrapping, everything", true, func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return ts.True }, ts.False, "top"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := newCounter(tc.wrap)
			in := k.interpretation(tc.inv, tc.full)
			for _, check := range []struct {
				name string
				err  error
			}{
				{"sat", k.sys.CheckInterpretation(ctx, in, newSAT)},
				{"diagrams", k.sys.CheckInterpretationDiagrams(ctx, in, testOrder, 0)},
			} {
				err := check.err
				switch {
				case tc.failed == "" && err != nil:
					t.Fatalf("%s: a correct interpretation fails: %v", check.name, err)
				case tc.failed != "" && err == nil:
					t.Fatalf("%s: a corrupted interpretation passes; clause %s should fail", check.name, tc.failed)
				case tc.failed != "" && !strings.Contains(err.Error(), "clause "+tc.failed+" ") && !strings.HasSuffix(err.Error(), "clause "+tc.failed):
					t.Fatalf("%s: error %q does not name clause %s", check.name, err, tc.failed)
				}
			}
		})
	}
}

func TestCheckInterpretationCancelled(t *testing.T) {
	k := newCounter(false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := k.interpretation(func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return in.AIG.And(b0, b1).Not() }, ts.False)
	if err := k.sys.CheckInterpretation(ctx, in, newSAT); err == nil || !strings.Contains(err.Error(), "not re-checked") {
		t.Fatalf("a cancelled re-check gives %v", err)
	}
	if err := k.sys.CheckInterpretationDiagrams(ctx, in, testOrder, 0); err == nil || !strings.Contains(err.Error(), "not re-checked") {
		t.Fatalf("a cancelled re-check on diagrams gives %v", err)
	}
}

func TestCheckDerivation(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(k *counter, d *Derivation) *Derivation
		want    string // in the error; "" for none
	}{
		{"correct", func(k *counter, d *Derivation) *Derivation { return d }, ""},
		{"not ending in a query", func(k *counter, d *Derivation) *Derivation { return d.Body[0] }, "not in a query"},
		{"ending in Inv", func(k *counter, d *Derivation) *Derivation { return d.Body[0].Body[0] }, "ends in Inv"},
		{"wrong clause for a body atom", func(k *counter, d *Derivation) *Derivation {
			d.Body[0] = d.Body[0].Body[0] // Full derived by a step
			return d
		}, "clause bad: body atom 0 (Full) derived by clause step"},
		{"query below", func(k *counter, d *Derivation) *Derivation {
			step := d.Body[0].Body[0].Body[0].Body[0]
			step.Body[0] = k.node(k.bad, nil, k.node(k.top, map[ts.Lit]bool{k.x0: true, k.x1: true}, step.Body[0]))
			return d
		}, "clause step: body atom 0 (Inv) derived by clause bad"},
		{"constraint false", func(k *counter, d *Derivation) *Derivation {
			// 1 -> 3: the arguments match on both sides.
			last := d.Body[0].Body[0]
			*last = *k.stepNode([2]bool{true, false}, [2]bool{true, true}, last.Body[0].Body[0])
			return d
		}, "clause step: the constraint is false"},
		{"argument mismatch", func(k *counter, d *Derivation) *Derivation {
			first := d.Body[0].Body[0].Body[0].Body[0]
			*first = *k.stepNode([2]bool{false, true}, [2]bool{true, true}, first.Body[0]) // 2 -> 3 after 0
			return d
		}, "clause step: body atom 0 (Inv) has other arguments than its derivation"},
		{"top's arguments", func(k *counter, d *Derivation) *Derivation {
			d.Body[0].Body[0] = d.Body[0].Body[0].Body[0] // Full from 2
			return d
		}, "clause top: body atom 0 (Inv) has other arguments"},
		{"too few sub-derivations", func(k *counter, d *Derivation) *Derivation {
			d.Body[0].Body[0].Body = nil
			return d
		}, "clause step: 0 sub-derivations for 1 body atoms"},
		{"too many sub-derivations", func(k *counter, d *Derivation) *Derivation {
			init := d.Body[0].Body[0].Body[0].Body[0].Body[0]
			init.Body = []*Derivation{k.node(k.init, nil)}
			return d
		}, "clause init: 1 sub-derivations for 0 body atoms"},
		{"values against the graph", func(k *counter, d *Derivation) *Derivation {
			n := d.Body[0].Body[0]
			for v := range n.Values {
				if k.sys.AIG.Kind(v) == ts.And {
					n.Values[v] = !n.Values[v]
					break
				}
			}
			return d
		}, "clause step: the values do not follow the graph"},
		{"cyclic", func(k *counter, d *Derivation) *Derivation {
			// 3 from 2 from 1 from 0 from 3: every node holds on its
			// own, and no finite derivation is there.
			s0 := k.stepNode([2]bool{true, true}, [2]bool{false, false}, nil)
			s1 := k.stepNode([2]bool{false, false}, [2]bool{true, false}, s0)
			s2 := k.stepNode([2]bool{true, false}, [2]bool{false, true}, s1)
			s3 := k.stepNode([2]bool{false, true}, [2]bool{true, true}, s2)
			s0.Body[0] = s3
			d.Body[0].Body[0] = s3
			return d
		}, "the derivation is cyclic"},
		{"values missing", func(k *counter, d *Derivation) *Derivation {
			n := d.Body[0]
			n.Values = n.Values[:len(n.Values)-1]
			return d
		}, "clause top: 15 values for 16 variables"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := newCounter(true)
			d := tc.corrupt(k, k.derivation())
			err := k.sys.CheckDerivation(d)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("a correct derivation fails: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("a corrupted derivation passes; want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q, want %q", err, tc.want)
			}
		})
	}
}

func TestDerivationShape(t *testing.T) {
	k := newCounter(true)
	d := k.derivation()
	if h := d.Height(); h != 6 {
		t.Errorf("height %d, want 6", h)
	}
	if got := d.Body[0].Body[0].Args(); !slices.Equal(got, []bool{true, true}) {
		t.Errorf("the last step derives %v", got)
	}
	if got := d.Body[0].Args(); len(got) != 0 {
		t.Errorf("Full derives %v", got)
	}
}

// joined is a system whose clause join has three body atoms, two of one
// predicate: C(u, v) <- B(p, q) & A(u) & A(v) & u = p & v = q, with A(x)
// for any x and B(x, y) for x != y; the query wants C(u, v) & u, which
// only C(1, 0) gives.
type joined struct {
	sys     *System
	a, b, c *Pred
}

func newJoined() *joined {
	s := New()
	g := s.AIG
	j := &joined{sys: s}
	j.a = s.NewPred("A", []string{"x"})
	j.b = s.NewPred("B", []string{"x", "y"})
	j.c = s.NewPred("C", []string{"u", "v"})
	x, y := g.NewInput("x"), g.NewInput("y")
	s.Add(&Atom{j.a, []ts.Lit{x}}, nil, ts.True, "a")
	s.Add(&Atom{j.b, []ts.Lit{x, y}}, nil, g.Xor(x, y), "b")
	u, v, p, q := g.NewInput("u"), g.NewInput("v"), g.NewInput("p"), g.NewInput("q")
	s.Add(&Atom{j.c, []ts.Lit{u, v}}, []Atom{{j.b, []ts.Lit{p, q}}, {j.a, []ts.Lit{u}}, {j.a, []ts.Lit{v}}},
		g.And(g.Eq(u, p), g.Eq(v, q)), "join")
	s.Add(nil, []Atom{{j.c, []ts.Lit{u, v}}}, u, "query")
	return j
}

func TestComplete(t *testing.T) {
	j := newJoined()
	atom := func(p *Pred, args ...bool) *Ground { return &Ground{Pred: p, Args: args} }
	c := func(body ...*Ground) *Ground { return &Ground{Pred: j.c, Args: []bool{true, false}, Body: body} }
	tests := []struct {
		name string
		c    *Ground // C's atom, with its body in some order
	}{
		{"clause order", c(atom(j.b, true, false), atom(j.a, true), atom(j.a, false))},
		{"B last", c(atom(j.a, true), atom(j.a, false), atom(j.b, true, false))},
		{"B between", c(atom(j.a, true), atom(j.b, true, false), atom(j.a, false))},
	}
	testComplete(t, j, tests)
}

// Ground's body "need not be in the clause's order": the two A atoms,
// of different arguments, swapped too, so that pairing the atoms of one
// predicate with the children in their order does not derive C(1, 0).
func TestCompleteSamePredicateSwapped(t *testing.T) {
	j := newJoined()
	atom := func(p *Pred, args ...bool) *Ground { return &Ground{Pred: p, Args: args} }
	c := func(body ...*Ground) *Ground { return &Ground{Pred: j.c, Args: []bool{true, false}, Body: body} }
	tests := []struct {
		name string
		c    *Ground
	}{
		{"A atoms swapped", c(atom(j.a, false), atom(j.b, true, false), atom(j.a, true))},
		{"reversed", c(atom(j.a, false), atom(j.a, true), atom(j.b, true, false))},
	}
	testComplete(t, j, tests)
}

func testComplete(t *testing.T, j *joined, tests []struct {
	name string
	c    *Ground
}) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Ground{Body: []*Ground{tc.c}}
			sv := sat.New()
			defer sv.Close()
			d, err := j.sys.Complete(context.Background(), g, sv)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if err := j.sys.CheckDerivation(d); err != nil {
				t.Fatalf("the completed derivation fails: %v", err)
			}
			if got := d.Body[0].Args(); !slices.Equal(got, tc.c.Args) {
				t.Fatalf("the derivation derives C%v, want C%v", got, tc.c.Args)
			}
			if d.Height() != 3 {
				t.Fatalf("height %d", d.Height())
			}
		})
	}
}

func TestCompleteRejects(t *testing.T) {
	j := newJoined()
	atom := func(p *Pred, args ...bool) *Ground { return &Ground{Pred: p, Args: args} }
	tests := []struct {
		name string
		g    *Ground
	}{
		{"query's constraint false", &Ground{Body: []*Ground{{Pred: j.c, Args: []bool{false, true},
			Body: []*Ground{atom(j.b, false, true), atom(j.a, false), atom(j.a, true)}}}}},
		{"B(1, 1) underivable", &Ground{Body: []*Ground{{Pred: j.c, Args: []bool{true, false},
			Body: []*Ground{atom(j.b, true, true), atom(j.a, true), atom(j.a, false)}}}}},
		{"missing body atom", &Ground{Body: []*Ground{{Pred: j.c, Args: []bool{true, false},
			Body: []*Ground{atom(j.b, true, false), atom(j.a, true)}}}}},
		{"wrong predicate", &Ground{Body: []*Ground{{Pred: j.c, Args: []bool{true, false},
			Body: []*Ground{atom(j.b, true, false), atom(j.b, true, false), atom(j.a, false)}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sv := sat.New()
			defer sv.Close()
			d, err := j.sys.Complete(context.Background(), tc.g, sv)
			if err == nil {
				t.Fatalf("Complete made a derivation (check: %v)", j.sys.CheckDerivation(d))
			}
			if !strings.Contains(err.Error(), "no clause derives") {
				t.Fatalf("error %v", err)
			}
		})
	}
}

func TestCompleteCounter(t *testing.T) {
	k := newCounter(true)
	g := &Ground{Pred: k.inv, Args: []bool{false, false}}
	for _, v := range [][]bool{{true, false}, {false, true}, {true, true}} {
		g = &Ground{Pred: k.inv, Args: v, Body: []*Ground{g}}
	}
	g = &Ground{Body: []*Ground{{Pred: k.full, Body: []*Ground{g}}}}
	sv := sat.New()
	defer sv.Close()
	d, err := k.sys.Complete(context.Background(), g, sv)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.sys.CheckDerivation(d); err != nil {
		t.Fatal(err)
	}
	if d.Height() != 6 {
		t.Fatalf("height %d", d.Height())
	}
	// On the saturating counter 3 follows no state.
	k = newCounter(false)
	g.Body[0].Pred = k.full
	for n := g.Body[0].Body[0]; n != nil; {
		n.Pred = k.inv
		if len(n.Body) == 0 {
			break
		}
		n = n.Body[0]
	}
	if _, err := k.sys.Complete(context.Background(), g, sv); err == nil {
		t.Fatal("Complete derives 3 on the saturating counter")
	}
}

func TestWrite(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		k := newCounter(wrap)
		var b strings.Builder
		if err := Write(&b, k.sys); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.HasPrefix(out, "(set-logic HORN)\n") {
			t.Errorf("no (set-logic HORN) first:\n%s", out)
		}
		if !strings.HasSuffix(out, "(check-sat)\n") {
			t.Errorf("no (check-sat) last:\n%s", out)
		}
		if n := strings.Count(out, "(declare-fun "); n != len(k.sys.Preds) {
			t.Errorf("%d declare-fun for %d predicates:\n%s", n, len(k.sys.Preds), out)
		}
		if n := strings.Count(out, "(assert "); n != len(k.sys.Clauses) {
			t.Errorf("%d asserts for %d clauses:\n%s", n, len(k.sys.Clauses), out)
		}
		for _, want := range []string{"(declare-fun p0_Inv (Bool Bool) Bool)", "(declare-fun p1_Full () Bool)", "; Inv(b0, b1)", "; step"} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in:\n%s", want, out)
			}
		}
		if strings.Count(out, "(") != strings.Count(out, ")") {
			t.Errorf("unbalanced parentheses:\n%s", out)
		}
	}

	// A clause whose constraint is false is left out.
	k := newCounter(false)
	if c := k.sys.Add(nil, []Atom{{k.inv, []ts.Lit{k.x0, k.x1}}}, ts.False, "never"); c != nil {
		t.Errorf("Add kept a clause of constraint false")
	}
	var b strings.Builder
	if err := Write(&b, k.sys); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "never") || strings.Count(b.String(), "(assert ") != 4 {
		t.Errorf("the false clause is written:\n%s", b.String())
	}

	t.Run("z3", func(t *testing.T) {
		z3 := peer.Need(t, peer.Z3)
		systems := []struct {
			name string
			sys  *System
			want string
		}{
			{"saturating", newCounter(false).sys, "sat"},
			{"wrapping", newCounter(true).sys, "unsat"},
			{"joined", newJoined().sys, "unsat"},
		}
		for _, x := range systems {
			file := filepath.Join(t.TempDir(), x.name+".smt2")
			f, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := Write(f, x.sys); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(z3, "-smt2", file).CombinedOutput()
			if err != nil {
				t.Fatalf("z3 on %s: %v\n%s", x.name, err, out)
			}
			if got := strings.TrimSpace(string(out)); got != x.want {
				t.Errorf("z3 on %s: %q, want %q", x.name, got, x.want)
			}
			peer.Case(t, peer.Z3, x.name)
		}
	})
}

func TestFormat(t *testing.T) {
	s := New()
	p := s.NewPred("P", []string{"alpha", "beta", "gamma"})
	q := s.NewPred("Q", nil)
	tests := []struct {
		name  string
		build func(in *Interpretation, a, b, c ts.Lit) ts.Lit
		want  string
	}{
		{"false", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return ts.False }, "false"},
		{"true", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return ts.True }, "true"},
		{"argument", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return b }, "beta"},
		{"negated argument", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return c.Not() }, "!gamma"},
		{"and", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return in.AIG.And(a, c.Not()) }, "(alpha & !gamma)"},
		{"or", func(in *Interpretation, a, b, c ts.Lit) ts.Lit { return in.AIG.Or(a, b) }, "!(!alpha & !beta)"},
		{"shared", func(in *Interpretation, a, b, c ts.Lit) ts.Lit {
			ab := in.AIG.And(a, b)
			return in.AIG.And(in.AIG.Or(ab, c), in.AIG.Or(ab.Not(), c.Not()))
		}, "(!(!gamma & !n0) & !(gamma & n0)) where n0 = (alpha & beta)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := NewInterpretation(s)
			f := in.Formals[p.Index]
			in.Of[p.Index] = tc.build(in, f[0], f[1], f[2])
			if got := in.Format(p); got != tc.want {
				t.Errorf("Format: %q, want %q", got, tc.want)
			}
			if got := in.Format(q); got != "false" {
				t.Errorf("Q: %q", got)
			}
		})
	}
	// The counter's summaries name its arguments.
	k := newCounter(false)
	in := k.interpretation(func(in *Interpretation, b0, b1 ts.Lit) ts.Lit { return in.AIG.And(b0, b1).Not() }, ts.False)
	if got := in.Format(k.inv); got != "!(b0 & b1)" {
		t.Errorf("Inv: %q", got)
	}
}

// TestRelevant checks the predicates a query depends on: through
// bodies, backwards from the queries, and none without a query.
func TestRelevant(t *testing.T) {
	s := New()
	p := make([]*Pred, 5)
	for i := range p {
		p[i] = s.NewPred(fmt.Sprintf("P%d", i), nil)
	}
	atom := func(i int) Atom { return Atom{Pred: p[i]} }
	fact := func(i int) { a := atom(i); s.Add(&a, nil, ts.True, "") }
	rule := func(head int, body ...int) {
		h := atom(head)
		var bs []Atom
		for _, b := range body {
			bs = append(bs, atom(b))
		}
		s.Add(&h, bs, ts.True, "")
	}
	fact(0)
	rule(1, 0)
	rule(2, 0) // P2 feeds nothing a query reads
	rule(3, 1, 4)
	if got := s.Relevant(); slices.Contains(got, true) {
		t.Errorf("without a query: relevant %v", got)
	}
	s.Add(nil, []Atom{atom(3)}, ts.True, "query")
	want := []bool{true, true, false, true, true}
	if got := s.Relevant(); !slices.Equal(got, want) {
		t.Errorf("relevant %v, want %v", got, want)
	}
}
