package cover

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// Reach decides safety for the thread counts the program states, on
// every interleaving, by a forward search over counted configurations:
// the shared state and, per thread state, how many threads stand in it
// (counter abstraction: Basler, Mazzucchi, Wahl and Kroening, "Symbolic
// counter abstraction for concurrent software", CAV 2009, where it is
// exact because every instance of a group runs the same code; so is it
// here, for the fixed counts of `f=N`). Instances in the same thread
// state are interchangeable, so the configurations number polynomially
// in each group's count where the instances' own configurations would
// number exponentially; threads of groups of one instance have thread
// states of their own and a count of one.
//
// The threads move as in Check (moves: a visible step with the
// invisible steps after it), computed once per pair of shared and thread
// state the search meets. The search is breadth first, so a violation
// comes back as a schedule with the fewest moves, numbered as the
// explicit interpreter numbers threads, for the caller to replay. It
// takes fixed thread counts only and refuses programs that start
// threads (an *Unsupported error), where the counts would not be fixed.
func Reach(ctx context.Context, p *ir.Program, opts Options) (*Outcome, error) {
	if err := CountedSupported(p); err != nil {
		return nil, err
	}
	sys, err := newSystem(p, opts.Depth)
	if err != nil {
		return nil, err
	}
	r := &counted{forward: &forward{system: sys}, ids: map[string]int32{}, movesAt: map[uint64][]int32{}}
	out := &Outcome{Verdict: result.Unknown}
	if !r.begin(ctx) {
		out.Stopped = result.Stopped(ctx, "init").String()
		return out, nil
	}
	if r.initFail != nil {
		return r.schedule(out, nil, nil, nil, nil), nil
	}
	for i := range r.starts {
		if !r.starts[i].dead {
			r.addStarts(int32(i))
		}
	}
	var m []int32
	for id := int32(0); int(id) < len(r.keys); id++ {
		if id%1024 == 0 && ctx.Err() != nil {
			out.Stopped = result.Stopped(ctx, "the counted search").String()
			return r.stats(out), nil
		}
		if len(r.keys) > opts.MaxConfigurations {
			out.Stopped = fmt.Sprintf("the counted search reached %d configurations", opts.MaxConfigurations)
			return r.stats(out), nil
		}
		var g int32
		g, m = decodeCounted(r.keys[id], m[:0])
		for i, l := range m {
			if i > 0 && m[i-1] == l {
				continue // interchangeable with the thread before it
			}
			for _, ti := range r.movesOf(g, l) {
				t := r.trans[ti]
				if t.fails {
					return r.stats(r.witness(out, id, ti)), nil
				}
				next := remove(slices.Clone(m), l)
				if t.l2 != dead {
					next = insertSorted(next, t.l2)
				}
				r.add(t.g2, next, id, ti)
			}
		}
	}
	if out.Stopped, out.Deeper = r.cut(); out.Stopped == "" {
		out.Verdict = result.Safe
	}
	return r.stats(out), nil
}

// CountedSupported refuses what Reach cannot count: groups of any
// number of threads and thread starts.
func CountedSupported(p *ir.Program) error {
	if err := Supported(p); err != nil {
		return err
	}
	for _, t := range p.Threads {
		if t.Unbounded {
			return &Unsupported{t.Proc.Pos, fmt.Sprintf("the thread group %s=* has no fixed count to search with", t.Proc.Name)}
		}
	}
	for _, e := range p.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return &Unsupported{e.Pos, fmt.Sprintf("%q starts a thread: the counts are not fixed", e.Stmt)}
		}
	}
	return nil
}

// counted is the forward search over counted configurations. A
// configuration is stored as its key: the shared state, then each
// thread state that has threads with their count (decodeCounted).
type counted struct {
	*forward
	keys    [][]byte
	ids     map[string]int32
	parents []int32 // the configuration it was reached from; -1 for a start
	via     []int32 // the transition that reached it; for a start, its index in roots
	roots   []root
	movesAt map[uint64][]int32 // the transitions from a pair of shared and thread state
	keyBuf  []byte
}

// root is a start configuration: the start and the thread state of each
// instance.
type root struct {
	start int32
	init  []int32
}

// addStarts adds the start configurations of start st: each instance in
// each of the thread states it may start in.
func (r *counted) addStarts(st int32) {
	fixed := r.starts[st].fixed
	pick := make([]int32, len(fixed))
	var each func(i int)
	each = func(i int) {
		if i == len(fixed) {
			m := slices.Clone(pick)
			slices.Sort(m)
			r.roots = append(r.roots, root{start: st, init: slices.Clone(pick)})
			r.add(r.starts[st].g, m, -1, int32(len(r.roots)-1))
			return
		}
		for _, l := range fixed[i] {
			pick[i] = l
			each(i + 1)
		}
	}
	each(0)
}

// add records configuration (g, m) unless it is known.
func (r *counted) add(g int32, m []int32, parent, via int32) {
	r.keyBuf = encodeCounted(r.keyBuf[:0], g, m)
	if _, ok := r.ids[string(r.keyBuf)]; ok {
		return
	}
	key := slices.Clone(r.keyBuf)
	r.ids[string(key)] = int32(len(r.keys))
	r.keys = append(r.keys, key)
	r.parents = append(r.parents, parent)
	r.via = append(r.via, via)
}

// movesOf lists the transitions (indices in r.trans) of a thread in
// state l beside shared state g: a thread at an error label fails at
// once (it can stand there only where it starts).
func (r *counted) movesOf(g, l int32) []int32 {
	k := pairKey(g, l)
	if ts, ok := r.movesAt[k]; ok {
		return ts
	}
	var ts []int32
	if ti := r.startFailure(g, l); ti >= 0 {
		ts = append(ts, ti)
	} else if canMove(r.shareds[g], r.locals[l]) {
		r.moves(g, l, func(t transition) {
			r.trans = append(r.trans, t)
			ts = append(ts, int32(len(r.trans)-1))
		})
	}
	r.movesAt[k] = ts
	return ts
}

// witness is the violation of the failing transition ti from
// configuration id: the transitions from its start configuration, each
// by a thread in the state it moves from.
func (r *counted) witness(out *Outcome, id, ti int32) *Outcome {
	chain := []transition{r.trans[ti]}
	for ; r.parents[id] >= 0; id = r.parents[id] {
		chain = append(chain, r.trans[r.via[id]])
	}
	slices.Reverse(chain)
	rt := r.roots[r.via[id]]
	assign := make([]int, len(rt.init))
	for i := range assign {
		assign[i] = i
	}
	return r.schedule(out, &r.starts[rt.start], rt.init, assign, chain)
}

func (r *counted) stats(out *Outcome) *Outcome {
	out.Pairs, out.Configurations = len(r.movesAt), len(r.keys)
	return out
}

// encodeCounted appends the key of configuration (g, m), m a sorted
// multiset of thread states: g, then each thread state of m with how
// many times it occurs.
func encodeCounted(buf []byte, g int32, m []int32) []byte {
	buf = binary.AppendUvarint(buf, uint64(g))
	for i := 0; i < len(m); {
		j := i + 1
		for j < len(m) && m[j] == m[i] {
			j++
		}
		buf = binary.AppendUvarint(buf, uint64(m[i]))
		buf = binary.AppendUvarint(buf, uint64(j-i))
		i = j
	}
	return buf
}

// decodeCounted reads a key of encodeCounted, appending the multiset to
// m.
func decodeCounted(key []byte, m []int32) (int32, []int32) {
	g, n := binary.Uvarint(key)
	key = key[n:]
	for len(key) > 0 {
		l, n := binary.Uvarint(key)
		key = key[n:]
		c, n := binary.Uvarint(key)
		key = key[n:]
		for range c {
			m = append(m, int32(l))
		}
	}
	return int32(g), m
}
