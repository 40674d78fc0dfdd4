package encode

import (
	"context"
	"fmt"
	"slices"

	"bmc/chc"
	"bmc/internal/halt"
	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// Product is the question "is a violation reachable within R
// round-robin rounds (or S switches)?" of a concurrent program without
// calls as Horn clauses over the product of the threads' states: the
// running thread's cut point is the predicate, and its locals, the
// shared state and every other thread's suspended state (its switch
// point as a number, and its locals) are the arguments. It is the
// forward reachability that Getafix's formula for three threads and
// four rounds computes on decision diagrams (its repository's
// formula-3t_4r_crossproduct_precise.mu: one relation per thread and
// round over all threads' program counters and locals and the shared
// state), and unlike the context encoding it keeps no history of
// shared states: a suspended thread's locals stand for it.
//
//	at(c, i, k)(S, X, O)   instance i runs context c and is at cut point
//	                       k with shared state S (globals, atomic mode)
//	                       and locals X; O the others' suspended states
//	sw(c, i)(P, G)         context c, run by i, ended in globals G with
//	                       every instance's state P (c = -1: the
//	                       threads start, after init)
//
// A thread is suspended at a switch point (numbered from 2), has not
// started (0) or has ended (1). Without calls a thread's state is its
// frame, so the product is exact; programs with calls or locks use the
// context encoding.
type Product struct {
	System   *chc.System
	Threads  []string // instance names, as in traces
	prog     *ir.Program
	rounds   int // 0: switches
	n, C     int
	entries  []*ir.Proc
	ng       int
	cuts     map[*ir.Proc]map[int]bool
	sws      map[*ir.Proc]map[int]bool
	code     []map[int]int // per instance, its switch points' numbers
	pcw      []int         // per instance, the bits of its number
	at       map[prodAt]*chc.Pred
	sw       map[[2]int]*chc.Pred
	kinds    map[*chc.Clause]*prodClause
	suspends [][]ts.Lit // per instance, the inputs of its suspended state in the clauses' O
	live     map[*ir.Proc][][]bool
	dead     map[*ir.Proc][]ts.Lit // per procedure, inputs for the values of its dead locals
	// getafix: a context ends only at Getafix's switch points, and
	// where its flag (ir.GetafixFlag), not the atomic mode, is false.
	getafix bool
}

// prodAt names an at predicate (init: instance -1, context -1).
type prodAt struct{ inst, cut, ctx int }

// prodClause is what Steps needs of a clause: the instance whose block
// it encodes (init: -1), the block's region (none for the clauses that
// only start or end a context), and whether it ends in a violation.
type prodClause struct {
	inst   int
	region *region
	query  bool
}

// NewProduct builds the clauses of p within rounds round-robin rounds
// or, with rounds 0, within switches context switches. With getafixAt
// (ir.GetafixSwitchNodes, of p or of the program p was folded from) a
// thread is left only where Getafix would; nil asks our question.
func NewProduct(ctx context.Context, p *ir.Program, rounds, switches int, getafixAt [][]bool) (h *Product, err error) {
	defer halt.Recover(&err)
	if rounds < 1 && switches < 0 {
		return nil, fmt.Errorf("the product encoding needs at least 1 round or 0 switches")
	}
	if err := ProductTakes(p); err != nil {
		return nil, err
	}
	n, _ := p.Instances()
	h = &Product{System: chc.New(), prog: p, rounds: rounds, n: n, C: rounds * n, ng: len(p.Globals),
		cuts: map[*ir.Proc]map[int]bool{}, sws: map[*ir.Proc]map[int]bool{}, live: map[*ir.Proc][][]bool{}, dead: map[*ir.Proc][]ts.Lit{},
		at: map[prodAt]*chc.Pred{}, sw: map[[2]int]*chc.Pred{}, kinds: map[*chc.Clause]*prodClause{}, getafix: getafixAt != nil}
	if rounds < 1 {
		h.C = switches + 1
	}
	h.entries, h.Threads = p.InstanceEntries()
	for _, pr := range p.Procs {
		h.cuts[pr], h.sws[pr] = cutPoints(p, pr)
		h.live[pr] = ir.LiveLocals(pr)
		if getafixAt != nil && pr != p.Init {
			// Getafix's atomicity is its flag's value alone.
			h.cuts[pr], h.sws[pr] = getafixCutPoints(pr, getafixAt[pr.Index])
			continue
		}
		heads := map[int]bool{pr.Entry: true}
		for _, k := range ir.LoopHeads(pr) {
			heads[k] = true
		}
		// Where the thread is surely in an atomic section no context
		// ends: such a switch point is no cut point either (SafeStack's
		// threads touch shared state only inside atomic sections).
		for k, in := range surelyAtomic(pr) {
			if in && h.sws[pr][k] {
				delete(h.sws[pr], k)
				if !heads[k] {
					delete(h.cuts[pr], k)
				}
			}
		}
	}
	for _, entry := range h.entries {
		code := map[int]int{}
		for x, k := range sortedCuts(h.sws[entry]) {
			code[k] = 2 + x
		}
		h.code = append(h.code, code)
		h.pcw = append(h.pcw, max(1, width(2+len(code))))
	}
	// sw(-1) first: its arguments' order is the diagrams' order of
	// variables (engine.LeastModel), the threads' states before the
	// globals, as in Getafix's formula.
	h.swPred(-1, -1)
	for _, pr := range p.Procs {
		h.dead[pr] = inputs(h.System.AIG, len(pr.Locals), "dead")
	}
	for i := range h.entries {
		h.suspends = append(h.suspends, inputs(h.System.AIG, h.pcw[i]+len(h.entries[i].Locals), "suspended"))
	}
	h.start()
	if p.Init != nil {
		for _, k := range sortedCuts(h.cuts[p.Init]) {
			halt.Point(ctx)
			h.blocks(-1, p.Init, k)
		}
	}
	for i, entry := range h.entries {
		for _, k := range sortedCuts(h.cuts[entry]) {
			halt.Point(ctx)
			h.blocks(i, entry, k)
		}
		h.resumes(i)
	}
	return h, nil
}

// getafixCutPoints are the cut and switch points of a thread's
// procedure pr (without calls) whose thread may be left only at the
// nodes at marks: those nodes are the switch points (a context ends
// before the step there, as in Getafix's ContextSwitch relation), and
// they, the entry and the loop heads the cut points.
func getafixCutPoints(pr *ir.Proc, at []bool) (cuts, sw map[int]bool) {
	cuts, sw = map[int]bool{pr.Entry: true}, map[int]bool{}
	for _, k := range ir.LoopHeads(pr) {
		cuts[k] = true
	}
	reached := ir.Reached(pr)
	for k, ok := range at {
		if ok && reached[k] && !pr.Atomic {
			cuts[k], sw[k] = true, true
		}
	}
	return cuts, sw
}

// surelyAtomic marks the nodes of pr (a procedure without calls) that
// every path from its entry reaches in an atomic section.
func surelyAtomic(pr *ir.Proc) []bool {
	const unseen, off, on, either = 0, 1, 2, 3
	mode := make([]int, len(pr.Nodes))
	mode[pr.Entry] = off
	if pr.Atomic {
		mode[pr.Entry] = on
	}
	work := []int{pr.Entry}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range pr.Nodes[n].Out {
			if !inFrame(e) {
				continue
			}
			m := mode[n]
			switch e.Atomic {
			case ir.AtomicBegin:
				m = on
			case ir.AtomicEnd:
				m = off
			}
			switch old := mode[e.To]; {
			case old == unseen:
				mode[e.To] = m
			case old != m && old != either:
				mode[e.To] = either
			default:
				continue
			}
			work = append(work, e.To)
		}
	}
	out := make([]bool, len(pr.Nodes))
	for k, m := range mode {
		out[k] = m == on
	}
	return out
}

// ProductTakes says why the product encoding does not take p (nil when
// it does): a program with threads, a bounded number of them, and
// without calls, locks, thread starts or broadcasts.
func ProductTakes(p *ir.Program) error {
	n, err := p.Instances()
	switch {
	case err != nil:
		return err
	case n == 0:
		return fmt.Errorf("the program has no threads")
	case len(p.Locks) > 0:
		return fmt.Errorf("the product encoding does not encode locks")
	}
	for _, e := range p.Edges {
		switch {
		case starts(e) || e.Kind == ir.Fork:
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		case len(e.PassiveTargets) > 0:
			return fmt.Errorf("%s:%s: broadcast assignments ($) are not encoded", p.File, e.Pos)
		case e.Kind == ir.Call:
			return fmt.Errorf("%s:%s: the product encoding needs a program without calls", p.File, e.Pos)
		}
	}
	return nil
}

// runs says whether instance i may run context c.
func (h *Product) runs(i, c int) bool { return h.rounds == 0 || c%h.n == i }

// runners are the instances whose end of context c the predicates tell
// apart: in round robin one predicate per context (-1).
func (h *Product) runners(c int) []int {
	if h.rounds > 0 || c < 0 {
		return []int{-1}
	}
	out := make([]int, h.n)
	for i := range out {
		out[i] = i
	}
	return out
}

func (h *Product) instName(i int) string {
	if i < 0 {
		return "init"
	}
	return h.Threads[i]
}

// stateNames names instance i's suspended state: its number, its locals.
func (h *Product) stateNames(i int) []string {
	var out []string
	for b := 0; b < h.pcw[i]; b++ {
		out = append(out, fmt.Sprintf("%s.pc.%d", h.Threads[i], b))
	}
	for _, x := range h.entries[i].Locals {
		out = append(out, h.Threads[i]+"."+x.Name)
	}
	return out
}

func (h *Product) globalNames() []string {
	var out []string
	for _, g := range h.prog.Globals {
		out = append(out, g.Name)
	}
	return out
}

func (h *Product) swPred(c, i int) *chc.Pred {
	key := [2]int{c, i}
	if p, ok := h.sw[key]; ok {
		return p
	}
	var args []string
	for j := range h.entries {
		args = append(args, h.stateNames(j)...)
	}
	name := "the threads start"
	switch {
	case c >= 0 && i >= 0:
		name = fmt.Sprintf("context %d (%s) ends", c, h.Threads[i])
	case c >= 0:
		name = fmt.Sprintf("context %d ends", c)
	}
	p := h.System.NewPred(name, append(args, h.globalNames()...))
	h.sw[key] = p
	return p
}

func (h *Product) atPred(key prodAt) *chc.Pred {
	if p, ok := h.at[key]; ok {
		return p
	}
	pr := h.proc(key.inst)
	args := append(h.globalNames(), "atomic")
	prefix := ""
	if key.inst >= 0 {
		prefix = h.Threads[key.inst] + "."
	}
	for _, x := range pr.Locals {
		args = append(args, prefix+x.Name)
	}
	if key.inst >= 0 {
		for j := range h.entries {
			if j != key.inst {
				args = append(args, h.stateNames(j)...)
			}
		}
	}
	where := pr.Nodes[key.cut].Pos.String()
	if pr.Nodes[key.cut].Pos.Line == 0 {
		where = fmt.Sprintf("node %d", key.cut)
	}
	name := fmt.Sprintf("%s: %s at %s", h.instName(key.inst), pr.Name, where)
	if key.inst >= 0 {
		name += fmt.Sprintf(", context %d", key.ctx)
	}
	p := h.System.NewPred(name, args)
	h.at[key] = p
	return p
}

func (h *Product) proc(i int) *ir.Proc {
	if i < 0 {
		return h.prog.Init
	}
	return h.entries[i]
}

// others are the suspended states of the instances but i, as in O.
func (h *Product) others(i int) []ts.Lit {
	var out []ts.Lit
	for j := range h.entries {
		if j != i {
			out = append(out, h.suspends[j]...)
		}
	}
	return out
}

// atom is the at atom of key in state st (O: the suspended inputs).
func (h *Product) atom(key prodAt, st hstate) *chc.Atom {
	args := append(append(slices.Clone(st.globals), st.atomic), st.locals...)
	if key.inst >= 0 {
		args = append(args, h.others(key.inst)...)
	}
	return &chc.Atom{Pred: h.atPred(key), Args: args}
}

// ended is the sw atom of context c run by i (-1: not told apart) with
// instance i in state mine (nil: as suspended) and globals g.
func (h *Product) ended(c, i int, mine []ts.Lit, g []ts.Lit) *chc.Atom {
	var args []ts.Lit
	for j := range h.entries {
		if j == i && mine != nil {
			args = append(args, mine...)
		} else {
			args = append(args, h.suspends[j]...)
		}
	}
	r := -1
	if h.rounds == 0 && c >= 0 {
		r = i
	}
	return &chc.Atom{Pred: h.swPred(c, r), Args: append(args, g...)}
}

func (h *Product) add(head *chc.Atom, body []chc.Atom, cons ts.Lit, name string, k *prodClause) {
	if c := h.System.Add(head, body, cons, name); c != nil {
		h.kinds[c] = k
	}
}

func (h *Product) env(pr *ir.Proc, st hstate, pool *[]ts.Lit) *env {
	return &env{sys: h.System.AIG, pool: pool, used: len(*pool), proc: pr, feas: ts.True,
		globals: slices.Clone(st.globals), locals: slices.Clone(st.locals), atomic: st.atomic}
}

// number is instance i's suspended state number as constant bits.
func (h *Product) number(i, code int) []ts.Lit {
	out := make([]ts.Lit, h.pcw[i])
	for b := range out {
		out[b] = ts.False
		if code>>b&1 == 1 {
			out[b] = ts.True
		}
	}
	return out
}

// start adds the clauses of init's start, or of the threads' start
// without init: every thread not started, its locals arbitrary.
func (h *Product) start() {
	p := h.prog
	var pool []ts.Lit
	if p.Init != nil {
		v := h.env(p.Init, hstate{}, &pool)
		st := hstate{atomic: ts.False}
		for _, g := range p.Globals {
			st.globals = append(st.globals, initValue(v, g.Init))
		}
		v.globals = slices.Clone(st.globals)
		v.locals = v.newLocals(p.Init, nil)
		v.enforce(p.Init)
		st.locals = v.locals
		h.add(h.atom(prodAt{inst: -1, cut: p.Init.Entry, ctx: -1}, st), nil, v.feas, "init starts", &prodClause{inst: -1})
		return
	}
	v := h.env(nil, hstate{}, &pool)
	var g []ts.Lit
	for _, x := range p.Globals {
		g = append(g, initValue(v, x.Init))
	}
	h.add(h.threadsStart(g), nil, ts.True, "the threads start", &prodClause{inst: -1})
}

// threadsStart is the sw(-1) atom with globals g: no thread started.
func (h *Product) threadsStart(g []ts.Lit) *chc.Atom {
	var args []ts.Lit
	for j := range h.entries {
		args = append(append(args, h.number(j, 0)...), h.suspends[j][h.pcw[j]:]...)
	}
	return &chc.Atom{Pred: h.swPred(-1, -1), Args: append(args, g...)}
}

// contexts are the contexts instance i may run (init: -1).
func (h *Product) contexts(i int) []int {
	if i < 0 {
		return []int{-1}
	}
	var out []int
	for c := 0; c < h.C; c++ {
		if h.runs(i, c) {
			out = append(out, c)
		}
	}
	return out
}

// blocks adds the clauses of the blocks from cut point k of instance
// i's procedure pr, in every context it may run: to the next cut
// points, to a violation, to the thread's end, and, at a switch point,
// the end of the context.
func (h *Product) blocks(i int, pr *ir.Proc, k int) {
	sys := h.System.AIG
	st := hstate{globals: inputs(sys, h.ng, "shared"), atomic: sys.NewInput("atomic"), locals: inputs(sys, len(pr.Locals), "local")}
	var pool []ts.Lit
	r := newRegion(sys, pr, k, h.cuts[pr], st, func(s hstate) *env { return h.env(pr, s, &pool) })
	type endEdge struct {
		after hstate
		taken ts.Lit
	}
	var ends []endEdge
	r.walk(regionEdges{
		ret: func(e *ir.Edge, after hstate, _ []ts.Lit, taken ts.Lit) { ends = append(ends, endEdge{after, taken}) },
		end: func(e *ir.Edge, after hstate, taken ts.Lit) { ends = append(ends, endEdge{after, taken}) },
	})
	for _, c := range h.contexts(i) {
		key := prodAt{inst: i, cut: k, ctx: c}
		body := []chc.Atom{*h.atom(key, st)}
		kc := func(query bool) *prodClause { return &prodClause{inst: i, region: r, query: query} }
		where := fmt.Sprintf("%s: %s from %s", h.instName(i), pr.Name, pr.Nodes[k].Pos)
		if i >= 0 {
			where += fmt.Sprintf(", context %d", c)
		}
		for _, to := range r.exitOrder {
			ex, taken := r.exit(to)
			if i < 0 && to == h.prog.InitStop {
				h.add(h.threadsStart(ex.globals), body, taken, where+" to init's end", kc(false))
				continue
			}
			head := key
			head.cut = to
			ex.locals = h.forget(pr, to, ex.locals)
			h.add(h.atom(head, ex), body, taken, fmt.Sprintf("%s to %s", where, pr.Nodes[to].Pos), kc(false))
		}
		h.add(nil, body, r.bad, where+": a violation", kc(true))
		for _, ee := range ends {
			switch {
			case i < 0:
				h.add(h.threadsStart(ee.after.globals), body, ee.taken, where+": init ends", kc(false))
			case c+1 < h.C:
				done := append(h.number(i, 1), h.suspends[i][h.pcw[i]:]...)
				h.add(h.ended(c, i, done, ee.after.globals), body, sys.And(ee.taken, h.flagAllows(ee.after.globals)), where+": the thread ends", kc(false))
			}
		}
		if i >= 0 && h.sws[pr][k] && c+1 < h.C {
			mine := append(h.number(i, h.code[i][k]), h.forget(pr, k, st.locals)...)
			h.add(h.ended(c, i, mine, st.globals), body, h.leaves(st),
				fmt.Sprintf("%s: context %d ends at %s", h.instName(i), c, pr.Nodes[k].Pos), &prodClause{inst: i})
		}
	}
}

// leaves is when a thread in state st may be left at a switch point:
// outside an atomic section, or, with Getafix's switch points, where
// its flag is false.
func (h *Product) leaves(st hstate) ts.Lit {
	if !h.getafix {
		return st.atomic.Not()
	}
	return h.flagAllows(st.globals)
}

// flagAllows is when, with Getafix's switch points, its flag lets a
// thread be left, even one that has ended: the flag, of globals g, is
// false (without them, always).
func (h *Product) flagAllows(g []ts.Lit) ts.Lit {
	if flag := ir.GetafixFlag(h.prog); h.getafix && flag != nil {
		return g[flag.Index].Not()
	}
	return ts.True
}

// forget replaces the values of the locals of pr that are dead at node
// k by arbitrary ones: relations that do not remember them are smaller
// (the Getafix authors' SafeStack "freelocal" variants forget them in
// the program itself).
func (h *Product) forget(pr *ir.Proc, k int, locals []ts.Lit) []ts.Lit {
	out := slices.Clone(locals)
	for x, l := range h.live[pr][k] {
		if !l {
			out[x] = h.dead[pr][x]
		}
	}
	return out
}

// resumes adds the clauses by which instance i's contexts start: from
// the end of the context before (run by another instance), where it has
// not started, is suspended at a switch point, or (its turn passing
// unused, round robin) has ended.
func (h *Product) resumes(i int) {
	sys, entry := h.System.AIG, h.entries[i]
	g := inputs(sys, h.ng, "shared")
	pc, locals := h.suspends[i][:h.pcw[i]], h.suspends[i][h.pcw[i]:]
	for _, c := range h.contexts(i) {
		for _, r := range h.runners(c - 1) {
			if r == i {
				continue // a switch to itself only spends a switch
			}
			body := []chc.Atom{*h.ended(c-1, r, nil, g)}
			where := fmt.Sprintf("%s: context %d", h.Threads[i], c)
			var pool []ts.Lit
			v := h.env(entry, hstate{globals: g, atomic: ts.False}, &pool)
			if entry.Atomic {
				v.atomic = ts.True
			}
			v.locals = v.newLocals(entry, nil)
			v.enforce(entry)
			st := hstate{globals: g, atomic: v.atomic, locals: v.locals}
			h.add(h.atom(prodAt{inst: i, cut: entry.Entry, ctx: c}, st), body, sys.And(bitsIs(sys, pc, 0), v.feas),
				where+" starts the thread", &prodClause{inst: i})
			for _, k := range sortedCuts(h.sws[entry]) {
				st := hstate{globals: g, atomic: ts.False, locals: locals}
				h.add(h.atom(prodAt{inst: i, cut: k, ctx: c}, st), body, bitsIs(sys, pc, h.code[i][k]),
					fmt.Sprintf("%s resumes at %s", where, entry.Nodes[k].Pos), &prodClause{inst: i})
			}
			if h.rounds > 0 && c+1 < h.C {
				h.add(h.ended(c, i, nil, g), body, sys.And(bitsIs(sys, pc, 1), h.flagAllows(g)), where+": the thread has ended", &prodClause{inst: i})
			}
		}
	}
}

// Steps reads a derivation of a query as the interleaved steps of the
// program: a chain of clauses, init's blocks and then each context's
// blocks of the thread running it.
func (h *Product) Steps(d *chc.Derivation) ([]result.ReplayStep, int, error) {
	k := h.kinds[d.Clause]
	if k == nil || !k.query {
		return nil, 0, fmt.Errorf("witness: the derivation does not end in a violation")
	}
	var chain []*chc.Derivation
	for x := d; ; x = x.Body[0] {
		chain = append(chain, x)
		if len(x.Body) == 0 {
			break
		}
	}
	var out []result.ReplayStep
	for x := len(chain) - 1; x >= 0; x-- {
		d := chain[x]
		k := h.kinds[d.Clause]
		if k == nil {
			return nil, 0, fmt.Errorf("witness: clause %s is not the program's", d.Clause.Name)
		}
		if k.region == nil {
			continue
		}
		steps, err := k.region.steps(d.Values, k.query, values, func(e *ir.Edge) bool {
			return e.Proc == h.prog.Init && e.To == h.prog.InitStop
		})
		if err != nil {
			return nil, 0, err
		}
		for _, st := range steps {
			if k.inst >= 0 {
				st.Thread = k.inst
				h.unknownDead(&st)
			}
			out = append(out, st)
		}
	}
	return out, 1, nil
}

// unknownDead makes the values of the locals that are dead after a step,
// and that it does not read, unknown: the clauses forget them (forget),
// so the derivation's values need not be the ones the replay computes.
func (h *Product) unknownDead(st *result.ReplayStep) {
	e := st.Edge
	if st.Locals == nil || !inFrame(e) {
		return
	}
	read := h.live[e.Proc][e.From]
	for x, l := range h.live[e.Proc][e.To] {
		if !l && !read[x] {
			st.Locals[x] = ir.Unknown
		}
	}
}
