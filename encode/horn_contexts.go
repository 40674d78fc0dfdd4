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

// Contexts is the question "is a violation reachable within R
// round-robin rounds?" of a concurrent program as constrained Horn
// clauses, without a sequential program in between: Getafix's summary
// relation Reach(u, v, ecs, cs, G, T) (getafix-fixed-point-calculus
// slides, "A summary relation"), one predicate per program point and
// context. The C = R*n contexts of n thread instances run in turn
// (context c by instance c mod n, after init); H_c = G_0..G_c are the
// shared states at the starts of contexts 0..c.
//
//	at(i, p, k, a, c)(E, H_c, S, X)   instance i is in procedure p at cut
//	                                  point k in context c, the activation
//	                                  having been called in context a with
//	                                  entry values E (none for the thread's
//	                                  bottom frame); shared state S
//	                                  (globals, atomic mode), locals X
//	call(i, q, c)(E, H_c)             instance i calls q in context c
//	sum(i, q, a, c)(E, H_c, S', R)    such a call returns in context c
//	done(i, c)(H_c, S)                instance i has ended
//	ended(c)(H_{c+1})                 contexts up to c ran consistently,
//	                                  context c ending in G_{c+1}
//
// Every H in a derivation records states that the contexts before
// really ended in: a thread resumes in context c+n only from an atom of
// its own at context c whose shared state is G_{c+1}, joined with
// ended(c+n-1), whose derivation runs the other threads' contexts from
// that state; so, unlike the eager sequentialization, nothing is
// guessed, and the summaries describe reachable states only. Between
// cut points (entries, loop heads, the points after calls, and the
// switch points: where a context may end, after steps that touch shared
// state, as package seq offers them) a clause covers a large block, as
// in Horn. A lock is shared state (held by any thread: after the
// globals, in every history copy) and the thread's own (held by it:
// carried through its frames like a global, S's last bits).
type Contexts struct {
	System       *chc.System
	Threads      []string // instance names, as in traces (adder#2)
	prog         *ir.Program
	rounds       int // 0: switches
	n, C         int
	tb           int        // bits of a thread's index in the schedule (switches)
	entries      []*ir.Proc // per instance, its thread procedure
	ng           int        // shared bits: globals, then per lock whether any thread holds it
	nl           int        // locks
	called       map[*ir.Proc]bool
	cuts         map[*ir.Proc]map[int]bool
	switchPoints map[*ir.Proc]map[int]bool
	runs         map[int]map[*ir.Proc]bool // per instance (init: -1), the procedures it runs
	at           map[ctxAt]*chc.Pred
	call         map[ctxCall]*chc.Pred
	sum          map[ctxSum]*chc.Pred
	done         map[[2]int]*chc.Pred
	entered      map[ctxAt]bool // the entry clause exists
	ended        []*chc.Pred    // ended[s]: contexts up to s-1 (init: -1) ended, H_s
	kinds        map[*chc.Clause]*ctxClause
}

// ctxAt names an at predicate; bottom is the thread's own frame (or
// init's), whose entry context is the thread's first.
type ctxAt struct {
	inst, proc, cut, entry, ctx int
	bottom                      bool
}

type ctxCall struct{ inst, proc, ctx int }

type ctxSum struct{ inst, proc, entry, ctx int }

// ctxKind is what a clause of Contexts stands for.
type ctxKind uint8

const (
	ctxInit     ctxKind = iota // the shared state when the threads start, after init (or init's start)
	ctxStart                   // a thread's first context starts
	ctxBlock                   // a block to the next cut point
	ctxCallKind                // a block to a call: call
	ctxEnter                   // call -> the callee's entry
	ctxReturn                  // a block to a call, and its summary: the point after it
	ctxSummary                 // a block to a return: sum
	ctxEnd                     // a block to the thread's end: done
	ctxInitEnd                 // init ends: ended(-1)
	ctxSwitch                  // a context ends at a switch point (or after the thread ended)
	ctxResume                  // the thread's next context starts where it left off
	ctxQuery                   // a block to a violation
)

// ctxClause is what Steps needs of a clause.
type ctxClause struct {
	kind   ctxKind
	inst   int // the running instance; -1 init
	ctx    int // the context of the head (ctxReturn: of the call)
	region *region
	edge   *ir.Edge
	// ctxReturn: the caller's globals and locals after the return.
	globals, locals []ts.Lit
}

// ContextsTakes says why the context encoding does not take p (nil when
// it does): a program with threads, a bounded number of them, that
// starts none and has no broadcasts, and does not call init.
func ContextsTakes(p *ir.Program) error {
	n, err := p.Instances()
	switch {
	case err != nil:
		return err
	case n == 0:
		return fmt.Errorf("the program has no threads")
	}
	for _, e := range p.Edges {
		switch {
		case starts(e) || e.Kind == ir.Fork:
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		case len(e.PassiveTargets) > 0:
			return fmt.Errorf("%s:%s: broadcast assignments ($) are not encoded", p.File, e.Pos)
		case e.Kind == ir.Call && e.Callee == p.Init:
			return fmt.Errorf("%s:%s: init is called", p.File, e.Pos)
		}
	}
	return nil
}

// NewContexts builds the clauses of p within rounds round-robin rounds
// or, with rounds 0, within switches context switches (any thread may
// run any of the switches+1 contexts; the schedule is part of the
// history, T_c the thread that runs context c).
func NewContexts(ctx context.Context, p *ir.Program, rounds, switches int) (h *Contexts, err error) {
	defer halt.Recover(&err)
	if rounds < 1 && switches < 0 {
		return nil, fmt.Errorf("the context encoding needs at least 1 round or 0 switches")
	}
	if err := ContextsTakes(p); err != nil {
		return nil, err
	}
	n, _ := p.Instances()
	h = &Contexts{System: chc.New(), prog: p, rounds: rounds, n: n, C: rounds * n, ng: len(p.Globals),
		called: map[*ir.Proc]bool{}, cuts: map[*ir.Proc]map[int]bool{}, switchPoints: map[*ir.Proc]map[int]bool{},
		runs: map[int]map[*ir.Proc]bool{}, at: map[ctxAt]*chc.Pred{}, call: map[ctxCall]*chc.Pred{},
		sum: map[ctxSum]*chc.Pred{}, done: map[[2]int]*chc.Pred{}, entered: map[ctxAt]bool{}, kinds: map[*chc.Clause]*ctxClause{}}
	// A lock's holder is in two places: whether any thread holds it is
	// shared state (after the globals, in every copy of the history), and
	// whether this thread does is the thread's own, carried through its
	// frames like a global that no other thread sees.
	h.ng, h.nl = len(p.Globals)+len(p.Locks), len(p.Locks)
	if rounds < 1 {
		h.C, h.tb = switches+1, max(1, width(n))
	}
	h.entries, h.Threads = p.InstanceEntries()
	for _, e := range p.Edges {
		if e.Kind == ir.Call {
			h.called[e.Callee] = true
		}
	}
	for i, entry := range h.entries {
		h.runs[i] = reachedProcs(entry)
	}
	if p.Init != nil {
		h.runs[-1] = reachedProcs(p.Init)
	}
	h.findCuts()
	for s := 0; s < h.C; s++ {
		h.ended = append(h.ended, h.System.NewPred(fmt.Sprintf("ended before context %d", s), h.historyNames(s, s)))
	}
	h.starts()
	for _, pr := range p.Procs {
		for _, k := range sortedCuts(h.cuts[pr]) {
			halt.Point(ctx)
			h.blocks(pr, k)
		}
	}
	h.switches()
	return h, nil
}

// reachedProcs are the procedures a frame of entry can lead to.
func reachedProcs(entry *ir.Proc) map[*ir.Proc]bool {
	out := map[*ir.Proc]bool{entry: true}
	stack := []*ir.Proc{entry}
	for len(stack) > 0 {
		pr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, node := range pr.Nodes {
			for _, e := range node.Out {
				if e.Kind == ir.Call && !out[e.Callee] {
					out[e.Callee] = true
					stack = append(stack, e.Callee)
				}
			}
		}
	}
	return out
}

// findCuts finds the cut points and switch points of every procedure.
func (h *Contexts) findCuts() {
	for _, pr := range h.prog.Procs {
		h.cuts[pr], h.switchPoints[pr] = cutPoints(h.prog, pr)
	}
}

// cutPoints are the cut points of pr (its entry, loop heads, the points
// after calls, init's stop) and, among them, the switch points: the
// entry, the node after a step that touches shared state (seq's switch
// points; a switch elsewhere can be moved back to one without changing
// what other threads see) and after a call.
func cutPoints(p *ir.Program, pr *ir.Proc) (cuts, sw map[int]bool) {
	cuts, sw = map[int]bool{pr.Entry: true}, map[int]bool{}
	if pr != p.Init && !pr.Atomic {
		sw[pr.Entry] = true
	}
	for _, k := range ir.LoopHeads(pr) {
		cuts[k] = true
	}
	for _, node := range pr.Nodes {
		for _, e := range node.Out {
			switch {
			case e.Kind == ir.Call:
				cuts[e.To] = true
				if pr != p.Init {
					sw[e.To] = true
				}
			case inFrame(e) && pr != p.Init && !pr.Atomic && e.TouchesShared():
				cuts[e.To], sw[e.To] = true, true
			}
		}
	}
	if pr == p.Init && p.InitStop >= 0 {
		cuts[p.InitStop] = true
	}
	// A point no step can lead to (ir.Reached) is no cut point: no
	// clause derives it, and none starts from it.
	reached := ir.Reached(pr)
	for k := range cuts {
		if !reached[k] {
			delete(cuts, k)
			delete(sw, k)
		}
	}
	return cuts, sw
}

// contexts are the contexts instance i runs (init: -1).
func (h *Contexts) contexts(i int) []int {
	if i < 0 {
		return []int{-1}
	}
	var out []int
	for c := h.first(i); c < h.C; c = h.next(i, c) {
		out = append(out, c)
	}
	return out
}

// first is the first context instance i may run; next the one after c.
func (h *Contexts) first(i int) int {
	if h.rounds > 0 {
		return i
	}
	return 0
}

func (h *Contexts) next(i, c int) int {
	if h.rounds > 0 {
		return c + h.n
	}
	return c + 1
}

func (h *Contexts) instName(i int) string {
	if i < 0 {
		return "init"
	}
	return h.Threads[i]
}

// historyNames names the history arguments: G_0..G_s, then T_0..T_{t-1}
// (t = s+1 for an at atom, s for ended's; none with rounds).
func (h *Contexts) historyNames(s, t int) []string {
	var out []string
	for c := 0; c <= s; c++ {
		for _, g := range h.sharedNames("")[:h.ng] {
			out = append(out, fmt.Sprintf("G%d.%s", c, g))
		}
	}
	for c := 0; c < t; c++ {
		for b := 0; b < h.tb; b++ {
			out = append(out, fmt.Sprintf("T%d.%d", c, b))
		}
	}
	return out
}

// history is the shared states at the starts of contexts 0, 1, ... and
// (switches) the threads that ran them, as literals.
type history struct{ g, t []ts.Lit }

// at is the history of an at atom of context c: G_0..G_c, T_0..T_c.
func (h *Contexts) histAt(hs history, c int) []ts.Lit {
	return append(slices.Clone(hs.g[:(c+1)*h.ng]), hs.t[:(c+1)*h.tb]...)
}

// ended is the history of ended(s-1): G_0..G_s, T_0..T_{s-1}.
func (h *Contexts) histEnded(hs history, s int) []ts.Lit {
	return append(slices.Clone(hs.g[:(s+1)*h.ng]), hs.t[:s*h.tb]...)
}

func (h *Contexts) newHistory(n int) history {
	sys := h.System.AIG
	return history{g: inputs(sys, n*h.ng, "history"), t: inputs(sys, n*h.tb, "schedule")}
}

// ranBy is the condition that T_c names instance i.
func (h *Contexts) ranBy(hs history, c, i int) ts.Lit {
	if h.tb == 0 {
		return ts.False // round robin: the contexts between a thread's are others'
	}
	return bitsIs(h.System.AIG, hs.t[c*h.tb:(c+1)*h.tb], i)
}

// constThread is instance i's index as constant literals.
func (h *Contexts) constThread(i int) []ts.Lit {
	out := make([]ts.Lit, h.tb)
	for b := range out {
		if i>>b&1 == 1 {
			out[b] = ts.True
		}
	}
	return out
}

// sharedNames names a frame's state beyond its locals: the shared bits,
// the atomic mode and the locks the thread holds.
func (h *Contexts) sharedNames(pre string) []string {
	var out []string
	for _, g := range h.prog.Globals {
		out = append(out, pre+g.Name)
	}
	for _, l := range h.prog.Locks {
		out = append(out, pre+"lock "+l.Name)
	}
	out = append(out, pre+"atomic")
	for _, l := range h.prog.Locks {
		out = append(out, pre+"owns "+l.Name)
	}
	return out
}

func paramNames(pr *ir.Proc) []string {
	var out []string
	for _, x := range pr.Locals[:pr.Params] {
		out = append(out, "entry "+x.Name)
	}
	return out
}

// entryNames names the arguments of a call of q in context c: the
// shared state and the parameters at the call, and the history.
func (h *Contexts) entryNames(q *ir.Proc, c int) []string {
	return append(append(h.sharedNames("entry "), paramNames(q)...), h.historyNames(c, c+1)...)
}

func (h *Contexts) atPred(key ctxAt) *chc.Pred {
	if p, ok := h.at[key]; ok {
		return p
	}
	pr := h.prog.Procs[key.proc]
	var args []string
	if !key.bottom { // a called frame's atoms carry its entry values
		args = append(h.sharedNames("entry "), paramNames(pr)...)
	}
	args = append(args, h.historyNames(key.ctx, key.ctx+1)...)
	args = append(args, h.sharedNames("")...)
	for _, x := range pr.Locals {
		args = append(args, x.Name)
	}
	where := pr.Nodes[key.cut].Pos.String()
	if pr.Nodes[key.cut].Pos.Line == 0 {
		where = fmt.Sprintf("node %d", key.cut)
	}
	name := fmt.Sprintf("%s: %s at %s, context %d", h.instName(key.inst), pr.Name, where, key.ctx)
	if !key.bottom {
		name += fmt.Sprintf(" (called in %d)", key.entry)
	}
	p := h.System.NewPred(name, args)
	h.at[key] = p
	return p
}

func (h *Contexts) callPred(key ctxCall) *chc.Pred {
	if p, ok := h.call[key]; ok {
		return p
	}
	q := h.prog.Procs[key.proc]
	args := h.entryNames(q, key.ctx)
	p := h.System.NewPred(fmt.Sprintf("%s: call %s in context %d", h.instName(key.inst), q.Name, key.ctx), args)
	h.call[key] = p
	return p
}

func (h *Contexts) sumPred(key ctxSum) *chc.Pred {
	if p, ok := h.sum[key]; ok {
		return p
	}
	q := h.prog.Procs[key.proc]
	args := append(h.entryNames(q, key.ctx), h.sharedNames("exit ")...)
	for i := 0; i < q.Returns; i++ {
		args = append(args, fmt.Sprintf("return.%d", i))
	}
	p := h.System.NewPred(fmt.Sprintf("%s: summary %s, called in context %d, returns in %d", h.instName(key.inst), q.Name, key.entry, key.ctx), args)
	h.sum[key] = p
	return p
}

func (h *Contexts) donePred(i, c int) *chc.Pred {
	if p, ok := h.done[[2]int{i, c}]; ok {
		return p
	}
	args := append(h.historyNames(c, c+1), h.sharedNames("")[:h.ng]...)
	p := h.System.NewPred(fmt.Sprintf("%s: ended, context %d", h.Threads[i], c), args)
	h.done[[2]int{i, c}] = p
	return p
}

// variants are the at predicates' keys of cut point k of pr: per
// instance running pr, its bottom frame (pr is its thread procedure, or
// init) and its called frames, per entry context and context.
func (h *Contexts) variants(pr *ir.Proc, k int) []ctxAt {
	var out []ctxAt
	insts := []int{}
	if h.prog.Init != nil {
		insts = append(insts, -1)
	}
	for i := range h.entries {
		insts = append(insts, i)
	}
	for _, i := range insts {
		if !h.runs[i][pr] {
			continue
		}
		cs := h.contexts(i)
		if (i < 0 && pr == h.prog.Init) || (i >= 0 && pr == h.entries[i]) {
			for _, c := range cs {
				out = append(out, ctxAt{inst: i, proc: pr.Index, cut: k, entry: cs[0], ctx: c, bottom: true})
			}
		}
		if h.called[pr] {
			for x, a := range cs {
				for _, c := range cs[x:] {
					out = append(out, ctxAt{inst: i, proc: pr.Index, cut: k, entry: a, ctx: c})
				}
			}
		}
	}
	return out
}

// frameState is the symbolic state of a frame: entry values, history,
// shared state and locals, as inputs.
type frameState struct {
	entry []ts.Lit // shared (globals, atomic) and parameters at the call
	hist  history  // of all C contexts: a context's atoms use a prefix
	st    hstate
}

func (h *Contexts) newFrame(pr *ir.Proc) frameState {
	sys := h.System.AIG
	f := frameState{
		entry: inputs(sys, h.ng+1+h.nl+pr.Params, "entry"),
		hist:  h.newHistory(h.C),
	}
	f.st = hstate{globals: inputs(sys, h.ng, "shared"), atomic: sys.NewInput("atomic"), locks: inputs(sys, h.nl, "owns"),
		locals: inputs(sys, len(pr.Locals), "local")}
	return f
}

// atom is the at atom of key in frame state f with state st.
func (h *Contexts) atom(key ctxAt, f frameState, st hstate) *chc.Atom {
	var args []ts.Lit
	if !key.bottom {
		args = append(args, f.entry...)
	}
	args = append(args, h.histAt(f.hist, key.ctx)...)
	args = append(append(args, st.globals...), st.atomic)
	args = append(append(args, st.locks...), st.locals...)
	return &chc.Atom{Pred: h.atPred(key), Args: args}
}

func (h *Contexts) add(head *chc.Atom, body []chc.Atom, cons ts.Lit, name string, k *ctxClause) {
	if c := h.System.Add(head, body, cons, name); c != nil {
		h.kinds[c] = k
	}
}

func (h *Contexts) frameEnv(pr *ir.Proc, st hstate, pool *[]ts.Lit) *env {
	v := &env{sys: h.System.AIG, pool: pool, used: len(*pool), proc: pr, feas: ts.True,
		globals: slices.Clone(st.globals), locals: slices.Clone(st.locals), atomic: st.atomic}
	if h.nl > 0 && len(st.globals) == h.ng {
		h.setLocks(v, st.locks)
	}
	return v
}

// setLocks gives v the locks the thread holds and those the others
// hold: held by any thread (the shared bits), but not by it.
func (h *Contexts) setLocks(v *env, owns []ts.Lit) {
	if h.nl == 0 {
		return
	}
	v.locks, v.others, v.heldShared = slices.Clone(owns), make([]ts.Lit, h.nl), true
	for i, mine := range owns {
		v.others[i] = h.System.AIG.And(v.globals[h.ng-h.nl+i], mine.Not())
	}
}

// noLocks is the locks a thread holds when it starts: none.
func (h *Contexts) noLocks() []ts.Lit {
	out := make([]ts.Lit, h.nl)
	for i := range out {
		out[i] = ts.False
	}
	return out
}

// starts adds the clauses of the shared state the threads start with
// (after init, or the initial values) and of each thread's first context.
func (h *Contexts) starts() {
	p, sys := h.prog, h.System.AIG
	var pool []ts.Lit
	if p.Init != nil {
		f := h.newFrame(p.Init)
		v := h.frameEnv(p.Init, hstate{}, &pool)
		st := hstate{atomic: ts.False}
		for _, g := range p.Globals {
			st.globals = append(st.globals, initValue(v, g.Init))
		}
		st.globals = append(st.globals, h.noLocks()...) // no lock is held
		v.globals, st.locks = slices.Clone(st.globals), h.noLocks()
		h.setLocks(v, st.locks)
		v.locals = v.newLocals(p.Init, nil)
		v.enforce(p.Init)
		st.locals = v.locals
		key := ctxAt{inst: -1, proc: p.Init.Index, cut: p.Init.Entry, entry: -1, ctx: -1, bottom: true}
		h.add(h.atom(key, f, st), nil, v.feas, "init starts", &ctxClause{kind: ctxInit, inst: -1, ctx: -1})
	} else {
		v := h.frameEnv(nil, hstate{}, &pool)
		var g []ts.Lit
		for _, x := range p.Globals {
			g = append(g, initValue(v, x.Init))
		}
		g = append(g, h.noLocks()...)
		h.add(&chc.Atom{Pred: h.ended[0], Args: g}, nil, ts.True, "the threads start", &ctxClause{kind: ctxInit, inst: -1, ctx: -1})
	}
	for i, entry := range h.entries {
		for _, c := range h.contexts(i) {
			// The thread's first context is c: no earlier one is its.
			pool = nil
			hs := h.newHistory(c + 1)
			copy(hs.t[c*h.tb:], h.constThread(i))
			cond := ts.True
			for d := 0; d < c; d++ {
				cond = sys.And(cond, h.ranBy(hs, d, i).Not())
			}
			v := h.frameEnv(entry, hstate{}, &pool)
			st := hstate{globals: slices.Clone(hs.g[c*h.ng:]), atomic: ts.False}
			if entry.Atomic {
				st.atomic = ts.True
			}
			v.globals, v.atomic, st.locks = slices.Clone(st.globals), st.atomic, h.noLocks()
			h.setLocks(v, st.locks)
			v.locals = v.newLocals(entry, nil)
			v.enforce(entry)
			st.locals = v.locals
			key := ctxAt{inst: i, proc: entry.Index, cut: entry.Entry, entry: h.first(i), ctx: c, bottom: true}
			h.add(h.atom(key, frameState{hist: hs}, st), []chc.Atom{{Pred: h.ended[c], Args: h.histEnded(hs, c)}}, sys.And(cond, v.feas),
				fmt.Sprintf("%s starts in context %d", h.Threads[i], c), &ctxClause{kind: ctxStart, inst: i, ctx: c})
			if h.rounds > 0 {
				break // its first context is its turn in the first round
			}
		}
	}
}

// blocks adds the clauses of the blocks from cut point k of pr, for
// every variant of its at predicate: the region is encoded once, its
// history inputs long enough for the last context.
func (h *Contexts) blocks(pr *ir.Proc, k int) {
	vs := h.variants(pr, k)
	if len(vs) == 0 {
		return
	}
	sys := h.System.AIG
	f := h.newFrame(pr)
	var pool []ts.Lit
	r := newRegion(sys, pr, k, h.cuts[pr], f.st, func(st hstate) *env { return h.frameEnv(pr, st, &pool) })
	type callEdge struct {
		e     *ir.Edge
		after hstate
		args  []ts.Lit
		taken ts.Lit
	}
	type endEdge struct {
		e     *ir.Edge
		after hstate
		vals  []ts.Lit
		taken ts.Lit
		ret   bool
	}
	var calls []callEdge
	var ends []endEdge
	r.walk(regionEdges{
		call: func(e *ir.Edge, after hstate, args []ts.Lit, taken ts.Lit) {
			calls = append(calls, callEdge{e, after, args, taken})
		},
		ret: func(e *ir.Edge, after hstate, vals []ts.Lit, taken ts.Lit) {
			ends = append(ends, endEdge{e, after, vals, taken, true})
		},
		end: func(e *ir.Edge, after hstate, taken ts.Lit) {
			ends = append(ends, endEdge{e, after, nil, taken, false})
		},
	})
	// Per call edge: the callee's exit state and results, and the
	// caller's state after the return.
	type callReturn struct {
		exit, rets []ts.Lit
		after      hstate
		feas       ts.Lit
	}
	returns := make([]callReturn, len(calls))
	for x, ce := range calls {
		q := ce.e.Callee
		cr := callReturn{exit: inputs(sys, h.ng+1+h.nl, "exit"), rets: inputs(sys, q.Returns, "result")}
		back := hstate{globals: slices.Clone(cr.exit[:h.ng]), atomic: cr.exit[h.ng], locks: slices.Clone(cr.exit[h.ng+1:]), locals: ce.after.locals}
		if q.Atomic {
			back.atomic = ce.after.atomic // the atomic call ends its atomic section
		}
		var pool2 []ts.Lit
		v := h.frameEnv(pr, back, &pool2)
		for i, t := range ce.e.Targets {
			if t != nil {
				v.write(t, cr.rets[i])
			}
		}
		v.enforce(pr)
		cr.after = hstate{globals: v.globals, atomic: v.atomic, locks: v.locks, locals: v.locals}
		cr.feas = sys.And(ce.taken, v.feas)
		returns[x] = cr
	}
	for _, key := range vs {
		body := []chc.Atom{*h.atom(key, f, f.st)}
		i, c := key.inst, key.ctx
		kc := func(kind ctxKind) *ctxClause { return &ctxClause{kind: kind, inst: i, ctx: c, region: r} }
		where := fmt.Sprintf("%s: %s from %s, context %d", h.instName(i), pr.Name, pr.Nodes[k].Pos, c)
		for _, to := range r.exitOrder {
			st, taken := r.exit(to)
			head := key
			head.cut = to
			if i < 0 && pr == h.prog.Init && to == h.prog.InitStop {
				h.add(&chc.Atom{Pred: h.ended[0], Args: st.globals}, body, taken, where+" to init's end", kc(ctxInitEnd))
				continue
			}
			h.add(h.atom(head, f, st), body, taken, fmt.Sprintf("%s to %s", where, pr.Nodes[to].Pos), kc(ctxBlock))
		}
		h.add(nil, body, r.bad, where+": a violation", kc(ctxQuery))
		for _, ee := range ends {
			switch {
			case i < 0 && key.bottom:
				h.add(&chc.Atom{Pred: h.ended[0], Args: ee.after.globals}, body, ee.taken, where+": init ends", kc(ctxInitEnd))
			case key.bottom || !ee.ret:
				h.add(&chc.Atom{Pred: h.donePred(i, c), Args: append(slices.Clone(h.histAt(f.hist, c)), ee.after.globals...)}, body, ee.taken,
					where+": the thread ends", &ctxClause{kind: ctxEnd, inst: i, ctx: c, region: r, edge: ee.e})
			default:
				args := append(append(slices.Clone(f.entry), h.histAt(f.hist, c)...), ee.after.globals...)
				args = append(append(append(args, ee.after.atomic), ee.after.locks...), ee.vals...)
				h.add(&chc.Atom{Pred: h.sumPred(ctxSum{i, pr.Index, key.entry, c}), Args: args}, body, ee.taken,
					where+": returns", &ctxClause{kind: ctxSummary, inst: i, ctx: c, region: r, edge: ee.e})
			}
		}
		for x, ce := range calls {
			q := ce.e.Callee
			in := append(append(append(slices.Clone(ce.after.globals), ce.after.atomic), ce.after.locks...), ce.args...)
			h.add(&chc.Atom{Pred: h.callPred(ctxCall{i, q.Index, c}), Args: append(slices.Clone(in), h.histAt(f.hist, c)...)}, body, ce.taken,
				fmt.Sprintf("%s calls %s", where, q.Name), &ctxClause{kind: ctxCallKind, inst: i, ctx: c, region: r, edge: ce.e})
			cr := returns[x]
			for _, c2 := range h.contexts(i) {
				if c2 < c {
					continue
				}
				sargs := append(append(slices.Clone(in), h.histAt(f.hist, c2)...), cr.exit...)
				sargs = append(sargs, cr.rets...)
				sum := chc.Atom{Pred: h.sumPred(ctxSum{i, q.Index, c, c2}), Args: sargs}
				head := key
				head.cut, head.ctx = ce.e.To, c2
				h.add(h.atom(head, f, cr.after), append(slices.Clone(body), sum), cr.feas,
					fmt.Sprintf("%s: %s returns in context %d", where, q.Name, c2),
					&ctxClause{kind: ctxReturn, inst: i, ctx: c, region: r, edge: ce.e, globals: cr.after.globals, locals: cr.after.locals})
			}
			h.enter(i, q, c)
		}
	}
}

// enter adds the clause by which a call of q in context c enters q.
func (h *Contexts) enter(i int, q *ir.Proc, c int) {
	key := ctxAt{inst: i, proc: q.Index, cut: q.Entry, entry: c, ctx: c}
	if h.entered[key] {
		return
	}
	h.entered[key] = true
	f := h.newFrame(q)
	var pool []ts.Lit
	st := hstate{globals: slices.Clone(f.entry[:h.ng]), atomic: f.entry[h.ng], locks: slices.Clone(f.entry[h.ng+1 : h.ng+1+h.nl])}
	if q.Atomic {
		st.atomic = ts.True
	}
	v := h.frameEnv(q, st, &pool)
	v.locals = v.newLocals(q, f.entry[h.ng+1+h.nl:])
	v.enforce(q)
	st.locals = v.locals
	call := chc.Atom{Pred: h.callPred(ctxCall{i, q.Index, c}), Args: append(slices.Clone(f.entry), h.histAt(f.hist, c)...)}
	h.add(h.atom(key, f, st), []chc.Atom{call}, v.feas, fmt.Sprintf("%s: %s is entered in context %d", h.instName(i), q.Name, c),
		&ctxClause{kind: ctxEnter, inst: i, ctx: c})
}

// switches adds, at every switch point and for every thread that has
// ended, the clauses by which a context ends there (ended) and a later
// context of the thread starts from there.
func (h *Contexts) switches() {
	for _, pr := range h.prog.Procs {
		for _, k := range sortedCuts(h.switchPoints[pr]) {
			for _, key := range h.variants(pr, k) {
				if key.inst < 0 {
					continue
				}
				f := h.newFrame(pr)
				body := *h.atom(key, f, f.st)
				h.switchClauses(key.inst, key.ctx, body, f.st.globals, f.hist, f.st.atomic.Not(),
					func(c2 int, hs history) *chc.Atom {
						head := key
						head.ctx = c2
						g := hstate{globals: slices.Clone(hs.g[c2*h.ng:]), atomic: ts.False, locks: f.st.locks, locals: f.st.locals}
						return h.atom(head, frameState{entry: f.entry, hist: hs}, g)
					})
			}
		}
	}
	for i := range h.entries {
		for _, c := range h.contexts(i) {
			hs := h.newHistory(c + 1)
			g := inputs(h.System.AIG, h.ng, "shared")
			body := chc.Atom{Pred: h.donePred(i, c), Args: append(h.histAt(hs, c), g...)}
			h.switchClauses(i, c, body, g, hs, ts.True, func(c2 int, hs2 history) *chc.Atom {
				return &chc.Atom{Pred: h.donePred(i, c2), Args: append(h.histAt(hs2, c2), hs2.g[c2*h.ng:]...)}
			})
		}
	}
}

// switchClauses adds, for thread i in context c in the state of body
// (shared globals g, history hs up to c) where cond lets it switch: the
// end of context c in g, and each later context c2 of the thread
// starting there, given that the contexts between ended consistently and
// none of them was the thread's (head makes the atom of context c2 from
// the history up to it).
func (h *Contexts) switchClauses(i, c int, body chc.Atom, g []ts.Lit, hs history, cond ts.Lit, head func(int, history) *chc.Atom) {
	sys := h.System.AIG
	if c+1 >= h.C {
		return
	}
	end := history{g: append(slices.Clone(hs.g[:(c+1)*h.ng]), g...), t: hs.t[:(c+1)*h.tb]}
	h.add(&chc.Atom{Pred: h.ended[c+1], Args: h.histEnded(end, c+1)}, []chc.Atom{body}, cond,
		fmt.Sprintf("%s: context %d ends", h.Threads[i], c), &ctxClause{kind: ctxSwitch, inst: i, ctx: c})
	first := h.next(i, c)
	if h.rounds == 0 {
		// Not the very next context: a switch from a thread to itself
		// only spends a switch (the two contexts run as one, with a
		// switch to spare), so no violation needs one.
		first++
	}
	for c2 := first; c2 < h.C; c2 = h.next(i, c2) {
		hs2 := history{
			g: append(append(slices.Clone(hs.g[:(c+1)*h.ng]), g...), inputs(sys, (c2-c-1)*h.ng, "history")...),
			t: append(append(slices.Clone(hs.t[:(c+1)*h.tb]), inputs(sys, (c2-c-1)*h.tb, "schedule")...), h.constThread(i)...),
		}
		others := cond
		for d := c + 1; d < c2; d++ {
			others = sys.And(others, h.ranBy(hs2, d, i).Not())
		}
		h.add(head(c2, hs2), []chc.Atom{body, {Pred: h.ended[c2], Args: h.histEnded(hs2, c2)}}, others,
			fmt.Sprintf("%s: context %d resumes context %d", h.Threads[i], c2, c), &ctxClause{kind: ctxResume, inst: i, ctx: c2})
		if h.rounds > 0 {
			// Round robin: the thread's next turn; an empty turn is a
			// switch right where it resumed.
			break
		}
	}
}
