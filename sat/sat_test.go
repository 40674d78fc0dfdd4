package sat

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"bmc/solver"
)

var _ solver.Solver = (*Solver)(nil)

func solve(t *testing.T, s *Solver, assumptions ...solver.Lit) solver.Status {
	t.Helper()
	return s.Solve(context.Background(), assumptions...)
}

// TestBasic covers small SAT/UNSAT formulas, constants, double negation and
// constant folding of And.
func TestBasic(t *testing.T) {
	type lits = []solver.Lit
	tests := []struct {
		name  string
		build func(s *Solver) lits // returns formulas to assert
		want  solver.Status
	}{
		{"nothing", func(s *Solver) lits { return nil }, solver.Sat},
		{"true", func(s *Solver) lits { return lits{s.True()} }, solver.Sat},
		{"false", func(s *Solver) lits { return lits{s.Not(s.True())} }, solver.Unsat},
		{"var", func(s *Solver) lits { return lits{s.NewVar()} }, solver.Sat},
		{"notvar", func(s *Solver) lits { return lits{s.Not(s.NewVar())} }, solver.Sat},
		{"x and not x", func(s *Solver) lits {
			x := s.NewVar()
			return lits{s.And(x, s.Not(x))}
		}, solver.Unsat},
		{"x, not x separately", func(s *Solver) lits {
			x := s.NewVar()
			return lits{x, s.Not(x)}
		}, solver.Unsat},
		{"xor and equal", func(s *Solver) lits {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Xor(s, x, y), s.Not(solver.Xor(s, x, s.Not(y)))}
		}, solver.Sat},
		{"xor and iff", func(s *Solver) lits {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Xor(s, x, y), solver.Xor(s, x, s.Not(y))}
		}, solver.Unsat},
		{"or of contradictions", func(s *Solver) lits {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Or(s, s.And(x, s.Not(x)), s.And(y, s.Not(y)))}
		}, solver.Unsat},
		{"implication chain", func(s *Solver) lits {
			a, b, c := s.NewVar(), s.NewVar(), s.NewVar()
			return lits{a, solver.Implies(s, a, b), solver.Implies(s, b, c), s.Not(c)}
		}, solver.Unsat},
		{"ite", func(s *Solver) lits {
			c, x, y := s.NewVar(), s.NewVar(), s.NewVar()
			return lits{solver.Ite(s, c, x, y), s.Not(x), c}
		}, solver.Unsat},
		{"ands ors empty", func(s *Solver) lits {
			return lits{solver.Ands(s), s.Not(solver.Ors(s))}
		}, solver.Sat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			defer s.Close()
			as := tc.build(s)
			for _, a := range as {
				s.Assert(a)
			}
			if got := solve(t, s); got != tc.want {
				t.Fatalf("Solve = %v, want %v", got, tc.want)
			}
			if tc.want == solver.Sat {
				for i, a := range as {
					if !s.Value(a) {
						t.Errorf("asserted formula %d is false in the model", i)
					}
				}
				if !s.Value(s.True()) || s.Value(s.Not(s.True())) {
					t.Errorf("constants have wrong values")
				}
			}
			if tc.want == solver.Unsat && s.Failed() != nil {
				t.Errorf("Failed = %v without assumptions, want nil", s.Failed())
			}
		})
	}
}

// TestFolding checks the structural identities the Builder must give.
func TestFolding(t *testing.T) {
	s := New()
	x, y := s.NewVar(), s.NewVar()
	T := s.True()
	F := s.Not(T)
	tests := []struct {
		name      string
		got, want solver.Lit
	}{
		{"not not x", s.Not(s.Not(x)), x},
		{"not not true", s.Not(s.Not(T)), T},
		{"x and true", s.And(x, T), x},
		{"true and x", s.And(T, x), x},
		{"x and false", s.And(x, F), F},
		{"false and x", s.And(F, x), F},
		{"x and x", s.And(x, x), x},
		{"x and not x", s.And(x, s.Not(x)), F},
		{"commutative", s.And(x, y), s.And(y, x)},
		{"shared", s.And(x, s.Not(y)), s.And(x, s.Not(y))},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	if x == 0 || T == 0 || F == 0 || x == s.Not(x) {
		t.Errorf("invalid handles: x=%d T=%d F=%d", x, T, F)
	}
	if s.Name() != "gini" {
		t.Errorf("Name = %q", s.Name())
	}
}

// TestAssumptions: formulas satisfiable only under some assumptions;
// Failed is a subset of the assumptions and is itself a core.
func TestAssumptions(t *testing.T) {
	type lits = []solver.Lit
	tests := []struct {
		name    string
		build   func(s *Solver) (asserts, assumptions lits)
		want    solver.Status
		nilCore bool // Failed must be nil
	}{
		{"chain ok", func(s *Solver) (lits, lits) {
			a, b, c := s.NewVar(), s.NewVar(), s.NewVar()
			return lits{solver.Implies(s, a, b), solver.Implies(s, b, c)}, lits{a, c}
		}, solver.Sat, false},
		{"chain broken", func(s *Solver) (lits, lits) {
			a, b, c, d := s.NewVar(), s.NewVar(), s.NewVar(), s.NewVar()
			return lits{solver.Implies(s, a, b), solver.Implies(s, b, c)}, lits{d, a, s.Not(s.Not(d)), s.Not(c)}
		}, solver.Unsat, false},
		{"assume false", func(s *Solver) (lits, lits) {
			x := s.NewVar()
			return lits{x}, lits{x, s.Not(s.True())}
		}, solver.Unsat, false},
		{"assume against unit", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return lits{x}, lits{y, s.Not(x)}
		}, solver.Unsat, false},
		{"contradictory assumptions", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return nil, lits{y, x, s.Not(x)}
		}, solver.Unsat, false},
		{"assertions alone unsat", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return lits{x, s.Not(x)}, lits{y}
		}, solver.Unsat, true},
		{"assert false", func(s *Solver) (lits, lits) {
			y := s.NewVar()
			return lits{s.Not(s.True())}, lits{y}
		}, solver.Unsat, true},
		{"xor parity", func(s *Solver) (lits, lits) {
			// x1^x2^x3 asserted; assuming all three false is a conflict,
			// any two leave the third forced.
			x1, x2, x3, u := s.NewVar(), s.NewVar(), s.NewVar(), s.NewVar()
			p := solver.Xor(s, solver.Xor(s, x1, x2), x3)
			return lits{p}, lits{s.Not(x1), u, s.Not(x2), s.Not(x3)}
		}, solver.Unsat, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			as, assume := tc.build(s)
			for _, a := range as {
				s.Assert(a)
			}
			got := solve(t, s, assume...)
			if got != tc.want {
				t.Fatalf("Solve = %v, want %v", got, tc.want)
			}
			if got == solver.Sat {
				for _, a := range append(as, assume...) {
					if !s.Value(a) {
						t.Errorf("assertion/assumption %d false in model", a)
					}
				}
				if s.Failed() != nil {
					t.Errorf("Failed after Sat = %v", s.Failed())
				}
				return
			}
			core := s.Failed()
			if tc.nilCore {
				if core != nil {
					t.Fatalf("Failed = %v, want nil", core)
				}
			} else if len(core) == 0 {
				t.Fatalf("Failed empty, want a core of %v", assume)
			}
			in := map[solver.Lit]bool{}
			for _, a := range assume {
				in[a] = true
			}
			for _, c := range core {
				if !in[c] {
					t.Errorf("Failed %v contains %d, not an assumption of %v", core, c, assume)
				}
			}
			if got := solve(t, s, core...); got != solver.Unsat {
				t.Errorf("re-solving with the core %v: %v, want unsat", core, got)
			}
			// The assumptions were for one call only.
			if !tc.nilCore {
				if got := solve(t, s); got != solver.Sat {
					t.Errorf("without assumptions: %v, want sat", got)
				}
			}
		})
	}
}

// TestIncremental asserts between Solves and builds nodes after a Solve.
func TestIncremental(t *testing.T) {
	s := New()
	a, b := s.NewVar(), s.NewVar()
	s.Assert(solver.Or(s, a, b))
	if got := solve(t, s); got != solver.Sat {
		t.Fatalf("step 1: %v", got)
	}
	s.Assert(s.Not(a))
	if got := solve(t, s); got != solver.Sat || s.Value(a) || !s.Value(b) {
		t.Fatalf("step 2: %v a=%v b=%v", got, s.Value(a), s.Value(b))
	}
	// New nodes over old and new inputs after a Solve.
	c := s.NewVar()
	bc := s.And(b, c)
	if got := solve(t, s, s.Not(bc)); got != solver.Sat || s.Value(c) || s.Value(bc) {
		t.Fatalf("step 3: %v c=%v bc=%v", got, s.Value(c), s.Value(bc))
	}
	if got := solve(t, s, bc); got != solver.Sat || !s.Value(c) || !s.Value(bc) {
		t.Fatalf("step 4: %v c=%v bc=%v", got, s.Value(c), s.Value(bc))
	}
	s.Assert(s.Not(c))
	if got := solve(t, s, bc); got != solver.Unsat {
		t.Fatalf("step 5: %v, want unsat", got)
	}
	if f := s.Failed(); len(f) != 1 || f[0] != bc {
		t.Fatalf("step 5: Failed = %v, want [%d]", f, bc)
	}
	// The model of the last Sat Solve (step 4) survives an Unsat Solve.
	if !s.Value(bc) || !s.Value(c) {
		t.Errorf("model of step 4 lost after an unsat Solve")
	}
	// Nodes built after a Sat Solve are evaluated on its model.
	if got := solve(t, s); got != solver.Sat {
		t.Fatalf("step 6: %v", got)
	}
	nb := s.Not(b)
	late := solver.Or(s, nb, c) // b=1, c=0 => false
	fresh := s.NewVar()
	if s.Value(late) || s.Value(fresh) || !s.Value(s.Not(late)) || s.Value(s.And(fresh, b)) {
		t.Errorf("Value of nodes built after Solve is wrong")
	}
	s.Assert(late)
	if got := solve(t, s); got != solver.Unsat {
		t.Fatalf("step 7: %v, want unsat", got)
	}
	// Permanently unsat now, with or without assumptions.
	if got := solve(t, s, fresh); got != solver.Unsat || s.Failed() != nil {
		t.Fatalf("step 8: %v Failed=%v", got, s.Failed())
	}
}

// TestRandomValue: random And/Not DAGs over 6 inputs; Value of every node
// must agree with bottom-up evaluation of the model's inputs, and Unsat
// answers are confirmed by brute force.
func TestRandomValue(t *testing.T) {
	defer func(plain bool) { tryPlain = plain }(tryPlain)
	tryPlain = false
	const inputs = 6
	sats, unsats := 0, 0
	for seed := int64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		s := New()
		// node k is either an input, a constant, or And(lit, lit) where a
		// lit is a node index with a negation flag.
		type ref struct {
			node int
			neg  bool
		}
		type node struct {
			kind int // 0 input, 1 true, 2 and
			in   int
			a, b ref
		}
		var nodes []node
		var handles []solver.Lit
		for i := 0; i < inputs; i++ {
			nodes = append(nodes, node{kind: 0, in: i})
			handles = append(handles, s.NewVar())
		}
		nodes = append(nodes, node{kind: 1})
		handles = append(handles, s.True())
		pick := func() ref { return ref{rng.Intn(len(nodes)), rng.Intn(2) == 0} }
		h := func(r ref) solver.Lit {
			if r.neg {
				return s.Not(handles[r.node])
			}
			return handles[r.node]
		}
		n := 5 + rng.Intn(40)
		for i := 0; i < n; i++ {
			a, b := pick(), pick()
			nodes = append(nodes, node{kind: 2, a: a, b: b})
			handles = append(handles, s.And(h(a), h(b)))
		}
		eval := func(in [inputs]bool) []bool {
			v := make([]bool, len(nodes))
			get := func(r ref) bool { return v[r.node] != r.neg }
			for k, nd := range nodes {
				switch nd.kind {
				case 0:
					v[k] = in[nd.in]
				case 1:
					v[k] = true
				default:
					v[k] = get(nd.a) && get(nd.b)
				}
			}
			return v
		}
		root := ref{inputs + 1 + rng.Intn(n), rng.Intn(2) == 0}
		s.Assert(h(root))
		if seed%4 < 2 {
			s.Simplify() // Value must hold for eliminated variables too
		}
		// Even seeds take the cancellable (time-sliced) path.
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if seed%2 == 0 {
			ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		}
		st := s.Solve(ctx)
		cancel()
		switch st {
		case solver.Sat:
			sats++
			var in [inputs]bool
			for i := range in {
				in[i] = s.Value(handles[i])
			}
			v := eval(in)
			if v[root.node] == root.neg {
				t.Fatalf("seed %d: asserted node false under model inputs %v", seed, in)
			}
			for k := range nodes {
				if s.Value(handles[k]) != v[k] || s.Value(s.Not(handles[k])) == v[k] {
					t.Fatalf("seed %d: node %d: Value=%v, evaluation=%v (inputs %v)",
						seed, k, s.Value(handles[k]), v[k], in)
				}
			}
		case solver.Unsat:
			unsats++
			for m := 0; m < 1<<inputs; m++ {
				var in [inputs]bool
				for i := range in {
					in[i] = m>>i&1 == 1
				}
				if v := eval(in); v[root.node] != root.neg {
					t.Fatalf("seed %d: Unsat but inputs %v satisfy the asserted node", seed, in)
				}
			}
		default:
			t.Fatalf("seed %d: Solve = %v", seed, st)
		}
		s.Close()
	}
	t.Logf("%d sat, %d unsat", sats, unsats)
	if sats == 0 || unsats == 0 {
		t.Errorf("random circuits not diverse: %d sat, %d unsat", sats, unsats)
	}
}

// pigeonhole asserts that p pigeons sit in h holes, at most one per hole,
// and returns the variables, pigeon-major.
func pigeonhole(s solver.Solver, p, h int) [][]solver.Lit {
	x := make([][]solver.Lit, p)
	for i := range x {
		x[i] = make([]solver.Lit, h)
		for j := range x[i] {
			x[i][j] = s.NewVar()
		}
		s.Assert(solver.Ors(s, x[i]...))
	}
	for j := 0; j < h; j++ {
		for i := 0; i < p; i++ {
			for k := i + 1; k < p; k++ {
				s.Assert(s.Not(s.And(x[i][j], x[k][j])))
			}
		}
	}
	return x
}

// TestCancel: a hard instance under a 100 ms deadline returns Unknown
// promptly, and the solver is still usable afterwards.
func TestCancel(t *testing.T) {
	s := New()
	x := pigeonhole(s, 11, 10)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := s.Solve(ctx)
	el := time.Since(start)
	t.Logf("deadline solve: %v after %v", got, el)
	if got != solver.Unknown {
		t.Fatalf("Solve = %v, want unknown", got)
	}
	if el > time.Second {
		t.Fatalf("Solve took %v with a 100ms deadline", el)
	}

	// An already cancelled context: no work at all.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if got := s.Solve(done); got != solver.Unknown {
		t.Fatalf("cancelled ctx: %v", got)
	}

	// Explicit cancel from another goroutine.
	ctx3, cancel3 := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel3() }()
	start = time.Now()
	if got := s.Solve(ctx3); got != solver.Unknown || time.Since(start) > time.Second {
		t.Fatalf("cancel: %v after %v", got, time.Since(start))
	}

	// Still usable: two pigeons in hole 0 is refuted by propagation.
	ctx4, cancel4 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel4()
	if got := s.Solve(ctx4, x[0][0], x[1][0]); got != solver.Unsat {
		t.Fatalf("after cancel: %v, want unsat", got)
	}
	if f := s.Failed(); len(f) != 2 {
		t.Fatalf("after cancel: Failed = %v, want both assumptions", f)
	}
}

// TestSolveWithContext: the cancellable path (trySolve) gives the same
// answers and models as the plain one.
func TestSolveWithContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := New()
	x := pigeonhole(s, 4, 4)
	if got := s.Solve(ctx); got != solver.Sat {
		t.Fatalf("php 4/4: %v", got)
	}
	for j := 0; j < 4; j++ {
		n := 0
		for i := 0; i < 4; i++ {
			if s.Value(x[i][j]) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("hole %d holds %d pigeons in the model", j, n)
		}
	}
	s2 := New()
	pigeonhole(s2, 6, 5)
	if got := s2.Solve(ctx); got != solver.Unsat {
		t.Fatalf("php 6/5: %v", got)
	}
}

// cnf is a parsed DIMACS file.
type cnf struct {
	vars    int
	clauses [][]int
}

func parseDIMACS(t *testing.T, text string) cnf {
	t.Helper()
	var f cnf
	header := -1
	sc := bufio.NewScanner(strings.NewReader(text))
	var cur []int
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if fs[0] == "c" {
			continue
		}
		if fs[0] == "p" {
			if len(fs) != 4 || fs[1] != "cnf" || header >= 0 {
				t.Fatalf("line %d: bad header %q", line, sc.Text())
			}
			f.vars, _ = strconv.Atoi(fs[2])
			header, _ = strconv.Atoi(fs[3])
			continue
		}
		if header < 0 {
			t.Fatalf("line %d: clause before header", line)
		}
		for _, w := range fs {
			n, err := strconv.Atoi(w)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			if n == 0 {
				f.clauses = append(f.clauses, cur)
				cur = nil
				continue
			}
			if n > f.vars || -n > f.vars {
				t.Fatalf("line %d: literal %d beyond %d variables", line, n, f.vars)
			}
			cur = append(cur, n)
		}
	}
	if cur != nil {
		t.Fatalf("unterminated clause %v", cur)
	}
	if header != len(f.clauses) {
		t.Fatalf("header says %d clauses, file has %d", header, len(f.clauses))
	}
	return f
}

// bruteSat decides a small CNF by enumeration.
func bruteSat(t *testing.T, f cnf) bool {
	t.Helper()
	if f.vars > 22 {
		t.Fatalf("%d variables: too many to enumerate", f.vars)
	}
	for m := uint64(0); m < 1<<f.vars; m++ {
		ok := true
		for _, c := range f.clauses {
			sat := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if (m>>(v-1)&1 == 1) == (l > 0) {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestWriteDIMACS: the header matches the clauses, and the written CNF is
// satisfiable exactly when Solve says so, with and without extra units.
func TestWriteDIMACS(t *testing.T) {
	type lits = []solver.Lit
	tests := []struct {
		name  string
		build func(s *Solver) (asserts, extra lits)
	}{
		{"empty", func(s *Solver) (lits, lits) { return nil, nil }},
		{"false", func(s *Solver) (lits, lits) { return lits{s.Not(s.True())}, nil }},
		{"true", func(s *Solver) (lits, lits) { return lits{s.True()}, nil }},
		{"xor", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Xor(s, x, y)}, nil
		}},
		{"xor with units sat", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Xor(s, x, y)}, lits{x, s.Not(y)}
		}},
		{"xor with units unsat", func(s *Solver) (lits, lits) {
			x, y := s.NewVar(), s.NewVar()
			return lits{solver.Xor(s, x, y)}, lits{x, y}
		}},
		{"php 3/2", func(s *Solver) (lits, lits) {
			pigeonhole(s, 3, 2)
			return nil, nil
		}},
		{"php 2/2", func(s *Solver) (lits, lits) {
			x := pigeonhole(s, 2, 2)
			return nil, lits{x[0][1]}
		}},
		{"php 2/2 forced clash", func(s *Solver) (lits, lits) {
			x := pigeonhole(s, 2, 2)
			return nil, lits{s.Not(x[0][1]), s.Not(x[1][1])}
		}},
		{"extra unit is an unasserted formula", func(s *Solver) (lits, lits) {
			a, b, c := s.NewVar(), s.NewVar(), s.NewVar()
			return lits{solver.Implies(s, a, b)}, lits{s.And(a, s.Not(b)), c}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			as, extra := tc.build(s)
			for _, a := range as {
				s.Assert(a)
			}
			var buf bytes.Buffer
			if err := s.WriteDIMACS(&buf, extra...); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			if !strings.HasPrefix(text, "c bmc\n") {
				t.Errorf("missing 'c bmc' comment: %q", text)
			}
			f := parseDIMACS(t, text)
			want := solve(t, s, extra...)
			if got := bruteSat(t, f); got != (want == solver.Sat) {
				t.Errorf("DIMACS satisfiable=%v, Solve=%v\n%s", got, want, text)
			}
			// Writing after a Solve gives the same file.
			var again bytes.Buffer
			if err := s.WriteDIMACS(&again, extra...); err != nil {
				t.Fatal(err)
			}
			if again.String() != text {
				t.Errorf("WriteDIMACS changed after Solve:\n%s\nvs\n%s", text, again.String())
			}
		})
	}
}

// TestDeepChain: a 100000-deep And chain is encoded, solved, valued and
// written without trouble.
func TestDeepChain(t *testing.T) {
	s := New()
	const n = 100000
	vs := make([]solver.Lit, n)
	top := s.True()
	for i := range vs {
		vs[i] = s.NewVar()
		top = s.And(vs[i], top)
	}
	s.Assert(top)
	if got := solve(t, s, s.Not(vs[n/2])); got != solver.Unsat {
		t.Fatalf("with a false input: %v", got)
	}
	if got := solve(t, s); got != solver.Sat || !s.Value(vs[n-1]) || !s.Value(vs[0]) {
		t.Fatalf("chain: %v", got)
	}
	var buf bytes.Buffer
	if err := s.WriteDIMACS(&buf); err != nil {
		t.Fatal(err)
	}
	// 2n variables (+1 constant); 3 clauses per And but the innermost
	// (And(v0, true) folds to v0), the true unit and the assertion unit.
	want := fmt.Sprintf("c bmc\np cnf %d %d\n", 2*n, 3*(n-1)+2)
	if !strings.HasPrefix(buf.String(), want) {
		t.Fatalf("header %q, want %q", buf.String()[:40], want)
	}
}

type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestWriteDIMACSError(t *testing.T) {
	s := New()
	pigeonhole(s, 5, 4)
	if err := s.WriteDIMACS(failWriter{}); err == nil {
		t.Fatal("write error not reported")
	}
}

func TestInvalidLit(t *testing.T) {
	s := New()
	for _, a := range []solver.Lit{0, -3, 1 << 20} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Not(%d) did not panic", a)
				}
			}()
			s.Not(a)
		}()
	}
}

// BenchmarkPigeonhole8 builds and refutes 8 pigeons in 7 holes.
func BenchmarkPigeonhole8(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := New()
		pigeonhole(s, 8, 7)
		if got := s.Solve(context.Background()); got != solver.Unsat {
			b.Fatalf("php 8/7: %v", got)
		}
		s.Close()
	}
}

// TestClauseOfGates adds clauses whose literals are gates not yet given
// to gini: their definitions must not run into the clause.
func TestClauseOfGates(t *testing.T) {
	s := New()
	x, y := s.NewVar(), s.NewVar()
	both, neither := s.And(x, y), s.And(s.Not(x), s.Not(y))
	s.AddClause(both, neither) // x = y
	if st := solve(t, s, x, s.Not(y)); st != solver.Unsat {
		t.Errorf("x, not y under (x & y) | (!x & !y): %v, want unsat", st)
	}
	if st := solve(t, s, x); st != solver.Sat || !s.Value(y) {
		t.Errorf("x under (x & y) | (!x & !y): %v, y %v, want sat with y", st, s.Value(y))
	}
	s.AddClause(s.Not(both), s.And(s.Not(x), y))
	if st := solve(t, s, y); st != solver.Unsat {
		t.Errorf("y under x = y and (!(x & y) | (!x & y)): %v, want unsat", st)
	}
}

// TestTemporaryAllFalse: a temporary clause whose literals are all false
// at decision level 0 makes its activation literal false for good; once
// released, that literal must not come back for another clause (gini
// would refuse to activate one under it).
func TestTemporaryAllFalse(t *testing.T) {
	s := New()
	x, y, z := s.NewVar(), s.NewVar(), s.NewVar()
	s.Assert(x)
	if got := solve(t, s); got != solver.Sat {
		t.Fatalf("step 1: %v", got)
	}
	act := solver.Temporary(s, s.Not(x))
	if got := solve(t, s, act); got != solver.Unsat {
		t.Fatalf("step 2: %v, want unsat (the clause is false)", got)
	}
	s.Release(act)
	next := solver.Temporary(s, y, z)
	if next == act {
		t.Fatalf("the activation literal fixed false came back")
	}
	if got := solve(t, s, next, s.Not(y)); got != solver.Sat || !s.Value(z) {
		t.Fatalf("step 3: %v z=%v, want sat with z", got, s.Value(z))
	}
}
