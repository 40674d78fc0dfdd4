package cover

import (
	"context"
	"slices"

	"bmc/ir"
)

// start is a shared state in which the threads start, after init, with
// the init steps that lead to it.
type start struct {
	g    int32
	init []int32 // init's transitions, in order
	// fixed lists, per fixed instance, the thread states it may start in
	// (its arbitrary locals either way, its enforce clause holding); open
	// lists them per thread of any number of instances.
	fixed [][]int32
	open  [][]int32
	dead  bool // a fixed instance cannot start: its enforce clause fails
}

// instance is one thread a run starts with, in the schedule order of
// ir.Program.Threads: a fixed one, or one of any number (open).
type instance struct {
	spec int // index in ir.Program.Threads
	open bool
}

// forward is the thread-modular forward pass: the pairs (shared state,
// thread state) that some reachable configuration contains are among
// the pairs it finds, and it builds every transition from them.
type forward struct {
	*system
	pairs     map[uint64]bool
	byShared  map[int32][]int32 // thread states found beside a shared state
	next      map[int32][]int32 // shared states reached from one in a step
	queue     []uint64
	trans     []transition
	fails     []int32 // the failing transitions
	initTrans []micro // init's steps
	starts    []start
	instances []instance
	// initFail is, when init itself can fail, its failing path.
	initFail     []int32
	initFailText string
}

func pairKey(g, l int32) uint64 { return uint64(g)<<32 | uint64(uint32(l)) }

// add records that thread state l occurs beside shared state g.
func (f *forward) add(g, l int32) {
	k := pairKey(g, l)
	if f.pairs[k] {
		return
	}
	f.pairs[k] = true
	f.byShared[g] = append(f.byShared[g], l)
	f.queue = append(f.queue, k)
	for _, g2 := range f.next[g] {
		f.add(g2, l)
	}
}

// link records that a step leads from shared state g to g2: every other
// thread state beside g is then beside g2 too (thread-modular).
func (f *forward) link(g, g2 int32) {
	if g == g2 || slices.Contains(f.next[g], g2) {
		return
	}
	f.next[g] = append(f.next[g], g2)
	for _, l := range slices.Clone(f.byShared[g]) {
		f.add(g2, l)
	}
}

// build runs init, starts the threads and closes the pairs under the
// steps, up to maxPairs pairs (false when it stopped short).
func (f *forward) build(ctx context.Context, maxPairs int) (bool, error) {
	f.pairs, f.byShared, f.next = map[uint64]bool{}, map[int32][]int32{}, map[int32][]int32{}
	if !f.begin(ctx) {
		return false, ctx.Err()
	}
	if f.initFail != nil {
		return true, nil
	}
	for i := range f.starts {
		st := &f.starts[i]
		if st.dead {
			continue
		}
		for _, opts := range slices.Concat(st.fixed, st.open) {
			for _, l := range opts {
				f.add(st.g, l)
				if ti := f.startFailure(st.g, l); ti >= 0 {
					f.fails = append(f.fails, ti)
				}
			}
		}
	}
	for len(f.queue) > 0 {
		if len(f.pairs) > maxPairs || ctx.Err() != nil {
			return false, ctx.Err()
		}
		k := f.queue[0]
		f.queue = f.queue[1:]
		gid, lid := int32(k>>32), int32(uint32(k))
		g, l := f.shareds[gid], f.locals[lid]
		if !canMove(g, l) {
			continue
		}
		f.moves(gid, lid, func(t transition) {
			f.trans = append(f.trans, t)
			if t.fails {
				f.fails = append(f.fails, int32(len(f.trans)-1))
				return
			}
			f.link(gid, t.g2)
			if t.l2 != dead {
				f.add(t.g2, t.l2)
			}
			for _, sp := range t.spawns {
				f.add(t.g2, sp)
			}
		})
	}
	return true, nil
}

// startFailure is, when a thread that starts in state l beside g is at
// an error label and so fails at once, the failing transition it adds
// to f.trans; else -1.
func (f *forward) startFailure(g, l int32) int32 {
	n := f.locals[l].top()
	if !n.proc.Nodes[n.pc].Error {
		return -1
	}
	f.trans = append(f.trans, transition{g: g, l: l, fails: true, failText: f.labelText(n.proc.Nodes[n.pc])})
	return int32(len(f.trans) - 1)
}

// begin lists the instances, runs init and finds, per start, the thread
// states each instance may start in; false when ctx ended it.
func (f *forward) begin(ctx context.Context) bool {
	for i, t := range f.prog.Threads {
		n := t.Count
		if t.Unbounded {
			n = 1 // stands for any number
		}
		for range n {
			f.instances = append(f.instances, instance{spec: i, open: t.Unbounded})
		}
	}
	if !f.runInit(ctx) || f.initFail != nil {
		return f.initFail != nil
	}
	for i := range f.starts {
		st := &f.starts[i]
		g := f.shareds[st.g]
		for _, in := range f.instances {
			var opts []int32
			entryFrames(f.prog.Threads[in.spec].Proc, -1, nil, func(fr frame) {
				l := &local{frames: []frame{fr}}
				if enforced(g, l) {
					opts = append(opts, f.localOf(l))
				}
			})
			if in.open {
				st.open = append(st.open, opts)
			} else {
				st.fixed = append(st.fixed, opts)
				st.dead = st.dead || len(opts) == 0
			}
		}
	}
	return true
}

// runInit explores init alone (breadth first) from every initial global
// state and records the shared states it ends in, each with the shortest
// path there, or its shortest failing path. Without init, the initial
// globals are the start.
func (f *forward) runInit(ctx context.Context) bool {
	g0 := &shared{globals: make([]bool, len(f.prog.Globals))}
	sets := make([]vset, len(f.prog.Globals))
	for i, v := range f.prog.Globals {
		sets[i] = canF | canT
		if v.Init != ir.Unknown {
			sets[i] = single(v.Init == ir.True)
		}
	}
	var firsts []*shared
	choices(sets, func(vals []bool) {
		g := g0.clone()
		copy(g.globals, vals)
		firsts = append(firsts, g)
	})
	if f.prog.Init == nil {
		for _, g := range firsts {
			f.starts = append(f.starts, start{g: f.sharedOf(g)})
		}
		return true
	}
	// A state of init's run: shared and init's thread state, with the
	// transition that reached it and the state before.
	type node struct {
		g, l   int32
		via    int32 // index in initTrans; -1 at the start
		parent int32
	}
	var nodes []node
	seen := map[uint64]bool{}
	started := map[int32]bool{}
	path := func(n int32, last int32) []int32 {
		var out []int32
		if last >= 0 {
			out = append(out, last)
		}
		for ; nodes[n].via >= 0; n = nodes[n].parent {
			out = append(out, nodes[n].via)
		}
		slices.Reverse(out)
		return out
	}
	push := func(g *shared, l *local, via, parent int32) {
		gid, lid := f.sharedOf(g), f.localOf(l)
		if seen[pairKey(gid, lid)] {
			return
		}
		seen[pairKey(gid, lid)] = true
		nodes = append(nodes, node{gid, lid, via, parent})
	}
	for _, g := range firsts {
		entryFrames(f.prog.Init, -1, nil, func(fr frame) {
			if l := (&local{frames: []frame{fr}}); enforced(g, l) {
				if n := f.prog.Init.Nodes[fr.pc]; n.Error && f.initFail == nil {
					f.initFail = []int32{} // init starts at an error label
				}
				push(g, l, -1, -1)
			}
		})
		if f.initFail != nil {
			return true
		}
	}
	for i := 0; i < len(nodes); i++ {
		if ctx.Err() != nil {
			return false
		}
		n := nodes[i]
		g, l := f.shareds[n.g], f.locals[n.l]
		for _, e := range l.top().proc.Nodes[l.top().pc].Out {
			stop := false
			f.step(g, l, e, func(o outcome) {
				if stop {
					return
				}
				if o.fails {
					f.initTrans = append(f.initTrans, micro{edge: e, g: n.g, l: n.l, spawn: -1})
					f.initFail, f.initFailText = path(int32(i), int32(len(f.initTrans)-1)), o.failText
					stop = true
					return
				}
				t := micro{edge: e, g: f.sharedOf(o.g2), l: dead, spawn: -1}
				if o.l2 != nil {
					t.l = f.localOf(o.l2)
				}
				f.initTrans = append(f.initTrans, t)
				via := int32(len(f.initTrans) - 1)
				if o.l2 == nil || len(o.l2.frames) == 1 && o.l2.top().pc == f.prog.InitStop {
					// init is done: the threads start beside o.g2, which
					// no longer says whether init was atomic.
					g2 := o.g2.clone()
					g2.atomic = false
					gid := f.sharedOf(g2)
					if !started[gid] {
						started[gid] = true
						f.starts = append(f.starts, start{g: gid, init: append(path(int32(i), -1), via)})
					}
					return
				}
				push(o.g2, o.l2, via, int32(i))
			})
			if f.initFail != nil {
				return true
			}
		}
	}
	return true
}
