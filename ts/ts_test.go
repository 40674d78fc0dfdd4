package ts

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestAndSimplifies(t *testing.T) {
	s := New()
	a, b := s.NewInput("a"), s.NewInput("b")
	cases := []struct {
		name      string
		got, want Lit
	}{
		{"a&F", s.And(a, False), False},
		{"a&T", s.And(a, True), a},
		{"a&a", s.And(a, a), a},
		{"a&!a", s.And(a, a.Not()), False},
		{"hash", s.And(a, b), s.And(b, a)},
		{"ite same", s.Ite(b, a, a), a},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestStructuralHashing builds thousands of and-nodes, across the
// table's growth and a Reserve: each pair of operands has one node.
func TestStructuralHashing(t *testing.T) {
	s := New()
	var ins []Lit
	for i := range 60 {
		ins = append(ins, s.NewInput(fmt.Sprint("x", i)))
	}
	first := map[[2]Lit]Lit{}
	for round := range 2 {
		if round == 1 {
			s.Reserve(1 << 14)
		}
		for i, a := range ins {
			for _, b := range ins[i+1:] {
				l := s.And(a, b.Not())
				if round == 0 {
					first[[2]Lit{a, b}] = l
				} else if l != first[[2]Lit{a, b}] {
					t.Fatalf("and of %d and !%d: %d, first %d", a, b, l, first[[2]Lit{a, b}])
				}
			}
		}
	}
	if n, want := s.NumVars(), 1+60+60*59/2; n != want {
		t.Errorf("%d variables, want %d", n, want)
	}
}

// randomSystem builds a system with inputs, latches of every init kind,
// random logic, two properties and a constraint; with live, also two
// justice properties (one empty) and a fairness constraint.
func randomSystem(r *rand.Rand, live bool) *System {
	s := New()
	var pool []Lit
	for i := 0; i < 3; i++ {
		pool = append(pool, s.NewInput(fmt.Sprintf("in%d", i)))
	}
	var latches []Lit
	for i := 0; i < 4; i++ {
		l := s.NewLatch(fmt.Sprintf("l%d", i), Init(i%3))
		latches = append(latches, l)
		pool = append(pool, l)
	}
	pick := func() Lit {
		l := pool[r.Intn(len(pool))]
		if r.Intn(2) == 0 {
			l = l.Not()
		}
		return l
	}
	for i := 0; i < 25; i++ {
		pool = append(pool, s.And(pick(), pick()))
	}
	for _, l := range latches {
		s.SetNext(l, pick())
	}
	s.AddBad("p0", pick())
	s.AddBad("p1", pick())
	s.AddConstraint(s.Or(pick(), pick()))
	if live {
		s.AddJustice("j0", pick(), pick())
		s.AddJustice("j1")
		s.AddFairness(pick())
	}
	return s
}

// simulate runs s on the input sequence with the given free initial latch
// values and returns, per step, the values of the bad properties with
// constraints applied (a property counts only while every constraint held
// at the earlier steps), then those of the justice literals and fairness
// constraints, then, if there are justice properties and constraints,
// whether the constraints held at the earlier steps (the export's
// fairness constraint for them).
func simulate(s *System, inputs [][]bool, free []bool) [][]bool {
	vals := make([]bool, s.NumVars())
	for i, l := range s.Latches() {
		switch l.Init {
		case Init1:
			vals[l.Lit.Var()] = true
		case InitFree:
			vals[l.Lit.Var()] = free[i]
		}
	}
	ok := true
	var out [][]bool
	for _, in := range inputs {
		for i, l := range s.Inputs() {
			vals[l.Var()] = in[i]
		}
		s.Eval(vals)
		var row []bool
		for _, p := range s.Bad {
			row = append(row, ok && Value(vals, p.Lit))
		}
		for _, j := range s.Justice {
			for _, l := range j.Lits {
				row = append(row, Value(vals, l))
			}
		}
		for _, l := range s.Fairness {
			row = append(row, Value(vals, l))
		}
		if len(s.Justice) > 0 && len(s.Constraints) > 0 {
			row = append(row, ok)
		}
		out = append(out, row)
		for _, c := range s.Constraints {
			ok = ok && Value(vals, c)
		}
		next := make([]bool, len(s.Latches()))
		for i, l := range s.Latches() {
			next[i] = Value(vals, l.Next)
		}
		for i, l := range s.Latches() {
			vals[l.Lit.Var()] = next[i]
		}
	}
	return out
}

// aig is a parsed AIGER file.
type aig struct {
	m, i, l    int
	latches    [][3]uint32 // lit, next, init
	properties []uint32    // outputs, bad, justice (flattened) and fairness literals
	ands       [][3]uint32
}

func parseAIGER(t *testing.T, data []byte) *aig {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader(data))
	header, _ := br.ReadString('\n')
	fields := strings.Fields(header)
	if len(fields) < 6 || len(fields) > 10 {
		t.Fatalf("header %q", header)
	}
	// M I L O A, then B C J F when not zero.
	n := make([]int, 9)
	for k, f := range fields[1:] {
		if _, err := fmt.Sscan(f, &n[k]); err != nil {
			t.Fatalf("header %q: %v", header, err)
		}
	}
	a := &aig{m: n[0], i: n[1], l: n[2]}
	nAnds := n[4]
	binary := fields[0] == "aig"
	readNums := func(n int) []uint32 {
		line, _ := br.ReadString('\n')
		f := strings.Fields(line)
		var out []uint32
		for _, x := range f {
			var v uint32
			fmt.Sscan(x, &v)
			out = append(out, v)
		}
		for len(out) < n {
			out = append(out, 0)
		}
		return out
	}
	if !binary {
		for k := 0; k < a.i; k++ {
			readNums(1)
		}
	}
	for k := 0; k < a.l; k++ {
		lit := uint32(2 * (a.i + k + 1))
		var nums []uint32
		if binary {
			nums = append([]uint32{lit}, readNums(1)...)
		} else {
			nums = readNums(2)
		}
		init := uint32(0)
		if len(nums) > 2 {
			init = nums[2]
		}
		a.latches = append(a.latches, [3]uint32{nums[0], nums[1], init})
	}
	if n[6] != 0 {
		t.Fatalf("header %q: bmc folds constraints", header)
	}
	for k := 0; k < n[3]+n[5]; k++ {
		a.properties = append(a.properties, readNums(1)[0])
	}
	justice := 0
	for k := 0; k < n[7]; k++ {
		justice += int(readNums(1)[0])
	}
	for k := 0; k < justice+n[8]; k++ {
		a.properties = append(a.properties, readNums(1)[0])
	}
	for k := 0; k < nAnds; k++ {
		lhs := uint32(2 * (a.i + a.l + k + 1))
		if binary {
			d0, d1 := readDelta(br), readDelta(br)
			a.ands = append(a.ands, [3]uint32{lhs, lhs - d0, lhs - d0 - d1})
		} else {
			n := readNums(3)
			a.ands = append(a.ands, [3]uint32{n[0], n[1], n[2]})
		}
	}
	return a
}

func readDelta(br *bufio.Reader) uint32 {
	var x uint32
	for shift := 0; ; shift += 7 {
		b, _ := br.ReadByte()
		x |= uint32(b&0x7f) << shift
		if b&0x80 == 0 {
			return x
		}
	}
}

func (a *aig) simulate(inputs [][]bool, free []bool) [][]bool {
	vals := make([]bool, a.m+1)
	v := func(l uint32) bool { return vals[l/2] != (l&1 == 1) }
	for k, l := range a.latches {
		switch {
		case l[2] == 1:
			vals[l[0]/2] = true
		case l[2] == l[0]:
			vals[l[0]/2] = free[k]
		}
	}
	var out [][]bool
	for _, in := range inputs {
		for k := 0; k < a.i; k++ {
			vals[k+1] = in[k]
		}
		for _, g := range a.ands {
			vals[g[0]/2] = v(g[1]) && v(g[2])
		}
		var row []bool
		for _, p := range a.properties {
			row = append(row, v(p))
		}
		out = append(out, row)
		next := make([]bool, len(a.latches))
		for k, l := range a.latches {
			next[k] = v(l[1])
		}
		for k, l := range a.latches {
			vals[l[0]/2] = next[k]
		}
	}
	return out
}

// TestAIGERRoundTrip writes random systems in both formats, half of them
// with justice and fairness, reads them back and compares simulations on
// random inputs.
func TestAIGERRoundTrip(t *testing.T) {
	for seed := int64(1); seed <= 100; seed++ {
		r := rand.New(rand.NewSource(seed))
		s := randomSystem(r, seed%2 == 0)
		for _, binary := range []bool{false, true} {
			var buf bytes.Buffer
			if err := s.WriteAIGER(&buf, binary); err != nil {
				t.Fatal(err)
			}
			a := parseAIGER(t, buf.Bytes())
			for run := 0; run < 5; run++ {
				var inputs, exported [][]bool
				free := []bool{r.Intn(2) == 0, r.Intn(2) == 0, r.Intn(2) == 0, r.Intn(2) == 0}
				for k := 0; k < 8; k++ {
					in := []bool{r.Intn(2) == 0, r.Intn(2) == 0, r.Intn(2) == 0}
					inputs = append(inputs, in)
					// The export reads free initial values from extra
					// inputs in the first frame (latch 2 is the free one).
					extra := []bool{r.Intn(2) == 0}
					if k == 0 {
						extra = []bool{free[2]}
					}
					exported = append(exported, append(append([]bool(nil), in...), extra...))
				}
				want, got := simulate(s, inputs, free), a.simulate(exported, nil)
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Fatalf("seed %d binary %v: system %v, AIGER %v\n%s", seed, binary, want, got, buf.String())
				}
			}
		}
	}
}
