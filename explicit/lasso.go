package explicit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"bmc/ir"
	"bmc/result"
)

// LassoSearch looks for a livelock within b: a round-robin execution
// (init first, alone, then rounds in which every thread runs one context,
// as with -k) whose configuration at the start of round b.Stem+1 comes
// back at the end of round b.Stem+b.Loop, with at least one step in
// between (the loop) and the loop meeting b.Fairness. Options gives the
// call depth, the state limit and the timeout; its rounds and switches
// are ignored.
//
// An execution that reaches a violation (a failed assertion, an error
// label, a release of a lock not held, a call beyond the depth, a failing
// enforce clause) ends there and has no loop; the violation is not
// reported. The search is the oracle of the symbolic livelock check, so
// it is plain: every arbitrary value is split into both values at once,
// so that configurations compare by equality, and every step is a state
// of the search, without the reduction of Run. A loop is followed only
// while each thread whose last context has ended can be as the loop
// needs it (see settled), unless opts.NoReduction, which cross-checks
// that cut.
func LassoSearch(ctx context.Context, p *ir.Program, b result.LassoBound, opts Options) *result.Result {
	res, _ := searchLasso(ctx, p, b, opts)
	return res
}

// lassoPath is an execution a livelock trace shows: states[i] is reached
// from states[i-1] by recs[i], a step, or (recStart) the refinement of
// states[i-1] that makes values definite; recs[0] is recStart. The loop
// begins at states[loop] and ends in the last state, which has the same
// configuration.
type lassoPath struct {
	states []*state
	recs   []stepRec
	loop   int
}

// searchLasso is LassoSearch, with the execution of the livelock found.
func searchLasso(ctx context.Context, p *ir.Program, b result.LassoBound, opts Options) (*result.Result, *lassoPath) {
	start := time.Now()
	res := &result.Result{Engine: "explicit", Bounds: b.String()}
	defer func() {
		res.Stats = fmt.Sprintf("%d states", res.States)
		res.Elapsed = time.Since(start)
	}()
	c, err := newLassoChecker(p, b, opts)
	if err != nil {
		res.Verdict, res.Limits = result.Unknown, []result.Limit{{Kind: result.LimitStopped, Detail: err.Error()}}
		return res, nil
	}
	res.Bounds, res.Depth = c.lassoBounds(b), c.opts.Depth
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	// The steps look at the flag, as in Run.
	unwatch := context.AfterFunc(ctx, func() { c.stopped.Store(true) })
	defer unwatch()
	ls := &lassoSearch{c: c, b: b, broadcasts: slices.ContainsFunc(p.Edges, func(e *ir.Edge) bool { return len(e.PassiveTargets) > 0 })}
	path, limit := ls.run()
	res.States = ls.states
	if path != nil {
		// A livelock found before a limit is a real one.
		res.Verdict, res.Trace = result.Unsafe, c.lassoTrace(path, b)
		return res, path
	}
	if limit == nil && c.stopped.Load() {
		l := result.Stopped(ctx, "") // a step was cut short
		limit = &l
	}
	if limit != nil {
		res.Limits = append(res.Limits, *limit)
	}
	res.Limits = append(res.Limits, c.boundsHit()...)
	if len(res.Limits) > 0 {
		res.Verdict = result.Unknown
	}
	c.anyDepth(res)
	return res, nil
}

// newLassoChecker prepares the steps of a livelock search or replay.
func newLassoChecker(p *ir.Program, b result.LassoBound, opts Options) (*Checker, error) {
	if b.Stem < 0 || b.Loop < 1 {
		return nil, fmt.Errorf("a livelock needs a stem of at least 0 rounds and a loop of at least 1, not %d and %d", b.Stem, b.Loop)
	}
	if b.Fairness < result.StrongFairness || b.Fairness > result.NoFairness {
		return nil, fmt.Errorf("unknown fairness %d", b.Fairness)
	}
	c, err := New(p, opts.Within(0, -1))
	if err != nil {
		return nil, err
	}
	c.allWrites = true
	return c, nil
}

// lassoBounds describes the bounds a livelock verdict holds under, but
// the call depth (Result.Depth).
func (c *Checker) lassoBounds(b result.LassoBound) string {
	s := b.String()
	if c.dynamicThreads() {
		s += fmt.Sprintf(", at most %s", result.Plural(c.opts.MaxThreads, "thread"))
	}
	return s
}

// lassoSearch is one livelock search. Its states are concrete and carry
// their place in the schedule: state.used is the round (0 while init
// runs), state.cur the thread whose context it is.
type lassoSearch struct {
	c      *Checker
	b      result.LassoBound
	states int // made so far, stem and loops
	// broadcasts says that a step may write other threads' locals.
	broadcasts bool
}

// lassoNode is a state of the search: the node it was reached from (-1
// for a root), and how: a step of thread along edge, or (edge -1) the end
// of a context. A node's index is its key's id in the search's stateSet;
// a loop's keys end with the loop's fairness record and dips.
type lassoNode struct {
	parent int32
	thread int16
	edge   int32
}

// run searches breadth first for the configurations at the start of the
// loop, then from each, in the order found, for a loop that comes back
// to it. It returns the livelock found, or the limit that ended the
// search.
func (ls *lassoSearch) run() (*lassoPath, *result.Limit) {
	c := ls.c
	var stem []lassoNode
	stemKeys := newStateSet()
	var buf []byte
	add := func(s *state, parent int32, t int, edge int32) {
		buf = s.key(buf[:0])
		if _, added := stemKeys.insert(buf); added {
			stem = append(stem, lassoNode{parent, int16(t), edge})
			ls.states++
		}
	}
	for _, s := range c.lassoInitial() {
		add(s, -1, 0, -1)
	}
	var starts []int32
	for i := 0; i < len(stem); i++ {
		if c.stopped.Load() {
			return nil, nil
		}
		if ls.states > c.opts.MaxStates {
			return nil, c.stateLimit()
		}
		s := decode(c.prog, stemKeys.key(int32(i)))
		if !s.init && s.used > ls.b.Stem {
			starts = append(starts, int32(i))
			continue
		}
		c.lassoMoves(s, func(n *state, t int, edge int32) { add(n, int32(i), t, edge) })
	}
	for _, root := range starts {
		if path, limit := ls.loop(stem, stemKeys, root); path != nil || limit != nil {
			return path, limit
		}
	}
	return nil, nil
}

// loop searches breadth first, from the configuration of stem node root,
// for a loop of ls.b.Loop rounds that ends in that configuration and
// meets the fairness.
func (ls *lassoSearch) loop(stem []lassoNode, stemKeys *stateSet, root int32) (*lassoPath, *result.Limit) {
	c := ls.c
	from := decode(c.prog, stemKeys.key(root))
	from.cur, from.used = 0, 1
	fair := newLoopFairness(ls.b.Fairness, from)
	dips := newLoopDips(c.prog, from)
	keys := newStateSet()
	buf := append(append(from.key(nil), fair.start(from)...), dips.start()...)
	keys.insert(buf)
	nodes := []lassoNode{{parent: -1, edge: -1}}
	ls.states++
	for i := 0; i < len(nodes); i++ {
		if c.stopped.Load() {
			return nil, nil
		}
		if ls.states > c.opts.MaxStates {
			return nil, c.stateLimit()
		}
		key := keys.key(int32(i))
		rest := key[len(key)-fair.size()-dips.size():]
		book, dipped := string(rest[:fair.size()]), string(rest[fair.size():])
		s := decode(c.prog, key)
		closed := false
		c.lassoMoves(s, func(n *state, t int, edge int32) {
			// Threads are never removed, so a loop that starts one
			// cannot come back.
			if closed || len(n.threads) != len(from.threads) {
				return
			}
			nb, nd := book, dipped
			if edge >= 0 {
				nb, nd = fair.after(book, n, t), dips.after(dipped, n, t)
			}
			if edge < 0 && s.used == ls.b.Loop && c.reduce && !ls.settled(from, n, t, fair, nb, dips, nd) {
				return
			}
			if n.used > ls.b.Loop {
				closed = fair.stepped(nb) && fair.unfair(nb) < 0 && dips.comesBack(from, n, nd)
				return
			}
			buf = append(append(n.key(buf[:0]), nb...), nd...)
			if _, added := keys.insert(buf); added {
				nodes = append(nodes, lassoNode{int32(i), int16(t), edge})
				ls.states++
			}
		})
		if closed {
			return ls.path(stem, stemKeys, root, nodes, keys, int32(i)), nil
		}
	}
	return nil, nil
}

// settled reports whether thread t, whose last context of the loop has
// ended in n, is as the loop needs it: back in its state at the start
// (above its keyframe, see loopDips), unless another thread's broadcast
// may still change its locals, and not
// already treated unfairly under strong fairness (it can neither step
// nor become blocked at every configuration of the loop any more). A
// loop is searched only as far as these can hold, which saves most of
// the states.
func (ls *lassoSearch) settled(start, n *state, t int, fair loopFairness, book string, dips loopDips, dipped string) bool {
	if !ls.broadcasts && !dips.threadBack(start, n, dipped, t) {
		return false
	}
	return !(fair.kind == result.StrongFairness && fair.alive[t] && book[1+t] == 0)
}

// sameThread reports whether threads a and b are in the same state.
func sameThread(a, b *thread) bool {
	if a.entry != b.entry || a.atomic != b.atomic || len(a.frames) != len(b.frames) {
		return false
	}
	for i := range a.frames {
		fa, fb := a.frames[i], b.frames[i]
		if fa.proc != fb.proc || fa.pc != fb.pc || fa.call != fb.call || fa.atomic != fb.atomic || !slices.Equal(fa.locals, fb.locals) {
			return false
		}
	}
	return true
}

// path is the execution through stem node root and loop node end: the
// steps of both, without the ends of contexts.
func (ls *lassoSearch) path(stem []lassoNode, stemKeys *stateSet, root int32, loop []lassoNode, loopKeys *stateSet, end int32) *lassoPath {
	p := &lassoPath{}
	walk := func(nodes []lassoNode, keys *stateSet, last int32, withRoot bool) {
		var ids []int32
		for id := last; id >= 0; id = nodes[id].parent {
			ids = append(ids, id)
		}
		if !withRoot {
			ids = ids[:len(ids)-1]
		}
		for _, id := range slices.Backward(ids) {
			n := nodes[id]
			switch {
			case n.parent < 0:
				p.states = append(p.states, decode(ls.c.prog, keys.key(id)))
				p.recs = append(p.recs, stepRec{kind: recStart})
			case n.edge >= 0:
				p.states = append(p.states, decode(ls.c.prog, keys.key(id)))
				p.recs = append(p.recs, stepRec{kind: recStep, thread: n.thread, edge: n.edge})
			}
		}
	}
	walk(stem, stemKeys, root, true)
	// The state of the stem's last step has the loop's first
	// configuration: only ends of contexts follow it.
	p.loop = len(p.states) - 1
	walk(loop, loopKeys, end, false) // the loop's root is the stem's end
	return p
}

// lassoInitial is the initial states, split into concrete ones; none when
// the execution starts at an error label.
func (c *Checker) lassoInitial() []*state {
	c.failed = false
	starts := c.initialStates()
	if c.failed {
		return nil
	}
	var out []*state
	for _, s := range starts {
		for r := range splits(s, allSlots(s)) {
			if !r.init {
				r.cur, r.used = 0, 1
			}
			out = append(out, r)
		}
	}
	return out
}

// lassoMoves makes every move of the round-robin schedule from the
// concrete state s: each step of the thread whose context it is (of init
// while init runs), its outcomes split into concrete states, and where
// the thread may be left, the end of its context (edge -1), after which
// the next thread's context begins, or the next round.
func (c *Checker) lassoMoves(s *state, emit func(n *state, t int, edge int32)) {
	if len(s.threads) == 0 {
		return // no thread to run: no step, so no loop
	}
	t := s.cur
	if s.init {
		t = 0
	}
	if th := &s.threads[t]; th.alive() {
		for _, e := range th.top().proc.Nodes[th.top().pc].Out {
			outs, _ := c.stepOutcomes(s, t, e)
			for _, n := range outs {
				for r := range splits(n, allSlots(n)) {
					if s.init && !r.init {
						r.cur, r.used = 0, 1
					}
					emit(r, t, int32(e.ID))
				}
			}
		}
	}
	if s.init || !c.canSwitch(s, t) {
		return
	}
	n := *s // steps never change the state they start from
	n.cur++
	if n.cur == len(n.threads) {
		n.cur, n.used = 0, n.used+1
	}
	emit(&n, t, -1)
}

// stepOutcomes makes the step of thread t along e from s as the search
// does (atomic marks, enforce clauses, the end of init included) and
// returns its outcomes; none when the step is a violation, which ends the
// execution, and then the violation. s must be definite in what the step
// reads, so that a violation is one of all the outcomes, not of some
// refinements.
func (c *Checker) stepOutcomes(s *state, t int, e *ir.Edge) ([]*state, string) {
	rec := stepRec{kind: recStep, thread: int16(t), edge: int32(e.ID)}
	var out []*state
	c.sink = func(n *state, _ stepRec) { out = append(out, n) }
	c.failed, c.executing, c.violation = false, rec, nil
	c.step(s, t, e, func(n *state) { c.arrive(s, n, t, rec) })
	if c.failed {
		return nil, c.violation.msg
	}
	return out, ""
}

// allSlots lists every variable cell of s.
func allSlots(s *state) []slot {
	out := globalSlots(s)
	for t := range s.threads {
		for f, fr := range s.threads[t].frames {
			for k := range fr.locals {
				out = append(out, slot{t, f, k})
			}
		}
	}
	return out
}

func globalSlots(s *state) []slot {
	out := make([]slot, len(s.globals))
	for i := range s.globals {
		out[i] = slot{-1, 0, i}
	}
	return out
}

// configKey is the key of the configuration of s: without the place in
// the schedule.
func configKey(s *state) string {
	n := *s
	n.cur, n.used = -1, 0
	return string(n.key(nil))
}

// blocked reports whether thread t waits in acquire on a held lock (by
// any thread, itself included: LANGUAGE.md, acquire blocks while the lock
// is held): it is alive and every step it can take next is such an
// acquire.
func blocked(s *state, t int) bool {
	th := &s.threads[t]
	if !th.alive() {
		return false
	}
	out := th.top().proc.Nodes[th.top().pc].Out
	for _, e := range out {
		if e.Kind != ir.Acquire {
			return false
		}
		if s.locks[e.Lock.Index] < 0 {
			return false
		}
	}
	return len(out) > 0
}

// loopFairness keeps the record of a loop that its fairness depends on,
// as a string to go into keys: byte 0 says whether any thread has
// stepped; unless the fairness is none, byte 1+u says of thread u
// whether it has stepped (loopStepped) and whether (strong) it has been
// blocked at every configuration of the loop so far or (weak) at some
// (loopBlocked, kept only while it matters).
type loopFairness struct {
	kind  result.Fairness
	alive []bool // the threads alive at the start of the loop
}

const (
	loopStepped byte = 1 << iota
	loopBlocked
)

func newLoopFairness(kind result.Fairness, start *state) loopFairness {
	f := loopFairness{kind: kind}
	for i := range start.threads {
		f.alive = append(f.alive, start.threads[i].alive())
	}
	return f
}

func (f loopFairness) size() int {
	if f.kind == result.NoFairness {
		return 1
	}
	return 1 + len(f.alive)
}

// start is the record at the start of the loop, in s.
func (f loopFairness) start(s *state) string {
	b := make([]byte, f.size())
	for u := 1; u < len(b); u++ {
		if blocked(s, u-1) {
			b[u] = loopBlocked
		}
	}
	return string(b)
}

// after is the record after a step of thread t that ends in s.
func (f loopFairness) after(book string, s *state, t int) string {
	b := []byte(book)
	b[0] = loopStepped
	if f.kind == result.NoFairness {
		return string(b)
	}
	b[1+t] = loopStepped
	for u := range f.alive {
		switch {
		case b[1+u]&loopStepped != 0 || !f.alive[u]:
		case f.kind == result.StrongFairness && !blocked(s, u):
			b[1+u] &^= loopBlocked
		case f.kind == result.WeakFairness && blocked(s, u):
			b[1+u] |= loopBlocked
		}
	}
	return string(b)
}

func (f loopFairness) stepped(book string) bool { return book[0] != 0 }

// unfair is a thread the loop treats unfairly: alive, without a step,
// and not blocked as the fairness requires; -1 when there is none.
func (f loopFairness) unfair(book string) int {
	if f.kind == result.NoFairness {
		return -1
	}
	for u, alive := range f.alive {
		if alive && book[1+u] == 0 {
			return u
		}
	}
	return -1
}

// lassoTrace is the trace of the livelock p.
func (c *Checker) lassoTrace(p *lassoPath, b result.LassoBound) *result.Trace {
	states := make([]*state, len(p.states))
	for i, s := range p.states {
		states[i] = s.clone()
	}
	c.concretize(states, p.recs)
	names := threadNames(states[len(states)-1])
	tr := &result.Trace{Livelock: true, File: c.prog.File, Threads: names, Depth: stackDepth(states)}
	if vals := c.initialValues(states, p.recs); len(vals) > 0 {
		tr.Steps = append(tr.Steps, result.Step{Event: "initial values: " + strings.Join(vals, " "), Sched: result.SchedInitial})
	}
	// Each part counts its rounds from 1: the loop begins a round.
	stem := schedule{opts: Options{Rounds: b.Stem, Switches: -1}, last: -1, phase: "stem "}
	loop := schedule{opts: Options{Rounds: b.Loop, Switches: -1}, last: -1, phase: "loop "}
	last := -1
	describe := func(from, to int, sc *schedule) {
		for i := from; i < to; i++ {
			r := p.recs[i]
			if r.kind != recStep {
				continue
			}
			if !states[i-1].init {
				if last >= 0 && int(r.thread) != last {
					tr.Switches++
				}
				last = int(r.thread)
			}
			c.describe(tr, states[i-1], states[i], r, names, sc)
		}
	}
	describe(1, p.loop+1, &stem)
	tr.Loop = len(tr.Steps)
	tr.Steps = append(tr.Steps, result.Step{Event: "loop: the steps below repeat forever", Sched: result.SchedLoop})
	describe(p.loop+1, len(states), &loop)
	for _, w := range c.leftBehind(states[p.loop:], names) {
		tr.Steps = append(tr.Steps, result.Step{Event: "loop end: " + w, Sched: result.SchedLoopEnd})
	}
	steps := 0
	for _, r := range p.recs[p.loop+1:] {
		if r.kind == recStep {
			if steps == 0 {
				tr.Pos = c.prog.Edges[r.edge].Pos
			}
			steps++
		}
	}
	repeat := fmt.Sprintf("the last %d steps repeat forever", steps)
	if steps == 1 {
		repeat = "the last step repeats forever"
	}
	switch b.Fairness {
	case result.StrongFairness:
		tr.Violation = "fair livelock: " + repeat + " (strongly fair)"
	case result.WeakFairness:
		tr.Violation = "fair livelock: " + repeat + " (weakly fair)"
	default:
		tr.Violation = "livelock: " + repeat + " (fairness not required)"
	}
	return tr
}

// initialValues lists the arbitrary initial values of the globals that
// the execution reads before it writes them; the others do not matter.
func (c *Checker) initialValues(states []*state, recs []stepRec) []string {
	read, written := map[int]bool{}, map[int]bool{}
	for i := 1; i < len(states); i++ {
		if recs[i].kind != recStep {
			continue
		}
		for _, v := range c.readsOf(c.prog.Edges[recs[i].edge]).vars {
			if v.Global && !written[v.Index] {
				read[v.Index] = true
			}
		}
		for sl := range c.writtenSlots(states[i-1], recs[i]) {
			if sl.thread < 0 {
				written[sl.index] = true
			}
		}
	}
	var out []string
	for i, g := range c.prog.Globals {
		if read[i] && g.Init == ir.Unknown {
			out = append(out, fmt.Sprintf("%s=%s", g.Name, states[0].globals[i]))
		}
	}
	return out
}
