package encode

import (
	"context"
	"fmt"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// whole is a loop-free, non-recursive sequential program encoded whole:
// every call inlined and every statement encoded once, in the order of
// the unwound control-flow graph (the single-assignment form that
// CBMC-based tools such as Lazy-CSeq build). A time-frame unrolling
// instead copies the whole transition relation into every frame, and
// the solver must rule out in each frame the blocks that cannot run
// there; a sequentialization of loop-free threads is a long chain of
// blocks, so that costs a factor of the path length.
//
// The result is still a transition system, of one frame: no latches,
// inputs for the path's choices and nondeterministic values, and the
// violation as a property of frame 0. A node instance is reached when
// one of its incoming edge instances is taken; an edge is attempted when
// its node is reached and the node's choice inputs select it, and taken
// when it is also feasible. Each node selects at most one edge, so the
// reached nodes form one path and the values at a join are those of the
// edge taken into it (a multiplexer over the incoming edges). A path may
// stop anywhere, as a prefix of an execution; the violation needs no
// more.
type whole struct {
	prog *ir.Program
	sys  *ts.System
	// longest is the number of statements on the longest path: every
	// execution ends within it.
	longest int

	nodes []unode
	edges []uedge
	pool  []ts.Lit
	bad   []ts.Lit
	ctx   context.Context // while Whole runs: inlining ends with it

	loops      map[*ir.Proc]*procLoops
	iterations map[Loop]int // nil: the program is loop-free
	cuts       []Cut
	distinct   []ts.Lit
}

// unode is one instance of a node: the node in one inlined call.
type unode struct {
	node  *ir.Node
	reach ts.Lit
	out   []int // edge instances
	depth int   // statements on the longest path to it
}

// uedge is one instance of an edge with the state after it (the locals
// of the frame on top after the step).
type uedge struct {
	edge                   *ir.Edge
	attempted, taken, bad  ts.Lit
	globals, locals, locks []ts.Lit
	to                     int // the node instance reached; -1: the program ends
}

// ustate is the symbolic state at a node instance.
type ustate struct {
	globals, locals, locks []ts.Lit
}

// arrival is an edge instance taken into a node instance.
type arrival struct {
	edge  int
	taken ts.Lit
	st    ustate
	depth int
}

// maxUnwound bounds the node instances of an unwound program: beyond it
// the time-frame unrolling, whose size does not grow with inlining, is
// used instead.
const maxUnwound = 1 << 20

// Loop names a loop of a program: its procedure and head node.
type Loop struct {
	Proc *ir.Proc
	Head int
}

// Cut is the condition that an activation of Loop would start one more
// iteration than its unwinding encodes, in a state (every variable) that
// none of its encoded iterations started in.
type Cut struct {
	Loop Loop
	Lit  ts.Lit
}

// unwindable reports why p cannot be encoded whole with call stacks of
// at most depth frames and the loops unwound as iterations says (nil:
// loops are not allowed), or else the loops of its procedures.
func unwindable(p *ir.Program, depth int, iterations map[Loop]int) (map[*ir.Proc]*procLoops, error) {
	if err := oneThread(p); err != nil {
		return nil, err
	}
	starts := []*ir.Proc{p.Threads[0].Proc}
	if p.Init != nil {
		starts = append(starts, p.Init)
	}
	for _, pr := range starts {
		d := ir.CallDepth(pr)
		if d < 0 {
			return nil, fmt.Errorf("the program is recursive")
		}
		if d > depth {
			return nil, fmt.Errorf("calls nest %d deep, more than the depth bound %d", d, depth)
		}
	}
	loops := map[*ir.Proc]*procLoops{}
	size := map[*ir.Proc]int{}
	tooLarge := fmt.Errorf("inlining every call gives more than %d locations", maxUnwound)
	var count func(pr *ir.Proc) (int, error)
	count = func(pr *ir.Proc) (int, error) {
		if n, ok := size[pr]; ok {
			return n, nil
		}
		pl, err := newProcLoops(pr)
		if err != nil {
			return 0, err
		}
		if len(pl.nest.Loops) > 0 && iterations == nil {
			return 0, fmt.Errorf("%s has a loop at %s", pr.Name, pr.Nodes[pl.nest.Loops[0].Head].Pos)
		}
		loops[pr] = pl
		// One iteration of loop l (nil: the procedure) has the nodes
		// directly in it, the inlined calls, and the unwound loops
		// inside it.
		var level func(l *ir.Loop) (int, error)
		level = func(l *ir.Loop) (int, error) {
			n := 0
			for _, id := range pl.items[l] {
				if in := pl.nest.Innermost[id]; in != l {
					c, err := level(in)
					if err != nil {
						return 0, err
					}
					n += c * max(1, iterations[Loop{pr, id}])
				} else {
					n++
					for _, e := range pr.Nodes[id].Out {
						if e.Kind == ir.Call {
							c, err := count(e.Callee)
							if err != nil {
								return 0, err
							}
							n += c
						}
					}
				}
				if n > maxUnwound {
					return 0, tooLarge
				}
			}
			return n, nil
		}
		n, err := level(nil)
		size[pr] = n
		return n, err
	}
	total := 0
	for _, pr := range starts {
		n, err := count(pr)
		if err != nil {
			return nil, err
		}
		if total += n; total > maxUnwound {
			return nil, tooLarge
		}
	}
	return loops, nil
}

// Whole encodes a loop-free, non-recursive program whole (see Check).
// When ctx ends first, the error is its cause.
func Whole(ctx context.Context, p *ir.Program, depth int) (Model, error) {
	return newWhole(ctx, p, depth, nil)
}

// Unwinding is a non-recursive program encoded whole (as by Whole) with
// each activation of each loop unwound to a number of iterations.
type Unwinding struct {
	Model
	// Distinct holds on the paths on which no activation of a loop starts
	// two of its encoded iterations in the same state.
	Distinct ts.Lit
	// Cuts are the further iterations: where none can hold on a path
	// with Distinct, the encoding covers every execution.
	Cuts []Cut
}

// Unwind encodes p whole with each activation of each loop l unwound to
// iterations[l] iterations (at least 1). An execution that starts two
// iterations of one activation in the same state has a shorter one with
// the same end, so a shortest execution to a violation has Distinct; if
// it went beyond the unwinding, its first iteration beyond would be
// reached on a path the encoding holds, and would be a cut.
func Unwind(ctx context.Context, p *ir.Program, depth int, iterations map[Loop]int) (*Unwinding, error) {
	if iterations == nil {
		iterations = map[Loop]int{}
	}
	u, err := newWhole(ctx, p, depth, iterations)
	if err != nil {
		return nil, err
	}
	return &Unwinding{Model: u, Distinct: u.sys.Ands(u.distinct...), Cuts: u.cuts}, nil
}

func newWhole(ctx context.Context, p *ir.Program, depth int, iterations map[Loop]int) (u *whole, err error) {
	loops, err := unwindable(p, depth, iterations)
	if err != nil {
		return nil, err
	}
	defer halt.Recover(&err)
	u = &whole{prog: p, sys: ts.New(), ctx: ctx, loops: loops, iterations: iterations}
	defer func() { u.ctx = nil }()
	s := u.sys
	main := p.Threads[0].Proc
	st := ustate{locks: make([]ts.Lit, len(p.Locks))} // locks start free
	for _, g := range p.Globals {
		st.globals = append(st.globals, u.initial(g.Init, "init "+g.Name))
	}
	// The initial frame (init's, or main's without init) satisfies its
	// enforce clause.
	first := main
	if p.Init != nil {
		first = p.Init
	}
	v := u.env(first, st)
	v.locals = v.newLocals(first, nil)
	v.enforce(first)
	st.locals = v.locals
	start := []arrival{{edge: -1, taken: v.feas, st: st}}
	if p.Init != nil {
		// Init ends where it returns or reaches its stop label; main
		// starts there with its initial locals.
		exits := u.inline(p.Init, start, p.InitStop)
		locals := u.env(main, st).newLocals(main, nil)
		start = nil
		for _, x := range exits {
			r := u.env(main, ustate{x.st.globals, locals, x.st.locks})
			r.enforce(main)
			e := &u.edges[x.edge]
			e.taken = s.And(x.taken, r.feas)
			e.globals, e.locals, e.locks = r.globals, r.locals, r.locks
			start = append(start, arrival{edge: x.edge, taken: e.taken, st: ustate{r.globals, r.locals, r.locks}, depth: x.depth})
		}
	}
	for _, x := range u.inline(main, start, -1) {
		u.longest = max(u.longest, x.depth)
	}
	s.AddBad("violation", s.Ors(u.bad...))
	return u, nil
}

// initial is a variable's value when it comes into existence.
func (u *whole) initial(v ir.Value, name string) ts.Lit {
	switch v {
	case ir.True:
		return ts.True
	case ir.False:
		return ts.False
	}
	return u.sys.NewInput(name)
}

// env is the running frame of pr in state st; its nondeterministic values
// are inputs of their own (each statement instance draws new ones).
func (u *whole) env(pr *ir.Proc, st ustate) *env {
	return &env{sys: u.sys, pool: &u.pool, used: len(u.pool), proc: pr, feas: ts.True,
		globals: append([]ts.Lit(nil), st.globals...),
		locals:  append([]ts.Lit(nil), st.locals...),
		locks:   append([]ts.Lit(nil), st.locks...),
	}
}

// inline encodes an instance of pr entered by the arrivals in and
// returns the arrivals its returns make at the caller, with the callee's
// state and the returned values in place of the locals (the caller
// completes them). Arrivals at node stop (-1: none) end the instance
// too, with the callee's locals.
func (u *whole) inline(pr *ir.Proc, in []arrival, stop int) (exits []arrival) {
	w := &walk{pr: pr, loops: u.loops[pr], stop: stop, arrivals: map[int][]arrival{pr.Entry: in}}
	u.walk(w, nil)
	return w.exits
}

// walk is the encoding of one instance of a procedure: the arrivals at
// its nodes not encoded yet, and its exits.
type walk struct {
	pr       *ir.Proc
	loops    *procLoops
	stop     int
	arrivals map[int][]arrival
	exits    []arrival
}

// procLoops is a procedure's loops with, per loop (nil: outside every
// loop), the nodes directly in it and the heads of the loops directly
// inside it, in the order of the nest.
type procLoops struct {
	nest  *ir.LoopNest
	items map[*ir.Loop][]int
}

func newProcLoops(pr *ir.Proc) (*procLoops, error) {
	nest, err := ir.Loops(pr)
	if err != nil {
		return nil, err
	}
	pl := &procLoops{nest: nest, items: map[*ir.Loop][]int{}}
	for _, id := range nest.Order {
		l := nest.Innermost[id]
		if l != nil && l.Head == id {
			// A head stands for its whole loop one level out, and is
			// the first node of the loop itself (it dominates the rest).
			pl.items[l.Outer] = append(pl.items[l.Outer], id)
		}
		pl.items[l] = append(pl.items[l], id)
	}
	return pl, nil
}

// walk encodes one iteration of loop l (nil: the instance outside its
// loops) and returns whether it is reached and the state at l's head.
func (u *whole) walk(w *walk, l *ir.Loop) (reach ts.Lit, head ustate) {
	reach = ts.False
	for _, id := range w.loops.items[l] {
		in := w.loops.nest.Innermost[id]
		if in != l {
			u.unwind(w, in)
			continue
		}
		r, st := u.node(w, id)
		if l != nil && id == l.Head {
			reach, head = r, st
		}
	}
	return reach, head
}

// unwind encodes the iterations of loop l that the unwinding allows.
// A path that starts two of them in the same state is excluded (by
// u.distinct): the execution between the two can be left out, as the
// state includes every variable and the frames below are those of the
// same activation. A further iteration is cut, and recorded as a cut
// when it could start in a new state.
func (u *whole) unwind(w *walk, l *ir.Loop) {
	key := Loop{Proc: w.pr, Head: l.Head}
	n := max(1, u.iterations[key])
	var starts []ustate
	for i := 0; i < n && len(w.arrivals[l.Head]) > 0; i++ {
		reach, st := u.walk(w, l)
		u.distinct = append(u.distinct, u.sys.Implies(reach, u.differs(st, starts)))
		starts = append(starts, st)
	}
	ins := w.arrivals[l.Head]
	delete(w.arrivals, l.Head)
	if len(ins) == 0 {
		return
	}
	reach, st, _ := u.join(ins)
	if fresh := u.sys.And(reach, u.differs(st, starts)); fresh != ts.False {
		u.cuts = append(u.cuts, Cut{Loop: key, Lit: fresh})
	}
}

// differs holds when st differs from each of olds in some variable.
func (u *whole) differs(st ustate, olds []ustate) ts.Lit {
	s := u.sys
	all := ts.True
	for _, old := range olds {
		var differ []ts.Lit
		for _, pair := range [][2][]ts.Lit{{st.globals, old.globals}, {st.locals, old.locals}, {st.locks, old.locks}} {
			for k := range pair[0] {
				differ = append(differ, s.Xor(pair[0][k], pair[1][k]))
			}
		}
		all = s.And(all, s.Ors(differ...))
	}
	return all
}

// node encodes the instance of node id reached by its arrivals, if any,
// and returns whether it is reached and the state there.
func (u *whole) node(w *walk, id int) (ts.Lit, ustate) {
	s := u.sys
	pr := w.pr
	ins := w.arrivals[id]
	delete(w.arrivals, id)
	if len(ins) == 0 {
		return ts.False, ustate{}
	}
	halt.Point(u.ctx)
	n := pr.Nodes[id]
	if id == w.stop {
		for _, a := range ins {
			if n.Error {
				u.bad = append(u.bad, a.taken)
			}
		}
		w.exits = append(w.exits, ins...)
		return ts.False, ustate{}
	}
	here := len(u.nodes)
	un := unode{node: n}
	var st ustate
	un.reach, st, un.depth = u.join(ins)
	for _, a := range ins {
		if a.edge >= 0 {
			u.edges[a.edge].to = here
		}
	}
	u.nodes = append(u.nodes, un)
	if un.reach == ts.False {
		return un.reach, st
	}
	if n.Error {
		u.bad = append(u.bad, un.reach)
	}
	var choice []ts.Lit
	if len(n.Out) > 1 {
		choice = make([]ts.Lit, width(len(n.Out)))
	}
	for i := range choice {
		choice[i] = s.NewInput(fmt.Sprintf("choice %s %d.%d", pr.Name, id, i))
	}
	for i, e := range n.Out {
		sel := s.And(un.reach, bitsIs(s, choice, i))
		if sel == ts.False {
			continue
		}
		idx := len(u.edges)
		u.nodes[here].out = append(u.nodes[here].out, idx)
		u.edges = append(u.edges, uedge{edge: e, attempted: sel, bad: ts.False, to: -1})
		next := un.depth + 1
		v := u.env(pr, st)
		switch e.Kind {
		case ir.Call:
			exits := u.call(v, e, idx, sel, next)
			w.arrivals[e.To] = append(w.arrivals[e.To], exits...)
		case ir.Return, ir.EndThread:
			v.guard(e)
			var vals []ts.Lit
			if e.Kind == ir.Return {
				vals = v.results(e)
			}
			ue := &u.edges[idx]
			ue.taken = s.And(sel, v.feas)
			ue.globals, ue.locals, ue.locks = v.globals, v.locals, v.locks
			if e.Kind == ir.Return {
				w.exits = append(w.exits, arrival{edge: idx, taken: ue.taken, st: ustate{v.globals, vals, v.locks}, depth: next})
			} else {
				u.longest = max(u.longest, next)
			}
		default:
			bad := v.exec(e)
			ue := &u.edges[idx]
			ue.bad = s.And(sel, bad)
			if ue.bad != ts.False {
				u.bad = append(u.bad, ue.bad)
			}
			ue.taken = s.And(sel, v.feas)
			ue.globals, ue.locals, ue.locks = v.globals, v.locals, v.locks
			w.arrivals[e.To] = append(w.arrivals[e.To], arrival{edge: idx, taken: ue.taken, st: ustate{v.globals, v.locals, v.locks}, depth: next})
		}
	}
	return un.reach, st
}

// call encodes call edge e (instance idx, attempted under sel) from the
// caller's frame v: the callee is inlined, and its returns become
// arrivals at the caller's continuation.
func (u *whole) call(v *env, e *ir.Edge, idx int, sel ts.Lit, depth int) []arrival {
	s := u.sys
	args := v.callArgs(e)
	callee := v.enter(e.Callee, v.newLocals(e.Callee, args))
	callee.used = len(u.pool)
	callee.enforce(e.Callee)
	ue := &u.edges[idx]
	ue.taken = s.And(sel, callee.feas)
	ue.globals, ue.locals, ue.locks = callee.globals, callee.locals, callee.locks
	exits := u.inline(e.Callee, []arrival{{edge: idx, taken: ue.taken, st: ustate{callee.globals, callee.locals, callee.locks}, depth: depth}}, -1)
	var out []arrival
	for _, x := range exits {
		// Back in the caller: its locals as at the call, the results
		// written, its enforce clause assumed.
		r := u.env(e.Proc, ustate{x.st.globals, v.locals, x.st.locks})
		for i, t := range e.Targets {
			if t != nil {
				r.write(t, x.st.locals[i])
			}
		}
		r.enforce(e.Proc)
		re := &u.edges[x.edge]
		re.taken = s.And(x.taken, r.feas)
		re.globals, re.locals, re.locks = r.globals, r.locals, r.locks
		out = append(out, arrival{edge: x.edge, taken: re.taken, st: ustate{r.globals, r.locals, r.locks}, depth: x.depth})
	}
	return out
}

// join merges the arrivals at a node: it is reached when one of them is
// taken, and each variable has the value of the one taken (at most one
// is, on a path).
func (u *whole) join(ins []arrival) (reach ts.Lit, st ustate, depth int) {
	s := u.sys
	takens := make([]ts.Lit, len(ins))
	for i, a := range ins {
		takens[i] = a.taken
		depth = max(depth, a.depth)
	}
	reach = s.Ors(takens...)
	if len(ins) == 1 {
		return reach, ins[0].st, depth
	}
	mux := func(pick func(ustate) []ts.Lit) []ts.Lit {
		out := append([]ts.Lit(nil), pick(ins[len(ins)-1].st)...)
		for k := range out {
			for i := len(ins) - 2; i >= 0; i-- {
				if x := pick(ins[i].st)[k]; x != out[k] {
					out[k] = s.Ite(ins[i].taken, x, out[k])
				}
			}
		}
		return out
	}
	st.globals = mux(func(x ustate) []ts.Lit { return x.globals })
	st.locals = mux(func(x ustate) []ts.Lit { return x.locals })
	st.locks = mux(func(x ustate) []ts.Lit { return x.locks })
	return reach, st, depth
}

// Steps reads the path of a model of frame 0 (values of every variable)
// as the statements it executes with the values after each, up to the
// violation, for replay on the explicit interpreter.
func (u *whole) Steps(values func(i int) []bool, _ int) ([]result.ReplayStep, error) {
	vals := values(0)
	var out []result.ReplayStep
	cur := 0
	for {
		n := u.nodes[cur]
		if n.node.Error {
			return out, nil
		}
		next := -1
		for _, ei := range n.out {
			e := u.edges[ei]
			if !ts.Value(vals, e.attempted) {
				continue
			}
			st := result.ReplayStep{Edge: e.edge, Globals: evalAll(vals, e.globals), Locals: evalAll(vals, e.locals)}
			out = append(out, st)
			if ts.Value(vals, e.bad) {
				return out, nil
			}
			if !ts.Value(vals, e.taken) {
				return nil, fmt.Errorf("witness: %s at %s is selected but cannot be taken", e.edge.Stmt, e.edge.Pos)
			}
			if k := e.edge.Kind; k != ir.Call && k != ir.Return && e.edge.To >= 0 && e.edge.Proc.Nodes[e.edge.To].Error {
				return out, nil // init's stop label is an error label
			}
			next = e.to
			break
		}
		if next < 0 {
			return nil, fmt.Errorf("witness: the path ends at %s without a violation", n.node.Pos)
		}
		cur = next
	}
}

func (u *whole) System() *ts.System { return u.sys }

func (u *whole) Limits() []int { return nil }

// Running: frame 0 holds every execution to its end.
func (u *whole) Running() ts.Lit { return ts.False }

func (u *whole) Fixed(int) map[int]bool { return nil }

func (u *whole) Ended(int) bool { return true }

func (u *whole) Longest() int { return max(u.longest, 1) }
