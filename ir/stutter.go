package ir

import "slices"

// Idle steps and the cycles they close.
//
// A test, skip, assume or assert changes no variable. When a thread goes
// from a loop head h through such idle steps only and back to h, it is
// at h in the state it left h in, or, when other threads ran meanwhile,
// in the state it would have found had it waited at h. The last step of
// such a cycle can therefore go: every state is still reached, with the
// same context switches and rounds (a switch may come before any step)
// and fewer steps. A spin loop `while (c) do skip; od` becomes, for
// safety, the `assume(!c)` it stands for, and the loops of a lock
// protocol lose the iterations that only wait. This is a reduction for
// safety questions without a step bound: it removes executions, never
// adds one, so every counterexample of the copy is one of p's.

// WithoutStutter returns a copy of p in which no thread can come back to
// a loop head by idle steps alone, and the number of steps cut; p itself
// when there is none. Steps keep their IDs, so a step of the copy names
// the step of p with the same ID.
func WithoutStutter(p *Program) (*Program, int) {
	q := p.clone()
	total := 0
	for _, pr := range q.Procs {
		for {
			cut := 0
			for _, h := range LoopHeads(pr) {
				cut += cutIdleCycles(pr, h)
			}
			if cut == 0 {
				break
			}
			total += cut
		}
	}
	if total == 0 {
		return p, 0
	}
	return q, total
}

// idle reports whether step e changes nothing but the thread's location.
// Atomic markers change the thread's mode and stay.
func idle(e *Edge) bool {
	return (e.Kind == Skip || e.Kind == Assert) && e.Atomic == NoMark && e.To >= 0
}

// cutIdleCycles cuts, in pr, the skips that close a cycle of idle steps
// through h, and returns how many it cut. A step is taken out of its
// node's steps; a node left without steps would read as a thread that
// has ended, so a node that can lose its last step loses the steps into
// it instead (when they are skips too), and otherwise keeps that step
// with the guard false.
func cutIdleCycles(pr *Proc, h int) int {
	after := idleAfter(pr, h)
	in := make([][]*Edge, len(pr.Nodes))
	for _, nd := range pr.Nodes {
		for _, e := range nd.Out {
			if e.To >= 0 && e.To < len(pr.Nodes) {
				in[e.To] = append(in[e.To], e)
			}
		}
	}
	// emptiable: a node every arrival at which is a skip from h or from a
	// node after h, so that the skips into it can go with it.
	emptiable := func(m int) bool {
		if m == h || !after[m] || pr.Nodes[m].Error {
			return false
		}
		for _, e := range in[m] {
			if e.Kind != Skip {
				return false
			}
		}
		return true
	}
	cut := 0
	var remove func(e *Edge)
	remove = func(e *Edge) {
		from := pr.Nodes[e.From]
		i := slices.Index(from.Out, e)
		if i < 0 {
			return
		}
		if len(from.Out) == 1 && !emptiable(e.From) {
			if !e.Disabled() {
				e.Guard = Const(false)
				cut++
			}
			return
		}
		from.Out = slices.Delete(from.Out, i, i+1)
		cut++
		if len(from.Out) == 0 {
			for _, into := range slices.Clone(in[e.From]) {
				remove(into)
			}
		}
	}
	for m := range pr.Nodes {
		if m != h && !after[m] {
			continue
		}
		for _, e := range slices.Clone(pr.Nodes[m].Out) {
			if e.To == h && e.Kind == Skip && idle(e) && !e.Disabled() {
				remove(e)
			}
		}
	}
	return cut
}

// idleAfter marks the nodes of pr that a thread reaches only through h
// followed by idle steps: every step into such a node is idle and comes
// from h or from another such node, and the entry (where a frame
// starts) and a fork's start are not among them. It is the greatest set
// with that property, found by striking out nodes until none breaks it;
// every path from the entry to a marked node then has a last visit of h
// with only idle steps after it.
func idleAfter(pr *Proc, h int) []bool {
	n := len(pr.Nodes)
	reached := make([]bool, n)
	succs := Successors(pr)
	stack := []int{}
	if pr.Entry >= 0 && pr.Entry < n {
		stack = append(stack, pr.Entry)
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[x] {
			continue
		}
		reached[x] = true
		stack = append(stack, succs[x]...)
	}
	after := slices.Clone(reached)
	after[h] = false
	if pr.Entry >= 0 && pr.Entry < n {
		after[pr.Entry] = false
	}
	for _, nd := range pr.Nodes {
		for _, e := range nd.Out {
			if e.Kind == Fork && e.ForkTo >= 0 && e.ForkTo < n {
				after[e.ForkTo] = false
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for m, nd := range pr.Nodes {
			if !reached[m] {
				continue
			}
			for _, e := range nd.Out {
				if e.To < 0 || e.To >= n || !after[e.To] {
					continue
				}
				if !idle(e) || m != h && !after[m] {
					after[e.To] = false
					changed = true
				}
			}
		}
	}
	return after
}

// clone copies p's procedures, nodes and steps (variables, locks and
// expressions are shared: nothing changes them), with every reference
// between them pointing into the copy.
func (p *Program) clone() *Program {
	q := *p
	procs := make(map[*Proc]*Proc, len(p.Procs))
	q.Procs = make([]*Proc, len(p.Procs))
	for i, pr := range p.Procs {
		c := *pr
		procs[pr] = &c
		q.Procs[i] = &c
	}
	moved := func(pr *Proc) *Proc {
		if c, ok := procs[pr]; ok {
			return c
		}
		return pr
	}
	q.Edges = make([]*Edge, len(p.Edges))
	for i, e := range p.Edges {
		c := *e
		c.Proc, c.Callee = moved(e.Proc), moved(e.Callee)
		q.Edges[i] = &c
	}
	for _, pr := range p.Procs {
		c := procs[pr]
		c.Nodes = make([]*Node, len(pr.Nodes))
		for i, nd := range pr.Nodes {
			cn := *nd
			cn.Out = make([]*Edge, len(nd.Out))
			for j, e := range nd.Out {
				cn.Out[j] = q.Edges[e.ID]
			}
			c.Nodes[i] = &cn
		}
	}
	if p.Init != nil {
		q.Init = moved(p.Init)
	}
	q.Threads = slices.Clone(p.Threads)
	for i := range q.Threads {
		q.Threads[i].Proc = moved(q.Threads[i].Proc)
	}
	return &q
}
