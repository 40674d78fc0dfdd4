package cover

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// failed is the boundary state after a violation: every later context
// of every thread is empty, so it reaches the end of the last round.
const failed int32 = -1

// failedLocal is the thread state of the thread that failed.
const failedLocal int32 = -2

// reachOut is where a context can end: the thread's state, the shared
// state (failed after a violation) and the moves on the way.
type reachOut struct {
	l, b    int32
	path    []int32 // indices in rounds.trans
	spawned []int32 // the starts it makes, as choices (system.choices), a sorted set
}

// rounds decides whether some number of threads reaches a violation
// within k round-robin rounds, by linear interfaces (La Torre,
// Madhusudan and Parlato, "Model-checking parameterized concurrent
// programs using linear interfaces", Definitions 1-2, Lemmas 1-2): the
// effect of a block of threads over k rounds is the pair (u, v) of the
// k shared states it takes in and the k it gives out, blocks compose
// when one's outputs are the next one's inputs, and an execution is a
// wrapped (v_i = u_{i+1}) initial (u_1 initial) composition of the
// thread instances in their order. A group `f=*` adds any number of
// threads, a least fixpoint. The inputs u_2..u_k are guessed among the
// shared states seen so far, which grow as contexts reach new ones.
//
// Threads started on the way join the order at its end, in the order
// they were started, and run from the round they were started in (as
// in the explicit engine). After the threads of the start, the
// interfaces go on with such threads: one started in round s in thread
// state x may follow a block some thread of which made a start that can
// give x in round s (a choice: system.choices), no earlier than the
// round of the last one placed. A block records which starts its
// threads made in each round, not how often: an over-approximation,
// exact for "safe"; a violation is matched to the program's starts in
// their order (witness) and dropped when it does not match. A start
// that no thread follows is a thread whose contexts are all empty.
type rounds struct {
	*forward
	k      int
	spawns bool // the program starts threads on the way
	trans  []transition
	moved  map[uint64][]int32 // the moves from a pair, as indices in trans
	reach  map[uint64][]reachOut
	seen   map[string]*entry
	preds  map[string][]string // the interfaces each was made from, by key
	ends   []string            // the wrapped initial interfaces of the whole order
	queue  []*entry
	bounds []int32 // the shared states seen at context boundaries
	// reachable, when not nil, holds the shared states an execution can
	// reach (reachableShared): the inputs are guessed among them only.
	reachable map[int32]bool
	// applied caches apply; keepLocal tells runs apart by where the
	// thread ends (the adequacy game needs it).
	applied   map[string][]threadRun
	keepLocal bool
	tooMany   bool // the guesses of the inputs would pass limit
	known     map[int32]bool
	limit     int
}

// entry is the linear interface of the first threads of an execution:
// stage groups of ir.Program.Threads done and n threads of group stage,
// with how it was made (the entry before and the last thread's run).
type entry struct {
	stage, n int
	u, v     []int32
	parent   *entry
	proc     *ir.Proc   // the last thread's
	run      []reachOut // the last thread's contexts, one per round
	// pending holds per round the starts the block's threads made then
	// (sorted sets of choices); at is the round the last thread started
	// on the way was placed in, from that thread's start.
	pending [][]int32
	at      int
	from    *newcomer
}

// newcomer is how a thread started on the way begins: in round (from 0)
// in thread state state, one of choice.
type newcomer struct {
	round  int
	state  int32
	choice int32
}

func (r *rounds) key(e *entry) string {
	n := e.n
	if e.stage < len(r.prog.Threads) && r.prog.Threads[e.stage].Unbounded {
		n = 0 // any number: the count is not part of the state
	}
	buf := appendInts(nil, int32(e.stage), int32(n), int32(e.at))
	buf = appendInts(buf, e.u...)
	buf = appendInts(buf, e.v...)
	for _, set := range e.pending {
		buf = appendInts(buf, int32(len(set)))
		buf = appendInts(buf, set...)
	}
	return string(buf)
}

// appendInts appends xs to a key, each as a varint.
func appendInts(buf []byte, xs ...int32) []byte {
	for _, x := range xs {
		buf = binary.AppendVarint(buf, int64(x))
	}
	return buf
}

// setKey encodes a set of states as a map key.
func setKey(set []int32) string {
	buf := make([]byte, 0, 4*len(set))
	for _, x := range set {
		buf = append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return string(buf)
}

// keySet is the set setKey encoded.
func keySet(key string) []int32 {
	set := make([]int32, len(key)/4)
	for i := range set {
		b := key[4*i:]
		set[i] = int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	}
	return set
}

// union is the sorted set a with the members of b added; a itself when
// none is new.
func union(a, b []int32) []int32 {
	out := a
	for _, x := range b {
		if i, found := slices.BinarySearch(out, x); !found {
			if len(out) == len(a) {
				out = slices.Clone(a)
			}
			out = slices.Insert(out, i, x)
		}
	}
	return out
}

// add records e, made from the interface from (nil for a start).
func (r *rounds) add(from, e *entry) {
	k := r.key(e)
	if from != nil {
		r.preds[k] = append(r.preds[k], r.key(from))
	}
	if r.seen[k] == nil {
		r.seen[k] = e
		r.queue = append(r.queue, e)
	}
}

// startsThreads is the first statement of p that starts a thread, or nil.
func startsThreads(p *ir.Program) *ir.Edge {
	for _, e := range p.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return e
		}
	}
	return nil
}

// CheckRounds decides whether some number of threads reaches a
// violation within k rounds; it takes what Supported takes. Where
// threads start threads, a violation that the program's starts do not
// match leaves the answer unknown (see rounds).
func CheckRounds(ctx context.Context, p *ir.Program, k int, opts Options) (*Outcome, error) {
	if err := Supported(p); err != nil {
		return nil, err
	}
	sys, _ := newSystem(p, opts.Depth)
	f := &forward{system: sys}
	out := &Outcome{Verdict: result.Unknown}
	reachable := f.reachableShared(ctx, opts.MaxPairs)
	switch {
	case ctx.Err() != nil:
		out.Stopped = result.Stopped(ctx, "the forward pass").String()
		return out, nil
	case f.initFail != nil:
		return (&backward{forward: f}).witness(out, nil, -1), nil
	}
	r := newRounds(f, k, opts)
	r.reachable = reachable
	var found *Outcome
	unmatched := 0
	_, stopped := r.run(ctx, func(e *entry) bool {
		if found = r.witness(e); found == nil {
			unmatched++
		}
		return found != nil
	})
	switch {
	case found != nil:
		return r.stats(found), nil
	case stopped != "":
		out.Stopped = stopped
	case unmatched > 0:
		out.Unmatched = unmatched
		out.Stopped = fmt.Sprintf("%s that the interfaces found start threads more often, or in another order, than the program does (the interfaces record which starts were made in each round, not how often)",
			result.Plural(unmatched, "violation"))
	default:
		if out.Stopped, out.Deeper = r.cut(); out.Stopped == "" {
			out.Verdict = result.Safe
		}
	}
	return r.stats(out), nil
}

func newRounds(f *forward, k int, opts Options) *rounds {
	r := &rounds{forward: f, k: k, moved: map[uint64][]int32{}, reach: map[uint64][]reachOut{},
		seen: map[string]*entry{}, preds: map[string][]string{}, known: map[int32]bool{}, limit: opts.MaxElements,
		applied: map[string][]threadRun{}, spawns: startsThreads(f.prog) != nil}
	for _, st := range f.starts {
		r.see(st.g)
	}
	return r
}

// run computes the linear interfaces of every prefix of the threads, as
// far as the limits allow; it stops at the first wrapped initial one
// that fails and that accept takes (none when accept is nil) and
// returns it, else it goes on to the fixpoint. stopped says why it
// ended early.
func (r *rounds) run(ctx context.Context, accept func(*entry) bool) (bad *entry, stopped string) {
	r.guess()
	groups := r.prog.Threads
	for len(r.queue) > 0 || r.tooMany {
		if r.tooMany {
			return nil, fmt.Sprintf("%s need more than %d guesses of the shared states at their starts", result.Plural(r.k, "round"), r.limit)
		}
		if ctx.Err() != nil {
			return nil, result.Stopped(ctx, "the linear interfaces").String()
		}
		if len(r.seen) > r.limit {
			return nil, fmt.Sprintf("%d linear interfaces", r.limit)
		}
		e := r.queue[0]
		r.queue = r.queue[1:]
		if e.stage == len(groups) {
			if r.wrapped(e) {
				r.ends = append(r.ends, r.key(e))
				if e.v[r.k-1] == failed && accept != nil && accept(e) {
					return e, ""
				}
			}
			if r.spawns {
				r.placeStarted(e)
			}
			continue
		}
		g := groups[e.stage]
		if g.Unbounded || e.n == g.Count {
			r.add(e, &entry{stage: e.stage + 1, u: e.u, v: e.v, parent: e.parent, proc: e.proc, run: e.run, pending: e.pending})
		}
		if g.Unbounded || e.n < g.Count {
			before := len(r.bounds)
			r.apply(e, g.Proc, nil, func(v []int32, run []reachOut) {
				r.add(e, &entry{stage: e.stage, n: e.n + 1, u: e.u, v: v, parent: e, proc: g.Proc, run: run, pending: r.grown(e, run)})
			})
			if len(r.bounds) > before {
				r.guess() // new shared states: new guesses of the inputs
			}
		}
	}
	return nil, ""
}

// placeStarted adds to e each thread its block started that can come
// next in the order: started in the round of the last one placed or
// later.
func (r *rounds) placeStarted(e *entry) {
	before := len(r.bounds)
	for s := e.at; s < r.k; s++ {
		for _, c := range e.pending[s] {
			for _, x := range r.choices[c] {
				from := &newcomer{round: s, state: x, choice: c}
				proc := r.locals[x].frames[0].proc
				r.apply(e, proc, from, func(v []int32, run []reachOut) {
					r.add(e, &entry{stage: e.stage, u: e.u, v: v, parent: e, proc: proc, run: run, pending: r.grown(e, run), at: s, from: from})
				})
			}
		}
	}
	if len(r.bounds) > before {
		r.guess()
	}
}

// grown is e's pending starts with those that one more thread's
// contexts (run) made; e's own when they add none, as entries share them.
func (r *rounds) grown(e *entry, run []reachOut) [][]int32 {
	if !r.spawns {
		return nil
	}
	out, copied := e.pending, false
	for j, o := range run {
		if u := union(e.pending[j], o.spawned); len(u) != len(e.pending[j]) {
			if !copied {
				out, copied = slices.Clone(e.pending), true
			}
			out[j] = u
		}
	}
	return out
}

// coreachable are the keys of the interfaces from which a wrapped
// initial one of the whole thread order can be reached.
func (r *rounds) coreachable() map[string]bool {
	co := map[string]bool{}
	queue := slices.Clone(r.ends)
	for _, k := range queue {
		co[k] = true
	}
	for i := 0; i < len(queue); i++ {
		for _, p := range r.preds[queue[i]] {
			if !co[p] {
				co[p] = true
				queue = append(queue, p)
			}
		}
	}
	return co
}

func (r *rounds) stats(out *Outcome) *Outcome {
	out.Elements, out.Pairs = len(r.seen), len(r.reach)
	return out
}

func (r *rounds) see(b int32) {
	if !r.known[b] {
		r.known[b] = true
		r.bounds = append(r.bounds, b)
	}
}

// guess adds the empty block before the first thread with every input
// vector (guesses).
func (r *rounds) guess() {
	for _, u := range guesses(r) {
		e := &entry{u: u, v: slices.Clone(u)}
		if r.spawns {
			e.pending = make([][]int32, r.k)
		}
		r.add(nil, e)
	}
}

// guesses lists the input vectors of r's length: an initial shared
// state, then any seen state that some execution can reach, or failed.
func guesses(r *rounds) [][]int32 {
	choices := []int32{failed}
	for _, b := range r.bounds {
		if r.reachable == nil || r.reachable[b] {
			choices = append(choices, b)
		}
	}
	// Each round after the first multiplies the guesses: too many, and
	// the run stops (tooMany) before making them.
	count := 0
	for _, st := range r.starts {
		if !st.dead {
			count++
		}
	}
	for range r.k - 1 {
		if count > r.limit/len(choices) {
			r.tooMany = true
			return nil
		}
		count *= len(choices)
	}
	var out [][]int32
	u := make([]int32, r.k)
	var rec func(i int)
	rec = func(i int) {
		if i == r.k {
			out = append(out, slices.Clone(u))
			return
		}
		for _, b := range choices {
			u[i] = b
			rec(i + 1)
		}
	}
	for _, st := range r.starts {
		if !st.dead {
			u[0] = st.g
			rec(1)
		}
	}
	return out
}

// reachableShared is what the thread-modular forward pass (an
// over-approximation of every interleaving, so of every round-robin
// schedule) says the shared states can be; nil when it stopped short.
func (f *forward) reachableShared(ctx context.Context, maxPairs int) map[int32]bool {
	if complete, _ := f.build(ctx, maxPairs); !complete {
		return nil
	}
	out := map[int32]bool{}
	for _, st := range f.starts {
		out[st.g] = true
	}
	for g := range f.byShared {
		out[g] = true
	}
	for _, t := range f.trans {
		if !t.fails {
			out[t.g2] = true
		}
	}
	return out
}

// wrapped says whether each round's output is the next round's input.
func (r *rounds) wrapped(e *entry) bool {
	for i := 0; i+1 < r.k; i++ {
		if e.v[i] != e.u[i+1] {
			return false
		}
	}
	return true
}

// apply calls emit with every output vector of one more thread running
// proc after e's block, with the thread's contexts; from says how a
// thread started on the way begins (nil: a thread of the start).
func (r *rounds) apply(e *entry, proc *ir.Proc, from *newcomer, emit func([]int32, []reachOut)) {
	buf := appendInts(nil, int32(proc.Index), e.u[0])
	buf = appendInts(buf, e.v...)
	if from != nil {
		buf = appendInts(buf, int32(from.round), from.state)
	}
	key := string(buf)
	outs, ok := r.applied[key]
	if !ok {
		outs = r.outcomes(e.u[0], e.v, proc, from)
		r.applied[key] = outs
	}
	for _, o := range outs {
		emit(o.v, o.run)
	}
}

// threadRun is one way a thread can run: its outputs, one per round,
// and its contexts.
type threadRun struct {
	v   []int32
	run []reachOut
}

// outcomes lists the ways a thread of proc can run after a block whose
// outputs are in, in a run that started in shared state u0 (its entry
// frame's enforce clause is checked there), or, started on the way,
// from the round and state from says (its contexts before are empty).
// Runs that agree on the outputs so far, the threads they started and
// where the thread stands are explored once; with keepLocal, runs that
// end in other thread states count as different.
func (r *rounds) outcomes(u0 int32, in []int32, proc *ir.Proc, from *newcomer) []threadRun {
	g0 := r.shareds[u0]
	var out []threadRun
	seen := map[string]bool{}
	v := make([]int32, r.k)
	run := make([]reachOut, r.k)
	var rec func(j int, l int32)
	rec = func(j int, l int32) {
		local := l
		if j == r.k && !r.keepLocal {
			local = 0 // where it ends does not matter
		}
		buf := appendInts(nil, int32(j), local)
		buf = appendInts(buf, v[:j]...)
		if r.spawns {
			for _, o := range run[:j] {
				buf = appendInts(buf, int32(len(o.spawned)))
				buf = appendInts(buf, o.spawned...)
			}
		}
		key := string(buf)
		if seen[key] {
			return
		}
		seen[key] = true
		if j == r.k {
			out = append(out, threadRun{slices.Clone(v), slices.Clone(run)})
			return
		}
		for _, o := range r.context(l, in[j]) {
			v[j], run[j] = o.b, o
			rec(j+1, o.l)
		}
	}
	if from != nil {
		for j := range from.round {
			v[j], run[j] = in[j], reachOut{l: from.state, b: in[j]}
		}
		rec(from.round, from.state)
		return out
	}
	entryFrames(proc, -1, nil, func(fr frame) {
		l := &local{frames: []frame{fr}}
		if !enforced(g0, l) {
			return
		}
		if fr.proc.Nodes[fr.pc].Error {
			// It fails before its first step.
			fail := threadRun{v: make([]int32, r.k), run: make([]reachOut, r.k)}
			for j := range fail.v {
				fail.v[j], fail.run[j] = failed, reachOut{l: failedLocal, b: failed}
			}
			out = append(out, fail)
			return
		}
		rec(0, r.localOf(l))
	})
	return out
}

// context lists where one context of a thread in state l can end when
// it starts beside boundary state b: after any number of its moves
// (none included), or failed, with the threads started on the way.
func (r *rounds) context(l, b int32) []reachOut {
	if b == failed || l == dead || l == failedLocal {
		return []reachOut{{l: l, b: b}}
	}
	k := pairKey(b, l)
	if out, ok := r.reach[k]; ok {
		return out
	}
	type place struct {
		pair    uint64
		spawned string
	}
	out := []reachOut{{l: l, b: b}}
	index := map[place]bool{{pair: k}: true}
	for i := 0; i < len(out); i++ {
		o := out[i]
		if o.b == failed || o.l == dead {
			continue
		}
		for _, ti := range r.movesOf(o.b, o.l) {
			t := r.trans[ti]
			next := reachOut{l: t.l2, b: t.g2, path: append(slices.Clone(o.path), ti), spawned: o.spawned}
			if t.fails {
				next.l, next.b = failedLocal, failed
			} else {
				next.spawned = union(o.spawned, t.choices)
			}
			nk := place{pairKey(next.b, next.l), setKey(next.spawned)}
			if index[nk] {
				continue
			}
			index[nk] = true
			out = append(out, next)
			if next.b != failed {
				r.see(next.b)
			}
		}
	}
	r.reach[k] = out
	return out
}

func (r *rounds) movesOf(g, l int32) []int32 {
	k := pairKey(g, l)
	if ts, ok := r.moved[k]; ok {
		return ts
	}
	var ts []int32
	if canMove(r.shareds[g], r.locals[l]) {
		r.moves(g, l, func(t transition) {
			ts = append(ts, int32(len(r.trans)))
			r.trans = append(r.trans, t)
		})
	}
	r.moved[k] = ts
	return ts
}

// witness turns a wrapped initial interface that fails into a schedule:
// init, then round by round each thread's context, in the order of the
// threads. A thread started on the way is matched to the earliest start
// of its state in its round after the start matched to the thread
// before it; a start matched to no thread is a thread whose contexts
// are all empty. The interfaces record that a state was started, not
// how often: where a thread finds no start to match, a cycle of an
// earlier thread's context in that round that starts its state (back
// to the same thread and shared state, so it can run again) is taken
// once more. It returns nil when there is none.
func (r *rounds) witness(e *entry) *Outcome {
	var chain []*entry // one per thread, first thread first
	for x := e; x != nil; x = x.parent {
		if x.run != nil {
			chain = append(chain, x)
		}
	}
	slices.Reverse(chain)
	paths := make([][][]int32, len(chain)) // each thread's moves, per round
	for i, x := range chain {
		paths[i] = make([][]int32, r.k)
		for j, o := range x.run {
			paths[i][j] = o.path
		}
	}
	// Each repetition adds a start, and each thread needs one at most.
	for range len(chain) + 1 {
		out, i := r.schedule(e, chain, paths)
		if out != nil {
			return out
		}
		// Thread i has no start to match: repeat the last cycle that
		// starts its state among the threads before it, in its round.
		from, pumped := chain[i].from, false
		for t := i - 1; t >= 0 && !pumped; t-- {
			paths[t][from.round], pumped = r.pump(paths[t][from.round], from.choice)
		}
		if !pumped {
			return nil
		}
	}
	return nil
}

// pump returns path with one more start of choice: its last cycle that
// makes one taken twice (a cycle leaves the thread and the shared state
// as it found them, so it can be taken again), or else a move that makes
// one replaced by a move between the same states that makes more (a
// loop inside an atomic section); false when there is neither.
func (r *rounds) pump(path []int32, choice int32) ([]int32, bool) {
	if out, ok := r.pumpCycle(path, choice); ok {
		return out, true
	}
	count := func(t transition) int {
		n := 0
		for _, c := range t.choices {
			if c == choice {
				n++
			}
		}
		return n
	}
	for p := len(path) - 1; p >= 0; p-- {
		t := r.trans[path[p]]
		if count(t) == 0 {
			continue
		}
		for _, ti := range r.movesOf(t.g, t.l) {
			if u := r.trans[ti]; u.g2 == t.g2 && u.l2 == t.l2 && u.fails == t.fails && count(u) > count(t) {
				out := slices.Clone(path)
				out[p] = ti
				return out, true
			}
		}
	}
	return path, false
}

// pumpCycle is pump by a cycle.
func (r *rounds) pumpCycle(path []int32, choice int32) ([]int32, bool) {
	at := func(p int) uint64 { // the pair before move p (after the last)
		if p == len(path) {
			t := r.trans[path[p-1]]
			return pairKey(t.g2, t.l2)
		}
		t := r.trans[path[p]]
		return pairKey(t.g, t.l)
	}
	for q := len(path); q > 0; q-- {
		if q == len(path) && r.trans[path[q-1]].fails {
			continue
		}
		starts := false
		for p := q - 1; p >= 0; p-- {
			starts = starts || slices.Contains(r.trans[path[p]].choices, choice)
			if starts && at(p) == at(q) {
				return slices.Concat(path[:q], path[p:q], path[q:]), true
			}
		}
	}
	return path, false
}

// schedule records chain's threads taking paths, round by round; it
// returns nil and the index of the first thread started on the way that
// no start matches when there is one.
func (r *rounds) schedule(e *entry, chain []*entry, paths [][][]int32) (*Outcome, int) {
	out := &Outcome{Verdict: result.Unsafe}
	var start *start
	for i := range r.starts {
		if r.starts[i].g == e.u[0] {
			start = &r.starts[i]
		}
	}
	prog := *r.prog
	prog.Threads = nil
	place := make([]int, len(chain)) // each thread's index in the interpreter
	for i, x := range chain {
		if x.from != nil {
			continue
		}
		if n := len(prog.Threads); n == 0 || prog.Threads[n-1].Proc != x.proc {
			prog.Threads = append(prog.Threads, ir.ThreadSpec{Proc: x.proc})
		}
		prog.Threads[len(prog.Threads)-1].Count++
		place[i] = len(out.Roles)
		out.Roles = append(out.Roles, fmt.Sprintf("%s, thread %d of the order", x.proc.Name, len(out.Roles)+1))
	}
	initial := len(out.Roles)
	// starts are the threads started, in the order the interpreter
	// appends them; matched says which ones a thread of chain is.
	type startEvent struct {
		round   int
		state   int32
		choice  int32
		by      int
		how     string
		line    int
		matched bool
	}
	var starts []startEvent
	finish := func() (*Outcome, int) {
		for _, st := range starts {
			role := fmt.Sprintf("%s, %s by thread %d in round %d at line %d", r.locals[st.state].frames[0].proc.Name, st.how, st.by, st.round+1, st.line)
			if !st.matched {
				role += ", never runs"
			}
			out.Roles = append(out.Roles, role)
		}
		out.Threads = len(out.Roles)
		return out, -1
	}
	out.Program, out.Depth = &prog, 1
	for _, ti := range start.init {
		r.record(out, r.initTrans[ti], 0)
	}
	last := -1 // the start matched to the last thread placed
	for j := 0; j < r.k; j++ {
		for i, x := range chain {
			if x.from != nil && x.from.round == j {
				found := -1
				for n := last + 1; n < len(starts) && found < 0; n++ {
					if starts[n].round == j && starts[n].choice == x.from.choice {
						found = n
					}
				}
				if found < 0 {
					return nil, i
				}
				last, starts[found].matched, place[i] = found, true, initial+found
			}
			for _, ti := range paths[i][j] {
				t := r.trans[ti]
				for _, m := range t.path {
					r.record(out, m, place[i])
					if m.spawn >= 0 {
						how := "started"
						if m.edge.Kind == ir.Fork {
							how = "forked"
						}
						starts = append(starts, startEvent{round: j, state: m.spawn, choice: m.choice, by: place[i], how: how, line: m.edge.Pos.Line})
					}
				}
				if t.fails {
					out.Failure = t.failText
					out.Rounds = j + 1
					return finish()
				}
			}
		}
	}
	out.Rounds = r.k
	return finish()
}
