package ir

// ThreadsUnbounded reports whether p can have unboundedly many threads:
// a thread count is `*`, or a spawn or fork can be executed again and
// again (it lies on a cycle of its procedure's graph, a fork's new
// thread included, or its procedure runs again and again: called or
// started from such a point, or recursively). Such a program is
// parameterized: its question is about every number of threads.
func (p *Program) ThreadsUnbounded() bool {
	for _, t := range p.Threads {
		if t.Unbounded {
			return true
		}
	}
	starts := func(e *Edge) bool { return e.Kind == Fork || e.Kind == Call && e.Spawn }
	if !containsEdge(p.Edges, starts) {
		return false
	}
	repeated := p.repeated()
	for _, pr := range p.Procs {
		for _, e := range procEdges(pr) {
			if starts(e) && (repeated[pr.Index] || onCycle(pr, e.From)) {
				return true
			}
		}
	}
	return false
}

// repeated marks, by procedure index, the procedures that can run again
// and again: called or started from a point on a cycle of its caller's
// graph, or from such a procedure, or recursively.
func (p *Program) repeated() []bool {
	repeated := make([]bool, len(p.Procs))
	var mark func(pr *Proc)
	mark = func(pr *Proc) {
		if repeated[pr.Index] {
			return
		}
		repeated[pr.Index] = true
		for _, e := range procEdges(pr) {
			if e.Kind == Call {
				mark(e.Callee)
			}
		}
	}
	for _, pr := range p.Procs {
		for _, e := range procEdges(pr) {
			if e.Kind == Call && (onCycle(pr, e.From) || reaches(e.Callee, pr)) {
				mark(e.Callee)
			}
		}
	}
	return repeated
}

// Recurring marks, per procedure, the nodes a thread can stand at again
// after a step: on a cycle of the procedure's graph, or anywhere in a
// procedure that runs again and again. A thread that steps on a cycle
// of the program's states stands at such a node at each state of it
// (the cycle brings its whole stack back).
func (p *Program) Recurring() map[*Proc][]bool {
	repeated := p.repeated()
	out := map[*Proc][]bool{}
	for _, pr := range p.Procs {
		marks := make([]bool, len(pr.Nodes))
		for n := range pr.Nodes {
			marks[n] = repeated[pr.Index] || onCycle(pr, n)
		}
		out[pr] = marks
	}
	return out
}

func containsEdge(es []*Edge, f func(*Edge) bool) bool {
	for _, e := range es {
		if f(e) {
			return true
		}
	}
	return false
}

func procEdges(pr *Proc) []*Edge {
	var out []*Edge
	for _, n := range pr.Nodes {
		out = append(out, n.Out...)
	}
	return out
}

// onCycle reports whether node n of pr can be reached again from itself
// (a fork's new thread counts as a successor).
func onCycle(pr *Proc, n int) bool {
	succs := Successors(pr)
	seen := make([]bool, len(pr.Nodes))
	stack := append([]int(nil), succs[n]...)
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m == n {
			return true
		}
		if !seen[m] {
			seen[m] = true
			stack = append(stack, succs[m]...)
		}
	}
	return false
}

// reaches reports whether from calls or starts to, directly or through
// other procedures.
func reaches(from, to *Proc) bool {
	seen := map[*Proc]bool{}
	var visit func(pr *Proc) bool
	visit = func(pr *Proc) bool {
		if pr == to {
			return true
		}
		if seen[pr] {
			return false
		}
		seen[pr] = true
		for _, e := range procEdges(pr) {
			if e.Kind == Call && visit(e.Callee) {
				return true
			}
		}
		return false
	}
	return visit(from)
}
