//go:build !noz3

package smt

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"bmc/solver"
)

var _ solver.Solver = (*Z3)(nil)

func newZ3(t *testing.T) solver.Solver {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestZ3Name(t *testing.T) {
	if s := newZ3(t); s.Name() != "z3" {
		t.Fatalf("Name %q", s.Name())
	}
}

func TestZ3Basic(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		build func(s solver.Solver) solver.Lit // asserted
		want  solver.Status
	}{
		{"true", func(s solver.Solver) solver.Lit { return s.True() }, solver.Sat},
		{"false", func(s solver.Solver) solver.Lit { return s.Not(s.True()) }, solver.Unsat},
		{"var", func(s solver.Solver) solver.Lit { return s.NewVar() }, solver.Sat},
		{"x and not x", func(s solver.Solver) solver.Lit {
			x := s.NewVar()
			return s.And(x, s.Not(x))
		}, solver.Unsat},
		{"xor", func(s solver.Solver) solver.Lit {
			x, y := s.NewVar(), s.NewVar()
			return solver.Xor(s, x, y)
		}, solver.Sat},
		{"xor with itself", func(s solver.Solver) solver.Lit {
			x := s.NewVar()
			return solver.Xor(s, x, x)
		}, solver.Unsat},
		{"x ≠ y, y ≠ z, z ≠ x", func(s solver.Solver) solver.Lit {
			x, y, z := s.NewVar(), s.NewVar(), s.NewVar()
			return solver.Ands(s, solver.Xor(s, x, y), solver.Xor(s, y, z), solver.Xor(s, z, x))
		}, solver.Unsat},
		{"empty ors", func(s solver.Solver) solver.Lit { return solver.Ors(s) }, solver.Unsat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newZ3(t)
			a := tt.build(s)
			s.Assert(a)
			if got := s.Solve(ctx); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			if tt.want == solver.Sat && !s.Value(a) {
				t.Error("the asserted formula is false in the model")
			}
			if tt.want == solver.Unsat && s.Failed() != nil {
				t.Errorf("Failed %v without assumptions", s.Failed())
			}
		})
	}
}

func TestZ3StructuralHashing(t *testing.T) {
	s := newZ3(t)
	x, y := s.NewVar(), s.NewVar()
	tru := s.True()
	f := s.Not(tru)
	tests := []struct {
		name      string
		got, want solver.Lit
	}{
		{"and commutes", s.And(x, y), s.And(y, x)},
		{"and again", s.And(x, y), s.And(x, y)},
		{"not not", s.Not(s.Not(x)), x},
		{"not cached", s.Not(x), s.Not(x)},
		{"and idempotent", s.And(x, x), x},
		{"and true", s.And(x, tru), x},
		{"true and", s.And(tru, y), y},
		{"and false", s.And(x, f), f},
		{"false and", s.And(f, y), f},
		{"and complement", s.And(x, s.Not(x)), f},
		{"or", solver.Or(s, x, y), solver.Or(s, y, x)},
		{"true again", s.True(), tru},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	if x == y || x <= 0 || y <= 0 {
		t.Errorf("variables %d and %d", x, y)
	}
}

func TestZ3Assumptions(t *testing.T) {
	ctx := context.Background()
	s := newZ3(t)
	a, b, c, d := s.NewVar(), s.NewVar(), s.NewVar(), s.NewVar()
	ab := s.And(a, b)
	s.Assert(s.Not(ab))                 // ¬(a ∧ b)
	s.Assert(solver.Implies(s, c, d))   // c ⇒ d
	s.Assert(solver.Or(s, s.Not(d), a)) // d ⇒ a
	tests := []struct {
		name        string
		assumptions []solver.Lit
		want        solver.Status
		needs       []solver.Lit // in every core
	}{
		{"a b c", []solver.Lit{a, b, c}, solver.Unsat, []solver.Lit{b}},
		{"c b", []solver.Lit{c, b}, solver.Unsat, []solver.Lit{c, b}},
		{"ab compound", []solver.Lit{d, ab}, solver.Unsat, []solver.Lit{ab}},
		{"d, ¬a", []solver.Lit{d, s.Not(a)}, solver.Unsat, []solver.Lit{d, s.Not(a)}},
		{"compound ¬a∧d", []solver.Lit{s.And(s.Not(a), d), b}, solver.Unsat, []solver.Lit{s.And(s.Not(a), d)}},
		{"duplicates", []solver.Lit{c, c, b, b}, solver.Unsat, []solver.Lit{c, b}},
		{"false", []solver.Lit{a, s.Not(s.True())}, solver.Unsat, []solver.Lit{s.Not(s.True())}},
		{"a c", []solver.Lit{a, c}, solver.Sat, nil},
		{"true", []solver.Lit{s.True()}, solver.Sat, nil},
		{"none", nil, solver.Sat, nil},
		{"c ¬b compound", []solver.Lit{s.And(c, s.Not(b))}, solver.Sat, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Solve(ctx, tt.assumptions...)
			if got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			if got == solver.Sat {
				for _, x := range tt.assumptions {
					if !s.Value(x) {
						t.Errorf("assumption %d false in the model", x)
					}
				}
				if s.Value(ab) {
					t.Error("asserted ¬(a ∧ b) is false in the model")
				}
				return
			}
			failed := s.Failed()
			if len(failed) == 0 {
				t.Fatal("no core")
			}
			for _, x := range failed {
				if !slices.Contains(tt.assumptions, x) {
					t.Errorf("core %v has %d, not an assumption", failed, x)
				}
			}
			for _, x := range tt.needs {
				if !slices.Contains(failed, x) {
					t.Errorf("core %v lacks %d", failed, x)
				}
			}
			if again := s.Solve(ctx, failed...); again != solver.Unsat {
				t.Errorf("core %v alone: %v", failed, again)
			}
		})
	}
	// Proxies for compound assumptions do not constrain later Solves.
	if got := s.Solve(ctx, s.Not(c), s.Not(d), s.Not(a), b); got != solver.Sat {
		t.Fatalf("after compound assumptions: %v", got)
	}
}

func TestZ3Incremental(t *testing.T) {
	ctx := context.Background()
	s := newZ3(t)
	a, b := s.NewVar(), s.NewVar()
	if got := s.Solve(ctx, a); got != solver.Sat || !s.Value(a) {
		t.Fatalf("a: %v", got)
	}
	s.Assert(s.Not(a))
	if got := s.Solve(ctx); got != solver.Sat || s.Value(a) {
		t.Fatalf("after asserting ¬a: %v, a = %v", got, s.Value(a))
	}
	if got := s.Solve(ctx, a); got != solver.Unsat || !slices.Equal(s.Failed(), []solver.Lit{a}) {
		t.Fatalf("a after ¬a: %v, failed %v", got, s.Failed())
	}
	c := s.NewVar() // a variable made after a Solve
	s.Assert(solver.Or(s, a, b))
	s.Assert(solver.Implies(s, b, c))
	if got := s.Solve(ctx); got != solver.Sat || !s.Value(b) || !s.Value(c) {
		t.Fatalf("a ∨ b, b ⇒ c: %v, b = %v, c = %v", got, s.Value(b), s.Value(c))
	}
	s.Assert(s.Not(c))
	if got := s.Solve(ctx, b); got != solver.Unsat || s.Failed() != nil {
		t.Fatalf("¬c: %v, failed %v", got, s.Failed())
	}
	if got := s.Solve(ctx); got != solver.Unsat {
		t.Fatalf("stays unsat: %v", got)
	}
}

// A circuit is an and-inverter graph over inputs; nodes refer to earlier
// nodes only.
type circuit struct {
	op   []byte // 'i' input, 't' true, '!' not, '&' and
	a, b []int
}

func randomCircuit(r *rand.Rand, inputs, gates int) circuit {
	var c circuit
	add := func(op byte, a, b int) {
		c.op = append(c.op, op)
		c.a = append(c.a, a)
		c.b = append(c.b, b)
	}
	for range inputs {
		add('i', 0, 0)
	}
	add('t', 0, 0)
	for range gates {
		n := len(c.op)
		// Favour recent nodes, so circuits are deep as well as wide.
		pick := func() int {
			if r.IntN(2) == 0 {
				return n - 1 - r.IntN(min(n, 4))
			}
			return r.IntN(n)
		}
		if r.IntN(3) == 0 {
			add('!', pick(), 0)
		} else {
			add('&', pick(), pick())
		}
	}
	return c
}

// eval evaluates every node bottom-up from the input values.
func (c circuit) eval(in []bool) []bool {
	v := make([]bool, len(c.op))
	k := 0
	for i, op := range c.op {
		switch op {
		case 'i':
			v[i] = in[k]
			k++
		case 't':
			v[i] = true
		case '!':
			v[i] = !v[c.a[i]]
		case '&':
			v[i] = v[c.a[i]] && v[c.b[i]]
		}
	}
	return v
}

// build makes the circuit's nodes in s; it returns their Lits and the
// input Lits.
func (c circuit) build(s solver.Builder) (lits, inputs []solver.Lit) {
	lits = make([]solver.Lit, len(c.op))
	for i, op := range c.op {
		switch op {
		case 'i':
			lits[i] = s.NewVar()
			inputs = append(inputs, lits[i])
		case 't':
			lits[i] = s.True()
		case '!':
			lits[i] = s.Not(lits[c.a[i]])
		case '&':
			lits[i] = s.And(lits[c.a[i]], lits[c.b[i]])
		}
	}
	return lits, inputs
}

// checkModel checks that Value of every node agrees with evaluating the
// circuit from the inputs' Values.
func checkModel(t *testing.T, s solver.Solver, c circuit, lits, inputs []solver.Lit) []bool {
	t.Helper()
	in := make([]bool, len(inputs))
	for i, x := range inputs {
		in[i] = s.Value(x)
	}
	want := c.eval(in)
	for i, l := range lits {
		if got := s.Value(l); got != want[i] {
			t.Fatalf("node %d (%c): Value %v, evaluation %v", i, c.op[i], got, want[i])
		}
	}
	return want
}

func TestZ3RandomCircuits(t *testing.T) {
	const inputs, circuits = 6, 200
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	var s solver.Solver
	var sats, unsats int
	for n := range circuits {
		if n%50 == 0 { // a few solvers, each used incrementally
			s = newZ3(t)
		}
		c := randomCircuit(r, inputs, 10+r.IntN(30))
		lits, ins := c.build(s)
		out := len(c.op) - 1

		// Brute force: is the output satisfiable?
		satisfiable := false
		in := make([]bool, inputs)
		for m := 0; m < 1<<inputs && !satisfiable; m++ {
			for i := range in {
				in[i] = m>>i&1 == 1
			}
			satisfiable = c.eval(in)[out]
		}
		got := s.Solve(ctx, lits[out])
		switch {
		case satisfiable && got == solver.Sat:
			sats++
			if v := checkModel(t, s, c, lits, ins); !v[out] {
				t.Fatalf("circuit %d: output false in its model", n)
			}
		case !satisfiable && got == solver.Unsat:
			unsats++
			if f := s.Failed(); !slices.Equal(f, []solver.Lit{lits[out]}) {
				t.Fatalf("circuit %d: Failed %v, want [%d]", n, f, lits[out])
			}
		default:
			t.Fatalf("circuit %d: got %v, brute force says satisfiable = %v", n, got, satisfiable)
		}

		// Fix the inputs at random: always Sat, and the model is the
		// circuit's evaluation.
		var asm []solver.Lit
		for i, x := range ins {
			in[i] = r.IntN(2) == 0
			if in[i] {
				asm = append(asm, x)
			} else {
				asm = append(asm, s.Not(x))
			}
		}
		if got := s.Solve(ctx, asm...); got != solver.Sat {
			t.Fatalf("circuit %d with fixed inputs: %v", n, got)
		}
		want := c.eval(in)
		if v := checkModel(t, s, c, lits, ins); !slices.Equal(v, want) {
			t.Fatalf("circuit %d: the inputs differ from the assumptions", n)
		}

		// The inputs and the output: Unsat exactly when the output is
		// false there, with a core that is unsat on its own.
		got = s.Solve(ctx, append(asm, lits[out])...)
		if want[out] != (got == solver.Sat) || got == solver.Unknown {
			t.Fatalf("circuit %d: inputs and output: %v, output %v", n, got, want[out])
		}
		if got == solver.Unsat {
			f := s.Failed()
			if len(f) == 0 {
				t.Fatalf("circuit %d: empty core", n)
			}
			if s.Solve(ctx, f...) != solver.Unsat {
				t.Fatalf("circuit %d: core %v is sat", n, f)
			}
		}
	}
	t.Logf("%d sat, %d unsat", sats, unsats)
	if sats == 0 || unsats == 0 {
		t.Fatalf("%d sat and %d unsat circuits: the generator needs both", sats, unsats)
	}
}

// pigeons asserts, under the guard g, that n pigeons sit in n-1 holes, one
// to a hole.
func pigeons(s solver.Solver, g solver.Lit, n int) {
	p := make([][]solver.Lit, n)
	for i := range p {
		p[i] = make([]solver.Lit, n-1)
		for j := range p[i] {
			p[i][j] = s.NewVar()
		}
		s.Assert(solver.Implies(s, g, solver.Ors(s, p[i]...)))
	}
	for j := 0; j < n-1; j++ {
		for i := 0; i < n; i++ {
			for k := i + 1; k < n; k++ {
				s.Assert(solver.Implies(s, g, s.Not(s.And(p[i][j], p[k][j]))))
			}
		}
	}
}

func TestZ3Cancel(t *testing.T) {
	s := newZ3(t)
	g := s.NewVar()
	pigeons(s, g, 10)
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := s.Solve(ctx, g)
	took := time.Since(start)
	if got != solver.Unknown {
		t.Fatalf("got %v, want unknown", got)
	}
	if took > time.Second {
		t.Fatalf("took %v", took)
	}
	t.Logf("interrupted after %v: %v", took, s.(*Z3).Err())
	if s.(*Z3).Err() == nil {
		t.Error("no Err after Unknown")
	}

	// Cancelled before the call.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if got := s.Solve(done, g); got != solver.Unknown {
		t.Fatalf("cancelled context: %v", got)
	}
	// Cancelled from another goroutine.
	ctx3, cancel3 := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel3)
	if got := s.Solve(ctx3, g); got != solver.Unknown {
		t.Fatalf("cancel: %v", got)
	}

	// The solver goes on working, and the interrupter has stopped.
	if got := s.Solve(context.Background(), s.Not(g)); got != solver.Sat || s.Value(g) {
		t.Fatalf("¬g: %v", got)
	}
	if s.(*Z3).Err() != nil {
		t.Errorf("Err %v after Sat", s.(*Z3).Err())
	}
	for deadline := time.Now().Add(time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestZ3ValueWithoutModel(t *testing.T) {
	s := newZ3(t)
	x := s.NewVar()
	if s.Value(x) {
		t.Error("Value before any Solve is true")
	}
	s.Assert(s.Not(s.True()))
	if s.Solve(context.Background()) != solver.Unsat || s.Value(x) {
		t.Error("Value after Unsat is true")
	}
	defer func() {
		if recover() == nil {
			t.Error("an invalid Lit did not panic")
		}
	}()
	s.Value(solver.Lit(1 << 20))
}

func TestZ3SMT2(t *testing.T) {
	z, err := NewZ3()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	x := z.NewVar()
	z.Assert(z.And(x, z.NewVar()))
	if got := z.Term(x).String(); got != "v1" {
		t.Errorf("Term %q", got)
	}
	// And names the conjunction and asserts its definition.
	if smt2 := z.Solver().ToSMT2(); !strings.Contains(smt2, "(assert (= g1 (and v1 v2)))") || !strings.Contains(smt2, "(assert g1)") {
		t.Errorf("ToSMT2 %q", smt2)
	}
}
