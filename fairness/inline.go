package fairness

import (
	"fmt"

	"bmc/ir"
)

// Inlining the threads.
//
// The translation snapshots a thread's local state when its loop starts
// and compares it one period later. Fig. 2 snapshots the top frame only
// and shifts the snapshot to a context where that frame is a keyframe,
// which makes the stem up to k2 rounds longer than asked (Lemma 5). For a
// program without recursion a thread's whole stack is bounded, so we
// inline every call of a thread instead: the thread becomes one frame,
// and comparing that frame compares the whole stack, at exactly the
// rounds the user gave. A callee's locals are set to F when it returns,
// so that a frame that is gone leaves nothing behind to compare.
//
// Recursion is inlined as deep as the call depth bound allows (the
// thread's entry frame is 1, as in the explicit engine); a call that
// would go deeper cuts the run, and the translation says so (DepthCut),
// so that "no livelock" is not claimed for executions it did not see.

// inlined is p with every thread's entry procedure replaced by a copy in
// which the calls are expanded, and how its new steps map back to p.
type inlined struct {
	q *ir.Program
	// By step ID of q (those of p keep their IDs): the step of p it
	// executes and, after it, the locals of q's thread procedure that are
	// the locals of p's top frame (nil when the thread has ended).
	origin []*ir.Edge
	frame  [][]int

	depth int        // frames per thread
	cut   []*ir.Edge // calls of p cut at the depth bound
	nodes int        // nodes made, against maxNodes
}

// maxNodes bounds the inlined threads: recursion with several call sites
// grows exponentially with the depth.
const maxNodes = 200_000

// inline returns the inlined copy of p with calls inlined up to depth
// frames. It refuses atomic procedures and enforce clauses in thread
// code, which it does not translate.
func inline(p *ir.Program, depth int) (*inlined, error) {
	in := &inlined{q: &ir.Program{File: p.File, Globals: p.Globals, Locks: p.Locks, Init: p.Init,
		InitStop: p.InitStop, Dialect: p.Dialect, Targets: p.Targets}, depth: depth}
	in.q.Procs = append(in.q.Procs, p.Procs...)
	in.q.Edges = append(in.q.Edges, p.Edges...)
	in.origin = append(in.origin, p.Edges...)
	in.frame = make([][]int, len(p.Edges))
	made := map[*ir.Proc]*ir.Proc{}
	for _, t := range p.Threads {
		if made[t.Proc] == nil {
			if err := checkCalls(p, t.Proc, map[*ir.Proc]bool{}); err != nil {
				return nil, err
			}
			made[t.Proc] = in.thread(t.Proc)
			if in.nodes > maxNodes {
				return nil, fmt.Errorf("thread %s inlined to call depth %d has over %d nodes; give a smaller --depth", t.Proc.Name, depth, maxNodes)
			}
		}
		in.q.Threads = append(in.q.Threads, ir.ThreadSpec{Proc: made[t.Proc], Count: t.Count, Unbounded: t.Unbounded})
	}
	return in, nil
}

// checkCalls says why pr or a procedure it calls (seen: those checked)
// cannot be inlined, or nil.
func checkCalls(p *ir.Program, pr *ir.Proc, seen map[*ir.Proc]bool) error {
	if seen[pr] {
		return nil
	}
	seen[pr] = true
	switch {
	case pr.Atomic:
		return fmt.Errorf("%s:%s: %s is an atomic procedure; the livelock search does not translate those yet", p.File, pr.Pos, pr.Name)
	case pr.Enforce != nil:
		return fmt.Errorf("%s:%s: %s has an enforce clause; the livelock search does not translate those yet", p.File, pr.Pos, pr.Name)
	}
	for _, n := range pr.Nodes {
		for _, e := range n.Out {
			if e.Kind == ir.Call && !e.Spawn {
				if err := checkCalls(p, e.Callee, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// copyOf is one inlined instance of a procedure inside a thread
// procedure: its nodes and locals there.
type copyOf struct {
	proc   *ir.Proc
	level  int       // its frame's place on the stack (the entry's is 1)
	nodes  []int     // by node of proc: the node of the thread procedure
	locals []*ir.Var // by local of proc
	idx    []int     // indices of locals in the thread procedure
}

// thread builds the inlined procedure of thread entry pr.
func (in *inlined) thread(pr *ir.Proc) *ir.Proc {
	tp := &ir.Proc{Name: pr.Name, Index: len(in.q.Procs), Pos: pr.Pos, Params: pr.Params, Returns: pr.Returns}
	in.q.Procs = append(in.q.Procs, tp)
	top := in.instance(tp, pr, "", 1)
	tp.Entry = top.nodes[pr.Entry]
	in.fill(tp, top, false)
	return tp
}

// instance adds the nodes and locals of one inlined instance of pr. A
// callee's locals (prefix not empty) are F until it is called, as after
// it returns: no frame, nothing to compare.
func (in *inlined) instance(tp *ir.Proc, pr *ir.Proc, prefix string, level int) *copyOf {
	c := &copyOf{proc: pr, level: level}
	for _, v := range pr.Locals {
		init := v.Init
		if prefix != "" {
			init = ir.False
		}
		nv := &ir.Var{Name: prefix + v.Name, Index: len(tp.Locals), Init: init, Pos: v.Pos}
		tp.Locals = append(tp.Locals, nv)
		c.locals = append(c.locals, nv)
		c.idx = append(c.idx, nv.Index)
	}
	in.nodes += len(pr.Nodes)
	for _, n := range pr.Nodes {
		c.nodes = append(c.nodes, len(tp.Nodes))
		tp.Nodes = append(tp.Nodes, &ir.Node{ID: len(tp.Nodes), Pos: n.Pos, Labels: n.Labels, Error: n.Error, Stmt: n.Stmt})
	}
	return c
}

// add appends e (Proc, From, To set) to q as the step of orig, with the
// top frame's locals after it.
func (in *inlined) add(e *ir.Edge, orig *ir.Edge, frame []int) {
	e.ID = len(in.q.Edges)
	in.q.Edges = append(in.q.Edges, e)
	in.origin = append(in.origin, orig)
	in.frame = append(in.frame, frame)
	n := e.Proc.Nodes[e.From]
	n.Out = append(n.Out, e)
}

// fill copies the steps of instance c into tp, expanding its calls. The
// returns of an inlined callee (inner) are left to call; a return of the
// thread's entry stays a return: the thread ends.
func (in *inlined) fill(tp *ir.Proc, c *copyOf, inner bool) {
	sub := func(x *ir.Expr) *ir.Expr { return substitute(x, c) }
	for _, n := range c.proc.Nodes {
		for _, e := range n.Out {
			if inner && e.Kind == ir.Return {
				continue
			}
			cp := *e
			cp.Proc, cp.From, cp.Guard = tp, c.nodes[e.From], sub(e.Guard)
			if e.To >= 0 {
				cp.To = c.nodes[e.To]
			}
			cp.Targets, cp.Values = subVars(e.Targets, c), subAll(e.Values, c)
			cp.Constrain, cp.Cond, cp.Args = sub(e.Constrain), sub(e.Cond), subAll(e.Args, c)
			switch {
			case e.Kind == ir.Return:
				in.add(&cp, e, nil)
				continue
			case e.Kind != ir.Call:
				in.add(&cp, e, c.idx)
				continue
			case c.level >= in.depth || in.nodes > maxNodes:
				// Beyond the depth bound: the run ends here.
				in.cut = append(in.cut, e)
				cp.Kind, cp.Guard, cp.Targets, cp.Args, cp.Callee = ir.Skip, ir.Const(false), nil, nil, nil
				in.add(&cp, e, c.idx)
				continue
			}
			in.call(tp, c, e, &cp)
		}
	}
}

// call expands call e of instance c (cp: e with c's locals): the call
// becomes an assignment of the arguments to the callee's parameters (its
// other locals start as they would in a new frame), and each return of
// the callee an assignment of the returned values to the call's targets
// that also resets the callee's locals to F.
func (in *inlined) call(tp *ir.Proc, c *copyOf, e, cp *ir.Edge) {
	callee := e.Callee
	d := in.instance(tp, callee, fmt.Sprintf("%s_%d_", callee.Name, len(tp.Nodes)), c.level+1)
	var targets []*ir.Var
	var values []*ir.Expr
	for i, v := range d.locals {
		targets = append(targets, v)
		switch init := callee.Locals[i].Init; {
		case i < len(cp.Args):
			values = append(values, cp.Args[i])
		case init == ir.Unknown:
			values = append(values, &ir.Expr{Op: ir.OpNondet})
		default:
			values = append(values, ir.Const(init == ir.True))
		}
	}
	in.add(&ir.Edge{Proc: tp, From: cp.From, To: d.nodes[callee.Entry], Guard: cp.Guard, Kind: ir.Assign,
		Targets: targets, Values: values, Atomic: e.Atomic, Pos: e.Pos, Stmt: e.Stmt}, e, d.idx)
	for _, n := range callee.Nodes {
		for _, r := range n.Out {
			if r.Kind != ir.Return {
				continue
			}
			var targets []*ir.Var
			var values []*ir.Expr
			for i, t := range cp.Targets {
				if t == nil {
					continue
				}
				targets = append(targets, t)
				if i < len(r.Values) {
					values = append(values, substitute(r.Values[i], d))
				} else {
					values = append(values, &ir.Expr{Op: ir.OpNondet}) // a return without values
				}
			}
			for _, v := range d.locals {
				targets, values = append(targets, v), append(values, ir.Const(false))
			}
			in.add(&ir.Edge{Proc: tp, From: d.nodes[r.From], To: cp.To, Guard: substitute(r.Guard, d), Kind: ir.Assign,
				Targets: targets, Values: values, Atomic: r.Atomic, Pos: r.Pos, Stmt: r.Stmt}, r, c.idx)
		}
	}
	in.fill(tp, d, true)
}

// substitute is x with the locals of c's procedure replaced by c's.
func substitute(x *ir.Expr, c *copyOf) *ir.Expr {
	if x == nil {
		return nil
	}
	y := *x
	if y.Var != nil && !y.Var.Global {
		y.Var = c.locals[y.Var.Index]
	}
	y.X, y.Y = substitute(x.X, c), substitute(x.Y, c)
	return &y
}

func subAll(xs []*ir.Expr, c *copyOf) []*ir.Expr {
	var out []*ir.Expr
	for _, x := range xs {
		out = append(out, substitute(x, c))
	}
	return out
}

func subVars(vs []*ir.Var, c *copyOf) []*ir.Var {
	var out []*ir.Var
	for _, v := range vs {
		if v != nil && !v.Global {
			v = c.locals[v.Index]
		}
		out = append(out, v)
	}
	return out
}
