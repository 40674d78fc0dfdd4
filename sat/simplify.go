package sat

import (
	"slices"

	"github.com/go-air/gini/z"
)

// simplifier preprocesses the clauses of a first query before gini sees
// them: top-level unit propagation, subsumption and self-subsuming
// resolution, and bounded variable elimination with AND-gate detection
// (Een and Biere, "Effective preprocessing in SAT through variable and
// clause elimination", SAT 2005). Eliminating a variable replaces the
// clauses it occurs in by their resolvents on it, when they are no more
// than the clauses removed; a variable that a gate defines is resolved
// gate clauses against the others only. The circuits of whole programs
// are mostly such gates, and their refutations run several times faster
// without them (docs/BENCHMARKS.md). The removed clauses are kept: they
// give the eliminated variables values in a model (extend), and they go
// back to gini when a later clause or assumption reads the variable
// (restore), so that the solver stays incremental.
type simplifier struct {
	cls   [][]z.Lit // clauses; nil once removed
	sig   []uint64  // per clause: a bit per variable (mod 64), for subset tests
	occ   [][]int32 // per literal: the live clauses it occurs in
	value []int8    // per variable: 1 true, -1 false, 0 not fixed
	elim  []bool    // per variable: eliminated
	// removed holds per eliminated variable the clauses it occurred in
	// when it was eliminated; order lists the eliminated variables, first
	// eliminated first.
	removed [][][]z.Lit
	order   []z.Var
	units   []z.Lit // fixed literals not yet propagated
	queue   []int32 // clauses to try subsuming others with
	queued  []bool  // per clause: in queue
	mark    []int32 // per literal: stamp, for resolvents and gates
	stamp   int32
	scratch []z.Lit // a resolvent being built
	// touched marks the variables whose clauses changed since the round
	// of elimination began: the next round tries only those.
	touched []bool
	unsat   bool
}

// Limits that keep elimination cheap on variables with many occurrences
// and resolvents from growing long.
const (
	maxOccurrences  = 64   // of each sign, for a variable that defines no gate
	maxResolventLen = 64   // literals
	maxPairs        = 4096 // resolution pairs tried per variable
)

func newSimplifier(nvars int) *simplifier {
	return &simplifier{
		occ:     make([][]int32, 2*nvars),
		value:   make([]int8, nvars),
		elim:    make([]bool, nvars),
		removed: make([][][]z.Lit, nvars),
		mark:    make([]int32, 2*nvars),
		touched: make([]bool, nvars),
	}
}

func (f *simplifier) litValue(m z.Lit) int8 {
	if m.IsPos() {
		return f.value[m.Var()]
	}
	return -f.value[m.Var()]
}

// add adds a clause (lits is not kept), dropping false literals and
// clauses that are tautologies or already true.
func (f *simplifier) add(lits []z.Lit) {
	c := make([]z.Lit, 0, len(lits))
	for _, m := range lits {
		switch f.litValue(m) {
		case 1:
			return
		case 0:
			c = append(c, m)
		}
	}
	slices.Sort(c)
	c = slices.Compact(c)
	for i := 1; i < len(c); i++ {
		if c[i] == c[i-1].Not() {
			return
		}
	}
	switch len(c) {
	case 0:
		f.unsat = true
		return
	case 1:
		f.fix(c[0])
		return
	}
	ci := int32(len(f.cls))
	f.cls = append(f.cls, c)
	f.sig = append(f.sig, signature(c))
	f.queued = append(f.queued, false)
	for _, m := range c {
		f.occ[m] = append(f.occ[m], ci)
		f.touched[m.Var()] = true
	}
	f.enqueue(ci)
}

func signature(c []z.Lit) uint64 {
	var s uint64
	for _, m := range c {
		s |= 1 << (uint(m.Var()) & 63)
	}
	return s
}

func (f *simplifier) enqueue(ci int32) {
	if !f.queued[ci] {
		f.queued[ci] = true
		f.queue = append(f.queue, ci)
	}
}

// fix makes m true at the top level.
func (f *simplifier) fix(m z.Lit) {
	switch f.litValue(m) {
	case -1:
		f.unsat = true
	case 0:
		if m.IsPos() {
			f.value[m.Var()] = 1
		} else {
			f.value[m.Var()] = -1
		}
		f.units = append(f.units, m)
	}
}

// propagate removes the clauses the fixed literals satisfy and their
// negations from the others.
func (f *simplifier) propagate() {
	for len(f.units) > 0 && !f.unsat {
		m := f.units[len(f.units)-1]
		f.units = f.units[:len(f.units)-1]
		for _, ci := range slices.Clone(f.occ[m]) {
			f.remove(ci)
		}
		for _, ci := range slices.Clone(f.occ[m.Not()]) {
			f.strengthen(ci, m.Not())
		}
	}
}

// remove drops clause ci.
func (f *simplifier) remove(ci int32) {
	for _, m := range f.cls[ci] {
		f.dropOcc(m, ci)
		f.touched[m.Var()] = true
	}
	f.cls[ci] = nil
}

func (f *simplifier) dropOcc(m z.Lit, ci int32) {
	os := f.occ[m]
	if i := slices.Index(os, ci); i >= 0 {
		os[i] = os[len(os)-1]
		f.occ[m] = os[:len(os)-1]
	}
}

// strengthen removes the literal m from clause ci.
func (f *simplifier) strengthen(ci int32, m z.Lit) {
	c := f.cls[ci]
	i := slices.Index(c, m)
	if i < 0 {
		return
	}
	c = slices.Delete(c, i, i+1)
	f.cls[ci] = c
	f.dropOcc(m, ci)
	for _, n := range c {
		f.touched[n.Var()] = true
	}
	if len(c) == 1 {
		f.remove(ci)
		f.fix(c[0])
		return
	}
	f.sig[ci] = signature(c)
	f.enqueue(ci)
}

// subsume removes the clauses that clause ci subsumes and strengthens
// those it subsumes but for one negated literal.
func (f *simplifier) subsume(ci int32) {
	c := f.cls[ci]
	if c == nil {
		return
	}
	// Every clause that c subsumes (or strengthens) has each of c's
	// variables: scan the occurrences of the rarest.
	best := c[0].Var()
	for _, m := range c[1:] {
		if f.occurrences(m.Var()) < f.occurrences(best) {
			best = m.Var()
		}
	}
	f.stamp++
	for _, m := range c {
		f.mark[m] = f.stamp
	}
	for _, m := range []z.Lit{best.Pos(), best.Neg()} {
		for _, di := range slices.Clone(f.occ[m]) {
			d := f.cls[di]
			if di == ci || d == nil || len(d) < len(c) || f.sig[ci]&^f.sig[di] != 0 {
				continue
			}
			// How many of c's literals d has, and which it has negated.
			same, flips, flip := 0, 0, z.LitNull
			for _, n := range d {
				switch {
				case f.mark[n] == f.stamp:
					same++
				case f.mark[n.Not()] == f.stamp:
					flips, flip = flips+1, n
				}
			}
			switch {
			case same == len(c):
				f.remove(di)
			case same == len(c)-1 && flips == 1:
				f.strengthen(di, flip)
			}
		}
	}
}

func (f *simplifier) occurrences(v z.Var) int { return len(f.occ[v.Pos()]) + len(f.occ[v.Neg()]) }

// drain runs subsumption from every queued clause and propagates.
func (f *simplifier) drain() {
	for (len(f.queue) > 0 || len(f.units) > 0) && !f.unsat {
		f.propagate()
		for len(f.queue) > 0 && len(f.units) == 0 {
			ci := f.queue[len(f.queue)-1]
			f.queue = f.queue[:len(f.queue)-1]
			f.queued[ci] = false
			f.subsume(ci)
		}
	}
}

// gate returns the clauses of v that define it as an AND gate (or an
// equivalence): v's literal g with a clause (g | ~x1 | ... | ~xn) and
// the binary clauses (~g | xi); nil when there is none.
func (f *simplifier) gate(v z.Var) []int32 {
	for _, g := range []z.Lit{v.Pos(), v.Neg()} {
		f.stamp++
		for _, ci := range f.occ[g.Not()] {
			if c := f.cls[ci]; len(c) == 2 {
				x := c[0]
				if x == g.Not() {
					x = c[1]
				}
				f.mark[x] = f.stamp
			}
		}
	long:
		for _, ci := range f.occ[g] {
			for _, n := range f.cls[ci] {
				if n != g && f.mark[n.Not()] != f.stamp {
					continue long
				}
			}
			// Found: the long clause and, per literal, a binary clause.
			gate := []int32{ci}
			for _, n := range f.cls[ci] {
				if n == g {
					continue
				}
				for _, bi := range f.occ[g.Not()] {
					if b := f.cls[bi]; len(b) == 2 && (b[0] == n.Not() || b[1] == n.Not()) {
						gate = append(gate, bi)
						break
					}
				}
			}
			return gate
		}
	}
	return nil
}

// resolve returns the resolvent of c and d on v, valid until the next
// call, and false when it is a tautology.
func (f *simplifier) resolve(c, d []z.Lit, v z.Var) ([]z.Lit, bool) {
	f.stamp++
	r := f.scratch[:0]
	for _, m := range c {
		if m.Var() != v {
			f.mark[m] = f.stamp
			r = append(r, m)
		}
	}
	f.scratch = r
	for _, m := range d {
		if m.Var() == v || f.mark[m] == f.stamp {
			continue
		}
		if f.mark[m.Not()] == f.stamp {
			return nil, false
		}
		r = append(r, m)
	}
	f.scratch = r
	return r, true
}

// eliminate replaces the clauses of v by their resolvents on v if they
// are no more, and reports whether it did.
func (f *simplifier) eliminate(v z.Var) bool {
	pos, neg := slices.Clone(f.occ[v.Pos()]), slices.Clone(f.occ[v.Neg()])
	gate := f.gate(v)
	if gate == nil && (len(pos) > maxOccurrences || len(neg) > maxOccurrences) {
		return false
	}
	inGate := func(ci int32) bool { return slices.Contains(gate, ci) }
	// Resolving gate clauses with gate clauses gives tautologies, and the
	// other clauses with each other clauses the gate's ones imply.
	var pairs [][2]int32
	for _, pi := range pos {
		for _, ni := range neg {
			if gate != nil && inGate(pi) == inGate(ni) {
				continue
			}
			if len(pairs) == maxPairs {
				return false
			}
			pairs = append(pairs, [2]int32{pi, ni})
		}
	}
	// Counted first, added once they are known to be few.
	count := 0
	for _, p := range pairs {
		if res, ok := f.resolve(f.cls[p[0]], f.cls[p[1]], v); ok {
			if count++; len(res) > maxResolventLen || count > len(pos)+len(neg) {
				return false
			}
		}
	}
	for _, p := range pairs {
		if res, ok := f.resolve(f.cls[p[0]], f.cls[p[1]], v); ok {
			f.add(res)
		}
	}
	for _, ci := range append(pos, neg...) {
		f.removed[v] = append(f.removed[v], f.cls[ci])
		f.remove(ci)
	}
	f.elim[v] = true
	f.order = append(f.order, v)
	return true
}

// run simplifies the clauses, keeping the frozen variables, in rounds of
// elimination (the cheapest variables first) and subsumption until a
// round eliminates nothing or stop says to stop (what is done so far
// stands).
func (f *simplifier) run(frozen func(z.Var) bool, stop func() bool) {
	f.drain() // add queued every clause
	for v := range f.touched {
		f.touched[v] = true
	}
	for round := 0; round < 4 && !f.unsat; round++ {
		var cands []z.Var
		for v := 1; v < len(f.value); v++ {
			if x := z.Var(v); f.touched[x] && !frozen(x) && !f.elim[x] && f.value[x] == 0 && f.occurrences(x) > 0 {
				cands = append(cands, x)
			}
			f.touched[v] = false
		}
		cost := func(v z.Var) int { return len(f.occ[v.Pos()]) * len(f.occ[v.Neg()]) }
		slices.SortFunc(cands, func(a, b z.Var) int { return cost(a) - cost(b) })
		done := 0
		for i, v := range cands {
			if f.unsat || i%256 == 0 && stop() {
				return
			}
			if f.value[v] == 0 && !f.elim[v] && f.eliminate(v) {
				done++
				f.drain()
			}
		}
		if done == 0 {
			return
		}
	}
}

// clauses calls emit with every clause left, the fixed literals as
// units, and the empty clause when the clauses are unsatisfiable.
func (f *simplifier) clauses(emit func([]z.Lit)) {
	if f.unsat {
		emit(nil)
		return
	}
	for _, c := range f.cls {
		if c != nil {
			emit(c)
		}
	}
	for v, x := range f.value {
		switch x {
		case 1:
			emit([]z.Lit{z.Var(v).Pos()})
		case -1:
			emit([]z.Lit{z.Var(v).Neg()})
		}
	}
}

// release drops what only the simplification needed, keeping what
// restore and extend read.
func (f *simplifier) release() {
	f.cls, f.sig, f.occ, f.queue, f.queued, f.mark, f.touched = nil, nil, nil, nil, nil, nil, nil
}

// eliminated reports whether v is eliminated (and not restored).
func (f *simplifier) eliminated(v z.Var) bool { return int(v) < len(f.elim) && f.elim[v] }

// restore brings v back: its removed clauses are handed to emit, after
// the variables they read that were eliminated later have come back.
func (f *simplifier) restore(v z.Var, emit func([]z.Lit)) {
	if !f.eliminated(v) {
		return
	}
	f.elim[v] = false
	cs := f.removed[v]
	f.removed[v] = nil
	for _, c := range cs {
		for _, m := range c {
			f.restore(m.Var(), emit)
		}
	}
	for _, c := range cs {
		emit(c)
	}
}

// extend completes a model of the simplified clauses (model[v] for
// every variable gini holds) into one of the original clauses: the fixed
// variables take their values, and the eliminated ones, last
// eliminated first, the value that satisfies their removed clauses.
func (f *simplifier) extend(model []bool) {
	for v, x := range f.value {
		if x != 0 {
			model[v] = x > 0
		}
	}
	for i := len(f.order) - 1; i >= 0; i-- {
		v := f.order[i]
		if !f.elim[v] {
			continue // restored: gini gave it its value
		}
		model[v] = false
	clauses:
		for _, c := range f.removed[v] {
			if !slices.Contains(c, v.Pos()) {
				continue
			}
			for _, m := range c {
				if m != v.Pos() && model[m.Var()] == m.IsPos() {
					continue clauses
				}
			}
			model[v] = true
			break
		}
	}
}
