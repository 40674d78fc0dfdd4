// Package explicit is the reference checker: an explicit-state
// interpreter that enumerates every interleaving of a concurrent Boolean
// program within the given bounds. It is deliberately plain, because the
// SAT engines are tested against it and every counterexample is replayed
// on it.
package explicit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"bmc/ir"
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
	// only before steps that touch shared state (see ir.VisibleNodes); for
	// cross-checking the reduction.
	NoReduction bool
}

// DefaultOptions are the bounds used when the user gives none.
func DefaultOptions() Options {
	return Options{Switches: -1, Depth: 16, MaxThreads: 4, MaxStates: 5_000_000}
}

// Verdict is the outcome of a check.
type Verdict int

const (
	Safe    Verdict = iota // no violation within the bounds
	Unsafe                 // a violation was found; see Trace
	Unknown                // a limit was reached before a verdict
)

func (v Verdict) String() string { return [...]string{"safe", "unsafe", "unknown"}[v] }

// Result is the outcome with its evidence; every engine reports one.
type Result struct {
	Engine  string // "explicit", "bmc+gini", ...
	Verdict Verdict
	Bounds  string   // the bounds the verdict holds under
	Limits  []string // limits that made the search incomplete (Unknown)
	Trace   *Trace   // for Unsafe
	States  int      // explicit: distinct states explored
	Bound   int      // bmc: the unrolling depth reached
	// ContextBound is, for a violation found by deepening the rounds or
	// switches (bmc on a concurrent program), the smallest that has one.
	ContextBound int
	Stats        string // what the engine did, for people ("1234 states")
	Elapsed      time.Duration
}

// Checker explores the state space of one program.
type Checker struct {
	prog *ir.Program
	opts Options

	readCache map[*ir.Edge]*reads
	visible   [][]bool // per procedure and node; nil without reduction
	index     map[string]int32
	keys      []string
	parents   []int32
	steps     []stepRec

	depthHit, threadHit bool
	found               bool
	trace               *Trace
	cur                 int32   // state being expanded
	executing           stepRec // step being executed, for violations found inside it
	replay              *replayPath
}

type recKind uint8

const (
	recStart  recKind = iota // an initial state
	recStep                  // thread executed edge
	recSwitch                // context switch to thread (or next round's thread)
)

type stepRec struct {
	kind   recKind
	thread int16
	edge   int32
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
	c := &Checker{prog: p, opts: opts, readCache: map[*ir.Edge]*reads{}, index: map[string]int32{}}
	if !opts.NoReduction {
		c.visible = ir.VisibleNodes(p)
	}
	return c, nil
}

// Bounds describes the bounds a verdict holds under.
func (c *Checker) Bounds() string {
	var parts []string
	switch {
	case c.opts.Rounds > 0:
		parts = append(parts, plural(c.opts.Rounds, "round-robin round"))
	case c.opts.Switches >= 0:
		parts = append(parts, plural(c.opts.Switches, "context switch"))
	default:
		parts = append(parts, "all interleavings")
	}
	parts = append(parts, fmt.Sprintf("call depth %d", c.opts.Depth))
	if c.dynamicThreads() {
		parts = append(parts, fmt.Sprintf("at most %s", plural(c.opts.MaxThreads, "thread")))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
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

// Run explores breadth first, so the first violation found has a shortest
// trace. A Checker runs once.
func (c *Checker) Run(ctx context.Context) *Result {
	start := time.Now()
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	res := &Result{Engine: "explicit", Bounds: c.Bounds()}
	defer func() { res.Stats = fmt.Sprintf("%d states", res.States) }()
	c.cur = -1
	for _, s := range c.initialStates() {
		c.add(s, stepRec{kind: recStart})
		if c.found {
			break
		}
	}
	for head := 0; head < len(c.keys) && !c.found; head++ {
		if head%1024 == 0 && ctx.Err() != nil {
			res.Limits = append(res.Limits, "timeout")
			break
		}
		if len(c.keys) > c.opts.MaxStates {
			res.Limits = append(res.Limits, fmt.Sprintf("state limit (%d states)", c.opts.MaxStates))
			break
		}
		c.cur = int32(head)
		c.expand(decode(c.prog, []byte(c.keys[head])))
	}
	res.States = len(c.keys)
	res.Elapsed = time.Since(start)
	if c.found {
		res.Verdict = Unsafe
		res.Trace = c.trace
		res.Limits = nil
		return res
	}
	if c.depthHit {
		res.Limits = append(res.Limits, fmt.Sprintf("depth bound reached (call depth %d)", c.opts.Depth))
	}
	if c.threadHit {
		res.Limits = append(res.Limits, fmt.Sprintf("thread bound reached (%s)", plural(c.opts.MaxThreads, "thread")))
	}
	if len(res.Limits) > 0 {
		res.Verdict = Unknown
	}
	return res
}

// add records a new state reached from c.cur by rec.
func (c *Checker) add(s *state, rec stepRec) {
	key := string(s.key(nil))
	if _, ok := c.index[key]; ok {
		return
	}
	c.index[key] = int32(len(c.keys))
	c.keys = append(c.keys, key)
	c.parents = append(c.parents, c.cur)
	c.steps = append(c.steps, rec)
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
		s.threads = []thread{{entry: p, frames: []frame{newFrame(p, -1, nil)}}}
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
	fixed, open := 0, 0
	for _, spec := range c.prog.Threads {
		if spec.Unbounded {
			open++
		} else {
			fixed += spec.Count
		}
	}
	for _, spec := range c.prog.Threads {
		n := spec.Count
		if spec.Unbounded {
			c.threadHit = true // the check covers only some of the counts
			n = max(1, (c.opts.MaxThreads-fixed)/open)
		}
		for i := 0; i < n; i++ {
			s.threads = append(s.threads, thread{entry: spec.Proc, frames: []frame{newFrame(spec.Proc, -1, nil)}})
		}
	}
	s.cur, s.used = -1, 0
	if c.opts.Rounds > 0 {
		s.cur = 0
	}
	all := make([]int, len(s.threads))
	for i := range all {
		all[i] = i
	}
	out := c.enforce([]*state{s}, all)
	c.checkLabels(out, all, rec)
	return out
}

// enforce keeps the refinements of states whose listed threads satisfy
// the enforce clause of their top frame.
func (c *Checker) enforce(states []*state, threads []int) []*state {
	for _, t := range threads {
		var kept []*state
		for _, s := range states {
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
			for _, r := range split(s, slots) {
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

// expand generates the successors of s under the scheduling mode.
func (c *Checker) expand(s *state) {
	if s.init {
		c.runThread(s, 0)
		return
	}
	switch {
	case c.opts.Rounds > 0:
		c.runThread(s, s.cur)
		if c.found || !c.canSwitch(s, s.cur) {
			return
		}
		next, round := s.cur+1, s.used
		if next == len(s.threads) {
			next, round = 0, round+1
		}
		if round < c.opts.Rounds {
			n := s.clone()
			n.cur, n.used = next, round
			c.add(n, stepRec{kind: recSwitch, thread: int16(next)})
		}
	case c.opts.Switches >= 0:
		if s.cur >= 0 {
			c.runThread(s, s.cur)
			if c.found || !c.canSwitch(s, s.cur) {
				return
			}
		}
		cost := 1
		if s.cur < 0 {
			cost = 0 // the first thread is chosen freely
		}
		if s.used+cost > c.opts.Switches {
			return
		}
		for t := range s.threads {
			if t != s.cur && s.threads[t].alive() {
				n := s.clone()
				n.cur, n.used = t, s.used+cost
				c.add(n, stepRec{kind: recSwitch, thread: int16(t)})
			}
		}
	default:
		if a := c.atomicOwner(s); a >= 0 {
			c.runThread(s, a)
			return
		}
		for t := range s.threads {
			if s.threads[t].alive() && !c.canSwitch(s, t) {
				c.runThread(s, t) // an invisible step: no need to interleave it
				return
			}
		}
		for t := range s.threads {
			c.runThread(s, t)
			if c.found {
				return
			}
		}
	}
}

// canSwitch reports whether the scheduler may leave thread t now: not
// inside an atomic section, and (with reduction) t has terminated or
// stands before a visible step.
func (c *Checker) canSwitch(s *state, t int) bool {
	th := &s.threads[t]
	if !th.alive() {
		return true
	}
	if th.atomic {
		return false
	}
	return c.visible == nil || c.visible[th.top().proc.Index][th.top().pc]
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

// runThread lets thread t take one step from s.
func (c *Checker) runThread(s *state, t int) {
	th := &s.threads[t]
	if !th.alive() {
		return
	}
	top := th.top()
	node := top.proc.Nodes[top.pc]
	for _, e := range node.Out {
		rec := stepRec{kind: recStep, thread: int16(t), edge: int32(e.ID)}
		c.executing = rec
		c.step(s, t, e, func(n *state) { c.arrive(s, n, t, rec) })
		if c.found {
			return
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
	if c.found {
		return
	}
	for _, s := range states {
		if s.init {
			init := &s.threads[0]
			if !init.alive() || len(init.frames) == 1 && init.top().pc == c.prog.InitStop {
				for _, r := range c.startThreads(s, rec) {
					c.record(r, rec)
				}
				if c.found {
					return
				}
				continue
			}
		}
		c.record(s, rec)
	}
}

// record keeps a successor: a new state of the search, or a candidate
// next state of a replay.
func (c *Checker) record(s *state, rec stepRec) {
	if c.replay != nil {
		c.replay.next = append(c.replay.next, s)
		return
	}
	c.add(s, rec)
}
