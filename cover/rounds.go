package cover

import (
	"context"
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
	l, b int32
	path []int32 // indices in rounds.trans
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
type rounds struct {
	*forward
	k      int
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
}

func (r *rounds) key(e *entry) string {
	n := e.n
	if e.stage < len(r.prog.Threads) && r.prog.Threads[e.stage].Unbounded {
		n = 0 // any number: the count is not part of the state
	}
	buf := fmt.Appendf(nil, "%d/%d/", e.stage, n)
	for _, x := range slices.Concat(e.u, e.v) {
		buf = append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return string(buf)
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

// RoundsSupported refuses what coverability refuses and programs that
// start threads on the way.
func RoundsSupported(p *ir.Program) error {
	if err := Supported(p); err != nil {
		return err
	}
	for _, e := range p.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return &Unsupported{e.Pos, fmt.Sprintf("%q starts a thread: linear interfaces take the threads a run starts with (fixed counts and f=*), not threads started on the way", e.Stmt)}
		}
	}
	return nil
}

// CheckRounds decides whether some number of threads reaches a
// violation within k rounds. It takes programs whose threads are all
// started at once (fixed counts and `f=*`), without broadcasts or
// recursion.
func CheckRounds(ctx context.Context, p *ir.Program, k int, opts Options) (*Outcome, error) {
	if err := RoundsSupported(p); err != nil {
		return nil, err
	}
	sys, _ := newSystem(p)
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
	if bad, stopped := r.run(ctx, true); bad != nil {
		return r.witness(r.stats(out), bad), nil
	} else if stopped != "" {
		out.Stopped = stopped
		return r.stats(out), nil
	}
	out.Verdict = result.Safe
	return r.stats(out), nil
}

func newRounds(f *forward, k int, opts Options) *rounds {
	r := &rounds{forward: f, k: k, moved: map[uint64][]int32{}, reach: map[uint64][]reachOut{},
		seen: map[string]*entry{}, preds: map[string][]string{}, known: map[int32]bool{}, limit: opts.MaxElements,
		applied: map[string][]threadRun{}}
	for _, st := range f.starts {
		r.see(st.g)
	}
	return r
}

// run computes the linear interfaces of every prefix of the threads, as
// far as the limits allow; with firstFailure it stops at the first
// wrapped initial one that fails and returns it, else it goes on to
// the fixpoint. stopped says why it ended early.
func (r *rounds) run(ctx context.Context, firstFailure bool) (bad *entry, stopped string) {
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
				if e.v[r.k-1] == failed && firstFailure {
					return e, ""
				}
			}
			continue
		}
		g := groups[e.stage]
		if g.Unbounded || e.n == g.Count {
			r.add(e, &entry{stage: e.stage + 1, u: e.u, v: e.v, parent: e.parent, proc: e.proc, run: e.run})
		}
		if g.Unbounded || e.n < g.Count {
			before := len(r.bounds)
			r.apply(e, g.Proc, func(v []int32, run []reachOut) {
				r.add(e, &entry{stage: e.stage, n: e.n + 1, u: e.u, v: v, parent: e, proc: g.Proc, run: run})
			})
			if len(r.bounds) > before {
				r.guess() // new shared states: new guesses of the inputs
			}
		}
	}
	return nil, ""
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
		r.add(nil, &entry{u: u, v: slices.Clone(u)})
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
// proc after e's block, with the thread's contexts.
func (r *rounds) apply(e *entry, proc *ir.Proc, emit func([]int32, []reachOut)) {
	key := fmt.Sprint(proc.Index, e.u[0], e.v)
	outs, ok := r.applied[key]
	if !ok {
		outs = r.outcomes(e.u[0], e.v, proc)
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
// frame's enforce clause is checked there). Runs that agree on the
// outputs so far and where the thread stands are explored once; with
// keepLocal, runs that end in other thread states count as different.
func (r *rounds) outcomes(u0 int32, in []int32, proc *ir.Proc) []threadRun {
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
		key := fmt.Sprint(j, local, v[:j])
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
// (none included), or failed.
func (r *rounds) context(l, b int32) []reachOut {
	if b == failed || l == dead || l == failedLocal {
		return []reachOut{{l: l, b: b}}
	}
	k := pairKey(b, l)
	if out, ok := r.reach[k]; ok {
		return out
	}
	out := []reachOut{{l: l, b: b}}
	index := map[uint64]int{k: 0}
	for i := 0; i < len(out); i++ {
		o := out[i]
		if o.b == failed || o.l == dead {
			continue
		}
		for _, ti := range r.movesOf(o.b, o.l) {
			t := r.trans[ti]
			next := reachOut{l: t.l2, b: t.g2, path: append(slices.Clone(o.path), ti)}
			if t.fails {
				next.l, next.b = failedLocal, failed
			}
			nk := pairKey(next.b, next.l)
			if _, ok := index[nk]; ok {
				continue
			}
			index[nk] = len(out)
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
// threads.
func (r *rounds) witness(out *Outcome, e *entry) *Outcome {
	out.Verdict = result.Unsafe
	var chain []*entry // one per thread, first thread first
	for x := e; x != nil; x = x.parent {
		if x.run != nil {
			chain = append(chain, x)
		}
	}
	slices.Reverse(chain)
	var start *start
	for i := range r.starts {
		if r.starts[i].g == e.u[0] {
			start = &r.starts[i]
		}
	}
	prog := *r.prog
	prog.Threads = nil
	for _, x := range chain {
		proc := x.proc
		if n := len(prog.Threads); n == 0 || prog.Threads[n-1].Proc != proc {
			prog.Threads = append(prog.Threads, ir.ThreadSpec{Proc: proc})
		}
		prog.Threads[len(prog.Threads)-1].Count++
		out.Roles = append(out.Roles, fmt.Sprintf("%s, thread %d of the order", proc.Name, len(out.Roles)+1))
	}
	out.Program, out.Threads, out.Depth = &prog, len(chain), 1
	for _, ti := range start.init {
		r.record(out, r.initTrans[ti], 0)
	}
	for j := 0; j < r.k; j++ {
		for i, x := range chain {
			for _, ti := range x.run[j].path {
				t := r.trans[ti]
				for _, m := range t.path {
					r.record(out, m, i)
				}
				if t.fails {
					out.Failure = t.failText
					out.Rounds = j + 1
					return out
				}
			}
		}
	}
	out.Rounds = r.k
	return out
}
