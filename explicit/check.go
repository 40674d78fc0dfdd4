package explicit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// Options bound the search.
type Options struct {
	// Exactly one of Switches and Rounds may be set (>= 0 and > 0); with
	// neither, every interleaving is explored.
	Switches   int // at most this many context switches; -1: not bounded by switches
	Rounds     int // round-robin rounds; 0: not bounded by rounds
	Depth      int // frames per thread
	MaxThreads int // threads in existence at once, counting terminated ones
	MaxStates  int // stop with Unknown after this many distinct states
	Timeout    time.Duration
	// NoReduction explores a context switch before every step instead of
	// taking a thread's thread-local steps together with its next step
	// that touches shared state (see ir.VisibleNodes); for cross-checking
	// the reduction.
	NoReduction bool
	// GetafixSwitches leaves a thread only where Getafix would (see
	// ir.GetafixSwitchNodes), to compare verdicts with it; it needs a
	// context bound and turns the reduction off (a move would pass the
	// points).
	GetafixSwitches bool
	// NoSymmetry keeps states that differ only by a permutation of the
	// instances of a thread group, or by a rotation of a ring of threads,
	// apart (see symmetry and ring); for cross-checking the reductions.
	NoSymmetry bool
	// FewestSwitches explores the states in order of context switches,
	// then statements (see costQueue.switchesFirst): the violation found
	// has the fewest switches, and among those the fewest statements.
	// The states explored in all are the same.
	FewestSwitches bool
}

// GetafixWords name the narrower question of Options.GetafixSwitches in
// verdicts.
const GetafixWords = "with Getafix's switch points"

// DefaultOptions are the bounds used when the user gives none.
func DefaultOptions() Options {
	return Options{Switches: -1, Depth: 16, MaxThreads: 4, MaxStates: 5_000_000}
}

// Within is o bounded by rounds round-robin rounds when rounds > 0, else
// by switches context switches.
func (o Options) Within(rounds, switches int) Options {
	if rounds > 0 {
		o.Rounds, o.Switches = rounds, -1
	} else {
		o.Rounds, o.Switches = 0, switches
	}
	return o
}

// Checker explores the state space of one program.
type Checker struct {
	prog *ir.Program
	opts Options

	readCache map[*ir.Edge]*reads
	// visible marks, per procedure and node, the steps that touch shared
	// state (ir.VisibleNodes). With reduce, a thread takes its other,
	// thread-local steps together with its next visible one (a move, see
	// runThread); traces use it either way (see keptSteps).
	visible [][]bool
	reduce  bool
	// switchAt, with Options.GetafixSwitches, marks the nodes a thread
	// may be left at (nil: everywhere outside atomic sections).
	switchAt [][]bool
	flag     int // with switchAt, ir.GetafixFlag's index (-1: none)

	// The states found, by id: key, the state it was reached from, by
	// which move (its last step), at which cost.
	states  *stateSet
	keyBuf  []byte // the key of the state being added
	parents []int32
	steps   []stepRec
	costs   []cost
	queue   costQueue

	depthHit, threadHit bool
	stopped             atomic.Bool // the context has ended
	violation           *violation  // the cheapest one found so far

	// The expansion under way: the state's id (-1 before the search) and
	// cost; the state the step being executed starts from within its move,
	// the step, the cost after it, whether it is thread-local (then its
	// outcomes continue the move: localNext), and whether it has a
	// violation (then its other outcomes are not needed).
	cur       int32
	curCost   cost
	from      *moveState
	executing stepRec
	charge    cost
	local     bool
	localNext []*moveState
	failed    bool

	// sink, when set, takes the outcomes of steps instead of the search
	// (a replay, or a step made again for a trace); quiet says that
	// violations and the context are ignored (the search has ended).
	sink   func(s *state, rec stepRec)
	quiet  bool
	replay *replayPath // Replay: the states replayed
	// sym, when set, reduces the search by the symmetry of the thread
	// instances (Run sets it where the question is symmetric).
	sym *symmetry
	// ring, when set, reduces the search by a ring's rotations (Run sets
	// it where the question and the program are symmetric so).
	ring *ring
	rots []int16 // with ring, by id: the places its canonical state moved the threads on
	// allWrites makes traces show every value a step writes: the livelock
	// search's states are concrete from the start, so a write that keeps
	// a value would not show as a change, where the lazy search's would.
	allWrites bool
}

type recKind uint8

const (
	recStart recKind = iota // an initial state
	recStep                 // thread executed edge
)

type stepRec struct {
	kind          recKind
	startsThreads bool // the step ends init
	thread        int16
	edge          int32
}

// moveState is a state reached within a move, with the step that reached
// it from the previous one (prev nil: the state the move starts from).
type moveState struct {
	s    *state
	prev *moveState
	rec  stepRec
}

// violation is a violation found by the search, kept until no cheaper
// one can be found.
type violation struct {
	parent int32      // the state it was found from (-1: an initial state)
	via    *moveState // the move's thread-local steps before it
	rec    stepRec    // the step that violates, or recStart
	final  *state     // the state it happens in
	cost   cost
	msg    string
	file   string
	pos    lang.Pos
}

// New prepares a check of p.
func New(p *ir.Program, opts Options) (*Checker, error) {
	if opts.Switches >= 0 && opts.Rounds > 0 {
		return nil, fmt.Errorf("give either a context-switch bound or a round bound, not both")
	}
	if opts.Depth < 1 {
		return nil, fmt.Errorf("--depth must be at least 1")
	}
	if opts.MaxThreads < 1 {
		return nil, fmt.Errorf("--max-threads must be at least 1")
	}
	c := &Checker{prog: p, opts: opts, readCache: map[*ir.Edge]*reads{}, states: newStateSet(),
		visible: ir.VisibleNodes(p), reduce: !opts.NoReduction, cur: -1}
	c.queue.switchesFirst = opts.FewestSwitches
	if opts.GetafixSwitches {
		if opts.Rounds == 0 && opts.Switches < 0 {
			return nil, fmt.Errorf("Getafix's switch points need a context bound (-k or --switches)")
		}
		c.switchAt, c.reduce, c.flag = ir.GetafixSwitchNodes(p), false, -1
		if f := ir.GetafixFlag(p); f != nil {
			c.flag = f.Index
		}
	}
	return c, nil
}

// Bounds describes the bounds a verdict holds under, but the call depth
// (Result.Depth).
func (c *Checker) Bounds() string {
	var parts []string
	switch {
	case c.opts.Rounds > 0:
		parts = append(parts, result.Plural(c.opts.Rounds, "round-robin round"))
	case c.opts.Switches >= 0:
		parts = append(parts, result.Plural(c.opts.Switches, "context switch"))
	case c.concurrent():
		parts = append(parts, "all interleavings")
	}
	if c.opts.GetafixSwitches {
		parts = append(parts, GetafixWords)
	}
	if c.dynamicThreads() {
		parts = append(parts, fmt.Sprintf("at most %s", result.Plural(c.opts.MaxThreads, "thread")))
	}
	return strings.Join(parts, ", ")
}

// concurrent reports whether the program can have more than one thread.
func (c *Checker) concurrent() bool {
	n, err := c.prog.Instances()
	return err != nil || n > 1 || c.dynamicThreads()
}

// dynamicThreads reports whether the thread count is bounded by
// MaxThreads: the program spawns, or a thread count is unbounded.
func (c *Checker) dynamicThreads() bool {
	for _, t := range c.prog.Threads {
		if t.Unbounded {
			return true
		}
	}
	for _, e := range c.prog.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return true
		}
	}
	return false
}

// Run explores the states in order of cost: the statements executed,
// then the context switches used (see cost), so that the first violation
// found has a trace with the fewest statements, and among those the
// fewest context switches (switches first with Options.FewestSwitches).
// A Checker runs once.
//
// The search ends soon after ctx does (it is looked at before every
// step), with the cause of the end among the limits.
func (c *Checker) Run(ctx context.Context) *result.Result {
	start := time.Now()
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	res := &result.Result{Engine: "explicit", Bounds: c.Bounds(), Depth: c.opts.Depth}
	defer func() { res.Stats = fmt.Sprintf("%d states", res.States) }()
	if !c.opts.NoSymmetry && c.opts.Rounds == 0 && c.switchAt == nil {
		c.sym = newSymmetry(c.instanceCounts())
		if c.sym == nil {
			c.ring = newRing(c.prog, ir.FindRing(c.prog))
		}
	}
	limit := c.search(ctx)
	res.States = c.states.len()
	res.Elapsed = time.Since(start)
	if v := c.violation; v != nil {
		// A violation found before ctx ended is shown even when the search
		// could not confirm that none is cheaper: it is a real one.
		res.Verdict = result.Unsafe
		res.Trace = c.violationTrace().trace
		return res
	}
	if limit != nil {
		res.Limits = append(res.Limits, *limit)
	}
	res.Limits = append(res.Limits, c.boundsHit()...)
	if len(res.Limits) > 0 {
		res.Verdict = result.Unknown
	}
	c.anyDepth(res)
	return res
}

// anyDepth marks a safe verdict on a recursive program as holding at
// every call depth when no execution within the bounds reached the depth
// bound: a larger bound would explore the same executions.
func (c *Checker) anyDepth(res *result.Result) {
	if res.Verdict != result.Safe || c.depthHit || !c.prog.Recursive() {
		return
	}
	res.AnyDepth = true
}

// boundsHit are the limits for the call depth and thread bounds the
// search has met: executions beyond them were cut.
func (c *Checker) boundsHit() []result.Limit {
	var out []result.Limit
	if c.depthHit {
		out = append(out, result.NewLimit(result.LimitDepth, "(call depth %d)", c.opts.Depth))
	}
	if c.threadHit {
		out = append(out, result.NewLimit(result.LimitThreads, "(%s)", result.Plural(c.opts.MaxThreads, "thread")))
	}
	return out
}

// stateLimit is the limit of a search that stored its most states.
func (c *Checker) stateLimit() *result.Limit {
	l := result.NewLimit(result.LimitStates, "(%d states)", c.opts.MaxStates)
	return &l
}

// search explores until it finds a cheapest violation, has seen every
// state, or a limit ends it; it returns the limit, or nil.
func (c *Checker) search(ctx context.Context) *result.Limit {
	// An atomic flag is cheaper to look at than ctx, so it can be looked
	// at before every step.
	unwatch := context.AfterFunc(ctx, func() { c.stopped.Store(true) })
	defer unwatch()
	for _, s := range c.initialStates() {
		c.add(s, stepRec{kind: recStart}, cost{})
	}
	for !c.stopping() {
		id, at, ok := c.queue.pop()
		if !ok {
			return nil
		}
		// Every violation found from here on costs at least one more
		// statement than the state it is found from, and from a deferred
		// switch (see expand) what the switch's entry costs.
		switching, cheapest := id < 0, cost{at.stmts + 1, at.switches}
		if switching {
			id, cheapest = ^id, at
			if at != c.costs[id].plus(deferredSwitch) {
				continue // reached more cheaply since it was queued
			}
		} else if at != c.costs[id] {
			continue
		}
		if v := c.violation; v != nil && !c.queue.less(cheapest, v.cost) {
			return nil
		}
		if c.full() {
			return c.stateLimit()
		}
		c.cur, c.curCost = id, c.costs[id]
		c.expand(decode(c.prog, c.states.key(id)), switching)
	}
	if c.full() {
		return c.stateLimit()
	}
	l := result.Stopped(ctx, "")
	return &l
}

// stopping reports whether the context has ended (a step made again for
// a trace is finished regardless).
func (c *Checker) stopping() bool { return !c.quiet && c.stopped.Load() }

// full reports whether the states found, with those of the move under
// way, exceed the state limit (a step made again for a trace is
// finished regardless).
func (c *Checker) full() bool {
	return !c.quiet && c.states.len()+len(c.localNext) > c.opts.MaxStates
}

// halted reports whether the search must end: its context has ended or
// the state limit is exceeded. One step can have exponentially many
// outcomes, so it is looked at before each.
func (c *Checker) halted() bool { return c.stopping() || c.full() }

// add records s, reached from c.cur by rec at cost at, unless it is known
// at a cost no higher.
func (c *Checker) add(s *state, rec stepRec, at cost) {
	if c.sym != nil {
		s, _ = c.sym.canonical(s)
	}
	rot := 0
	if c.ring != nil {
		s, rot = c.ring.canonical(s)
	}
	c.keyBuf = s.key(c.keyBuf[:0])
	id, added := c.states.insert(c.keyBuf)
	if !added {
		if c.queue.less(at, c.costs[id]) {
			c.parents[id], c.steps[id], c.costs[id] = c.cur, rec, at
			if c.ring != nil {
				c.rots[id] = int16(rot)
			}
			c.queue.push(id, at)
		}
		return
	}
	if c.ring != nil {
		c.rots = append(c.rots, int16(rot))
	}
	c.parents = append(c.parents, c.cur)
	c.steps = append(c.steps, rec)
	c.costs = append(c.costs, at)
	c.queue.push(id, at)
}

func (c *Checker) initialStates() []*state {
	s := &state{cur: -1, locks: make([]int16, len(c.prog.Locks))}
	for i := range s.locks {
		s.locks[i] = -1
	}
	for _, g := range c.prog.Globals {
		s.globals = append(s.globals, g.Init)
	}
	if p := c.prog.Init; p != nil {
		s.init = true
		s.threads = []thread{{entry: p, frames: []*frame{newFrame(p, -1, nil)}}}
		out := c.enforce([]*state{s}, []int{0})
		c.checkLabels(out, []int{0}, stepRec{kind: recStart})
		return out
	}
	return c.startThreads(s, stepRec{kind: recStart})
}

// startThreads replaces init by the initial thread instances.
func (c *Checker) startThreads(s *state, rec stepRec) []*state {
	s.init = false
	s.threads = nil
	for i, n := range c.instanceCounts() {
		spec := c.prog.Threads[i]
		if spec.Unbounded {
			c.threadHit = true // the check covers only some of the counts
		}
		for range n {
			s.threads = append(s.threads, thread{entry: spec.Proc, frames: []*frame{newFrame(spec.Proc, -1, nil)}})
		}
	}
	s.cur, s.used = -1, 0 // the first thread is still to be chosen
	all := make([]int, len(s.threads))
	for i := range all {
		all[i] = i
	}
	out := c.enforce([]*state{s}, all)
	c.checkLabels(out, all, rec)
	return out
}

// instanceCounts is how many instances of each group of the thread order
// the search starts: a fixed group's count, and an open group's share of
// --max-threads.
func (c *Checker) instanceCounts() []int {
	fixed, open := 0, 0
	for _, spec := range c.prog.Threads {
		if spec.Unbounded {
			open++
		} else {
			fixed += spec.Count
		}
	}
	var counts []int
	for _, spec := range c.prog.Threads {
		n := spec.Count
		if spec.Unbounded {
			n = max(1, (c.opts.MaxThreads-fixed)/open)
		}
		counts = append(counts, n)
	}
	return counts
}

// enforce keeps the refinements of states whose listed threads satisfy
// the enforce clause of their top frame.
func (c *Checker) enforce(states []*state, threads []int) []*state {
	for _, t := range threads {
		var kept []*state
		for _, s := range states {
			if c.halted() {
				return nil
			}
			th := &s.threads[t]
			if !th.alive() || th.top().proc.Enforce == nil {
				kept = append(kept, s)
				continue
			}
			inv := th.top().proc.Enforce
			var slots []slot
			for _, v := range exprVars(inv) {
				slots = append(slots, s.varSlot(v, t))
			}
			for r := range splits(s, slots) {
				if c.halted() {
					return nil
				}
				en := &env{s: r, t: t, passive: -1}
				if en.eval(inv)&canT != 0 {
					kept = append(kept, r)
				}
			}
		}
		states = kept
	}
	return states
}

// checkLabels reports a violation when a listed thread stands at an error
// label in one of the states.
func (c *Checker) checkLabels(states []*state, threads []int, rec stepRec) {
	for _, s := range states {
		for _, t := range threads {
			th := &s.threads[t]
			if !th.alive() {
				continue
			}
			if n := th.top().proc.Nodes[th.top().pc]; n.Error {
				c.failAt(s, rec, fmt.Sprintf("error label %s reached", strings.Join(errorLabels(n, c.prog.Targets), ", ")), c.prog.File, n.Pos)
				return
			}
		}
	}
}

func errorLabels(n *ir.Node, targets []string) []string {
	var out []string
	for _, l := range n.Labels {
		for _, t := range targets {
			if l == t {
				out = append(out, l)
			}
		}
	}
	return out
}

// expand generates the successors of s. With neither bound, these are
// the moves of every thread (of the thread in an atomic section, if any).
// Otherwise they are the running thread's move, and where the running
// thread may be left (canSwitch), the move of every other thread the
// bound lets run next: a context switch is taken together with the move
// after it, so that no state exists between them. With FewestSwitches
// the switches are a second expansion, queued at the cost of the
// cheapest move after a switch (deferredSwitch); switching says that s
// is expanded so.
func (c *Checker) expand(s *state, switching bool) {
	if s.init {
		c.runThread(s, 0, cost{})
		return
	}
	if c.opts.Rounds == 0 && c.opts.Switches < 0 {
		// The states do not say which thread ran last, which keeps them
		// few; the thread of the move that reached s stands in for it, so
		// that paths with fewer switches tend to be found first.
		last := -1
		if r := c.steps[c.cur]; r.kind == recStep && !r.startsThreads {
			last = int(r.thread)
			if c.ring != nil {
				last = (last + int(c.rots[c.cur])) % len(c.ring.procs)
			}
		}
		price := func(t int) cost {
			if last >= 0 && t != last {
				return cost{switches: 1}
			}
			return cost{}
		}
		if a := c.atomicOwner(s); a >= 0 {
			c.runThread(s, a, price(a))
			return
		}
		for t := range s.threads {
			c.runThread(s, t, price(t))
		}
		return
	}
	if s.cur >= 0 {
		if !switching {
			c.runThread(s, s.cur, cost{})
		}
		if !c.canSwitch(s, s.cur) {
			return
		}
		if c.queue.switchesFirst && !switching {
			// The switches wait for the search to reach their cost, so
			// that the states of s+1 switches are not stored before
			// those of s are all seen.
			c.queue.push(^c.cur, c.curCost.plus(deferredSwitch))
			return
		}
		s = c.getafixLeft(s)
	}
	price := cost{switches: 1}
	if s.cur < 0 {
		price = cost{} // the first thread is chosen freely
	}
	for t := range s.threads {
		if t == s.cur || !s.threads[t].alive() || c.halted() {
			continue
		}
		from := s
		if s.cur < 0 && c.opts.Rounds > 0 && t > 0 && c.switchAt != nil {
			// Getafix's rule: the threads before t are left at their
			// first statements, their first contexts empty.
			if !c.getafixFlagAllows(s) {
				continue
			}
			from = c.getafixLeft(s)
		}
		if n := c.switchTo(from, t); n != nil {
			c.runThread(n, t, price)
		}
	}
}

// switchTo returns s with thread t running next (bounded modes), or nil
// when the bound does not allow it. The copy is shallow: steps never
// change the state they start from.
func (c *Checker) switchTo(s *state, t int) *state {
	n := *s
	n.cur = t
	switch {
	case c.opts.Rounds > 0:
		// The contexts of the threads in between stay empty; a thread
		// before the current one runs in the next round.
		if s.cur >= 0 && t < s.cur {
			n.used++
		}
		if n.used >= c.opts.Rounds {
			return nil
		}
	case c.opts.Switches >= 0:
		if s.cur >= 0 {
			n.used++
		}
		if n.used > c.opts.Switches {
			return nil
		}
	}
	return &n
}

// canSwitch reports whether the scheduler may leave thread t now: it has
// terminated or is outside an atomic section, or, with Getafix's switch
// points, stands at one while Getafix's flag is not true. (Between
// moves, a thread may stand before thread-local steps; those commute
// with every step of the other threads, so switching before them is as
// good as after.)
func (c *Checker) canSwitch(s *state, t int) bool {
	th := &s.threads[t]
	if c.switchAt == nil {
		return !th.alive() || !th.atomic
	}
	// Getafix's rule: at one of its points (a thread's end is one), its
	// flag not true (an arbitrary flag is taken false by getafixLeft).
	if !c.getafixFlagAllows(s) {
		return false
	}
	if !th.alive() {
		return true
	}
	top := th.top()
	return c.switchAt[top.proc.Index][top.pc]
}

// getafixFlagAllows says whether Getafix's flag lets a thread be left
// in s: it is not true.
func (c *Checker) getafixFlagAllows(s *state) bool {
	return c.flag < 0 || s.globals[c.flag] != ir.True
}

// getafixLeft is s as a thread is switched out of it, with Getafix's
// rule: a flag that was never given a value is false, as the switch
// requires.
func (c *Checker) getafixLeft(s *state) *state {
	if c.switchAt == nil || c.flag < 0 || s.globals[c.flag] != ir.Unknown {
		return s
	}
	n := *s
	n.globals = slices.Clone(s.globals)
	n.globals[c.flag] = ir.False
	return &n
}

// atomicOwner is the thread inside an atomic section, or -1.
func (c *Checker) atomicOwner(s *state) int {
	for t := range s.threads {
		if s.threads[t].alive() && s.threads[t].atomic {
			return t
		}
	}
	return -1
}

// runThread lets thread t make its move from s, after a context switch
// that costs price. With the reduction a move is the thread's
// thread-local steps up to its next visible step, and that step: only
// the visible steps affect the other threads, so the search needs no
// state in between, and a thread's last thread-local steps, which could
// not matter, are never taken. Without it a move is one step. The
// thread-local steps are explored breadth first, so that each outcome is
// reached with the fewest of them.
func (c *Checker) runThread(s *state, t int, price cost) {
	if !s.threads[t].alive() {
		return
	}
	c.failed = false
	level := []*moveState{{s: s}}
	var seen map[string]bool
	for n := int32(1); len(level) > 0; n++ {
		c.charge = c.curCost.plus(price).plus(cost{stmts: n})
		c.localNext = nil
		for _, m := range level {
			top := m.s.threads[t].top() // thread-local steps do not end a thread
			c.from = m
			c.local = c.reduce && !m.s.init && !c.visible[top.proc.Index][top.pc]
			for _, e := range top.proc.Nodes[top.pc].Out {
				if c.halted() {
					return
				}
				rec := stepRec{kind: recStep, thread: int16(t), edge: int32(e.ID)}
				c.executing = rec
				c.step(m.s, t, e, func(n *state) { c.arrive(m.s, n, t, rec) })
				if c.failed {
					return
				}
			}
		}
		level = nil
		for _, m := range c.localNext {
			if seen == nil {
				seen = map[string]bool{}
			}
			if key := string(m.s.key(nil)); !seen[key] {
				seen[key] = true
				level = append(level, m)
			}
		}
	}
}

// arrive finishes a step: atomic marks, enforce, error labels, the end of
// init; then records the new states.
func (c *Checker) arrive(from, n *state, t int, rec stepRec) {
	e := c.prog.Edges[rec.edge]
	if th := &n.threads[t]; th.alive() {
		switch e.Atomic {
		case ir.AtomicBegin:
			th.atomic = true
		case ir.AtomicEnd:
			th.atomic = false
		}
	}
	moved := []int{t}
	for i := len(from.threads); i < len(n.threads); i++ {
		moved = append(moved, i)
	}
	states := c.enforce([]*state{n}, moved)
	c.checkLabels(states, moved, rec)
	if c.failed {
		return
	}
	for _, s := range states {
		if s.init {
			init := &s.threads[0]
			if !init.alive() || len(init.frames) == 1 && init.top().pc == c.prog.InitStop {
				started := rec
				started.startsThreads = true
				for _, r := range c.startThreads(s, started) {
					c.record(r, started)
				}
				if c.failed {
					return
				}
				continue
			}
		}
		c.record(s, rec)
	}
}

// record keeps an outcome of the step being executed: a state within the
// move, an outcome for the sink, or a new state of the search.
func (c *Checker) record(s *state, rec stepRec) {
	switch {
	case c.local:
		c.localNext = append(c.localNext, &moveState{s: s, prev: c.from, rec: rec})
	case c.sink != nil:
		c.sink(s, rec)
	default:
		c.add(s, rec, c.charge)
	}
}
