package cover

import (
	"context"
	"math/bits"
	"slices"

	"bmc/bdd"
	"bmc/ir"
	"bmc/result"
)

// ReachDiagrams decides what Reach decides, with the counted
// configurations as sets on decision diagrams: the shared state's
// number and, per thread state, its count of threads as a bit vector
// (Basler et al.'s symbolic counter abstraction). A move of a thread
// from l to l2 takes one from l's counter and adds one to l2's; the
// image of a set is the union of one relational product per pair
// (l, l2), each over the bits it changes, so a set of configurations
// costs what its diagram costs, not what its count of configurations
// does. The thread-transition system is built first by the
// thread-modular forward pass (as Check builds it). A violation
// reached makes Reach find its schedule, which the caller replays.
func ReachDiagrams(ctx context.Context, p *ir.Program, opts Options) (*Outcome, error) {
	if err := CountedSupported(p); err != nil {
		return nil, err
	}
	f, out, err := builtSystem(ctx, p, opts)
	switch {
	case f == nil:
		return out, err
	case f.initFail != nil:
		return Reach(ctx, p, opts)
	}
	d := newCountedDiagrams(f)
	var hit bool
	stop := func() bool { return ctx.Err() != nil }
	d.m.Stop = stop
	if err := d.m.Run(func() { hit, out.Rounds = d.reach() }); err != nil {
		out.Stopped = result.Stopped(ctx, "the counted reachability").String()
		return out, nil
	}
	out.Configurations = int(min(d.m.Count(d.reached, d.currents), 1<<62))
	if hit {
		// The diagrams say a violation is reachable; the counted search
		// finds its schedule (the shortest in moves).
		return Reach(ctx, p, opts)
	}
	if out.Stopped, out.Deeper = f.cut(); out.Stopped == "" {
		out.Verdict = result.Safe
	}
	return out, nil
}

// countedDiagrams are the variables and relations of ReachDiagrams.
// Variable 2i is a bit of the current configuration and 2i+1 the same
// bit after a move, so that a move's relation stays small.
type countedDiagrams struct {
	f        *forward
	m        *bdd.Manager
	shared   []int   // the shared state's number, by bit (current variables)
	counter  [][]int // per thread state, its count's bits (current variables)
	currents []int
	// moves are the relations of the moves from l to l2, by pair, with
	// their quantified and renamed sets; bad is where a thread can fail.
	moves   []countedMove
	bad     bdd.Node
	init    bdd.Node
	reached bdd.Node
}

type countedMove struct {
	rel bdd.Node
	set bdd.Set
}

func newCountedDiagrams(f *forward) *countedDiagrams {
	d := &countedDiagrams{f: f, m: bdd.New()}
	next := 0
	fresh := func(width int) []int {
		vs := make([]int, width)
		for i := range vs {
			vs[i] = 2 * next
			d.currents = append(d.currents, 2*next)
			next++
		}
		return vs
	}
	d.shared = fresh(max(1, bits.Len(uint(len(f.shareds)-1))))
	// A thread state's count is at most the instances of its thread.
	instances := map[*ir.Proc]int{}
	for _, t := range f.prog.Threads {
		instances[t.Proc] += t.Count
	}
	for _, l := range f.locals {
		d.counter = append(d.counter, fresh(bits.Len(uint(instances[l.frames[0].proc]))))
	}
	d.init = d.starts()
	d.bad = bdd.False
	type pair struct{ l, l2 int32 }
	rels := map[pair]bdd.Node{}
	var order []pair
	for _, t := range f.trans {
		if t.fails {
			d.bad = d.m.Or(d.bad, d.m.And(d.equals(d.shared, int(t.g), false), d.atLeastOne(t.l)))
			continue
		}
		k := pair{t.l, t.l2}
		r := d.m.And(d.equals(d.shared, int(t.g), false), d.equals(d.shared, int(t.g2), true))
		if old, ok := rels[k]; ok {
			rels[k] = d.m.Or(old, r)
		} else {
			rels[k] = r
			order = append(order, k)
		}
	}
	for _, k := range order {
		rel, vs := rels[k], slices.Clone(d.shared)
		switch {
		case k.l2 == k.l:
			rel = d.m.And(rel, d.atLeastOne(k.l))
		default:
			rel = d.m.And(rel, d.step(d.counter[k.l], -1))
			vs = append(vs, d.counter[k.l]...)
			if k.l2 != dead {
				rel = d.m.And(rel, d.step(d.counter[k.l2], +1))
				vs = append(vs, d.counter[k.l2]...)
			}
		}
		ren := map[int]int{}
		for _, v := range vs {
			ren[v+1] = v
		}
		slices.Sort(vs)
		set, err := d.m.NewRenamedSet(vs, ren)
		if err != nil {
			panic(err) // next bits sit right after their current ones
		}
		d.moves = append(d.moves, countedMove{rel, set})
	}
	return d
}

// reach computes the reachable configurations breadth first; hit says
// that one of them can fail, rounds counts the images taken.
func (d *countedDiagrams) reach() (hit bool, rounds int) {
	m := d.m
	d.reached = d.init
	frontier := d.init
	for frontier != bdd.False {
		if m.And(frontier, d.bad) != bdd.False {
			return true, rounds
		}
		img := bdd.False
		for _, mv := range d.moves {
			img = m.Or(img, m.AndExists(frontier, mv.rel, mv.set))
		}
		frontier = m.Diff(img, d.reached)
		d.reached = m.Or(d.reached, frontier)
		rounds++
	}
	return false, rounds
}

// starts are the start configurations: per start, each instance in
// each thread state it may start in.
func (d *countedDiagrams) starts() bdd.Node {
	m := d.m
	out := bdd.False
	seen := map[string]bool{}
	for _, st := range d.f.starts {
		if st.dead {
			continue
		}
		pick := make([]int32, len(st.fixed))
		var each func(i int)
		each = func(i int) {
			if i == len(st.fixed) {
				counts := map[int32]int{}
				for _, l := range pick {
					counts[l]++
				}
				sorted := slices.Clone(pick)
				slices.Sort(sorted)
				key := string(encodeCounted(nil, st.g, sorted))
				if seen[key] {
					return
				}
				seen[key] = true
				c := d.equals(d.shared, int(st.g), false)
				for l := range d.counter {
					c = m.And(c, d.equals(d.counter[l], counts[int32(l)], false))
				}
				out = m.Or(out, c)
				return
			}
			for _, l := range st.fixed[i] {
				pick[i] = l
				each(i + 1)
			}
		}
		each(0)
	}
	return out
}

// equals is the bit vector vs (its next bits with next) equal to v.
func (d *countedDiagrams) equals(vs []int, v int, next bool) bdd.Node {
	r := bdd.True
	for i := len(vs) - 1; i >= 0; i-- {
		x := d.m.Var(vs[i] + boolInt(next))
		if v>>i&1 == 0 {
			x = d.m.Not(x)
		}
		r = d.m.And(x, r)
	}
	return r
}

// atLeastOne says that some thread stands in state l.
func (d *countedDiagrams) atLeastOne(l int32) bdd.Node {
	return d.m.Not(d.equals(d.counter[l], 0, false))
}

// step relates the counter vs to its next value, one more (by +1) or
// one less (-1), neither passing the ends of its range: a ripple of
// carries (borrows) from the lowest bit.
func (d *countedDiagrams) step(vs []int, by int) bdd.Node {
	m := d.m
	r, carry := bdd.True, bdd.True
	for _, v := range vs {
		cur, nxt := m.Var(v), m.Var(v+1)
		r = m.And(r, m.Iff(nxt, m.Xor(cur, carry)))
		if by > 0 {
			carry = m.And(carry, cur)
		} else {
			carry = m.And(carry, m.Not(cur))
		}
	}
	return m.And(r, m.Not(carry))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
