package encode

import (
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// region is the DAG of the blocks from one cut point of a procedure: the
// nodes reached from it by in-frame steps without passing another cut
// point, encoded once (a node is reached when one of its incoming edges
// is taken, an edge is taken when its node is reached, the node's choice
// selects it and it can be taken; the values at a join are the taken
// edge's). The Horn encodings (Horn, Contexts) build their clauses from
// it; their witnesses read the chosen steps back from its literals.
type region struct {
	sys   *ts.System
	proc  *ir.Proc
	root  int
	cuts  map[int]bool
	order []int              // its nodes, root first, in topological order
	in    map[int][]*ir.Edge // the edges into each node but the root
	reach map[int]ts.Lit
	state map[int]hstate
	sel   map[*ir.Edge]ts.Lit // attempted: the node is reached and its choice selects the edge
	taken map[*ir.Edge]ts.Lit
	after map[*ir.Edge]hstate // the running frame's state after the edge (a call: the caller's before it)
	bad   ts.Lit
	// The arrivals at the cut points the region reaches, in the order
	// first reached.
	exits     map[int][]regionArrival
	exitOrder []int
	frame     func(hstate) *env // an env of the running frame in a state
}

// hstate is the symbolic state of the running frame: the shared state
// (globals, locks the thread holds, its atomic mode) and its locals.
type hstate struct {
	globals, locks, locals []ts.Lit
	atomic                 ts.Lit
}

func (st hstate) shared() []ts.Lit { return append(slices.Clone(st.globals), st.locks...) }

type regionArrival struct {
	taken ts.Lit
	st    hstate
}

// regionEdges receive the edges that leave the frame: a call (with the
// caller's state and the arguments), a return (with the state after it
// and the returned values), a thread's end.
type regionEdges struct {
	call func(e *ir.Edge, after hstate, args []ts.Lit, taken ts.Lit)
	ret  func(e *ir.Edge, after hstate, vals []ts.Lit, taken ts.Lit)
	end  func(e *ir.Edge, after hstate, taken ts.Lit)
}

func newRegion(sys *ts.System, pr *ir.Proc, root int, cuts map[int]bool, st hstate, frame func(hstate) *env) *region {
	r := &region{sys: sys, proc: pr, root: root, cuts: cuts, reach: map[int]ts.Lit{}, state: map[int]hstate{},
		sel: map[*ir.Edge]ts.Lit{}, taken: map[*ir.Edge]ts.Lit{}, after: map[*ir.Edge]hstate{}, bad: ts.False,
		exits: map[int][]regionArrival{}, frame: frame}
	r.order, r.in = regionOrder(pr, root, cuts)
	r.reach[root], r.state[root] = ts.True, st
	if pr.Nodes[root].Error {
		r.bad = ts.True
	}
	return r
}

// walk encodes the region's steps, handing the edges that leave the
// frame to out.
func (r *region) walk(out regionEdges) {
	sys, pr := r.sys, r.proc
	for _, n := range r.order {
		if n != r.root {
			var lits []ts.Lit
			var sts []hstate
			for _, e := range r.in[n] {
				lits, sts = append(lits, r.taken[e]), append(sts, r.after[e])
			}
			r.reach[n], r.state[n] = sys.Ors(lits...), join(sys, lits, sts)
		}
		node := pr.Nodes[n]
		choice := inputs(sys, width(len(node.Out)), "choice")
		for i, e := range node.Out {
			sel := sys.And(r.reach[n], bitsIs(sys, choice, i))
			r.sel[e] = sel
			v := r.frame(r.state[n])
			after := func() hstate {
				return hstate{globals: v.globals, locks: v.locks, locals: v.locals, atomic: v.atomic}
			}
			switch e.Kind {
			case ir.Call:
				args := v.callArgs(e)
				v.mark(e)
				taken := sys.And(sel, v.feas)
				r.taken[e], r.after[e] = taken, after()
				if out.call != nil {
					out.call(e, r.after[e], args, taken)
				}
			case ir.Return:
				v.guard(e)
				vals := v.results(e)
				v.mark(e)
				taken := sys.And(sel, v.feas)
				r.taken[e], r.after[e] = taken, after()
				if out.ret != nil {
					out.ret(e, hstate{globals: v.globals, locks: v.locks, atomic: v.atomic}, vals, taken)
				}
			case ir.EndThread:
				v.guard(e)
				taken := sys.And(sel, v.feas)
				r.taken[e] = taken // the thread ends
				if out.end != nil {
					out.end(e, after(), taken)
				}
			default:
				bad := v.exec(e)
				v.mark(e)
				taken := sys.And(sel, v.feas)
				r.bad = sys.Or(r.bad, sys.And(sel, bad))
				r.taken[e], r.after[e] = taken, after()
				if pr.Nodes[e.To].Error {
					r.bad = sys.Or(r.bad, taken)
				}
				if r.cuts[e.To] {
					if _, seen := r.exits[e.To]; !seen {
						r.exitOrder = append(r.exitOrder, e.To)
					}
					r.exits[e.To] = append(r.exits[e.To], regionArrival{taken, r.after[e]})
				}
			}
		}
	}
}

// exit is the state in which the region arrives at cut point to, and
// the condition that it does.
func (r *region) exit(to int) (hstate, ts.Lit) {
	var lits []ts.Lit
	var sts []hstate
	for _, a := range r.exits[to] {
		lits, sts = append(lits, a.taken), append(sts, a.st)
	}
	return join(r.sys, lits, sts), r.sys.Ors(lits...)
}

// regionOrder is the nodes of the region of cut point c of pr in
// topological order, c first: the nodes reached from c by in-frame
// edges without passing another cut point (c's own back edges end it).
func regionOrder(pr *ir.Proc, c int, cuts map[int]bool) ([]int, map[int][]*ir.Edge) {
	inRegion := map[int]bool{c: true}
	stack := []int{c}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range pr.Nodes[n].Out {
			if inFrame(e) && !e.Disabled() && !cuts[e.To] && !inRegion[e.To] {
				inRegion[e.To] = true
				stack = append(stack, e.To)
			}
		}
	}
	indeg := map[int]int{}
	in := map[int][]*ir.Edge{}
	for n := range inRegion {
		for _, e := range pr.Nodes[n].Out {
			if inFrame(e) && !e.Disabled() && e.To != c && inRegion[e.To] {
				indeg[e.To]++
				in[e.To] = append(in[e.To], e)
			}
		}
	}
	order := []int{c}
	for i := 0; i < len(order); i++ {
		for _, e := range pr.Nodes[order[i]].Out {
			if inFrame(e) && !e.Disabled() && e.To != c && inRegion[e.To] {
				if indeg[e.To]--; indeg[e.To] == 0 {
					order = append(order, e.To)
				}
			}
		}
	}
	if len(order) != len(inRegion) {
		panic(fmt.Sprintf("encode: the blocks from %s of %s have a cycle without a cut point", pr.Nodes[c].Pos, pr.Name))
	}
	for _, es := range in { // in edge order, so that the encoding is the same each time
		slices.SortFunc(es, func(a, b *ir.Edge) int { return a.ID - b.ID })
	}
	return order, in
}

// inFrame reports whether e stays in its frame (and so in a block).
func inFrame(e *ir.Edge) bool {
	switch e.Kind {
	case ir.Call, ir.Return, ir.EndThread, ir.Fork:
		return false
	}
	return e.To >= 0
}

// join is the state at a node from the states of its incoming edges:
// at most one is taken, and its values are the node's.
func join(sys *ts.System, taken []ts.Lit, sts []hstate) hstate {
	if len(sts) == 1 {
		return sts[0]
	}
	mux := func(get func(hstate) []ts.Lit) []ts.Lit {
		out := slices.Clone(get(sts[0]))
		for i := range out {
			x := ts.False
			same := true
			for k, st := range sts {
				same = same && get(st)[i] == out[i]
				x = sys.Or(x, sys.And(taken[k], get(st)[i]))
			}
			if !same {
				out[i] = x
			}
		}
		return out
	}
	return hstate{
		globals: mux(func(st hstate) []ts.Lit { return st.globals }),
		locks:   mux(func(st hstate) []ts.Lit { return st.locks }),
		locals:  mux(func(st hstate) []ts.Lit { return st.locals }),
		atomic:  mux(func(st hstate) []ts.Lit { return []ts.Lit{st.atomic} })[0],
	}
}

// steps reads the steps of the block that a model vals of the region
// takes: at each node the edge its choice selects, until the block leaves
// the region (a cut point, a call, a return, a thread's end) or, with
// violation, until the violation. Each step has the globals after it
// (globals reads them from their literals) and, where it stays in its
// frame and does not end init (endsInit), the frame's locals.
func (r *region) steps(vals []bool, violation bool, globals func([]bool, []ts.Lit) []ir.Value, endsInit func(*ir.Edge) bool) ([]result.ReplayStep, error) {
	var out []result.ReplayStep
	n := r.root
	for count := 0; ; count++ {
		if violation && r.proc.Nodes[n].Error {
			return out, nil
		}
		if count > len(r.order) {
			return out, fmt.Errorf("witness: the block from %s does not end", r.proc.Nodes[r.root].Pos)
		}
		var e *ir.Edge
		for _, x := range r.proc.Nodes[n].Out {
			if ts.Value(vals, r.sel[x]) {
				e = x
				break
			}
		}
		if e == nil {
			return out, fmt.Errorf("witness: no step is chosen at %s", r.proc.Nodes[n].Pos)
		}
		st := result.ReplayStep{Edge: e}
		if !ts.Value(vals, r.taken[e]) {
			if !violation {
				return out, fmt.Errorf("witness: the step at %s cannot be taken", e.Pos)
			}
			// The violating step changes nothing: the globals are the
			// node's (the lazy sequentialization's read-back finds the
			// step's context in them).
			if at, ok := r.state[n]; ok {
				st.Globals = globals(vals, at.globals)
			}
			return append(out, st), nil
		}
		if after, ok := r.after[e]; ok {
			st.Globals = globals(vals, after.globals)
			if inFrame(e) && !endsInit(e) {
				st.Locals = values(vals, after.locals)
			}
		}
		out = append(out, st)
		if !inFrame(e) {
			if e.Kind == ir.Call || e.Kind == ir.Return {
				out[len(out)-1].Locals = nil // the callee's frame, or the caller's (set by the caller)
			}
			return out, nil
		}
		if r.cuts[e.To] {
			if violation && !r.proc.Nodes[e.To].Error {
				return out, fmt.Errorf("witness: the block from %s leaves without a violation", r.proc.Nodes[r.root].Pos)
			}
			return out, nil
		}
		n = e.To
	}
}
