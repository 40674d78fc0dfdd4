package bdd

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Node is a node of a Manager's diagrams; False and True are the leaves.
type Node int32

const (
	False Node = 0
	True  Node = 1
)

// leafLevel is the level of the leaves, below every variable.
const leafLevel = math.MaxInt32

// ErrLimit is raised (as a panic, recovered by Manager.Run) when the
// manager has MaxNodes nodes or Stop says so.
var ErrLimit = errors.New("bdd: node limit")

// ErrStopped is raised when Stop returns true.
var ErrStopped = errors.New("bdd: stopped")

type node struct {
	level  int32
	lo, hi Node
}

type cacheEntry struct {
	op      int32
	a, b, c Node
	r       Node
}

// Manager holds reduced ordered diagrams over variables 0, 1, ...: a
// variable is its level, 0 at the top.
type Manager struct {
	nodes  []node
	unique []uint64 // open addressing: a node's key's hash and the node; 0 is empty (leaves are never in it)
	cache  []cacheEntry
	sets   []varSet
	none   Set // the empty set
	// MaxNodes bounds the nodes (0: no bound); Stop, asked now and then
	// while nodes are made, ends the work when it returns true.
	MaxNodes int
	Stop     func() bool
	// seen and image are rebuild's memo, by node: image[n] holds when
	// seen[n] is the pass under way (a map per pass cost more than the
	// rebuilding on diagrams of tens of thousands of nodes).
	seen  []uint32
	image []Node
	pass  uint32
}

// varSet is a set of variables for quantification, with its deepest
// level: below it nothing is quantified.
type varSet struct {
	in   []bool
	last int32
	ren  []int32 // by level: the variable it is renamed to, or -1 (NewRenamedSet)
}

// renamed is the variable l is renamed to (l itself when s renames it not).
func (s *varSet) renamed(l int32) int32 {
	if int(l) < len(s.ren) && s.ren[l] >= 0 {
		return s.ren[l]
	}
	return l
}

// below says that s neither quantifies nor renames a variable at level
// l or below.
func (s *varSet) below(l int32) bool { return l > s.last && int(l) >= len(s.ren) }

// New returns a manager with no nodes but the leaves.
func New() *Manager {
	m := &Manager{nodes: nodePool.take(1 << 16)[:0]}
	m.nodes = append(m.nodes, node{leafLevel, 0, 0}, node{leafLevel, 1, 1})
	m.unique = uniquePool.take(1 << 16)
	m.cache = cachePool.take(1 << 16)
	m.none = m.NewSet(nil)
	return m
}

// Reserve makes room for n more nodes at once: the node and unique
// tables are sized for them instead of doubling as they grow, each
// doubling rehashing every node (a re-check reading back summaries of
// millions of nodes).
func (m *Manager) Reserve(n int) {
	total := len(m.nodes) + n
	if size := tableSize(2 * total); size > len(m.unique) {
		uniquePool.give(m.unique)
		m.unique = uniquePool.take(size)
		m.rehash()
		if size := min(size, maxCache); size > len(m.cache) {
			cachePool.give(m.cache)
			m.cache = cachePool.take(size)
		}
	}
	if total > cap(m.nodes) {
		grown := nodePool.take(tableSize(total))[:len(m.nodes)]
		copy(grown, m.nodes)
		nodePool.give(m.nodes)
		m.nodes = grown
	}
}

// tableSize is the least power of two of at least n.
func tableSize(n int) int {
	size := 1
	for size < n {
		size *= 2
	}
	return size
}

// Run calls f and returns ErrLimit or ErrStopped if the manager ran out
// of nodes or was stopped while f ran.
func (m *Manager) Run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && (e == ErrLimit || e == ErrStopped) {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// Nodes is the number of nodes made, leaves included.
func (m *Manager) Nodes() int { return len(m.nodes) }

// Var is the diagram of variable v.
func (m *Manager) Var(v int) Node { return m.mk(int32(v), False, True) }

// Level is the variable at n's top (leaves: -1).
func (m *Manager) Level(n Node) int {
	if n <= True {
		return -1
	}
	return int(m.nodes[n].level)
}

// Branches are n's children: where its top variable is false and true.
func (m *Manager) Branches(n Node) (lo, hi Node) { return m.nodes[n].lo, m.nodes[n].hi }

func hash3(a, b, c int32) uint32 {
	h := uint32(a)*0x9e3779b1 ^ uint32(b)*0x85ebca77 ^ uint32(c)*0xc2b2ae3d
	return h ^ h>>15
}

func (m *Manager) mk(level int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	h := hash3(level, int32(lo), int32(hi))
	mask := uint32(len(m.unique) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := m.unique[i]
		if e == 0 {
			break
		}
		// The hash beside the node spares reading the nodes of other
		// keys (most probes would otherwise miss the processor's cache
		// twice).
		if uint32(e>>32) != h {
			continue
		}
		n := Node(uint32(e))
		if x := m.nodes[n]; x.level == level && x.lo == lo && x.hi == hi {
			return n
		}
	}
	if m.MaxNodes > 0 && len(m.nodes) >= m.MaxNodes {
		panic(ErrLimit)
	}
	if len(m.nodes)&0xffff == 0 && m.Stop != nil && m.Stop() {
		panic(ErrStopped)
	}
	n := Node(len(m.nodes))
	if len(m.nodes) == cap(m.nodes) {
		grown := nodePool.take(2 * cap(m.nodes))[:len(m.nodes)]
		copy(grown, m.nodes)
		nodePool.give(m.nodes)
		m.nodes = grown
	}
	m.nodes = append(m.nodes, node{level, lo, hi})
	if 2*len(m.nodes) > len(m.unique) {
		m.grow()
	} else {
		m.insert(n, h)
	}
	return n
}

// insert puts node n, whose key hashes to h, in the unique table.
func (m *Manager) insert(n Node, h uint32) {
	mask := uint32(len(m.unique) - 1)
	i := h & mask
	for m.unique[i] != 0 {
		i = (i + 1) & mask
	}
	m.unique[i] = uint64(h)<<32 | uint64(n)
}

// rehash puts every node in the unique table, emptied.
func (m *Manager) rehash() {
	clear(m.unique)
	for n := 2; n < len(m.nodes); n++ {
		x := m.nodes[n]
		m.insert(Node(n), hash3(x.level, int32(x.lo), int32(x.hi)))
	}
}

// maxCache bounds the operation cache's entries (20 bytes each). On the
// SafeStack product encodings 4M entries were about 5% faster than 16M,
// and the runs needed up to 600 MB less memory; 1M against 4M were
// within the noise there, and faster by a tenth (the flag mutex with 7
// threads) to a quarter (the Bluetooth driver with 2 adders and 3
// stoppers) on amplification's fixpoints, with 40% less memory.
const maxCache = 1 << 20

// grow doubles the unique table (rehashing every node) and the cache.
func (m *Manager) grow() {
	uniquePool.give(m.unique)
	m.unique = uniquePool.take(2 * len(m.unique))
	m.rehash()
	if len(m.cache) < maxCache {
		cachePool.give(m.cache)
		m.cache = cachePool.take(2 * len(m.cache))
	}
}

const (
	opAnd int32 = iota + 1
	opOr
	opXor
	opNot
	opIte
	opExists
	opAndExists
	opImplies
	opDiff
	opRenameAndExists
	opAndRenameAndExists // the set in the bits from opBits up
	opAndImplies         // the set in the bits from opBits up
)

// opBits are the bits of an operation's code below a set's index in it.
const opBits = 5

func (m *Manager) lookup(op int32, a, b, c Node) (Node, bool, uint32) {
	i := (hash3(int32(a), int32(b), int32(c)) ^ uint32(op)*0x27d4eb2f) & uint32(len(m.cache)-1)
	e := m.cache[i]
	return e.r, e.op == op && e.a == a && e.b == b && e.c == c, i
}

func (m *Manager) store(i uint32, op int32, a, b, c, r Node) {
	m.cache[i] = cacheEntry{op, a, b, c, r}
}

func (m *Manager) level(n Node) int32 { return m.nodes[n].level }

// cofactors are n's branches at level l (n itself on both when its top
// is below l).
func (m *Manager) cofactors(n Node, l int32) (Node, Node) {
	x := m.nodes[n]
	if x.level != l {
		return n, n
	}
	return x.lo, x.hi
}

// Not is the negation of a.
func (m *Manager) Not(a Node) Node {
	switch a {
	case False:
		return True
	case True:
		return False
	}
	r, ok, i := m.lookup(opNot, a, 0, 0)
	if ok {
		return r
	}
	x := m.nodes[a]
	r = m.mk(x.level, m.Not(x.lo), m.Not(x.hi))
	m.store(i, opNot, a, 0, 0, r)
	return r
}

// Implies reports whether a implies b, without building either's
// negation: it stops at the first assignment a holds and b does not.
func (m *Manager) Implies(a, b Node) bool {
	switch {
	case a == False || b == True || a == b:
		return true
	case a == True || b == False:
		return false
	}
	r, ok, i := m.lookup(opImplies, a, b, 0)
	if ok {
		return r == True
	}
	l := min(m.level(a), m.level(b))
	a0, a1 := m.cofactors(a, l)
	b0, b1 := m.cofactors(b, l)
	holds := m.Implies(a0, b0) && m.Implies(a1, b1)
	r = False
	if holds {
		r = True
	}
	m.store(i, opImplies, a, b, 0, r)
	return holds
}

// And is a and b.
func (m *Manager) And(a, b Node) Node { return m.binary(opAnd, a, b) }

// Or is a or b.
func (m *Manager) Or(a, b Node) Node { return m.binary(opOr, a, b) }

// Xor is a xor b.
func (m *Manager) Xor(a, b Node) Node { return m.binary(opXor, a, b) }

// binary applies an operation by Shannon expansion on the top variable
// of a and b (the symmetric ones with their operands in one order, for
// the cache).
func (m *Manager) binary(op int32, a, b Node) Node {
	if r, ok := m.leaf(op, a, b); ok {
		return r
	}
	if a > b && op != opDiff {
		a, b = b, a
	}
	r, ok, i := m.lookup(op, a, b, 0)
	if ok {
		return r
	}
	l := min(m.level(a), m.level(b))
	a0, a1 := m.cofactors(a, l)
	b0, b1 := m.cofactors(b, l)
	r = m.mk(l, m.binary(op, a0, b0), m.binary(op, a1, b1))
	m.store(i, op, a, b, 0, r)
	return r
}

// leaf is op's result where a leaf or equal operands decide it.
func (m *Manager) leaf(op int32, a, b Node) (Node, bool) {
	switch op {
	case opAnd:
		switch {
		case a == False || b == False:
			return False, true
		case a == True:
			return b, true
		case b == True || a == b:
			return a, true
		}
	case opOr:
		switch {
		case a == True || b == True:
			return True, true
		case a == False:
			return b, true
		case b == False || a == b:
			return a, true
		}
	case opDiff:
		switch {
		case a == False || b == True || a == b:
			return False, true
		case b == False:
			return a, true
		case a == True:
			return m.Not(b), true
		}
	default:
		switch {
		case a == b:
			return False, true
		case a == False:
			return b, true
		case b == False:
			return a, true
		case a == True:
			return m.Not(b), true
		case b == True:
			return m.Not(a), true
		}
	}
	return 0, false
}

// Diff is a and not b, without building not b (a fixpoint's new states
// are its image minus what it holds, and not of a large set is as large).
func (m *Manager) Diff(a, b Node) Node { return m.binary(opDiff, a, b) }

// Iff is a if and only if b.
func (m *Manager) Iff(a, b Node) Node { return m.Not(m.Xor(a, b)) }

// Ite is if f then g else h.
func (m *Manager) Ite(f, g, h Node) Node {
	switch {
	case f == True || g == h:
		return g
	case f == False:
		return h
	}
	// A variable above both branches: the node itself (a diagram read
	// back from a graph of if-then-elses is made of these, a leaf for a
	// branch as often as not).
	if x := m.nodes[f]; x.lo == False && x.hi == True && x.level < m.level(g) && x.level < m.level(h) {
		return m.mk(x.level, h, g)
	}
	switch {
	case g == True && h == False:
		return f
	case g == False && h == True:
		return m.Not(f)
	case g == True:
		return m.Or(f, h)
	case h == False:
		return m.And(f, g)
	}
	r, ok, i := m.lookup(opIte, f, g, h)
	if ok {
		return r
	}
	l := min(m.level(f), m.level(g), m.level(h))
	f0, f1 := m.cofactors(f, l)
	g0, g1 := m.cofactors(g, l)
	h0, h1 := m.cofactors(h, l)
	r = m.mk(l, m.Ite(f0, g0, h0), m.Ite(f1, g1, h1))
	m.store(i, opIte, f, g, h, r)
	return r
}

// Set is a registered set of variables to quantify.
type Set int32

// NewSet registers the set of variables vs.
func (m *Manager) NewSet(vs []int) Set {
	s := varSet{last: -1}
	for _, v := range vs {
		for len(s.in) <= v {
			s.in = append(s.in, false)
		}
		s.in[v] = true
		s.last = max(s.last, int32(v))
	}
	m.sets = append(m.sets, s)
	return Set(len(m.sets) - 1)
}

func (m *Manager) quantified(s *varSet, l int32) bool { return int(l) < len(s.in) && s.in[l] }

// Exists is f with the variables of s quantified existentially, then
// renamed by s's renaming (NewRenamedSet).
func (m *Manager) Exists(f Node, s Set) Node {
	vs := &m.sets[s]
	if f <= True || vs.below(m.level(f)) {
		return f
	}
	r, ok, i := m.lookup(opExists, f, Node(s), 0)
	if ok {
		return r
	}
	x := m.nodes[f]
	lo := m.Exists(x.lo, s)
	if m.quantified(vs, x.level) {
		if lo == True {
			r = True
		} else {
			r = m.Or(lo, m.Exists(x.hi, s))
		}
	} else {
		r = m.mk(vs.renamed(x.level), lo, m.Exists(x.hi, s))
	}
	m.store(i, opExists, f, Node(s), 0, r)
	return r
}

// AndExists is (exists s: f and g), then renamed by s's renaming
// (NewRenamedSet), without building f and g or the product before the
// renaming: a forward image is a relational product whose next values
// become the latches.
func (m *Manager) AndExists(f, g Node, s Set) Node {
	switch {
	case f == False || g == False:
		return False
	case f == True:
		return m.Exists(g, s)
	case g == True || f == g:
		return m.Exists(f, s)
	}
	vs := &m.sets[s]
	if f > g {
		f, g = g, f
	}
	l := min(m.level(f), m.level(g))
	if vs.below(l) {
		return m.And(f, g)
	}
	r, ok, i := m.lookup(opAndExists, f, g, Node(s))
	if ok {
		return r
	}
	f0, f1 := m.cofactors(f, l)
	g0, g1 := m.cofactors(g, l)
	lo := m.AndExists(f0, g0, s)
	if m.quantified(vs, l) {
		if lo == True {
			r = True
		} else {
			r = m.Or(lo, m.AndExists(f1, g1, s))
		}
	} else {
		r = m.mk(vs.renamed(l), lo, m.AndExists(f1, g1, s))
	}
	m.store(i, opAndExists, f, g, Node(s), r)
	return r
}

// AndImplies tells whether f and g imply h with h's variables renamed
// by s (NewRenamedSet; what s quantifies plays no part): whether the
// image of f and g lies in h, decided without building the image or
// the conjunction. A re-check of summaries asks it of every clause.
func (m *Manager) AndImplies(f, g, h Node, s Set) bool {
	switch {
	case f == False || g == False || h == True:
		return true
	case f == True && g == True:
		return false // h is false somewhere
	}
	if f > g {
		f, g = g, f
	}
	vs := &m.sets[s]
	hl := vs.renamed(m.level(h))
	l := min(m.level(f), m.level(g), hl)
	op := opAndImplies | int32(s)<<opBits
	r, ok, i := m.lookup(op, f, g, h)
	if ok {
		return r == True
	}
	f0, f1 := m.cofactors(f, l)
	g0, g1 := m.cofactors(g, l)
	h0, h1 := h, h
	if hl == l {
		h0, h1 = m.nodes[h].lo, m.nodes[h].hi
	}
	r = False
	if m.AndImplies(f0, g0, h0, s) && m.AndImplies(f1, g1, h1, s) {
		r = True
	}
	m.store(i, op, f, g, h, r)
	return r == True
}

// NewRenamedSet registers the set of variables vs with a renaming of
// variables ren: Exists and AndExists rename their results by it, and
// RenameAndExists renames its second operand by it. The renaming
// must keep the order of the variables it renames and of those it
// leaves alone, and rename into vs only: a backward image renames the
// latches to their next values and quantifies those, a forward image
// quantifies the latches and renames the next values to them.
func (m *Manager) NewRenamedSet(vs []int, ren map[int]int) (Set, error) {
	s := m.NewSet(vs)
	vs0 := &m.sets[s]
	var from []int
	for v, to := range ren {
		if !m.quantified(vs0, int32(to)) {
			return 0, fmt.Errorf("bdd: variable %d renamed to %d, which the set does not quantify", v, to)
		}
		from = append(from, v)
	}
	slices.Sort(from)
	for i, v := range from {
		// Renamed variables stay in order; none passes a variable it
		// leaves alone (the quantified ones excepted, which the renamed
		// diagram does not have).
		if i > 0 && ren[from[i-1]] >= ren[v] {
			return 0, fmt.Errorf("bdd: renaming %d to %d and %d to %d changes their order", from[i-1], ren[from[i-1]], v, ren[v])
		}
		for w := min(v, ren[v]) + 1; w < max(v, ren[v]); w++ {
			if _, renamed := ren[w]; !renamed && !m.quantified(vs0, int32(w)) {
				return 0, fmt.Errorf("bdd: renaming %d to %d passes variable %d", v, ren[v], w)
			}
		}
	}
	for _, v := range from {
		for len(vs0.ren) <= v {
			vs0.ren = append(vs0.ren, -1)
		}
		vs0.ren[v] = int32(ren[v])
	}
	return s, nil
}

// RenameAndExists is (exists s: f and g renamed by s's renaming),
// without building f and g or the renamed copy of g: a backward image
// is a relational product with the states renamed to the next values,
// and renaming them first made a copy of every set of states it took
// (a third of the time of the flag mutex's backward fixpoints).
func (m *Manager) RenameAndExists(f, g Node, s Set) Node {
	if f == False || g == False {
		return False
	}
	vs := &m.sets[s]
	gl := vs.renamed(m.level(g))
	l := min(m.level(f), gl)
	if l > vs.last {
		// Below the quantified variables, and so below every renamed
		// one's image: g has no variable left to rename.
		return m.And(f, g)
	}
	r, ok, i := m.lookup(opRenameAndExists, f, g, Node(s))
	if ok {
		return r
	}
	f0, f1 := m.cofactors(f, l)
	g0, g1 := g, g
	if gl == l {
		g0, g1 = m.nodes[g].lo, m.nodes[g].hi
	}
	lo := m.RenameAndExists(f0, g0, s)
	if m.quantified(vs, l) {
		if lo == True {
			r = True
		} else {
			r = m.Or(lo, m.RenameAndExists(f1, g1, s))
		}
	} else {
		r = m.mk(l, lo, m.RenameAndExists(f1, g1, s))
	}
	m.store(i, opRenameAndExists, f, g, Node(s), r)
	return r
}

// AndRenameAndExists is c and (exists s: f and g renamed by s's
// renaming): a backward image within c, never larger than c where the
// image alone holds every predecessor of g, reached or not (the fair
// cycles' images within the states left).
func (m *Manager) AndRenameAndExists(c, f, g Node, s Set) Node {
	switch {
	case c == False || f == False || g == False:
		return False
	case c == True:
		return m.RenameAndExists(f, g, s)
	}
	vs := &m.sets[s]
	gl := vs.renamed(m.level(g))
	l := min(m.level(c), m.level(f), gl)
	if l > vs.last || m.level(c) == l && m.quantified(vs, l) {
		// Nothing left to rename or quantify; or c tests a quantified
		// variable, which it does outside the quantifier.
		return m.And(c, m.RenameAndExists(f, g, s))
	}
	op := opAndRenameAndExists | int32(s)<<opBits
	r, ok, i := m.lookup(op, c, f, g)
	if ok {
		return r
	}
	c0, c1 := m.cofactors(c, l)
	f0, f1 := m.cofactors(f, l)
	g0, g1 := g, g
	if gl == l {
		g0, g1 = m.nodes[g].lo, m.nodes[g].hi
	}
	lo := m.AndRenameAndExists(c0, f0, g0, s)
	if m.quantified(vs, l) {
		if lo == c {
			r = c
		} else {
			r = m.Or(lo, m.AndRenameAndExists(c, f1, g1, s))
		}
	} else {
		r = m.mk(l, lo, m.AndRenameAndExists(c1, f1, g1, s))
	}
	m.store(i, op, c, f, g, r)
	return r
}

// Compose is f with each variable v that sub maps replaced by the
// diagram sub[v] (a simultaneous substitution).
func (m *Manager) Compose(f Node, sub map[int]Node) Node {
	return m.ComposeWith(f, m.NewSubstitution(sub))
}

// Substitution is a map for Compose, looked at once: whether it only
// renames variables and keeps their order, which Compose then does in
// one pass. A caller that composes with one map many times prepares it
// once (sorting a renaming of a few hundred variables per call cost a
// third of the least model's time on wide clauses).
type Substitution struct {
	sub map[int]Node // shared with the caller, whose later changes to its diagrams (GC) it sees
	ren []int32      // by level: the variable it is renamed to, or -1
}

// NewSubstitution prepares sub for ComposeWith.
func (m *Manager) NewSubstitution(sub map[int]Node) *Substitution {
	s := &Substitution{sub: sub}
	if ren, ok := m.renaming(sub); ok {
		s.ren = ren
	}
	return s
}

// ComposeWith is Compose with a prepared substitution.
func (m *Manager) ComposeWith(f Node, s *Substitution) Node {
	if s.ren != nil {
		if r, ok := m.rename(f, s.ren); ok {
			return r
		}
	}
	sub := s.sub
	return m.rebuild(f, func(l int32, lo, hi func() Node) Node {
		v, ok := sub[int(l)]
		if !ok {
			v = m.mk(l, False, True)
		}
		return m.Ite(v, hi(), lo())
	})
}

// rebuild maps f's nodes bottom-up, each once: at makes a node's image
// from its variable and its children's images (computed when called).
func (m *Manager) rebuild(f Node, at func(l int32, lo, hi func() Node) Node) Node {
	pass := m.newPass()
	var rec func(n Node) Node
	rec = func(n Node) Node {
		if n <= True {
			return n
		}
		if m.seen[n] == pass {
			return m.image[n]
		}
		x := m.nodes[n]
		r := at(x.level, func() Node { return rec(x.lo) }, func() Node { return rec(x.hi) })
		m.seen[n], m.image[n] = pass, r
		return r
	}
	return rec(f)
}

// newPass starts a pass of rebuild or rename over the nodes there are
// now: the nodes made during it are never the pass's own.
func (m *Manager) newPass() uint32 {
	if m.pass == math.MaxUint32 || len(m.seen) < len(m.nodes) {
		m.seen = make([]uint32, len(m.nodes)+len(m.nodes)/2)
		m.image = make([]Node, len(m.seen))
		m.pass = 0
	}
	m.pass++
	return m.pass
}

// renaming is sub as a table of variables to variables (by level, -1
// where sub has none) when it is one and keeps their order, so that
// renaming needs no reordering.
func (m *Manager) renaming(sub map[int]Node) ([]int32, bool) {
	type pair struct{ from, to int32 }
	ps := make([]pair, 0, len(sub))
	for v, n := range sub {
		if n <= True {
			return nil, false
		}
		x := m.nodes[n]
		if x.lo != False || x.hi != True {
			return nil, false
		}
		ps = append(ps, pair{int32(v), x.level})
	}
	slices.SortFunc(ps, func(a, b pair) int { return int(a.from - b.from) })
	var out []int32
	for i, p := range ps {
		if i > 0 && ps[i-1].to >= p.to {
			return nil, false
		}
		for len(out) <= int(p.from) {
			out = append(out, -1)
		}
		out[p.from] = p.to
	}
	return out, true
}

// rename is f with its variables renamed by an order-keeping ren, if
// ren renames every variable of f (else a variable left alone could
// end up out of order).
func (m *Manager) rename(f Node, ren []int32) (Node, bool) {
	r := m.renamed(f, ren, m.newPass())
	return r, r >= 0
}

// renamed is rename's pass: -1 when f has a variable ren leaves alone.
func (m *Manager) renamed(f Node, ren []int32, pass uint32) Node {
	if f <= True {
		return f
	}
	if m.seen[f] == pass {
		return m.image[f]
	}
	x := m.nodes[f]
	if int(x.level) >= len(ren) || ren[x.level] < 0 {
		return -1
	}
	lo := m.renamed(x.lo, ren, pass)
	if lo < 0 {
		return -1
	}
	hi := m.renamed(x.hi, ren, pass)
	if hi < 0 {
		return -1
	}
	r := m.mk(ren[x.level], lo, hi)
	m.seen[f], m.image[f] = pass, r
	return r
}

// Restrict is f with the variables of vals fixed to their values.
func (m *Manager) Restrict(f Node, vals map[int]bool) Node {
	return m.rebuild(f, func(l int32, lo, hi func() Node) Node {
		b, ok := vals[int(l)]
		switch {
		case !ok:
			return m.mk(l, lo(), hi())
		case b:
			return hi()
		}
		return lo()
	})
}

// Eval is f's value under vals (variables not in it: false).
func (m *Manager) Eval(f Node, vals map[int]bool) bool {
	for f > True {
		x := m.nodes[f]
		if vals[int(x.level)] {
			f = x.hi
		} else {
			f = x.lo
		}
	}
	return f == True
}

// AndWitness is an assignment that satisfies f and g (as Witness
// gives one, the variables not on its path left out), or nil when
// none does, found without building their conjunction: reading a
// derivation back from relations of millions of nodes built each
// conjunction only to walk one path of it (a fifth of the least
// model's time on SafeStack's underapprox product).
func (m *Manager) AndWitness(f, g Node) map[int]bool {
	if m.disjoint(f, g) {
		return nil
	}
	out := map[int]bool{}
	for f != True || g != True {
		l := min(m.level(f), m.level(g))
		f0, f1 := m.cofactors(f, l)
		g0, g1 := m.cofactors(g, l)
		if m.disjoint(f0, g0) {
			out[int(l)], f, g = true, f1, g1
		} else {
			out[int(l)], f, g = false, f0, g0
		}
	}
	return out
}

// disjoint tells whether no assignment satisfies both f and g.
func (m *Manager) disjoint(f, g Node) bool { return m.AndImplies(f, g, False, m.none) }

// Witness is one assignment that makes f true, as the values of the
// variables on one path (f must not be False); other variables are free.
func (m *Manager) Witness(f Node) map[int]bool {
	out := map[int]bool{}
	for f > True {
		x := m.nodes[f]
		if x.lo != False {
			out[int(x.level)] = false
			f = x.lo
		} else {
			out[int(x.level)] = true
			f = x.hi
		}
	}
	return out
}

// Count is the number of assignments to the variables vs (levels, in
// increasing order, f's support among them) that satisfy f.
func (m *Manager) Count(f Node, vs []int) float64 {
	// rank[l] is how many of vs lie above level l.
	rank := func(l int32) int {
		if l == leafLevel {
			return len(vs)
		}
		i, _ := slices.BinarySearch(vs, int(l))
		return i
	}
	memo := map[Node]float64{}
	// below is the count over the variables of vs at or below f's level.
	var below func(f Node) float64
	below = func(f Node) float64 {
		switch f {
		case False:
			return 0
		case True:
			return 1
		}
		if c, ok := memo[f]; ok {
			return c
		}
		x := m.nodes[f]
		r := rank(x.level)
		c := math.Ldexp(below(x.lo), rank(m.level(x.lo))-r-1) + math.Ldexp(below(x.hi), rank(m.level(x.hi))-r-1)
		memo[f] = c
		return c
	}
	return math.Ldexp(below(f), rank(m.level(f)))
}

// Size is the number of nodes of f, leaves excluded.
func (m *Manager) Size(f Node) int {
	seen := map[Node]bool{}
	stack := []Node{f}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n <= True || seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, m.nodes[n].lo, m.nodes[n].hi)
	}
	return len(seen)
}

// GC keeps only the nodes reachable from roots, renumbering them, and
// updates each root; every node the caller still holds must be among
// them. The operation cache is emptied.
func (m *Manager) GC(roots []*Node) {
	live := make([]bool, len(m.nodes))
	live[False], live[True] = true, true
	var stack []Node
	for _, r := range roots {
		stack = append(stack, *r)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[n] {
			continue
		}
		live[n] = true
		stack = append(stack, m.nodes[n].lo, m.nodes[n].hi)
	}
	// A node's children are older than it, so compacting in place, in
	// order, renumbers them first.
	renum := make([]Node, len(m.nodes))
	renum[True] = True
	kept := 2
	for i := 2; i < len(m.nodes); i++ {
		if !live[i] {
			continue
		}
		x := m.nodes[i]
		x.lo, x.hi = renum[x.lo], renum[x.hi]
		m.nodes[kept] = x
		renum[i] = Node(kept)
		kept++
	}
	m.nodes = m.nodes[:kept]
	m.rehash()
	clear(m.cache)
	for _, r := range roots {
		*r = renum[*r]
	}
}

// Literal is a variable (its level) with a value: a test of a cube.
type Literal struct {
	Level int
	Value bool
}

// Cover is f as an irredundant sum of products: cubes (conjunctions of
// literals) whose disjunction is f, none of which can be dropped or
// lose a literal without covering too much or too little (Minato's
// ISOP, "Fast generation of prime-irredundant covers from binary
// decision diagrams", 1993). The paths of f to true are a cover too,
// but on the views of a Burns protocol ten times as many.
func (m *Manager) Cover(f Node) [][]Literal {
	type key struct{ lower, upper Node }
	type result struct {
		cubes [][]Literal
		f     Node
	}
	memo := map[key]result{}
	var isop func(lower, upper Node) result
	isop = func(lower, upper Node) result {
		switch {
		case lower == False:
			return result{nil, False}
		case upper == True:
			return result{[][]Literal{nil}, True}
		}
		if r, ok := memo[key{lower, upper}]; ok {
			return r
		}
		l := min(m.level(lower), m.level(upper))
		l0, l1 := m.cofactors(lower, l)
		u0, u1 := m.cofactors(upper, l)
		r0 := isop(m.Diff(l0, u1), u0)
		r1 := isop(m.Diff(l1, u0), u1)
		rest := isop(m.Or(m.Diff(l0, r0.f), m.Diff(l1, r1.f)), m.And(u0, u1))
		var cubes [][]Literal
		for _, c := range r0.cubes {
			cubes = append(cubes, append([]Literal{{int(l), false}}, c...))
		}
		for _, c := range r1.cubes {
			cubes = append(cubes, append([]Literal{{int(l), true}}, c...))
		}
		cubes = append(cubes, rest.cubes...)
		r := result{cubes, m.Or(m.mk(l, r0.f, r1.f), rest.f)}
		memo[key{lower, upper}] = r
		return r
	}
	return isop(f, f).cubes
}
