package cover

import "slices"

// moves calls emit with every move of a thread in state lid beside
// shared state gid: one step, then, while the thread is inside an atomic
// section, every step it takes (no other thread runs meanwhile), then
// its invisible steps up to a visible node. Invisible steps touch only
// the thread's own locals, are always enabled and contain no loop
// (ir.VisibleNodes), so they commute with every other thread's steps:
// taking them at once changes neither which configurations can fail nor
// how. The steps are explored breadth first, each intermediate state
// once, so every outcome comes with a shortest path.
func (s *system) moves(gid, lid int32, emit func(transition)) {
	type node struct {
		g, l   int32
		parent int32
		step   micro
	}
	nodes := []node{{g: gid, l: lid, parent: -1}}
	seen := map[uint64]bool{pairKey(gid, lid): true}
	done := map[string]bool{}
	path := func(n int32, last *micro) ([]micro, []int32) {
		var steps []micro
		if last != nil {
			steps = append(steps, *last)
		}
		for ; nodes[n].parent >= 0; n = nodes[n].parent {
			steps = append(steps, nodes[n].step)
		}
		slices.Reverse(steps)
		var spawns []int32
		for _, m := range steps {
			if m.spawn >= 0 {
				spawns = append(spawns, m.spawn)
			}
		}
		return steps, spawns
	}
	for i := int32(0); int(i) < len(nodes); i++ {
		n := nodes[i]
		g, l := s.shareds[n.g], s.locals[n.l]
		for _, e := range l.top().proc.Nodes[l.top().pc].Out {
			s.step(g, l, e, func(o outcome) {
				if o.fails {
					steps, spawns := path(i, &micro{edge: e, g: n.g, l: n.l, spawn: -1})
					emit(transition{g: gid, l: lid, g2: n.g, l2: n.l, spawns: spawns, path: steps, fails: true, failText: o.failText})
					return
				}
				m := micro{edge: e, g: s.sharedOf(o.g2), l: dead, spawn: -1}
				if o.l2 != nil {
					m.l = s.localOf(o.l2)
				}
				if o.spawn != nil {
					m.spawn = s.localOf(o.spawn)
				}
				if o.l2 != nil && (o.l2.atomic || !s.visible[o.l2.top().proc.Index][o.l2.top().pc]) {
					// The move goes on.
					if k := pairKey(m.g, m.l); !seen[k] {
						seen[k] = true
						nodes = append(nodes, node{g: m.g, l: m.l, parent: i, step: m})
					}
					return
				}
				steps, spawns := path(i, &m)
				t := transition{g: gid, l: lid, g2: m.g, l2: m.l, spawns: spawns, path: steps}
				key := transitionKey(t)
				if !done[key] {
					done[key] = true
					emit(t)
				}
			})
		}
	}
}

// transitionKey identifies a move by its effect.
func transitionKey(t transition) string {
	buf := make([]byte, 0, 16+4*len(t.spawns))
	for _, x := range append([]int32{t.g2, t.l2}, t.spawns...) {
		buf = append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return string(buf)
}
