package ts

import (
	"fmt"
	"slices"
)

// Lit is a node or its negation, numbered as in AIGER: 2*var + sign, with
// variable 0 the constant false.
type Lit uint32

const (
	False Lit = 0
	True  Lit = 1
)

// Not returns the negation of l.
func (l Lit) Not() Lit { return l ^ 1 }

// Var returns l's variable.
func (l Lit) Var() int { return int(l >> 1) }

// IsNeg reports whether l is a negated variable.
func (l Lit) IsNeg() bool { return l&1 == 1 }

// Kind is what a variable is.
type Kind uint8

const (
	Const Kind = iota // variable 0
	Input
	Latch
	And
)

// Init is a latch's initial value.
type Init uint8

const (
	Init0 Init = iota
	Init1
	InitFree // any value (AIGER's uninitialised latch)
)

type node struct {
	kind Kind
	a, b Lit // operands of an And
}

// LatchInfo describes one latch.
type LatchInfo struct {
	Lit  Lit // the latch's positive literal
	Name string
	Init Init
	Next Lit
}

// Property is a named bad-state literal.
type Property struct {
	Name string
	Lit  Lit
}

// Justice is a named justice property: an infinite path satisfies it when
// every one of Lits holds infinitely often on it (and the path is fair).
type Justice struct {
	Name string
	Lits []Lit
}

// System is a transition system under construction or finished.
type System struct {
	nodes []node
	// ands holds the and-nodes by their operands, for structural
	// hashing: open addressing, each slot a variable (0: empty), at
	// most half full. A map took 2.4 s of 17 converting SafeStack's
	// summaries from decision diagrams (three ands a node).
	ands        []int32
	andCount    int
	inputs      []Lit
	inputNames  []string
	latches     []LatchInfo
	latchIndex  map[int]int // variable -> index in latches
	Bad         []Property  // each is checked separately
	Constraints []Lit       // must hold in every state (with its inputs) from which a step is taken
	Justice     []Justice   // each is checked separately, on infinite (fair) paths
	Fairness    []Lit       // a fair path is one on which each holds infinitely often
}

// New returns an empty system.
func New() *System {
	return &System{nodes: []node{{kind: Const}}, ands: make([]int32, 64), latchIndex: map[int]int{}}
}

func (s *System) newVar(k Kind) Lit {
	s.nodes = append(s.nodes, node{kind: k})
	return Lit(2 * (len(s.nodes) - 1))
}

// NewInput returns a fresh input, a free value chosen anew at each step.
func (s *System) NewInput(name string) Lit {
	l := s.newVar(Input)
	s.inputs = append(s.inputs, l)
	s.inputNames = append(s.inputNames, name)
	return l
}

// NewLatch returns a state bit; its next-state function is itself until
// SetNext is called.
func (s *System) NewLatch(name string, init Init) Lit {
	l := s.newVar(Latch)
	s.latchIndex[l.Var()] = len(s.latches)
	s.latches = append(s.latches, LatchInfo{Lit: l, Name: name, Init: init, Next: l})
	return l
}

// SetInit sets the initial value of latch l.
func (s *System) SetInit(l Lit, init Init) {
	i, ok := s.latchIndex[l.Var()]
	if !ok || l.IsNeg() {
		panic(fmt.Sprintf("ts: SetInit of non-latch %d", l))
	}
	s.latches[i].Init = init
}

// SetNext sets the next-state function of latch l.
func (s *System) SetNext(l, next Lit) {
	i, ok := s.latchIndex[l.Var()]
	if !ok || l.IsNeg() {
		panic(fmt.Sprintf("ts: SetNext of non-latch %d", l))
	}
	s.latches[i].Next = next
}

// And returns a & b, folding constants and sharing equal nodes.
func (s *System) And(a, b Lit) Lit {
	switch {
	case a == False || b == False || a == b.Not():
		return False
	case a == True || a == b:
		return b
	case b == True:
		return a
	}
	if a > b {
		a, b = b, a
	}
	mask := len(s.ands) - 1
	i := andHash(a, b) & mask
	for ; s.ands[i] != 0; i = (i + 1) & mask {
		if x := s.nodes[s.ands[i]]; x.a == a && x.b == b {
			return Lit(2 * s.ands[i])
		}
	}
	l := s.newVar(And)
	s.nodes[l.Var()].a, s.nodes[l.Var()].b = a, b
	s.ands[i] = int32(l.Var())
	if s.andCount++; 2*s.andCount > len(s.ands) {
		s.growAnds()
	}
	return l
}

func andHash(a, b Lit) int {
	h := uint32(a)*0x9e3779b1 ^ uint32(b)*0x85ebca77
	return int(h ^ h>>15)
}

// Reserve makes room for n more and-nodes at once, so that a large
// graph (a summary read back from decision diagrams) is neither copied
// nor rehashed as it grows.
func (s *System) Reserve(n int) {
	s.nodes = slices.Grow(s.nodes, n)
	size := len(s.ands)
	for 2*(s.andCount+n) > size {
		size *= 2
	}
	if size > len(s.ands) {
		s.resizeAnds(size)
	}
}

// growAnds doubles the table of and-nodes.
func (s *System) growAnds() { s.resizeAnds(2 * len(s.ands)) }

// resizeAnds puts the and-nodes in a table of size slots.
func (s *System) resizeAnds(size int) {
	old := s.ands
	s.ands = make([]int32, size)
	mask := len(s.ands) - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := andHash(s.nodes[v].a, s.nodes[v].b) & mask
		for s.ands[i] != 0 {
			i = (i + 1) & mask
		}
		s.ands[i] = v
	}
}

// Or returns a | b.
func (s *System) Or(a, b Lit) Lit { return s.And(a.Not(), b.Not()).Not() }

// Xor returns a ^ b.
func (s *System) Xor(a, b Lit) Lit { return s.Or(s.And(a, b.Not()), s.And(a.Not(), b)) }

// Eq returns a = b.
func (s *System) Eq(a, b Lit) Lit { return s.Xor(a, b).Not() }

// Implies returns a => b.
func (s *System) Implies(a, b Lit) Lit { return s.And(a, b.Not()).Not() }

// Ite returns c ? a : b.
func (s *System) Ite(c, a, b Lit) Lit {
	if a == b {
		return a
	}
	return s.Or(s.And(c, a), s.And(c.Not(), b))
}

// Ands returns the conjunction of ls.
func (s *System) Ands(ls ...Lit) Lit {
	r := True
	for _, l := range ls {
		r = s.And(r, l)
	}
	return r
}

// Ors returns the disjunction of ls.
func (s *System) Ors(ls ...Lit) Lit {
	r := False
	for _, l := range ls {
		r = s.Or(r, l)
	}
	return r
}

// NumVars is the number of variables, constant included.
func (s *System) NumVars() int { return len(s.nodes) }

// Kind returns the kind of variable v.
func (s *System) Kind(v int) Kind { return s.nodes[v].kind }

// Operands returns the operands of And variable v.
func (s *System) Operands(v int) (Lit, Lit) { return s.nodes[v].a, s.nodes[v].b }

// Inputs returns the inputs in creation order.
func (s *System) Inputs() []Lit { return s.inputs }

// InputName returns the name of the i-th input.
func (s *System) InputName(i int) string { return s.inputNames[i] }

// Latches returns the latches in creation order.
func (s *System) Latches() []LatchInfo { return s.latches }

// LatchOf returns the latch whose variable is v.
func (s *System) LatchOf(v int) (LatchInfo, bool) {
	i, ok := s.latchIndex[v]
	if !ok {
		return LatchInfo{}, false
	}
	return s.latches[i], true
}

// AddBad adds a property and returns its index.
func (s *System) AddBad(name string, l Lit) int {
	s.Bad = append(s.Bad, Property{Name: name, Lit: l})
	return len(s.Bad) - 1
}

// AddJustice adds a justice property made of lits and returns its index;
// lits is copied, as a variadic argument may be the caller's slice.
func (s *System) AddJustice(name string, lits ...Lit) int {
	s.Justice = append(s.Justice, Justice{Name: name, Lits: append([]Lit(nil), lits...)})
	return len(s.Justice) - 1
}

// AddFairness adds a fairness constraint.
func (s *System) AddFairness(l Lit) {
	if l != True {
		s.Fairness = append(s.Fairness, l)
	}
}

// AddConstraint adds an invariant constraint.
func (s *System) AddConstraint(l Lit) {
	if l != True {
		s.Constraints = append(s.Constraints, l)
	}
}

// Eval computes every variable's value from the values of inputs and
// latches given in vals (indexed by variable); And entries are filled in.
func (s *System) Eval(vals []bool) {
	vals[0] = false
	for v := 1; v < len(s.nodes); v++ {
		if n := s.nodes[v]; n.kind == And {
			vals[v] = litValue(vals, n.a) && litValue(vals, n.b)
		}
	}
}

// Value returns the value of l under vals.
func Value(vals []bool, l Lit) bool { return litValue(vals, l) }

func litValue(vals []bool, l Lit) bool { return vals[l.Var()] != l.IsNeg() }
