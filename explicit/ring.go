package explicit

import (
	"bytes"
	"encoding/binary"
	"strings"

	"bmc/ir"
	"bmc/lang"
)

// ring reduces the search by a ring's rotations (ir.FindRing): moving
// every thread r places on, and every global and lock r places along
// the ring's renaming, maps states to states with the same verdicts, so
// the search keeps, of the N rotations of a state, the one with the
// least key. As with the instances' symmetry, the scheduler must treat
// the threads alike: every interleaving and --switches do, round-robin
// rounds do not (they order the threads), nor do Getafix's switch
// points. A trace found on canonical states is turned back into one
// execution by rotating each stretch back (unrotate).
type ring struct {
	procs   []*ir.Proc
	globals [][]int // globals[r][g]: the place of global g after r steps
	locks   [][]int
	// edges[r][e]: the step of the thread r places on that matches step e
	// (the graphs match node for node, step for step).
	edges [][]int
	// from[r] are the inverses of globals[r] and locks[r]: what lands in
	// each place.
	from []struct{ globals, locks []int }
	// least and scratch are canonical's key buffers.
	least, scratch []byte
}

// newRing is r's reduction, nil when r is.
func newRing(p *ir.Program, r *ir.Ring) *ring {
	if r == nil {
		return nil
	}
	n := len(r.Procs)
	rg := &ring{procs: r.Procs}
	power := func(one []int) [][]int {
		out := make([][]int, n)
		out[0] = make([]int, len(one))
		for i := range out[0] {
			out[0][i] = i
		}
		for k := 1; k < n; k++ {
			out[k] = make([]int, len(one))
			for i := range one {
				out[k][i] = one[out[k-1][i]]
			}
		}
		return out
	}
	rg.globals, rg.locks = power(r.Globals), power(r.Locks)
	rg.from = make([]struct{ globals, locks []int }, n)
	for k := range rg.from {
		rg.from[k].globals, rg.from[k].locks = inverse(rg.globals[k]), inverse(rg.locks[k])
	}
	place := map[*ir.Proc]int{}
	for i, pr := range r.Procs {
		place[pr] = i
	}
	rg.edges = make([][]int, n)
	for k := range rg.edges {
		rg.edges[k] = make([]int, len(p.Edges))
		for id, e := range p.Edges {
			rg.edges[k][id] = id
			if i, ok := place[e.Proc]; ok {
				at := r.Procs[(i+k)%n].Nodes[e.From].Out
				for j, x := range p.Edges[id].Proc.Nodes[e.From].Out {
					if x == e {
						rg.edges[k][id] = at[j].ID
					}
				}
			}
		}
	}
	return rg
}

// rotate is s with every thread k places on (k in [0, N)).
func (rg *ring) rotate(s *state, k int) *state {
	n := len(rg.procs)
	out := &state{init: s.init, used: s.used, cur: s.cur,
		globals: make([]ir.Value, len(s.globals)), locks: make([]int16, len(s.locks)), threads: make([]thread, len(s.threads))}
	for g, v := range s.globals {
		out.globals[rg.globals[k][g]] = v
	}
	for l, h := range s.locks {
		if h >= 0 {
			h = int16((int(h) + k) % n)
		}
		out.locks[rg.locks[k][l]] = h
	}
	for i, t := range s.threads {
		j := (i + k) % n
		moved := thread{entry: rg.procs[j], atomic: t.atomic}
		if t.alive() {
			// A ring's threads call nothing: one frame each.
			f := t.top()
			moved.frames = []*frame{{proc: rg.procs[j], pc: f.pc, call: f.call, atomic: f.atomic, locals: append([]ir.Value(nil), f.locals...)}}
		}
		out.threads[j] = moved
	}
	if s.cur >= 0 {
		out.cur = (s.cur + k) % n
	}
	return out
}

// canonical is, of s's rotations, the one with the least key, and how
// many places it moved the threads on (s itself and 0 while init runs).
// The keys are written straight from s (keyRotated), and only the
// least one's state is built.
func (rg *ring) canonical(s *state) (*state, int) {
	if s.init {
		return s, 0
	}
	least := s.key(rg.least[:0])
	at := 0
	for k := 1; k < len(rg.procs); k++ {
		key := rg.keyRotated(rg.scratch[:0], s, k)
		if bytes.Compare(key, least) < 0 {
			least, key, at = key, least, k
		}
		rg.least, rg.scratch = least, key
	}
	if at == 0 {
		return s, 0
	}
	return rg.rotate(s, at), at
}

// keyRotated is the key of rotate(s, k), written without building it.
func (rg *ring) keyRotated(buf []byte, s *state, k int) []byte {
	n := len(rg.procs)
	buf = binary.AppendUvarint(buf, boolBit(s.init))
	cur := s.cur
	if cur >= 0 {
		cur = (cur + k) % n
	}
	buf = binary.AppendUvarint(buf, uint64(cur+1))
	buf = binary.AppendUvarint(buf, uint64(s.used))
	from := rg.from[k]
	for i := 0; i < len(s.globals); i += 4 {
		var b byte
		for j := 0; j < 4 && i+j < len(s.globals); j++ {
			b |= byte(s.globals[from.globals[i+j]]) << (2 * j)
		}
		buf = append(buf, b)
	}
	for _, l := range from.locks {
		h := s.locks[l]
		if h >= 0 {
			h = int16((int(h) + k) % n)
		}
		buf = binary.AppendUvarint(buf, uint64(h+1))
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.threads)))
	for j := range s.threads {
		t := &s.threads[(j-k+n)%n]
		index := uint64(rg.procs[j].Index)
		buf = binary.AppendUvarint(buf, index)
		buf = binary.AppendUvarint(buf, boolBit(t.atomic))
		buf = binary.AppendUvarint(buf, uint64(len(t.frames)))
		for _, f := range t.frames {
			buf = binary.AppendUvarint(buf, index)
			buf = binary.AppendUvarint(buf, uint64(f.pc))
			buf = binary.AppendUvarint(buf, uint64(f.call+1))
			buf = binary.AppendUvarint(buf, boolBit(f.atomic))
			buf = appendValues(buf, f.locals)
		}
	}
	return buf
}

// unrotate rotates p's states after each boundary back by the places
// the canonical states moved them on, so that the whole path is one
// execution in the numbering of its first state: its steps too, each
// taken by the thread, and as the step, of that numbering.
func (p *path) unrotate(rg *ring, bounds []boundary) {
	n := len(rg.procs)
	total := 0 // the places the states so far are moved on
	b := 0
	for i := range p.states {
		if total != 0 {
			back := n - total
			p.states[i] = rg.rotate(p.states[i], back)
			if p.recs[i].kind == recStep {
				p.recs[i].thread = int16((int(p.recs[i].thread) + back) % n)
				p.recs[i].edge = int32(rg.edges[back][p.recs[i].edge])
			}
		}
		for ; b < len(bounds) && bounds[b].at == i; b++ {
			total = (total + bounds[b].rot) % n
		}
	}
}

// relocated is a violation's message and place, found at step from,
// for its copy to in another thread of the ring: the statement, the
// lock, and the step's place or the error label's it leads to.
func relocated(msg string, pos lang.Pos, from, to *ir.Edge) (string, lang.Pos) {
	if from.Stmt != "" {
		msg = strings.Replace(msg, from.Stmt, to.Stmt, 1)
	}
	if from.Lock != nil {
		msg = strings.Replace(msg, "lock "+from.Lock.Name+",", "lock "+to.Lock.Name+",", 1)
	}
	switch pos {
	case from.Pos:
		return msg, to.Pos
	case from.Proc.Nodes[from.To].Pos:
		return msg, to.Proc.Nodes[to.To].Pos
	}
	return msg, pos
}

// inverse is the inverse of the permutation perm.
func inverse(perm []int) []int {
	out := make([]int, len(perm))
	for i, j := range perm {
		out[j] = i
	}
	return out
}
