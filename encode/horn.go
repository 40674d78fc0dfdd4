package encode

import (
	"context"
	"fmt"
	"slices"

	"bmc/chc"
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/ts"
)

// Horn is a one-thread program as constrained Horn clauses (package
// chc), whose least model is its reachable configurations at every call
// depth: a Boolean program is a pushdown system, and procedure summaries
// decide it (the fixed-point view of Getafix, La Torre, Madhusudan and
// Parlato, and of the CHC solvers, Spacer and GPDR).
//
// The shared state is the globals and the locks the thread holds. Per
// procedure p that some call reaches:
//
//	call_p(S, P)          p is called with shared state S and parameters P
//	sum_p(S, P, S', R)    such a call returns with S' and results R
//
// and per cut point c of p (its entry, loop heads, the points after
// calls, init's stop label):
//
//	at_p_c(S0, P0, S, X)  an activation called with S0, P0 is at c with
//	                      shared state S and locals X
//
// (without S0, P0 for main and init when nothing calls them). Between
// cut points a clause covers a large block: every loop-free path of
// in-frame steps from one cut point to the next, encoded once as a DAG
// (a node is reached when one of its incoming edges is taken, an edge is
// taken when its node is reached, the node's choice selects it and it
// can be taken; the values at a join are the taken edge's). A call ends
// a block twice: it derives call_q, and with sum_q the point after it,
// the one non-linear clause. Violations (a failing assert, a reached
// error label, a release of a lock not held) are queries.
type Horn struct {
	System  *chc.System
	prog    *ir.Program
	main    *ir.Proc
	entries map[*ir.Proc]bool // procedures with entry arguments: called somewhere
	cuts    map[*ir.Proc]map[int]bool
	at      map[[2]int]*chc.Pred
	call    map[*ir.Proc]*chc.Pred
	sum     map[*ir.Proc]*chc.Pred
	kinds   map[*chc.Clause]*hornClause
	entered map[*ir.Proc]bool // the entry clause exists
	nshared int
	// ref and mod are, per procedure, the shared bits (globals, then
	// locks) its summary relates: those it reads or writes, and those it
	// writes (modRef); all of them for the procedures nothing calls.
	ref, mod map[*ir.Proc][]bool
}

// hornKind is what a clause stands for.
type hornKind uint8

const (
	hornStart   hornKind = iota // the initial configuration
	hornEnter                   // call_q -> q's entry
	hornBlock                   // a block to the next cut point (or main's start, from init)
	hornCall                    // a block to a call: call_q
	hornReturn                  // a block to a call, and the call's summary: the point after it
	hornSummary                 // a block to a return: sum_p
	hornQuery                   // a block to a violation
)

// hornClause is what Steps needs of a clause: its kind, the block, and
// the call or return edge it ends with.
type hornClause struct {
	kind   hornKind
	region *region
	edge   *ir.Edge // hornCall, hornReturn: the call; hornSummary: the return
	// hornReturn: the caller's shared state and locals after the return.
	shared, locals []ts.Lit
}

// NewHorn builds the clauses of a one-thread program.
func NewHorn(ctx context.Context, p *ir.Program) (h *Horn, err error) {
	defer halt.Recover(&err)
	if err := oneThread(p); err != nil {
		return nil, fmt.Errorf("the summary encoding checks one thread: %v", err)
	}
	h = &Horn{System: chc.New(), prog: p, main: p.Threads[0].Proc, entries: map[*ir.Proc]bool{},
		cuts: map[*ir.Proc]map[int]bool{}, at: map[[2]int]*chc.Pred{}, call: map[*ir.Proc]*chc.Pred{},
		sum: map[*ir.Proc]*chc.Pred{}, kinds: map[*chc.Clause]*hornClause{}, entered: map[*ir.Proc]bool{}, nshared: len(p.Globals) + len(p.Locks)}
	for _, e := range p.Edges {
		if e.Kind == ir.Call {
			h.entries[e.Callee] = true
		}
	}
	if p.Init != nil && h.entries[p.Init] {
		return nil, fmt.Errorf("the summary encoding does not support a call of init (%s)", p.Init.Name)
	}
	h.ref, h.mod = modRef(p)
	for _, pr := range p.Procs {
		if !h.entries[pr] {
			all := make([]bool, h.nshared)
			for i := range all {
				all[i] = true
			}
			h.ref[pr], h.mod[pr] = all, all
		}
	}
	h.declare()
	h.start()
	for _, pr := range p.Procs {
		for _, c := range sortedCuts(h.cuts[pr]) {
			halt.Point(ctx)
			h.blocks(pr, c)
		}
	}
	return h, nil
}

func sortedCuts(m map[int]bool) []int {
	var out []int
	for c := range m {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// declare finds the cut points and declares the predicates.
func (h *Horn) declare() {
	p, s := h.prog, h.System
	var shared []string
	for _, g := range p.Globals {
		shared = append(shared, g.Name)
	}
	for _, l := range p.Locks {
		shared = append(shared, "lock "+l.Name)
	}
	prefixed := func(pre string, names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = pre + n
		}
		return out
	}
	for _, pr := range p.Procs {
		var params, locals, rets []string
		for k, x := range pr.Locals {
			locals = append(locals, x.Name)
			if k < pr.Params {
				params = append(params, x.Name)
			}
		}
		for i := 0; i < pr.Returns; i++ {
			rets = append(rets, fmt.Sprintf("return.%d", i))
		}
		var entry []string
		if h.entries[pr] {
			entry = append(prefixed("entry ", pick(shared, h.ref[pr])), prefixed("entry ", params)...)
			h.call[pr] = s.NewPred("call "+pr.Name, append(pick(shared, h.ref[pr]), params...))
			h.sum[pr] = s.NewPred("summary "+pr.Name, append(append(slices.Clone(entry), prefixed("exit ", pick(shared, h.mod[pr]))...), prefixed("exit ", rets)...))
		}
		cuts := map[int]bool{pr.Entry: true}
		for _, n := range ir.LoopHeads(pr) {
			cuts[n] = true
		}
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Call {
					cuts[e.To] = true
				}
			}
		}
		if pr == p.Init && p.InitStop >= 0 {
			cuts[p.InitStop] = true
		}
		h.cuts[pr] = cuts
		for _, c := range sortedCuts(cuts) {
			name := fmt.Sprintf("%s at %s", pr.Name, pr.Nodes[c].Pos)
			if pr.Nodes[c].Pos.Line == 0 { // a translation's node
				name = fmt.Sprintf("%s at node %d", pr.Name, c)
			}
			h.at[[2]int{pr.Index, c}] = s.NewPred(name, append(append(slices.Clone(entry), pick(shared, h.mod[pr])...), locals...))
		}
	}
}

// atom is the atom of cut point c of pr with the given entry values
// (nil for a procedure without) and state: the shared bits pr writes
// (the others keep their entry values) and the locals.
func (h *Horn) atom(pr *ir.Proc, c int, entry []ts.Lit, st hstate) *chc.Atom {
	args := append(append(slices.Clone(entry), pick(st.shared(), h.mod[pr])...), st.locals...)
	return &chc.Atom{Pred: h.at[[2]int{pr.Index, c}], Args: args}
}

// entryOf is the entry values of a call of q with shared state shared
// and the given arguments.
func (h *Horn) entryOf(q *ir.Proc, shared, args []ts.Lit) []ts.Lit {
	return append(pick(shared, h.ref[q]), args...)
}

// split sets st's globals and locks from the shared bits.
func (h *Horn) split(st hstate, shared []ts.Lit) hstate {
	ng := len(h.prog.Globals)
	st.globals, st.locks = slices.Clone(shared[:ng]), slices.Clone(shared[ng:])
	return st
}

// pick is the elements of xs where mask holds.
func pick[T any](xs []T, mask []bool) []T {
	var out []T
	for i, x := range xs {
		if mask[i] {
			out = append(out, x)
		}
	}
	return out
}

// entryState is the shared bits of an activation of pr: entry, the
// entry values of those it reads and of its parameters, with cur, the
// current values of those it writes, in their places (nil: the entry
// values); a bit it does not touch is false (never read).
func (h *Horn) entryState(pr *ir.Proc, entry, cur []ts.Lit) []ts.Lit {
	shared := make([]ts.Lit, h.nshared)
	e, c := 0, 0
	for i := range shared {
		shared[i] = ts.False
		if h.ref[pr][i] {
			shared[i] = entry[e]
			e++
		}
		if h.mod[pr][i] && cur != nil {
			shared[i] = cur[c]
			c++
		}
	}
	return shared
}

func (h *Horn) add(head *chc.Atom, body []chc.Atom, cons ts.Lit, name string, k *hornClause) {
	if c := h.System.Add(head, body, cons, name); c != nil {
		h.kinds[c] = k
	}
}

// frameEnv is an env of pr's frame in state st, continuing with pool.
func (h *Horn) frameEnv(pr *ir.Proc, st hstate, pool *[]ts.Lit) *env {
	return &env{sys: h.System.AIG, pool: pool, used: len(*pool), proc: pr, feas: ts.True,
		globals: slices.Clone(st.globals), locals: slices.Clone(st.locals), locks: slices.Clone(st.locks), atomic: ts.False}
}

// start adds the initial configuration: init's entry (or main's), with
// the globals' initial values and no lock held.
func (h *Horn) start() {
	p := h.prog
	var pool []ts.Lit
	first := h.main
	if p.Init != nil {
		first = p.Init
	}
	st := hstate{}
	v := h.frameEnv(first, st, &pool)
	for _, g := range p.Globals {
		st.globals = append(st.globals, initValue(v, g.Init))
	}
	for range p.Locks {
		st.locks = append(st.locks, ts.False)
	}
	v.globals, v.locks = slices.Clone(st.globals), slices.Clone(st.locks)
	v.locals = v.newLocals(first, nil)
	v.enforce(first)
	st.locals = v.locals
	h.arrive(first, first.Entry, nil, st, v.feas, nil, "start", &hornClause{kind: hornStart})
}

func initValue(v *env, x ir.Value) ts.Lit {
	switch x {
	case ir.True:
		return ts.True
	case ir.False:
		return ts.False
	}
	return v.fresh()
}

// arrive adds the clause by which the running frame of pr arrives at
// cut point c in state st under cond; at init's stop label (or when
// init returns, c < 0) main starts instead.
func (h *Horn) arrive(pr *ir.Proc, c int, entry []ts.Lit, st hstate, cond ts.Lit, body []chc.Atom, name string, k *hornClause) {
	p := h.prog
	if pr == p.Init && (c == p.InitStop || c < 0) {
		var pool []ts.Lit
		m := h.main
		v := h.frameEnv(m, st, &pool)
		v.locals = v.newLocals(m, nil)
		v.enforce(m)
		cond = h.System.AIG.And(cond, v.feas)
		st.locals = v.locals
		entry = nil
		if h.entries[m] {
			entry = h.entryOf(m, st.shared(), st.locals[:m.Params])
		}
		pr, c = m, m.Entry
	}
	h.add(h.atom(pr, c, entry, st), body, cond, name, k)
}

// blocks adds the clauses of the blocks from cut point c of pr.
func (h *Horn) blocks(pr *ir.Proc, c int) {
	sys := h.System.AIG
	var entry []ts.Lit
	root := hstate{locals: inputs(sys, len(pr.Locals), "local")}
	if h.entries[pr] {
		entry = inputs(sys, count(h.ref[pr])+pr.Params, "entry")
		root = h.split(root, h.entryState(pr, entry, inputs(sys, count(h.mod[pr]), "shared")))
	} else {
		root = h.split(root, inputs(sys, h.nshared, "shared"))
	}
	body := []chc.Atom{*h.atom(pr, c, entry, root)}
	var pool []ts.Lit
	r := newRegion(sys, pr, c, h.cuts[pr], root, func(st hstate) *env { return h.frameEnv(pr, st, &pool) })
	r.walk(regionEdges{
		call: func(e *ir.Edge, after hstate, args []ts.Lit, taken ts.Lit) {
			h.callClauses(r, body, e, entry, after, args, taken)
		},
		ret: func(e *ir.Edge, after hstate, vals []ts.Lit, taken ts.Lit) {
			switch {
			case pr == h.prog.Init:
				h.arrive(pr, -1, nil, after, taken, body, fmt.Sprintf("%s: init returns at %s", pr.Name, e.Pos),
					&hornClause{kind: hornBlock, region: r})
			case h.entries[pr]:
				head := &chc.Atom{Pred: h.sum[pr], Args: append(append(slices.Clone(entry), pick(after.shared(), h.mod[pr])...), vals...)}
				h.add(head, body, taken, fmt.Sprintf("%s returns at %s", pr.Name, e.Pos),
					&hornClause{kind: hornSummary, region: r, edge: e})
			}
		},
	})
	for _, to := range r.exitOrder {
		st, taken := r.exit(to)
		h.arrive(pr, to, entry, st, taken, body,
			fmt.Sprintf("%s from %s to %s", pr.Name, pr.Nodes[c].Pos, pr.Nodes[to].Pos), &hornClause{kind: hornBlock, region: r})
	}
	h.add(nil, body, r.bad, fmt.Sprintf("%s: a violation after %s", pr.Name, pr.Nodes[c].Pos), &hornClause{kind: hornQuery, region: r})
}

// inputs are n new inputs of sys.
func inputs(sys *ts.System, n int, what string) []ts.Lit {
	out := make([]ts.Lit, n)
	for i := range out {
		out[i] = sys.NewInput(what)
	}
	return out
}

// callClauses adds the two clauses of call e at the end of a block: the
// call itself, and the point after it, from the callee's summary.
func (h *Horn) callClauses(r *region, body []chc.Atom, e *ir.Edge, entry []ts.Lit, st hstate, args []ts.Lit, taken ts.Lit) {
	sys, q, pr := h.System.AIG, e.Callee, r.proc
	h.add(&chc.Atom{Pred: h.call[q], Args: h.entryOf(q, st.shared(), args)}, body, taken,
		fmt.Sprintf("%s calls %s at %s", pr.Name, q.Name, e.Pos), &hornClause{kind: hornCall, region: r, edge: e})
	exit := make([]ts.Lit, count(h.mod[q]))
	for i := range exit {
		exit[i] = sys.NewInput("exit")
	}
	rets := make([]ts.Lit, q.Returns)
	for i := range rets {
		rets[i] = sys.NewInput("result")
	}
	sum := chc.Atom{Pred: h.sum[q], Args: append(append(h.entryOf(q, st.shared(), args), exit...), rets...)}
	var pool []ts.Lit
	shared := st.shared()
	for i, k := 0, 0; i < h.nshared; i++ {
		if h.mod[q][i] {
			shared[i] = exit[k]
			k++
		}
	}
	back := h.split(hstate{locals: st.locals}, shared)
	v := h.frameEnv(pr, back, &pool)
	for i, t := range e.Targets {
		if t != nil {
			v.write(t, rets[i])
		}
	}
	v.enforce(pr)
	after := hstate{globals: v.globals, locks: v.locks, locals: v.locals}
	h.arrive(pr, e.To, entry, after, sys.And(taken, v.feas), append(slices.Clone(body), sum),
		fmt.Sprintf("%s returns from %s to %s", pr.Name, q.Name, e.Pos),
		&hornClause{kind: hornReturn, region: r, edge: e, shared: after.shared(), locals: after.locals})
	// The callee's entry, once per callee (the first call builds it).
	if h.entered[q] {
		return
	}
	h.entered[q] = true
	pool = nil
	nref := count(h.ref[q])
	in := make([]ts.Lit, nref+q.Params)
	for i := range in {
		in[i] = sys.NewInput("call")
	}
	entered := h.split(hstate{}, h.entryState(q, in, nil))
	w := h.frameEnv(q, entered, &pool)
	w.locals = w.newLocals(q, in[nref:])
	w.enforce(q)
	entered.locals = w.locals
	h.add(h.atom(q, q.Entry, in, entered),
		[]chc.Atom{{Pred: h.call[q], Args: in}}, w.feas, fmt.Sprintf("%s is entered", q.Name), &hornClause{kind: hornEnter})
}

// bitsIs is the condition that bits hold the number i.
func bitsIs(sys *ts.System, bits []ts.Lit, i int) ts.Lit {
	r := ts.True
	for k, b := range bits {
		if i>>k&1 == 1 {
			r = sys.And(r, b)
		} else {
			r = sys.And(r, b.Not())
		}
	}
	return r
}

// count is the number of true elements of mask.
func count(mask []bool) int {
	n := 0
	for _, b := range mask {
		if b {
			n++
		}
	}
	return n
}
