package sat

import (
	"context"
	"math/rand"
	"testing"

	"bmc/solver"

	"github.com/go-air/gini/z"
)

// randomCNF returns clauses over variables 2..n (1 is the constant, as
// in Solver): AND gates over earlier variables, as the circuits give, and
// random clauses of 1 to 4 literals.
func randomCNF(rng *rand.Rand, n int) [][]z.Lit {
	lit := func(hi int) z.Lit {
		m := z.Var(2 + rng.Intn(hi-1)).Pos()
		if rng.Intn(2) == 0 {
			m = m.Not()
		}
		return m
	}
	var cs [][]z.Lit
	for v := 2 + n/2; v <= n; v++ {
		if rng.Intn(3) == 0 {
			continue
		}
		g := z.Var(v).Pos()
		long := []z.Lit{g}
		for k := 1 + rng.Intn(3); k > 0; k-- {
			x := lit(v - 1)
			cs = append(cs, []z.Lit{g.Not(), x})
			long = append(long, x.Not())
		}
		cs = append(cs, long)
	}
	for k := rng.Intn(2 * n); k > 0; k-- {
		c := []z.Lit{}
		for j := 1 + rng.Intn(4); j > 0; j-- {
			c = append(c, lit(n))
		}
		cs = append(cs, c)
	}
	return cs
}

// satisfies reports whether model (per variable) satisfies every clause.
func satisfies(model []bool, cs [][]z.Lit) bool {
	for _, c := range cs {
		ok := false
		for _, m := range c {
			ok = ok || model[m.Var()] == m.IsPos()
		}
		if !ok {
			return false
		}
	}
	return true
}

// bruteModel returns a model of cs over variables 1..n, nil if none.
func bruteModel(cs [][]z.Lit, n int) []bool {
	model := make([]bool, n+1)
	for bits := 0; bits < 1<<n; bits++ {
		for v := 1; v <= n; v++ {
			model[v] = bits>>(v-1)&1 == 1
		}
		if satisfies(model, cs) {
			return model
		}
	}
	return nil
}

// TestSimplifier: the simplified clauses are satisfiable exactly when the
// original ones are; extend turns every model of them (and of them with
// a variable restored) into a model of the original clauses.
func TestSimplifier(t *testing.T) {
	const n = 12
	elim, unsat := 0, 0
	for seed := int64(1); seed <= 400; seed++ {
		rng := rand.New(rand.NewSource(seed))
		orig := randomCNF(rng, n)
		f := newSimplifier(n + 1)
		for _, c := range orig {
			f.add(c)
		}
		f.run(func(v z.Var) bool { return v == 1 }, func() bool { return false })
		elim += len(f.order)
		var simp [][]z.Lit
		f.clauses(func(c []z.Lit) { simp = append(simp, c) })
		if v := 2 + rng.Intn(n-1); rng.Intn(2) == 0 {
			f.restore(z.Var(v), func(c []z.Lit) { simp = append(simp, c) })
		}
		want := bruteModel(orig, n) != nil
		model := bruteModel(simp, n)
		if (model != nil) != want {
			t.Fatalf("seed %d: simplified satisfiable %v, original %v", seed, model != nil, want)
		}
		if model == nil {
			unsat++
			continue
		}
		f.extend(model)
		if !satisfies(model, orig) {
			t.Fatalf("seed %d: extended model %v falsifies an original clause", seed, model)
		}
	}
	t.Logf("%d variables eliminated, %d of 400 unsatisfiable", elim, unsat)
	if elim == 0 || unsat == 0 || unsat == 400 {
		t.Errorf("random formulas not diverse: %d eliminated, %d unsat", elim, unsat)
	}
}

// TestSimplifyIncremental: after a first Solve that simplified (under an
// assumption or not), more
// assertions over the same gates and Solves under assumptions agree with
// a solver that never simplified, and every model satisfies the
// assertions.
func TestSimplifyIncremental(t *testing.T) {
	defer func(plain bool) { tryPlain = plain }(tryPlain)
	tryPlain = false
	for seed := int64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		simp, plain := New(), New()
		var hs, ps []solver.Lit
		for i := 0; i < 6; i++ {
			hs, ps = append(hs, simp.NewVar()), append(ps, plain.NewVar())
		}
		pick := func() (solver.Lit, solver.Lit) {
			i, neg := rng.Intn(len(hs)), rng.Intn(2) == 0
			if neg {
				return simp.Not(hs[i]), plain.Not(ps[i])
			}
			return hs[i], ps[i]
		}
		for k := 0; k < 30; k++ {
			a1, a2 := pick()
			b1, b2 := pick()
			hs, ps = append(hs, simp.And(a1, b1)), append(ps, plain.And(a2, b2))
		}
		var asserted []solver.Lit
		check := func(step string, assume1, assume2 []solver.Lit) {
			st1 := simp.Solve(context.Background(), assume1...)
			st2 := plain.Solve(context.Background(), assume2...)
			if st1 != st2 {
				t.Fatalf("seed %d, %s: simplified %v, plain %v", seed, step, st1, st2)
			}
			if st1 != solver.Sat {
				return
			}
			for _, a := range append(asserted, assume1...) {
				if !simp.Value(a) {
					t.Fatalf("seed %d, %s: the model falsifies an assertion or assumption", seed, step)
				}
			}
		}
		a1, a2 := pick()
		simp.Assert(a1)
		plain.Assert(a2)
		asserted = append(asserted, a1)
		simp.Simplify()
		if seed%2 == 0 {
			check("first", nil, nil)
		} else {
			x1, x2 := pick()
			check("first, under an assumption", []solver.Lit{x1}, []solver.Lit{x2})
		}
		for round := 0; round < 3; round++ {
			a1, a2 := pick()
			b1, b2 := pick()
			c1, c2 := pick()
			simp.Assert(simp.Not(simp.And(a1, b1)))
			plain.Assert(plain.Not(plain.And(a2, b2)))
			asserted = append(asserted, simp.Not(simp.And(a1, b1)))
			d1, d2 := pick()
			simp.AddClause(c1, d1)
			plain.AddClause(c2, d2)
			asserted = append(asserted, solver.Or(simp, c1, d1))
			x1, x2 := pick()
			check("incremental", []solver.Lit{x1}, []solver.Lit{x2})
		}
		simp.Close()
		plain.Close()
	}
}

// TestSimplifyRace: random 3-SAT formulas near the threshold, too large
// for the plain formula's try alone, so that the plain and the
// simplified formula race (either may win); the answer and the answers
// of later incremental queries on the same solver (a new clause each, an
// assumption) agree with a solver that never simplifies, and every model
// satisfies the clauses.
func TestSimplifyRace(t *testing.T) {
	adopted := 0
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		const vars, clauses = 180, 767
		simp, plain := New(), New()
		var hs, ps []solver.Lit
		for i := 0; i < vars; i++ {
			hs, ps = append(hs, simp.NewVar()), append(ps, plain.NewVar())
		}
		type lit struct {
			v   int
			neg bool
		}
		var cnf [][]lit
		clause := func() {
			var c1, c2 []solver.Lit
			var c []lit
			for j := 0; j < 3; j++ {
				l := lit{rng.Intn(vars), rng.Intn(2) == 0}
				l1, l2 := hs[l.v], ps[l.v]
				if l.neg {
					l1, l2 = simp.Not(l1), plain.Not(l2)
				}
				c1, c2, c = append(c1, l1), append(c2, l2), append(c, l)
			}
			simp.AddClause(c1...)
			plain.AddClause(c2...)
			cnf = append(cnf, c)
		}
		for k := 0; k < clauses; k++ {
			clause()
		}
		simp.Simplify()
		for step := 0; step < 4; step++ {
			i := rng.Intn(vars)
			got, want := solve(t, simp, hs[i]), solve(t, plain, ps[i])
			if step == 0 && simp.simp != nil {
				adopted++
			}
			if got != want {
				t.Fatalf("seed %d, step %d: %v after simplifying, %v without", seed, step, got, want)
			}
			if got == solver.Sat {
				if !simp.Value(hs[i]) {
					t.Fatalf("seed %d, step %d: the model misses the assumption", seed, step)
				}
				for _, c := range cnf {
					sat := false
					for _, l := range c {
						sat = sat || simp.Value(hs[l.v]) != l.neg
					}
					if !sat {
						t.Fatalf("seed %d, step %d: the model falsifies a clause", seed, step)
					}
				}
			}
			clause()
		}
	}
	t.Logf("%d of 12 formulas decided first simplified", adopted)
}
