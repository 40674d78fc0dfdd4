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
// once with each multiset of thread states started on the way to it, so
// every outcome comes with a shortest path. A move that would start
// more than maxMoveStarts threads (a loop inside an atomic section that
// starts threads) is cut there and noted in s.manyStarts.
// maxMoveStarts is the most threads one move may start.
const maxMoveStarts = 8

func (s *system) moves(gid, lid int32, emit func(transition)) {
	type node struct {
		g, l   int32
		parent int32
		step   micro
		spawns string // the threads started on the way here
	}
	nodes := []node{{g: gid, l: lid, parent: -1}}
	type place struct {
		pair   uint64
		spawns string
	}
	seen := map[place]bool{{pair: pairKey(gid, lid)}: true}
	done := map[string]bool{}
	path := func(n int32, last *micro) ([]micro, []int32, []int32) {
		var steps []micro
		if last != nil {
			steps = append(steps, *last)
		}
		for ; nodes[n].parent >= 0; n = nodes[n].parent {
			steps = append(steps, nodes[n].step)
		}
		slices.Reverse(steps)
		var spawns, choices []int32
		for _, m := range steps {
			if m.spawn >= 0 {
				spawns = append(spawns, m.spawn)
				choices = append(choices, m.choice)
			}
		}
		return steps, spawns, choices
	}
	for i := int32(0); int(i) < len(nodes); i++ {
		n := nodes[i]
		g, l := s.shareds[n.g], s.locals[n.l]
		for _, e := range l.top().proc.Nodes[l.top().pc].Out {
			var outs []outcome
			s.step(g, l, e, func(o outcome) { outs = append(outs, o) })
			ms := make([]micro, len(outs))
			choices := map[[2]int32][]int32{} // the starts of the step, by where it leads
			for k, o := range outs {
				ms[k] = micro{edge: e, g: n.g, l: n.l, spawn: -1}
				if o.fails {
					continue
				}
				ms[k].g, ms[k].l = s.sharedOf(o.g2), dead
				if o.l2 != nil {
					ms[k].l = s.localOf(o.l2)
				}
				if o.spawn != nil {
					ms[k].spawn = s.localOf(o.spawn)
					to := [2]int32{ms[k].g, ms[k].l}
					choices[to] = append(choices[to], ms[k].spawn)
				}
			}
			for k, o := range outs {
				if o.fails {
					steps, spawns, choices := path(i, &ms[k])
					emit(transition{g: gid, l: lid, g2: n.g, l2: n.l, spawns: spawns, choices: choices, path: steps, fails: true, failText: o.failText})
					continue
				}
				m := ms[k]
				if m.spawn >= 0 {
					set := slices.Clone(choices[[2]int32{m.g, m.l}])
					slices.Sort(set)
					m.choice = s.choiceOf(slices.Compact(set))
				}
				if o.l2 != nil && (o.l2.atomic || !s.visible[o.l2.top().proc.Index][o.l2.top().pc]) {
					// The move goes on.
					// Paths that started other threads are told apart.
					spawns := n.spawns
					if m.spawn >= 0 {
						set := keySet(n.spawns)
						if len(set) == maxMoveStarts {
							s.manyStarts = e // a loop inside an atomic section that starts threads
							continue
						}
						at, _ := slices.BinarySearch(set, m.spawn)
						spawns = setKey(slices.Insert(set, at, m.spawn))
					}
					if k := (place{pairKey(m.g, m.l), spawns}); !seen[k] {
						seen[k] = true
						nodes = append(nodes, node{g: m.g, l: m.l, parent: i, step: m, spawns: spawns})
					}
					continue
				}
				steps, spawns, choices := path(i, &m)
				t := transition{g: gid, l: lid, g2: m.g, l2: m.l, spawns: spawns, choices: choices, path: steps}
				key := transitionKey(t)
				if !done[key] {
					done[key] = true
					emit(t)
				}
			}
		}
	}
}

// transitionKey identifies a move by its effect.
func transitionKey(t transition) string {
	buf := make([]byte, 0, 8+8*len(t.spawns))
	for _, x := range slices.Concat([]int32{t.g2, t.l2}, t.spawns, t.choices) {
		buf = append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return string(buf)
}
