package ts

import (
	"bufio"
	"fmt"
	"io"
	"slices"
)

// Folded returns a copy of s without constraints: a latch remembers
// whether a constraint has failed in an earlier frame, every bad
// property holds only while none has, and, if there are justice
// properties, the latch being clear is a fairness constraint, so that a
// fair path is one on which the constraints always hold. Tools that
// ignore constraints then check the same problem.
func (s *System) Folded() *System {
	c := &System{
		nodes:      append([]node(nil), s.nodes...),
		ands:       slices.Clone(s.ands),
		andCount:   s.andCount,
		inputs:     append([]Lit(nil), s.inputs...),
		inputNames: append([]string(nil), s.inputNames...),
		latches:    append([]LatchInfo(nil), s.latches...),
		latchIndex: make(map[int]int, len(s.latchIndex)),
		Justice:    append([]Justice(nil), s.Justice...),
		Fairness:   append([]Lit(nil), s.Fairness...),
	}
	for k, v := range s.latchIndex {
		c.latchIndex[k] = v
	}
	ok := c.Ands(s.Constraints...)
	if ok == True {
		c.Bad = append([]Property(nil), s.Bad...)
		return c
	}
	failed := c.NewLatch("constraint_failed", Init0)
	c.SetNext(failed, c.Or(failed, ok.Not()))
	for _, p := range s.Bad {
		c.Bad = append(c.Bad, Property{Name: p.Name, Lit: c.And(p.Lit, failed.Not())})
	}
	if len(s.Justice) > 0 {
		c.AddFairness(failed.Not())
	}
	return c
}

// ZeroInit returns a copy of s in which every latch starts at 0 or 1:
// a latch with a free initial value starts at 0 and, in the first frame
// only, reads a fresh input instead (tools such as ABC take undefined
// initial values to be 0). The copy's inputs are s's inputs followed by
// one per free latch, in latch order.
func (s *System) ZeroInit() *System {
	c := New()
	m := make([]Lit, len(s.nodes))
	mapLit := func(l Lit) Lit { return m[l.Var()] ^ l&1 }
	for i, in := range s.inputs {
		m[in.Var()] = c.NewInput(s.inputNames[i])
	}
	var free []Lit
	for _, l := range s.latches {
		if l.Init == InitFree {
			free = append(free, c.NewInput("init "+l.Name))
		}
	}
	started := False
	if len(free) > 0 {
		started = c.NewLatch("started", Init0)
		c.SetNext(started, True)
	}
	var latches []Lit
	for _, l := range s.latches {
		init := l.Init
		if init == InitFree {
			init = Init0
		}
		nl := c.NewLatch(l.Name, init)
		latches = append(latches, nl)
		m[l.Lit.Var()] = nl
		if l.Init == InitFree {
			m[l.Lit.Var()] = c.Ite(started, nl, free[0])
			free = free[1:]
		}
	}
	for v := 1; v < len(s.nodes); v++ {
		if n := s.nodes[v]; n.kind == And {
			m[v] = c.And(mapLit(n.a), mapLit(n.b))
		}
	}
	for i, l := range s.latches {
		c.SetNext(latches[i], mapLit(l.Next))
	}
	for _, p := range s.Bad {
		c.Bad = append(c.Bad, Property{Name: p.Name, Lit: mapLit(p.Lit)})
	}
	for _, k := range s.Constraints {
		c.AddConstraint(mapLit(k))
	}
	for _, j := range s.Justice {
		lits := make([]Lit, len(j.Lits))
		for i, l := range j.Lits {
			lits[i] = mapLit(l)
		}
		c.Justice = append(c.Justice, Justice{Name: j.Name, Lits: lits})
	}
	for _, l := range s.Fairness {
		c.AddFairness(mapLit(l))
	}
	return c
}

// WriteAIGER writes s in AIGER format, ASCII ("aag") or binary ("aig"),
// for any AIGER reader: latches start at 0 or 1 (see ZeroInit) and
// constraints are folded into the properties (see Folded). Without
// justice properties or fairness constraints the file is in the original
// format, each bad property an output; with them it is AIGER 1.9, where
// bad properties have a section of their own (only the original format
// lists them as outputs). Symbols name the inputs, latches and
// properties.
//
// AIGER 1.9 is defined by "AIGER 1.9 and Beyond" (Biere, Heljanko,
// Wieringa; FMV report 11/2, 2011): section "Multiple Properties" for the
// header "M I L O A B C J F" with a suffix of zero counts left out,
// section "Liveness Properties and Fairness Constraints" for the
// sections after the outputs (bad literals, constraint literals, the size
// of each justice property, the literals of each in turn, fairness
// literals; one number a line, in the binary format too), and the
// symbol prefixes b and j as its witness section gives them.
func (s *System) WriteAIGER(w io.Writer, binary bool) error {
	f := s.ZeroInit().Folded()
	// AIGER numbers inputs first, then latches, then ands in topological
	// order; our variables interleave them, so renumber.
	renum := make([]Lit, len(f.nodes))
	next := 1
	for _, in := range f.inputs {
		renum[in.Var()] = Lit(2 * next)
		next++
	}
	for _, l := range f.latches {
		renum[l.Lit.Var()] = Lit(2 * next)
		next++
	}
	var ands []int
	for v := 1; v < len(f.nodes); v++ {
		if f.nodes[v].kind == And {
			renum[v] = Lit(2 * next)
			next++
			ands = append(ands, v)
		}
	}
	lit := func(l Lit) Lit { return renum[l.Var()] | l&1 }

	bw := bufio.NewWriter(w)
	format := "aag"
	if binary {
		format = "aig"
	}
	v19 := len(f.Justice) > 0 || len(f.Fairness) > 0
	outputs, bad := f.Bad, []Property(nil)
	if v19 {
		outputs, bad = nil, f.Bad
	}
	fmt.Fprintf(bw, "%s %d %d %d %d %d", format, next-1, len(f.inputs), len(f.latches), len(outputs), len(ands))
	counts := []int{len(bad), 0, len(f.Justice), len(f.Fairness)} // B C J F; constraints are folded
	for len(counts) > 0 && counts[len(counts)-1] == 0 {
		counts = counts[:len(counts)-1]
	}
	for _, n := range counts {
		fmt.Fprintf(bw, " %d", n)
	}
	fmt.Fprintln(bw)
	if !binary {
		for _, in := range f.inputs {
			fmt.Fprintf(bw, "%d\n", lit(in))
		}
	}
	for _, l := range f.latches {
		if !binary {
			fmt.Fprintf(bw, "%d ", lit(l.Lit))
		}
		fmt.Fprintf(bw, "%d", lit(l.Next))
		if l.Init == Init1 {
			fmt.Fprint(bw, " 1")
		}
		fmt.Fprintln(bw)
	}
	for _, p := range outputs {
		fmt.Fprintf(bw, "%d\n", lit(p.Lit))
	}
	for _, p := range bad {
		fmt.Fprintf(bw, "%d\n", lit(p.Lit))
	}
	for _, j := range f.Justice {
		fmt.Fprintf(bw, "%d\n", len(j.Lits))
	}
	for _, j := range f.Justice {
		for _, l := range j.Lits {
			fmt.Fprintf(bw, "%d\n", lit(l))
		}
	}
	for _, l := range f.Fairness {
		fmt.Fprintf(bw, "%d\n", lit(l))
	}
	for _, v := range ands {
		a, b := lit(f.nodes[v].a), lit(f.nodes[v].b)
		if a < b {
			a, b = b, a
		}
		lhs := renum[v]
		if binary {
			writeDelta(bw, uint32(lhs-a))
			writeDelta(bw, uint32(a-b))
		} else {
			fmt.Fprintf(bw, "%d %d %d\n", lhs, a, b)
		}
	}
	// Readers such as ABC refuse a name given to two inputs or latches;
	// ours can coincide (a program's global and a latch of the encoding,
	// or of ZeroInit and Folded), so a repeated name gets a suffix.
	seen := map[string]bool{}
	unique := func(name string) string {
		n := name
		for i := 2; seen[n]; i++ {
			n = fmt.Sprintf("%s#%d", name, i)
		}
		seen[n] = true
		return n
	}
	for i, name := range f.inputNames {
		fmt.Fprintf(bw, "i%d %s\n", i, unique(name))
	}
	for i, l := range f.latches {
		fmt.Fprintf(bw, "l%d %s\n", i, unique(l.Name))
	}
	for i, p := range outputs {
		fmt.Fprintf(bw, "o%d %s\n", i, p.Name)
	}
	for i, p := range bad {
		fmt.Fprintf(bw, "b%d %s\n", i, p.Name)
	}
	for i, j := range f.Justice {
		fmt.Fprintf(bw, "j%d %s\n", i, j.Name)
	}
	// Only the original format needs telling what its outputs mean.
	fmt.Fprint(bw, "c\nwritten by bmc")
	switch {
	case len(outputs) > 0 && outputs[0].Name == assertFair:
		fmt.Fprint(bw, "; outputs named for liveness-to-safety (ABC's l2s): assert_fair, assume_fair_*")
	case !v19:
		fmt.Fprint(bw, "; each output is a bad-state property")
	}
	fmt.Fprintln(bw)
	return bw.Flush()
}

// writeDelta writes x in AIGER's binary encoding: 7 bits a byte, low
// first, the high bit set on all but the last byte.
func writeDelta(w *bufio.Writer, x uint32) {
	for x >= 0x80 {
		w.WriteByte(byte(x&0x7f | 0x80))
		x >>= 7
	}
	w.WriteByte(byte(x))
}

// assertFair names the liveness output of LivenessOutputs.
const assertFair = "assert_fair"

// LivenessOutputs returns a copy of s (constraints folded) for model
// checkers that take liveness from the names of plain outputs, as ABC's
// l2s does (Biere, Artho and Schuppan's liveness-to-safety): the output
// "assert_fair" is false, so that every fair loop refutes it, and each
// literal of justice property j and each fairness constraint is an
// output "assume_fair_..." that must hold somewhere in the loop. A
// counterexample of the copy is a fair path on which j holds infinitely
// often: a witness of j in s.
func (s *System) LivenessOutputs(j int) *System {
	c := s.Folded()
	c.Bad = []Property{{Name: assertFair, Lit: False}}
	for i, l := range c.Justice[j].Lits {
		c.Bad = append(c.Bad, Property{Name: fmt.Sprintf("assume_fair_%s_%d", c.Justice[j].Name, i), Lit: l})
	}
	for i, l := range c.Fairness {
		c.Bad = append(c.Bad, Property{Name: fmt.Sprintf("assume_fair_%d", i), Lit: l})
	}
	c.Justice, c.Fairness = nil, nil
	return c
}
