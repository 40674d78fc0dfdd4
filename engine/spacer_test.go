package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"bmc/chc"
	"bmc/sat"
	"bmc/smt"
	"bmc/solver"
	"bmc/ts"
)

func giniOptions() HornOptions {
	return HornOptions{NewSolver: func() solver.Solver { return sat.New() }}
}

// z3Horn runs Z3's Spacer on sys under ctx, on a fixedpoint of its own.
func z3Horn(t *testing.T, ctx context.Context, sys *chc.System) *HornResult {
	t.Helper()
	fp, err := smt.NewFixedpoint()
	if err != nil {
		t.Fatal(err)
	}
	defer fp.Close()
	return Fixedpoint(ctx, sys, fp, giniOptions())
}

// randomHorn is a random system of Horn clauses: 2 to 5 predicates of 0
// to 3 arguments, 4 to 12 clauses of 0 to 2 body atoms (a predicate may
// occur twice in a body) and 1 or 2 queries of 1 or 2. Each clause has
// inputs of its own, at most 12; an atom's argument is a fresh input, an
// input of the clause already made (maybe negated), a small formula of
// them or a constant, and the constraint a formula of them.
func randomHorn(r *rand.Rand) *chc.System {
	s := chc.New()
	g := s.AIG
	for i := range 2 + r.IntN(4) {
		var args []string
		for k := range r.IntN(4) {
			args = append(args, fmt.Sprintf("a%d", k))
		}
		s.NewPred(fmt.Sprintf("P%d", i), args)
	}
	nc, nq := 4+r.IntN(9), 1+r.IntN(2)
	for k := range nc + nq {
		query := k >= nc
		var inputs []ts.Lit
		fresh := func() ts.Lit {
			if len(inputs) >= 12 {
				return inputs[r.IntN(len(inputs))]
			}
			l := g.NewInput(fmt.Sprintf("c%d.i%d", k, len(inputs)))
			inputs = append(inputs, l)
			return l
		}
		old := func() ts.Lit {
			if len(inputs) == 0 {
				return fresh()
			}
			l := inputs[r.IntN(len(inputs))]
			if r.IntN(2) == 0 {
				l = l.Not()
			}
			return l
		}
		arg := func() ts.Lit {
			switch n := r.IntN(10); {
			case n < 5:
				return fresh()
			case n < 7:
				return old()
			case n < 9:
				return randomFormula(r, g, old, 1)
			default:
				return ts.Lit(r.IntN(2))
			}
		}
		atom := func() chc.Atom {
			p := s.Preds[r.IntN(len(s.Preds))]
			a := chc.Atom{Pred: p}
			for range p.Arity() {
				a.Args = append(a.Args, arg())
			}
			return a
		}
		var body []chc.Atom
		nb := r.IntN(3)
		if query {
			nb = 1 + r.IntN(2)
		}
		for range nb {
			body = append(body, atom())
		}
		var head *chc.Atom
		if !query {
			a := atom()
			head = &a
		}
		constraint := ts.True
		if r.IntN(4) > 0 {
			constraint = randomFormula(r, g, old, 2)
		}
		name := fmt.Sprintf("c%d", k)
		if query {
			name = fmt.Sprintf("q%d", k-nc)
		}
		s.Add(head, body, constraint, name)
	}
	return s
}

// randomFormula is a formula of depth up to depth over leaves.
func randomFormula(r *rand.Rand, g *ts.System, leaf func() ts.Lit, depth int) ts.Lit {
	if depth == 0 || r.IntN(4) == 0 {
		return leaf()
	}
	a := randomFormula(r, g, leaf, depth-1)
	b := randomFormula(r, g, leaf, depth-1)
	switch r.IntN(5) {
	case 0:
		return g.And(a, b)
	case 1:
		return g.Or(a, b)
	case 2:
		return g.Xor(a, b)
	case 3:
		return g.Eq(a, b)
	default:
		return g.Ite(a, b, randomFormula(r, g, leaf, depth-1))
	}
}

// hornLFP decides sys by brute force: the least set of derivable atoms,
// by enumerating every clause's inputs until nothing new is derived; it
// reports whether some query's body holds of derivable atoms, and the
// number of derivable atoms.
func hornLFP(t *testing.T, sys *chc.System) (unsafe bool, atoms int) {
	type prepared struct {
		c      *chc.Clause
		inputs []int
		gates  []int
	}
	var cls []prepared
	for _, c := range sys.Clauses {
		inputs, gates := sys.Vars(c)
		if len(inputs) > 12 {
			t.Fatalf("clause %s reads %d inputs", c.Name, len(inputs))
		}
		cls = append(cls, prepared{c, inputs, gates})
	}
	derived := make([]map[uint64]bool, len(sys.Preds))
	for i := range derived {
		derived[i] = map[uint64]bool{}
	}
	vals := make([]bool, sys.AIG.NumVars())
	tuple := func(args []ts.Lit) uint64 {
		var x uint64
		for i, a := range args {
			if ts.Value(vals, a) {
				x |= 1 << i
			}
		}
		return x
	}
	// each calls f for every assignment of c's inputs that makes its
	// constraint true with derivable body atoms.
	each := func(p prepared, f func()) {
		for _, a := range p.c.Body {
			if len(derived[a.Pred.Index]) == 0 {
				return
			}
		}
	next:
		for m := uint64(0); m < 1<<len(p.inputs); m++ {
			for i, v := range p.inputs {
				vals[v] = m>>i&1 == 1
			}
			for _, v := range p.gates {
				a, b := sys.AIG.Operands(v)
				vals[v] = ts.Value(vals, a) && ts.Value(vals, b)
			}
			if !ts.Value(vals, p.c.Constraint) {
				continue
			}
			for _, a := range p.c.Body {
				if !derived[a.Pred.Index][tuple(a.Args)] {
					continue next
				}
			}
			f()
		}
	}
	for changed := true; changed; {
		changed = false
		for _, p := range cls {
			if p.c.Head == nil {
				continue
			}
			each(p, func() {
				x := tuple(p.c.Head.Args)
				if d := derived[p.c.Head.Pred.Index]; !d[x] {
					d[x] = true
					changed = true
				}
			})
		}
	}
	for _, p := range cls {
		if p.c.Head == nil {
			each(p, func() { unsafe = true })
		}
	}
	for _, d := range derived {
		atoms += len(d)
	}
	return unsafe, atoms
}

// checkHorn checks res against the expected status and the system.
func checkHorn(ctx context.Context, sys *chc.System, res *HornResult, want solver.Status) error {
	if res.Status != want {
		return fmt.Errorf("status %v (%s), want %v", res.Status, res.Reason, want)
	}
	switch res.Status {
	case solver.Sat:
		if res.Derivation == nil {
			return fmt.Errorf("sat without a derivation")
		}
		if err := sys.CheckDerivation(res.Derivation); err != nil {
			return fmt.Errorf("the derivation does not hold: %v", err)
		}
	case solver.Unsat:
		if res.Interpretation == nil {
			return fmt.Errorf("unsat without an interpretation")
		}
		if err := sys.CheckInterpretation(ctx, res.Interpretation, func() solver.Solver { return sat.New() }); err != nil {
			return fmt.Errorf("the interpretation does not hold: %v", err)
		}
	}
	return nil
}

func hornText(sys *chc.System) string {
	var b strings.Builder
	chc.Write(&b, sys)
	return b.String()
}

func TestSpacerRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 80
	}
	ctx := context.Background()
	var outcomes [3]int // by solver.Status
	var z3Runs, z3Outcomes [3]int
	var atoms, levels int
	start := time.Now()
	var spacerTime, z3Time time.Duration
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		sys := randomHorn(r)
		unsafe, k := hornLFP(t, sys)
		atoms += k
		want := solver.Unsat
		if unsafe {
			want = solver.Sat
		}
		outcomes[want]++
		// Every system here takes milliseconds; the bound makes a loop a
		// failure rather than a hang.
		runCtx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		t0 := time.Now()
		res := Spacer(runCtx, sys, giniOptions())
		spacerTime += time.Since(t0)
		levels += res.Levels
		if err := checkHorn(ctx, sys, res, want); err != nil {
			t.Errorf("seed %d: spacer: %v (%d levels, %s)\n%s", seed, err, res.Levels, res.Stats, hornText(sys))
		}
		cancel()
		if smt.Available && seed%3 == 0 {
			runCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
			t0 := time.Now()
			res := z3Horn(t, runCtx, sys)
			z3Time += time.Since(t0)
			cancel()
			z3Runs[want]++
			if err := checkHorn(ctx, sys, res, want); err != nil {
				t.Errorf("seed %d: z3: %v\n%s", seed, err, hornText(sys))
			} else {
				z3Outcomes[want]++
			}
		}
	}
	t.Logf("%d systems in %v (spacer %v, z3 %v): %d unsafe, %d safe; %d derivable atoms, %d levels in all",
		n, time.Since(start).Round(time.Millisecond), spacerTime.Round(time.Millisecond), z3Time.Round(time.Millisecond),
		outcomes[solver.Sat], outcomes[solver.Unsat], atoms, levels)
	if smt.Available {
		t.Logf("z3 on %d: %d of %d unsafe and %d of %d safe confirmed", z3Runs[solver.Sat]+z3Runs[solver.Unsat],
			z3Outcomes[solver.Sat], z3Runs[solver.Sat], z3Outcomes[solver.Unsat], z3Runs[solver.Unsat])
	}
	if outcomes[solver.Sat] == 0 || outcomes[solver.Unsat] == 0 {
		t.Errorf("one outcome only: %d unsafe, %d safe", outcomes[solver.Sat], outcomes[solver.Unsat])
	}
}

// hornBits are w fresh inputs.
func hornBits(g *ts.System, name string, w int) []ts.Lit {
	out := make([]ts.Lit, w)
	for i := range out {
		out[i] = g.NewInput(fmt.Sprintf("%s%d", name, i))
	}
	return out
}

// plus is x + 1 (modulo 2^len(x)); minus x - 1.
func plus(g *ts.System, x []ts.Lit) []ts.Lit {
	out := make([]ts.Lit, len(x))
	carry := ts.True
	for i, b := range x {
		out[i] = g.Xor(b, carry)
		carry = g.And(b, carry)
	}
	return out
}

func minus(g *ts.System, x []ts.Lit) []ts.Lit {
	out := make([]ts.Lit, len(x))
	borrow := ts.True
	for i, b := range x {
		out[i] = g.Xor(b, borrow)
		borrow = g.And(b.Not(), borrow)
	}
	return out
}

// equals is x = v.
func equals(g *ts.System, x []ts.Lit, v int) ts.Lit {
	eq := ts.True
	for i, b := range x {
		if v>>i&1 == 0 {
			b = b.Not()
		}
		eq = g.And(eq, b)
	}
	return eq
}

// doubling is the summary of a recursive procedure f(n) that increments a
// global counter g when n is 0 and otherwise calls f(n-1) twice:
//
//	Sum(0, g, g+1)
//	Sum(n, g, g2) <- n != 0 & Sum(n-1, g, g1) & Sum(n-1, g1, g2)
//	false <- Sum(depth, 0, g2) & g2 = target
//
// with n of 3 bits and g of width bits. Sum(n, 0, 2^n) is derived by a
// tree of 2^(n+1)-1 clauses.
func doubling(depth, width, target int) *chc.System {
	s := chc.New()
	g := s.AIG
	args := []string{"n0", "n1", "n2"}
	for _, v := range []string{"g", "h"} {
		for i := range width {
			args = append(args, fmt.Sprintf("%s%d", v, i))
		}
	}
	sum := s.NewPred("Sum", args)
	atom := func(xs ...[]ts.Lit) chc.Atom {
		var all []ts.Lit
		for _, x := range xs {
			all = append(all, x...)
		}
		return chc.Atom{Pred: sum, Args: all}
	}
	n := hornBits(g, "n", 3)
	g0, g1, g2 := hornBits(g, "g", width), hornBits(g, "g1_", width), hornBits(g, "g2_", width)
	base := atom(n, g0, plus(g, g0))
	s.Add(&base, nil, equals(g, n, 0), "base")
	head := atom(n, g0, g2)
	s.Add(&head, []chc.Atom{atom(minus(g, n), g0, g1), atom(minus(g, n), g1, g2)}, equals(g, n, 0).Not(), "twice")
	s.Add(nil, []chc.Atom{atom(n, g0, g2)}, g.Ands(equals(g, n, depth), equals(g, g0, 0), equals(g, g2, target)), "query")
	return s
}

// derivationSize is the number of d's nodes.
func derivationSize(d *chc.Derivation) int {
	n := 1
	for _, b := range d.Body {
		n += derivationSize(b)
	}
	return n
}

func TestSpacerDoubling(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tests := []struct {
		depth, width, target int
		want                 solver.Status
	}{
		{3, 4, 8, solver.Sat},
		{4, 5, 16, solver.Sat},
		{4, 5, 15, solver.Unsat},
		{5, 5, 0, solver.Sat}, // 32 wraps around
		{6, 7, 64, solver.Sat},
		{7, 8, 128, solver.Sat},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("f(%d) to %d", tc.depth, tc.target), func(t *testing.T) {
			if testing.Short() && tc.depth > 6 {
				t.Skip("short")
			}
			sys := doubling(tc.depth, tc.width, tc.target)
			start := time.Now()
			res := Spacer(ctx, sys, giniOptions())
			t.Logf("%v in %v: %d levels, %s", res.Status, time.Since(start).Round(time.Millisecond), res.Levels, res.Stats)
			if err := checkHorn(ctx, sys, res, tc.want); err != nil {
				t.Fatal(err)
			}
			if res.Status != solver.Sat {
				return
			}
			// The query, then a tree of height depth+1 and 2^(depth+1)-1
			// nodes.
			d := res.Derivation
			if h, want := d.Height(), tc.depth+2; h != want {
				t.Errorf("height %d, want %d", h, want)
			}
			if size, want := derivationSize(d), 1<<(tc.depth+1); size != want {
				t.Errorf("%d nodes, want %d", size, want)
			}
		})
	}
}

// counterHorn is a counter of width bits from 0 incremented by one step
// at a time, and the query that it reaches target: a derivation of
// target+2 clauses.
func counterHorn(width, target int) *chc.System {
	s := chc.New()
	g := s.AIG
	var names []string
	for i := range width {
		names = append(names, fmt.Sprintf("x%d", i))
	}
	cnt := s.NewPred("Cnt", names)
	x := hornBits(g, "x", width)
	zero := make([]ts.Lit, width)
	for i := range zero {
		zero[i] = ts.False
	}
	s.Add(&chc.Atom{Pred: cnt, Args: zero}, nil, ts.True, "init")
	s.Add(&chc.Atom{Pred: cnt, Args: plus(g, x)}, []chc.Atom{{Pred: cnt, Args: x}}, ts.True, "inc")
	s.Add(nil, []chc.Atom{{Pred: cnt, Args: x}}, equals(g, x, target), "query")
	return s
}

func TestSpacerCounter(t *testing.T) {
	ctx := context.Background()
	sys := counterHorn(4, 11)
	res := Spacer(ctx, sys, giniOptions())
	if err := checkHorn(ctx, sys, res, solver.Sat); err != nil {
		t.Fatal(err)
	}
	if h := res.Derivation.Height(); h != 13 {
		t.Errorf("height %d, want 13", h)
	}
}

func TestSpacerMaxLevels(t *testing.T) {
	ctx := context.Background()
	sys := counterHorn(4, 11)
	o := giniOptions()
	o.MaxLevels = 3
	res := Spacer(ctx, sys, o)
	if res.Status != solver.Unknown || res.Reason == "" {
		t.Fatalf("status %v, reason %q", res.Status, res.Reason)
	}
	if !strings.Contains(res.Reason, "level") {
		t.Errorf("reason %q", res.Reason)
	}
	if res.Levels > o.MaxLevels {
		t.Errorf("%d levels opened, bound %d", res.Levels, o.MaxLevels)
	}
	if res.Derivation != nil || res.Interpretation != nil {
		t.Errorf("unknown with an answer")
	}
}

// withTimeout runs f, failing t when it takes longer than d.
func withTimeout(t *testing.T, d time.Duration, f func() *HornResult) *HornResult {
	t.Helper()
	done := make(chan *HornResult, 1)
	go func() { done <- f() }()
	select {
	case res := <-done:
		return res
	case <-time.After(d):
		t.Fatalf("no answer within %v", d)
		return nil
	}
}

func TestSpacerCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	systems := map[string]*chc.System{
		"counter":  counterHorn(6, 60),
		"doubling": doubling(5, 6, 32),
		"random":   randomHorn(rand.New(rand.NewPCG(1, 2))),
	}
	for name, sys := range systems {
		t.Run(name, func(t *testing.T) {
			res := withTimeout(t, 10*time.Second, func() *HornResult { return Spacer(ctx, sys, giniOptions()) })
			if res.Status != solver.Unknown || res.Reason == "" {
				t.Fatalf("spacer: status %v, reason %q", res.Status, res.Reason)
			}
			if !smt.Available {
				return
			}
			fp, err := smt.NewFixedpoint()
			if err != nil {
				t.Fatal(err)
			}
			defer fp.Close()
			res = withTimeout(t, 10*time.Second, func() *HornResult { return Fixedpoint(ctx, sys, fp, giniOptions()) })
			if res.Status != solver.Unknown || res.Reason == "" {
				t.Fatalf("z3: status %v, reason %q", res.Status, res.Reason)
			}
		})
	}
}

// A deadline in the middle of a long run stops it soon after.
func TestSpacerDeadline(t *testing.T) {
	sys := counterHorn(10, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := withTimeout(t, 10*time.Second, func() *HornResult { return Spacer(ctx, sys, giniOptions()) })
	took := time.Since(start)
	t.Logf("%v after %v: %d levels, %s", res.Status, took.Round(time.Millisecond), res.Levels, res.Stats)
	switch res.Status {
	case solver.Unknown:
		if res.Reason == "" {
			t.Error("unknown without a reason")
		}
	case solver.Sat:
		if err := checkHorn(context.Background(), sys, res, solver.Sat); err != nil {
			t.Error(err)
		}
	default:
		t.Errorf("status %v", res.Status)
	}
	if took > 2*time.Second {
		t.Errorf("stopped %v after a deadline of 50ms", took)
	}
}

func TestFixedpointCounter(t *testing.T) {
	if !smt.Available {
		t.Skip("no Z3 in this build")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		sys  *chc.System
		want solver.Status
	}{
		{counterHorn(4, 11), solver.Sat},
		{doubling(3, 4, 8), solver.Sat},
		{doubling(3, 4, 7), solver.Unsat},
	} {
		res := z3Horn(t, ctx, tc.sys)
		if err := checkHorn(ctx, tc.sys, res, tc.want); err != nil {
			t.Error(err)
		}
	}
}

// A body atom whose arguments share an input: the values of the atom's
// arguments are tied to each other, and a must-summary that does not
// tie them does not apply.
func TestSpacerSharedArguments(t *testing.T) {
	tests := []struct {
		name  string
		fact  [2]bool
		query func(g *ts.System, x, y ts.Lit) []ts.Lit
		want  solver.Status
	}{
		{"P(x, x) of P(0, 1)", [2]bool{false, true}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, x} }, solver.Unsat},
		{"P(x, x) of P(1, 1)", [2]bool{true, true}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, x} }, solver.Sat},
		{"P(x, !x) of P(0, 0)", [2]bool{false, false}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, x.Not()} }, solver.Unsat},
		{"P(x, !x) of P(1, 0)", [2]bool{true, false}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, x.Not()} }, solver.Sat},
		{"P(x, x & y) of P(0, 1)", [2]bool{false, true}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, g.And(x, y)} }, solver.Unsat},
		{"P(x, y) of P(0, 1)", [2]bool{false, true}, func(g *ts.System, x, y ts.Lit) []ts.Lit { return []ts.Lit{x, y} }, solver.Sat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := chc.New()
			g := s.AIG
			p := s.NewPred("P", []string{"a", "b"})
			s.Add(&chc.Atom{Pred: p, Args: []ts.Lit{ts.Lit(b2i(tc.fact[0])), ts.Lit(b2i(tc.fact[1]))}}, nil, ts.True, "fact")
			x, y := g.NewInput("x"), g.NewInput("y")
			s.Add(nil, []chc.Atom{{Pred: p, Args: tc.query(g, x, y)}}, ts.True, "query")
			if unsafe, _ := hornLFP(t, s); unsafe != (tc.want == solver.Sat) {
				t.Fatalf("brute force: unsafe %v", unsafe)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			res := Spacer(ctx, s, giniOptions())
			if err := checkHorn(context.Background(), s, res, tc.want); err != nil {
				t.Fatalf("spacer: %v (%d levels, %s)", err, res.Levels, res.Stats)
			}
			res = LeastModel(ctx, s, HornOptions{})
			if err := checkHorn(context.Background(), s, res, tc.want); err != nil {
				t.Fatalf("least model: %v", err)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// returnedCalls has the shape of a recursion whose every level calls a
// helper that returns (encode.Horn's clauses for deeper() { inc();
// deeper(); }): the helper's summary atom is derived from its call atom,
// derived in turn from the caller's, so that each level's call atom is
// used twice, once by the caller going on and once inside the helper's
// summary:
//
//	Call(0)
//	Sum(x, x+1) <- Call(x)
//	Call(y) <- Call(x) & Sum(x, y)
//	false <- Call(x) & x = target
//
// Call(target) has a derivation of 2^target tree nodes but only
// 2*target+1 distinct ones.
func returnedCalls(width, target int) *chc.System {
	s := chc.New()
	g := s.AIG
	var xs, ys []string
	for i := range width {
		xs, ys = append(xs, fmt.Sprintf("x%d", i)), append(ys, fmt.Sprintf("y%d", i))
	}
	call := s.NewPred("Call", xs)
	sum := s.NewPred("Sum", append(slices.Clone(xs), ys...))
	zero := make([]ts.Lit, width)
	for i := range zero {
		zero[i] = ts.False
	}
	s.Add(&chc.Atom{Pred: call, Args: zero}, nil, ts.True, "start")
	x, y := hornBits(g, "x", width), hornBits(g, "y", width)
	s.Add(&chc.Atom{Pred: sum, Args: append(slices.Clone(x), plus(g, x)...)}, []chc.Atom{{Pred: call, Args: x}}, ts.True, "helper")
	s.Add(&chc.Atom{Pred: call, Args: y}, []chc.Atom{{Pred: call, Args: x}, {Pred: sum, Args: append(slices.Clone(x), y...)}}, ts.True, "return")
	s.Add(nil, []chc.Atom{{Pred: call, Args: x}}, equals(g, x, target), "query")
	return s
}

// distinctNodes is the number of d's distinct nodes.
func distinctNodes(d *chc.Derivation) int {
	seen := map[*chc.Derivation]bool{}
	var walk func(d *chc.Derivation)
	walk = func(d *chc.Derivation) {
		if seen[d] {
			return
		}
		seen[d] = true
		for _, b := range d.Body {
			walk(b)
		}
	}
	walk(d)
	return len(seen)
}

// A counterexample through 30 returned calls is a derivation of 2^30
// tree nodes: the engines keep it as the DAG of its distinct atoms,
// and it is checked (and, inlined, expanded) as one. Unfolded as a tree
// it took 18 s and 3.9 GB at 20 calls (issue 53's helper.bpl).
func TestSharedDerivation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const width = 6
	target := 30
	sys := returnedCalls(width, target)
	il := chc.Inline(sys)
	if il.Removed() != 1 {
		t.Fatalf("%d predicates inlined, want Sum", il.Removed())
	}
	start := time.Now()
	check := func(name string, res *HornResult, expand bool) {
		t.Helper()
		defer func() { start = time.Now() }()
		if expand && res.Status == solver.Sat {
			if err := il.System.CheckDerivation(res.Derivation); err != nil {
				t.Fatalf("%s: the inlined derivation does not hold: %v", name, err)
			}
			res.Derivation = il.Expand(res.Derivation)
		}
		if err := checkHorn(ctx, sys, res, solver.Sat); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d := res.Derivation
		t.Logf("%s: %v levels %d %s", name, time.Since(start).Round(time.Millisecond), res.Levels, res.Stats)
		if h := d.Height(); h != 2*target+2 {
			t.Errorf("%s: height %d, want %d", name, h, 2*target+2)
		}
		if n := distinctNodes(d); n > 2*target+2 {
			t.Errorf("%s: %d distinct nodes, want at most %d", name, n, 2*target+2)
		}
	}
	check("spacer", Spacer(ctx, sys, giniOptions()), false)
	check("spacer inlined", Spacer(ctx, il.System, giniOptions()), true)
	check("least model", LeastModel(ctx, sys, HornOptions{}), false)
	if smt.Available {
		// Z3's own search takes seconds from 24 calls on: 16 (a tree of
		// 2^16 nodes for chc.Complete to fill in, a SAT query each).
		sys = returnedCalls(width, 16)
		il = chc.Inline(sys)
		target = 16
		check("z3 inlined", z3Horn(t, ctx, il.System), true)
	}
}
