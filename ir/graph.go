package ir

import (
	"fmt"
	"sort"
)

// Graph helpers over procedures, shared by the checkers, the encodings
// and the printer (package decompile), so that each is written once.

// Successors lists, per node of pr, the nodes its steps lead to: each
// edge's target, then a fork's start of the new thread, in edge order.
// Targets that are not nodes of pr (a return's -1) are left out.
func Successors(pr *Proc) [][]int {
	n := len(pr.Nodes)
	succs := make([][]int, n)
	for i, nd := range pr.Nodes {
		for _, e := range nd.Out {
			if e.To >= 0 && e.To < n {
				succs[i] = append(succs[i], e.To)
			}
			if e.Kind == Fork && e.ForkTo >= 0 && e.ForkTo < n {
				succs[i] = append(succs[i], e.ForkTo)
			}
		}
	}
	return succs
}

// Reached marks the nodes of pr that its entry reaches by steps that
// can be taken: a step whose guard is the constant false (a test that
// FoldConstantGlobals decided) leads nowhere; a call leads to the
// point after it.
func Reached(pr *Proc) []bool {
	seen := make([]bool, len(pr.Nodes))
	seen[pr.Entry] = true
	work := []int{pr.Entry}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range pr.Nodes[n].Out {
			for _, m := range []int{e.To, forkTo(e)} {
				if !e.Disabled() && m >= 0 && m < len(pr.Nodes) && !seen[m] {
					seen[m] = true
					work = append(work, m)
				}
			}
		}
	}
	return seen
}

// DomTree is a dominator tree of a graph with nodes 0..n-1.
type DomTree struct {
	// Idom is each node's immediate dominator; -1 for the root and for
	// the nodes the root does not reach.
	Idom []int
	// Reachable marks the nodes reached from the root.
	Reachable []bool
	// A dominates b iff b's interval [in, out] of a depth-first numbering
	// of the tree lies in a's.
	in, out []int
}

// Dominates reports whether a dominates b; false unless both are nodes
// reached from the root.
func (d *DomTree) Dominates(a, b int) bool {
	n := len(d.Idom)
	if a < 0 || a >= n || b < 0 || b >= n {
		return false
	}
	return d.Reachable[a] && d.Reachable[b] && d.in[a] <= d.in[b] && d.out[b] <= d.out[a]
}

// Dominators computes the dominator tree of the graph succs (successors
// per node) from root, by the iteration of Cooper, Harvey and Kennedy.
// It does not recurse, as printed sequentializations have long paths.
// Successors that are not nodes of the graph are ignored.
func Dominators(succs [][]int, root int) *DomTree {
	n := len(succs)
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	seen := make([]bool, n)
	t := &DomTree{Idom: idom, Reachable: seen, in: make([]int, n), out: make([]int, n)}
	if root < 0 || root >= n {
		return t
	}
	node := func(v int) bool { return v >= 0 && v < n }
	preds := make([][]int, n)
	for u, ss := range succs {
		for _, v := range ss {
			if node(v) {
				preds[v] = append(preds[v], u)
			}
		}
	}
	post := make([]int, n)
	var order []int // reached nodes in post-order
	type frame struct{ node, next int }
	stack := []frame{{root, 0}}
	seen[root] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succs[top.node]) {
			s := succs[top.node][top.next]
			top.next++
			if node(s) && !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post[top.node] = len(order)
		order = append(order, top.node)
		stack = stack[:len(stack)-1]
	}
	idom[root] = root
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if b == root {
				continue
			}
			d := -1
			for _, p := range preds[b] {
				if idom[p] < 0 {
					continue
				}
				if d < 0 {
					d = p
					continue
				}
				x, y := p, d
				for x != y {
					for post[x] < post[y] {
						x = idom[x]
					}
					for post[y] < post[x] {
						y = idom[y]
					}
				}
				d = x
			}
			if idom[b] != d {
				idom[b], changed = d, true
			}
		}
	}
	children := make([][]int, n)
	for _, b := range order {
		if b != root {
			children[idom[b]] = append(children[idom[b]], b)
		}
	}
	clock := 0
	stack = []frame{{root, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(children[top.node]) {
			c := children[top.node][top.next]
			top.next++
			clock++
			t.in[c] = clock
			stack = append(stack, frame{c, 0})
			continue
		}
		clock++
		t.out[top.node] = clock
		stack = stack[:len(stack)-1]
	}
	idom[root] = -1
	return t
}

// PostDominators is the dominator tree of pr's reversed flow from a
// virtual exit, node len(pr.Nodes), which follows every return, every
// end_thread and every node without steps. The immediate post-dominator
// of a branch is where its branches meet.
func PostDominators(pr *Proc) *DomTree {
	n := len(pr.Nodes)
	rev := make([][]int, n+1)
	for i, nd := range pr.Nodes {
		if len(nd.Out) == 0 {
			rev[n] = append(rev[n], i)
		}
		for _, e := range nd.Out {
			switch {
			case e.To >= 0 && e.To < n:
				rev[e.To] = append(rev[e.To], i)
			case e.Kind == Return || e.Kind == EndThread:
				rev[n] = append(rev[n], i)
			}
		}
	}
	return Dominators(rev, n)
}

// LoopHeads returns the targets of the back edges of a depth-first
// search of pr (from the entry, then from each node not reached yet);
// every cycle of the graph contains one.
func LoopHeads(pr *Proc) []int {
	const (
		white = iota
		grey
		black
	)
	succs := Successors(pr)
	color := make([]int, len(pr.Nodes))
	var heads []int
	var visit func(n int)
	visit = func(n int) {
		color[n] = grey
		for _, to := range succs[n] {
			switch color[to] {
			case white:
				visit(to)
			case grey:
				heads = append(heads, to)
			}
		}
		color[n] = black
	}
	if pr.Entry >= 0 && pr.Entry < len(pr.Nodes) {
		visit(pr.Entry)
	}
	for n := range pr.Nodes {
		if color[n] == white {
			visit(n)
		}
	}
	return heads
}

// TopoOrder is pr's nodes reached from its entry in topological order,
// or an error naming a node on a loop.
func TopoOrder(pr *Proc) ([]int, error) {
	return topoOrder(pr, func(int, int) bool { return true })
}

// topoOrder is TopoOrder over the edges from -> to that keep allows.
func topoOrder(pr *Proc, keep func(from, to int) bool) ([]int, error) {
	const (
		unseen = iota
		active
		done
	)
	if pr.Entry < 0 || pr.Entry >= len(pr.Nodes) {
		return nil, fmt.Errorf("%s has no entry node", pr.Name)
	}
	succs := Successors(pr)
	mark := make([]uint8, len(pr.Nodes))
	var post []int
	var loop error
	var visit func(id int)
	visit = func(id int) {
		mark[id] = active
		for _, to := range succs[id] {
			if loop != nil {
				break
			}
			if !keep(id, to) {
				continue
			}
			switch mark[to] {
			case active:
				loop = fmt.Errorf("%s has a loop at %s", pr.Name, pr.Nodes[to].Pos)
			case unseen:
				visit(to)
			}
		}
		mark[id] = done
		post = append(post, id)
	}
	visit(pr.Entry)
	if loop != nil {
		return nil, loop
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post, nil
}

// Recursive reports whether a thread of p (or init) can recurse: its
// executions have stacks of any height.
func (p *Program) Recursive() bool { return p.Deepest() < 0 }

// Deepest is the most frames a thread of p can hold on its stack (the
// entry frame counting 1): init, each initial thread and each thread a
// spawn can start, from its entry; -1 when one of them can recurse.
// Without recursion it is the call depth at which nothing is cut.
func (p *Program) Deepest() int {
	var entries []*Proc
	if p.Init != nil {
		entries = append(entries, p.Init)
	}
	for _, t := range p.Threads {
		entries = append(entries, t.Proc)
	}
	for _, e := range p.Edges {
		if e.Kind == Call && e.Spawn {
			entries = append(entries, e.Callee)
		}
	}
	deepest, seen := 0, map[*Proc]bool{}
	for _, entry := range entries {
		if seen[entry] {
			continue
		}
		seen[entry] = true
		d := CallDepth(entry)
		if d < 0 {
			return -1
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// CallDepth is the largest number of frames a thread starting in entry can
// have on its stack, or -1 when a recursive procedure is reachable.
func CallDepth(entry *Proc) int {
	memo := map[*Proc]int{}
	const visiting = -2
	var depth func(p *Proc) int
	depth = func(p *Proc) int {
		if d, ok := memo[p]; ok {
			if d == visiting {
				return -1
			}
			return d
		}
		memo[p] = visiting
		best := 1
		for _, n := range p.Nodes {
			for _, e := range n.Out {
				if e.Kind != Call || e.Spawn {
					continue
				}
				d := depth(e.Callee)
				if d < 0 {
					return -1
				}
				best = max(best, 1+d)
			}
		}
		memo[p] = best
		return best
	}
	return depth(entry)
}

// Loop is a natural loop of a procedure: the nodes on cycles through its
// head, which dominates them all, so that the loop is entered only at
// the head and an edge back to the head (a back edge) ends an
// iteration.
type Loop struct {
	Head  int
	Body  []bool  // by node: on a cycle through Head
	Outer *Loop   // the innermost loop containing this one; nil: none
	Inner []*Loop // the loops directly inside this one
}

// LoopNest is the loops of a procedure, nested, with an order of its
// nodes in which loops can be unwound: with the back edges left out, the
// nodes reached from the entry in topological order.
type LoopNest struct {
	Loops []*Loop // outer loops before the loops inside them
	// Innermost is, by node, the innermost loop containing it; nil for
	// nodes on no cycle.
	Innermost []*Loop
	Order     []int
}

// Loops finds the natural loops of pr's nodes reached from its entry, or
// an error naming a node on a cycle that can be entered other than at
// one head (an irreducible flow graph, which goto can build).
func Loops(pr *Proc) (*LoopNest, error) {
	if pr.Entry < 0 || pr.Entry >= len(pr.Nodes) {
		return nil, fmt.Errorf("%s has no entry node", pr.Name)
	}
	n := len(pr.Nodes)
	succs := Successors(pr)
	preds := make([][]int, n)
	for from, tos := range succs {
		for _, to := range tos {
			preds[to] = append(preds[to], from)
		}
	}
	dom := Dominators(succs, pr.Entry)
	back := func(from, to int) bool { return dom.Dominates(to, from) }
	// The body of the loop at head h: h and the nodes that reach a back
	// edge into h without passing h.
	body := map[int][]bool{}
	var heads []int
	for from, tos := range succs {
		if !dom.Reachable[from] {
			continue
		}
		for _, h := range tos {
			if !back(from, h) {
				continue
			}
			b, ok := body[h]
			if !ok {
				b = make([]bool, n)
				b[h] = true
				body[h] = b
				heads = append(heads, h)
			}
			stack := []int{from}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if b[x] {
					continue
				}
				b[x] = true
				stack = append(stack, preds[x]...)
			}
		}
	}
	// Without the back edges the reached graph must be acyclic.
	order, err := topoOrder(pr, func(from, to int) bool { return !back(from, to) })
	if err != nil {
		return nil, fmt.Errorf("%s: a loop is entered other than at its head (%v)", pr.Name, err)
	}
	nest := &LoopNest{Innermost: make([]*Loop, n), Order: order}
	// Outer loops are larger: nest by body size, each loop in the
	// smallest earlier one that contains its head.
	size := func(b []bool) (k int) {
		for _, x := range b {
			if x {
				k++
			}
		}
		return k
	}
	sizes := map[int]int{}
	for _, h := range heads {
		sizes[h] = size(body[h])
	}
	sort.SliceStable(heads, func(i, j int) bool { return sizes[heads[i]] > sizes[heads[j]] })
	for _, h := range heads {
		l := &Loop{Head: h, Body: body[h], Outer: nest.Innermost[h]}
		if l.Outer != nil {
			l.Outer.Inner = append(l.Outer.Inner, l)
		}
		for x, in := range l.Body {
			if in {
				nest.Innermost[x] = l
			}
		}
		nest.Loops = append(nest.Loops, l)
	}
	return nest, nil
}

// forkTo is where a fork's copy of the thread goes on (-1: e is no fork).
func forkTo(e *Edge) int {
	if e.Kind == Fork {
		return e.ForkTo
	}
	return -1
}
