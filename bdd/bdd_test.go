package bdd

import (
	"math/rand/v2"
	"testing"
)

const nvars = 6

// table is a function of nvars variables as its truth table: bit a is
// its value under assignment a (bit v of a: variable v).
type table uint64

func (m *Manager) table(f Node) table {
	var t table
	for a := range 1 << nvars {
		vals := map[int]bool{}
		for v := range nvars {
			vals[v] = a>>v&1 == 1
		}
		if m.Eval(f, vals) {
			t |= 1 << a
		}
	}
	return t
}

func varTable(v int) table {
	var t table
	for a := range 1 << nvars {
		if a>>v&1 == 1 {
			t |= 1 << a
		}
	}
	return t
}

const all = table(1<<(1<<nvars) - 1)

// existsTable quantifies the variables of set out of t.
func existsTable(t table, set []int) table {
	for _, v := range set {
		var out table
		for a := range 1 << nvars {
			if t>>a&1 == 1 {
				out |= 1<<a | 1<<(a^1<<v)
			}
		}
		t = out
	}
	return t
}

// randomFunc builds a random function of the variables, and its table.
func randomFunc(m *Manager, r *rand.Rand, size int) (Node, table) {
	type fn struct {
		n Node
		t table
	}
	pool := []fn{{False, 0}, {True, all}}
	for v := range nvars {
		pool = append(pool, fn{m.Var(v), varTable(v)})
	}
	for range size {
		a, b := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
		switch r.IntN(4) {
		case 0:
			pool = append(pool, fn{m.And(a.n, b.n), a.t & b.t})
		case 1:
			pool = append(pool, fn{m.Or(a.n, b.n), a.t | b.t})
		case 2:
			pool = append(pool, fn{m.Xor(a.n, b.n), a.t ^ b.t})
		default:
			pool = append(pool, fn{m.Not(a.n), ^a.t & all})
		}
	}
	f := pool[len(pool)-1]
	return f.n, f.t
}

func TestOperations(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		m := New()
		f, ft := randomFunc(m, r, 12)
		g, gt := randomFunc(m, r, 12)
		h, ht := randomFunc(m, r, 12)
		if got := m.table(f); got != ft {
			t.Fatalf("seed %d: built %x, want %x", seed, got, ft)
		}
		var set []int
		for v := range nvars {
			if r.IntN(2) == 0 {
				set = append(set, v)
			}
		}
		s := m.NewSet(set)
		checks := []struct {
			name string
			got  Node
			want table
		}{
			{"and", m.And(f, g), ft & gt},
			{"or", m.Or(f, g), ft | gt},
			{"xor", m.Xor(f, g), ft ^ gt},
			{"diff", m.Diff(f, g), ft &^ gt},
			{"iff", m.Iff(f, g), ^(ft ^ gt) & all},
			{"ite", m.Ite(f, g, h), ft&gt | ^ft&ht},
			// A variable as the condition, above the branches or not.
			{"ite of a variable", m.Ite(m.Var(seed%nvars), g, h), varTable(seed%nvars)&gt | ^varTable(seed%nvars)&ht},
			{"ite of the top variable", m.Ite(m.Var(0), m.Restrict(g, map[int]bool{0: true}), m.Restrict(h, map[int]bool{0: false})),
				varTable(0)&gt | ^varTable(0)&ht},
			{"exists", m.Exists(f, s), existsTable(ft, set)},
			{"and-exists", m.AndExists(f, g, s), existsTable(ft&gt, set)},
		}
		for _, c := range checks {
			if got := m.table(c.got); got != c.want {
				t.Errorf("seed %d: %s: %x, want %x", seed, c.name, got, c.want)
			}
		}
		// Restrict, Witness and the reduction: equal functions are one node.
		fix := map[int]bool{0: true, 3: false}
		rt := m.table(m.Restrict(f, fix))
		for a := range 1 << nvars {
			b := a | 1
			b &^= 1 << 3
			if rt>>a&1 != ft>>b&1 {
				t.Fatalf("seed %d: restrict differs at %b", seed, a)
			}
		}
		for _, c := range []struct{ a, b Node }{{f, g}, {m.And(f, g), f}, {f, m.Or(f, h)}, {g, g}} {
			if got, want := m.Implies(c.a, c.b), m.table(c.a)&^m.table(c.b) == 0; got != want {
				t.Errorf("seed %d: implies %v, want %v", seed, got, want)
			}
		}
		if f != False && !m.Eval(f, m.Witness(f)) {
			t.Errorf("seed %d: the witness does not satisfy f", seed)
		}
		if m.Or(m.And(f, g), m.And(f, m.Not(g))) != f {
			t.Errorf("seed %d: f and g or f and not g is not the node f", seed)
		}
	}
}

func TestCompose(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 8))
		m := New()
		f, ft := randomFunc(m, r, 10)
		sub := map[int]Node{}
		subT := map[int]table{}
		switch seed % 3 {
		case 0: // functions
			for v := range nvars {
				if r.IntN(2) == 0 {
					sub[v], subT[v] = randomFunc(m, r, 6)
				}
			}
		case 1: // a renaming that keeps the order: 0..2 to 3..5
			for v := range 3 {
				sub[v], subT[v] = m.Var(v+3), varTable(v+3)
			}
		default: // a renaming that swaps
			sub[0], subT[0] = m.Var(5), varTable(5)
			sub[5], subT[5] = m.Var(0), varTable(0)
		}
		var want table
		for a := range 1 << nvars {
			b := a
			for v, st := range subT {
				b &^= 1 << v
				if st>>a&1 == 1 {
					b |= 1 << v
				}
			}
			if ft>>b&1 == 1 {
				want |= 1 << a
			}
		}
		if got := m.table(m.Compose(f, sub)); got != want {
			t.Errorf("seed %d: compose %x, want %x", seed, got, want)
		}
	}
}

// TestRenamedProducts checks the relational products that rename on the
// way (AndRenameAndExists also within a condition) against renaming,
// quantifying and conjoining one after the other, with the
// latches at even levels and their next values right below them.
func TestRenamedProducts(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 9))
		m := New()
		rel, _ := randomFunc(m, r, 14)
		// States: functions of the latches only.
		f, _ := randomFunc(m, r, 10)
		f = m.Exists(f, m.NewSet([]int{1, 3, 5}))
		var changed, primes []int
		ren, back := map[int]int{}, map[int]int{}
		toNext, toLatch := map[int]Node{}, map[int]Node{}
		for v := 0; v < nvars; v += 2 {
			if r.IntN(3) > 0 {
				changed, primes = append(changed, v), append(primes, v+1)
				ren[v], back[v+1] = v+1, v
				toNext[v], toLatch[v+1] = m.Var(v+1), m.Var(v)
			}
		}
		pre, err := m.NewRenamedSet(primes, ren)
		if err != nil {
			t.Fatal(err)
		}
		post, err := m.NewRenamedSet(changed, back)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.RenameAndExists(rel, f, pre), m.AndExists(rel, m.Compose(f, toNext), m.NewSet(primes)); got != want {
			t.Errorf("seed %d: rename and exists %x, want %x", seed, m.table(got), m.table(want))
		}
		if got, want := m.RenameAndExists(rel, True, pre), m.Exists(rel, m.NewSet(primes)); got != want {
			t.Errorf("seed %d: rename and exists with true %x, want %x", seed, m.table(got), m.table(want))
		}
		// Within a condition: of the latches (the fair cycles' use),
		// and any (one that tests a quantified next value too).
		for _, c := range []Node{m.Exists(rel, m.NewSet(primes)), rel, m.Not(f), True} {
			if got, want := m.AndRenameAndExists(c, rel, f, pre), m.And(c, m.RenameAndExists(rel, f, pre)); got != want {
				t.Errorf("seed %d: and rename and exists %x, want %x", seed, m.table(got), m.table(want))
			}
		}
		if got, want := m.AndExists(rel, f, post), m.Compose(m.AndExists(rel, f, m.NewSet(changed)), toLatch); got != want {
			t.Errorf("seed %d: and exists and rename %x, want %x", seed, m.table(got), m.table(want))
		}
		if got, want := m.Exists(rel, post), m.Compose(m.Exists(rel, m.NewSet(changed)), toLatch); got != want {
			t.Errorf("seed %d: exists and rename %x, want %x", seed, m.table(got), m.table(want))
		}
		// Implication of h renamed (its latches to their next values):
		// of the image, which it holds, and of others.
		image := m.AndExists(rel, f, post)
		g, _ := randomFunc(m, r, 8)
		g = m.Exists(g, m.NewSet([]int{1, 3, 5}))
		for _, h := range []Node{image, m.Or(image, g), g, m.And(image, g), False, True} {
			want := m.Implies(m.And(rel, f), m.Compose(h, toNext))
			if got := m.AndImplies(rel, f, h, pre); got != want {
				t.Errorf("seed %d: and implies %x: %v, want %v", seed, m.table(h), got, want)
			}
		}
	}
	m := New()
	for _, c := range []struct {
		name string
		set  []int
		ren  map[int]int
	}{
		{"into a variable not quantified", []int{1}, map[int]int{0: 3}},
		{"out of order", []int{1, 3}, map[int]int{0: 3, 2: 1}},
		{"past a variable kept", []int{2}, map[int]int{0: 2}},
	} {
		if _, err := m.NewRenamedSet(c.set, c.ren); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestGC(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	m := New()
	var keep []Node
	var tables []table
	for i := range 50 {
		f, ft := randomFunc(m, r, 20)
		if i%5 == 0 {
			keep, tables = append(keep, f), append(tables, ft)
		}
	}
	before := m.Nodes()
	roots := make([]*Node, len(keep))
	for i := range keep {
		roots[i] = &keep[i]
	}
	m.GC(roots)
	if m.Nodes() >= before {
		t.Errorf("GC kept %d of %d nodes", m.Nodes(), before)
	}
	for i, f := range keep {
		if got := m.table(f); got != tables[i] {
			t.Errorf("root %d: %x after GC, want %x", i, got, tables[i])
		}
	}
	// The unique table still finds the kept nodes.
	for i, f := range keep {
		lo, hi := m.Branches(f)
		if f > True && m.mk(int32(m.Level(f)), lo, hi) != f {
			t.Errorf("root %d is made anew after GC", i)
		}
	}
}

func TestLimits(t *testing.T) {
	m := New()
	m.MaxNodes = 40
	err := m.Run(func() {
		r := rand.New(rand.NewPCG(2, 9))
		for range 100 {
			randomFunc(m, r, 30)
		}
	})
	if err != ErrLimit {
		t.Errorf("Run gives %v, want the node limit", err)
	}
	m = New()
	m.Stop = func() bool { return true }
	err = m.Run(func() {
		for v := range 1 << 17 {
			m.Var(v)
		}
	})
	if err != ErrStopped {
		t.Errorf("Run gives %v, want stopped", err)
	}
}

// TestCount checks Count against the truth tables, over every variable
// and over a superset of the variables (each extra variable doubles it).
func TestCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		m := New()
		f, tab := randomFunc(m, r, 12)
		want := 0
		for a := range 1 << nvars {
			if tab>>a&1 == 1 {
				want++
			}
		}
		vs := []int{0, 1, 2, 3, 4, 5}
		if got := m.Count(f, vs); got != float64(want) {
			t.Fatalf("Count = %v, want %d", got, want)
		}
		if got := m.Count(f, append(vs, 7, 9)); got != float64(4*want) {
			t.Fatalf("Count over two more variables = %v, want %d", got, 4*want)
		}
	}
}

// TestCover checks Cover on random functions: the cubes' disjunction is
// the function, each cube implies it, no cube can lose a literal (each
// is prime), and each covers a point no other cube does (irredundant).
func TestCover(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		m := New()
		f, ft := randomFunc(m, r, 12)
		cubes := m.Cover(f)
		node := func(c []Literal, skip int) Node {
			n := True
			for i, x := range c {
				if i != skip {
					n = m.And(n, m.Ite(m.Var(x.Level), leafOf(x.Value), leafOf(!x.Value)))
				}
			}
			return n
		}
		union := table(0)
		for i, c := range cubes {
			ct := m.table(node(c, -1))
			if ct&^ft != 0 {
				t.Fatalf("seed %d: cube %v leaves the function", seed, c)
			}
			for j := range c {
				if m.table(node(c, j))&^ft == 0 {
					t.Fatalf("seed %d: cube %v keeps within the function without literal %d", seed, c, j)
				}
			}
			others := table(0)
			for k, d := range cubes {
				if k != i {
					others |= m.table(node(d, -1))
				}
			}
			if ct&^others == 0 {
				t.Fatalf("seed %d: cube %v covers nothing the others do not", seed, c)
			}
			union |= ct
		}
		if union != ft {
			t.Fatalf("seed %d: the cubes cover %x, want %x", seed, union, ft)
		}
	}
}

func leafOf(b bool) Node {
	if b {
		return True
	}
	return False
}

// TestReserve builds functions before and after Reserve: the diagrams
// stay canonical (the same function, the same node) and no node is
// made twice.
func TestReserve(t *testing.T) {
	for seed := range 50 {
		m := New()
		var before []Node
		for i := range 20 {
			f, _ := randomFunc(m, rand.New(rand.NewPCG(uint64(seed), uint64(i))), 12)
			before = append(before, f)
		}
		nodes := m.Nodes()
		m.Reserve(1 << (16 + seed%3))
		for i := range 20 {
			f, want := randomFunc(m, rand.New(rand.NewPCG(uint64(seed), uint64(i))), 12)
			if f != before[i] || m.table(f) != want {
				t.Fatalf("seed %d, function %d: node %d (%x) after Reserve, %d before", seed, i, f, m.table(f), before[i])
			}
		}
		if m.Nodes() != nodes {
			t.Errorf("seed %d: %d nodes after building the functions again, %d before", seed, m.Nodes(), nodes)
		}
	}
}

// TestAndWitness checks AndWitness against the conjunction: none
// exactly when it is false, else an assignment that satisfies both.
func TestAndWitness(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		m := New()
		f, _ := randomFunc(m, r, 10)
		g, _ := randomFunc(m, r, 10)
		for _, c := range [][2]Node{{f, g}, {f, m.Not(f)}, {f, True}, {True, True}, {f, f}} {
			w := m.AndWitness(c[0], c[1])
			empty := m.And(c[0], c[1]) == False
			switch {
			case empty != (w == nil):
				t.Fatalf("seed %d: witness %v of %x and %x, whose conjunction is %x", seed, w, m.table(c[0]), m.table(c[1]), m.table(m.And(c[0], c[1])))
			case w != nil && (!m.Eval(c[0], w) || !m.Eval(c[1], w)):
				t.Fatalf("seed %d: witness %v satisfies not both of %x and %x", seed, w, m.table(c[0]), m.table(c[1]))
			}
		}
	}
}
