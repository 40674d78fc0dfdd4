package explicit

import (
	"bytes"
	"slices"
)

// symmetry reduces the search by the symmetry of replicated threads: the
// instances of one group of the thread order (`f=N`, or the copies of
// `f=*` within --max-threads) run the same code from the same start, so
// two states that differ only by a permutation of the instances inside
// groups reach the same verdicts, and the search keeps one of them, the
// canonical one: each group's threads sorted by their own keys (Emerson
// and Sistla, "Symmetry and model checking"; Murphi's and SPIN's
// symmetry reduction). The scheduler must be symmetric too: every
// interleaving and --switches are (a switch counts the same whichever
// thread it goes to, and the first thread is chosen freely); round-robin
// rounds order the instances, so -k runs without it, as does Getafix's
// switch rule, which names the first thread. Threads started on the way
// keep their places. A trace found on canonical states is turned back
// into one execution by undoing each permutation (unpermute).
type symmetry struct {
	groups [][2]int // index ranges [lo, hi) of interchangeable threads
}

// newSymmetry is the symmetry of the thread instances counts[i] of
// c.prog.Threads[i], or nil when no group has two.
func newSymmetry(counts []int) *symmetry {
	sym := &symmetry{}
	lo := 0
	for _, n := range counts {
		if n >= 2 {
			sym.groups = append(sym.groups, [2]int{lo, lo + n})
		}
		lo += n
	}
	if len(sym.groups) == 0 {
		return nil
	}
	return sym
}

// canonical is s with each group's threads sorted by their keys, and
// perm, with canonical.threads[j] = s.threads[perm[j]]; s itself and nil
// when s is canonical already (or init still runs).
func (sym *symmetry) canonical(s *state) (*state, []int) {
	if s.init {
		return s, nil
	}
	var perm []int
	for _, g := range sym.groups {
		if g[1] > len(s.threads) {
			continue
		}
		keys := make([][]byte, g[1]-g[0])
		idx := make([]int, len(keys))
		for i := range keys {
			keys[i] = s.threads[g[0]+i].key(nil)
			idx[i] = g[0] + i
		}
		order := slices.Clone(idx)
		slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(keys[a-g[0]], keys[b-g[0]]) })
		if slices.Equal(order, idx) {
			continue
		}
		if perm == nil {
			perm = make([]int, len(s.threads))
			for i := range perm {
				perm[i] = i
			}
		}
		copy(perm[g[0]:g[1]], order)
	}
	if perm == nil {
		return s, nil
	}
	inverse := make([]int, len(perm))
	for j, i := range perm {
		inverse[i] = j
	}
	return relabel(s, inverse), perm
}

// relabel is s with thread i moved to place to[i]: the threads, the
// holders of locks and the running thread.
func relabel(s *state, to []int) *state {
	n := *s
	n.threads = make([]thread, len(s.threads))
	for i, t := range s.threads {
		n.threads[to[i]] = t
	}
	n.locks = slices.Clone(s.locks)
	for l, h := range n.locks {
		if h >= 0 {
			n.locks[l] = int16(to[h])
		}
	}
	if s.cur >= 0 {
		n.cur = to[s.cur]
	}
	return &n
}

// boundary is where a trace passes from one canonical state's numbering
// of the threads to the next one's: states[at] is the move's end as the
// search made it, whose canonical state has canonical.threads[j] =
// states[at].threads[perm[j]].
type boundary struct {
	at   int
	perm []int
	rot  int // with a ring: the places the canonical state moved the threads on
}

// unpermute renumbers p's threads after each boundary so that the whole
// path is one execution, in the numbering of its first state.
func (p *path) unpermute(bounds []boundary) {
	var sigma []int // the numbering so far -> the first state's; nil: the same
	b := 0
	for i := range p.states {
		if sigma != nil {
			sigma = grown(sigma, len(p.states[i].threads))
			p.states[i] = relabel(p.states[i], sigma)
			if p.recs[i].kind == recStep {
				p.recs[i].thread = int16(sigma[p.recs[i].thread])
			}
		}
		for ; b < len(bounds) && bounds[b].at == i; b++ {
			perm := bounds[b].perm
			next := make([]int, len(perm))
			for j := range perm {
				next[j] = perm[j]
				if sigma != nil {
					next[j] = sigma[perm[j]]
				}
			}
			sigma = next
		}
	}
}

// grown is sigma with the identity on the threads beyond it (started on
// the way since).
func grown(sigma []int, n int) []int {
	for i := len(sigma); i < n; i++ {
		sigma = append(sigma, i)
	}
	return sigma
}
