package cover

import (
	"encoding/binary"
	"fmt"
	"strings"

	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// Unsupported is a program this method does not take, with the construct
// and where it is.
type Unsupported struct {
	Pos    lang.Pos
	Reason string
}

func (u *Unsupported) Error() string { return u.Reason }

// frame is one activation of a procedure in a thread's call stack.
type frame struct {
	proc   *ir.Proc
	pc     int
	call   int  // the call edge that pushed it; -1 for the entry frame
	atomic bool // an atomic call: the atomic mode to restore on return
	locals []bool
}

// local is a thread state: everything a thread owns.
type local struct {
	frames []frame
	atomic bool   // inside an atomic section
	holds  uint64 // the locks it holds, by index
}

func (l *local) top() *frame { return &l.frames[len(l.frames)-1] }

func (l *local) clone() *local {
	n := &local{atomic: l.atomic, holds: l.holds, frames: make([]frame, len(l.frames))}
	for i, f := range l.frames {
		f.locals = append([]bool(nil), f.locals...)
		n.frames[i] = f
	}
	return n
}

func (l *local) key(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, l.holds)
	buf = append(buf, boolByte(l.atomic))
	for _, f := range l.frames {
		buf = binary.AppendUvarint(buf, uint64(f.proc.Index))
		buf = binary.AppendUvarint(buf, uint64(f.pc))
		buf = binary.AppendVarint(buf, int64(f.call))
		buf = append(buf, boolByte(f.atomic))
		buf = appendBits(buf, f.locals)
	}
	return buf
}

// shared is the part of a configuration every thread sees.
type shared struct {
	globals []bool
	locks   uint64 // the locks held, by index
	atomic  bool   // some thread is inside an atomic section
}

func (g *shared) clone() *shared {
	return &shared{globals: append([]bool(nil), g.globals...), locks: g.locks, atomic: g.atomic}
}

func (g *shared) key(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, g.locks)
	buf = append(buf, boolByte(g.atomic))
	return appendBits(buf, g.globals)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func appendBits(buf []byte, bits []bool) []byte {
	var b byte
	for i, v := range bits {
		if v {
			b |= 1 << (i % 8)
		}
		if i%8 == 7 {
			buf, b = append(buf, b), 0
		}
	}
	if len(bits)%8 != 0 {
		buf = append(buf, b)
	}
	return buf
}

// dead stands for a thread that has terminated in a transition's target.
const dead = -1

// transition is one move of one thread: from shared state g and thread
// state l to g2 and l2 (dead when the thread ends), starting the threads
// in spawns. A move is a step followed by the steps that stay inside an
// atomic section and then the thread-local steps up to the next visible
// node (see ir.VisibleNodes), which other threads cannot observe; path
// holds the steps. A failing move (assertion, release of a lock not held,
// error label reached) ends the execution.
type transition struct {
	g, l     int32
	g2, l2   int32
	spawns   []int32
	choices  []int32 // per spawn, the choice it was made from
	path     []micro
	fails    bool
	failText string
}

// micro is one statement of a move with the states after it (before it,
// for a failing statement) and the thread it starts, or -1, with the
// thread states the statement could have started instead (choice, an
// index in system.choices; locals not given by arguments are arbitrary).
type micro struct {
	edge   *ir.Edge
	g, l   int32
	spawn  int32
	choice int32
}

// system is the thread-transition system, built as far as the forward
// pass reaches.
type system struct {
	prog    *ir.Program
	visible [][]bool
	live    map[*ir.Proc][][]bool // ir.LiveLocals, by procedure as needed
	locals  []*local
	localID map[string]int32
	shareds []*shared
	shareID map[string]int32
	keyBuf  []byte
	// choices are the sets of thread states one start could give the
	// new thread, sorted, numbered by choiceID.
	choices  [][]int32
	choiceID map[string]int32
	// manyStarts is a statement at which a move was cut because it
	// started more than maxMoveStarts threads: a search that found no
	// violation is then incomplete (cut).
	manyStarts *ir.Edge
	// depth bounds the frames of a thread in a recursive program (0:
	// none); deepCall is a call that would have gone beyond it.
	depth    int
	deepCall *ir.Edge
}

// cut is why a search over s that found no violation is incomplete, or
// "", and whether the call depth cut it (then the search covered every
// execution within the depth).
func (s *system) cut() (why string, deeper bool) {
	switch {
	case s.manyStarts != nil:
		return fmt.Sprintf("a loop inside an atomic section starts more than %d threads in one move (%q at %s)", maxMoveStarts, s.manyStarts.Stmt, s.manyStarts.Pos), false
	case s.deepCall != nil:
		return fmt.Sprintf("%q at %s calls beyond %s", s.deepCall.Stmt, s.deepCall.Pos, result.Plural(s.depth, "frame")), true
	}
	return "", false
}

// newSystem is p's thread-transition system; a recursive program's
// thread states have at most depth frames.
func newSystem(p *ir.Program, depth int) (*system, error) {
	if err := Supported(p); err != nil {
		return nil, err
	}
	s := &system{prog: p, visible: ir.VisibleNodes(p), live: map[*ir.Proc][][]bool{}, localID: map[string]int32{}, shareID: map[string]int32{}, choiceID: map[string]int32{}}
	if recursiveCall(p) != nil {
		s.depth = max(depth, 1)
	}
	return s, nil
}

// localOf numbers thread state l, with the locals its top frame no
// longer reads set to F first (in l itself): states that differ only in
// values no step will read behave alike, and the explicit interpreter
// leaves such values arbitrary too (so do the witnesses, record).
func (s *system) localOf(l *local) int32 {
	top := l.top()
	for x, live := range s.liveAt(top) {
		if !live {
			top.locals[x] = false
		}
	}
	s.keyBuf = l.key(s.keyBuf[:0])
	return intern(s.localID, &s.locals, s.keyBuf, l)
}

// liveAt marks the locals of f's procedure that are live at its node
// (ir.LiveLocals).
func (s *system) liveAt(f *frame) []bool {
	live, ok := s.live[f.proc]
	if !ok {
		live = ir.LiveLocals(f.proc)
		s.live[f.proc] = live
	}
	return live[f.pc]
}

func (s *system) sharedOf(g *shared) int32 {
	s.keyBuf = g.key(s.keyBuf[:0])
	return intern(s.shareID, &s.shareds, s.keyBuf, g)
}

// choiceOf numbers a set of thread states a start could give.
func (s *system) choiceOf(set []int32) int32 {
	return intern(s.choiceID, &s.choices, []byte(setKey(set)), set)
}

// intern numbers v by its key: the number it got first, or the next.
func intern[T any](ids map[string]int32, items *[]T, key []byte, v T) int32 {
	if id, ok := ids[string(key)]; ok {
		return id
	}
	id := int32(len(*items))
	ids[string(key)] = id
	*items = append(*items, v)
	return id
}

// Supported refuses, with an *Unsupported error, broadcasts and more
// than 64 locks.
func Supported(p *ir.Program) error {
	if len(p.Locks) > 64 {
		return &Unsupported{p.Locks[64].Pos, "more than 64 locks"}
	}
	for _, e := range p.Edges {
		passive := len(e.PassiveTargets) > 0
		for _, x := range append(append([]*ir.Expr{e.Guard, e.Constrain, e.Cond}, e.Values...), e.Args...) {
			x.Walk(func(y *ir.Expr) { passive = passive || y.Op == ir.OpPassive })
		}
		if passive {
			return &Unsupported{e.Pos, fmt.Sprintf("the broadcast assignment %q (x$, a copy of a local in every other thread) is not a thread step; coverability does not take it", e.Stmt)}
		}
	}
	return nil
}

// recursiveCall is a call that closes a cycle of calls among the
// procedures a thread or init can run, or nil.
func recursiveCall(p *ir.Program) *ir.Edge {
	const (
		unseen = iota
		open
		done
	)
	mark := make([]int, len(p.Procs))
	var visit func(pr *ir.Proc) *ir.Edge
	visit = func(pr *ir.Proc) *ir.Edge {
		mark[pr.Index] = open
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.Kind != ir.Call {
					continue
				}
				switch mark[e.Callee.Index] {
				case open:
					if !e.Spawn {
						return e
					}
				case unseen:
					if rec := visit(e.Callee); rec != nil {
						return rec
					}
				}
			}
		}
		mark[pr.Index] = done
		return nil
	}
	var roots []*ir.Proc
	if p.Init != nil {
		roots = append(roots, p.Init)
	}
	for _, t := range p.Threads {
		roots = append(roots, t.Proc)
	}
	for _, r := range roots {
		if mark[r.Index] == unseen {
			if rec := visit(r); rec != nil {
				return rec
			}
		}
	}
	return nil
}

// vset is the set of values an expression can take; each * is its own
// choice.
type vset uint8

const (
	canF vset = 1
	canT vset = 2
)

func single(b bool) vset {
	if b {
		return canT
	}
	return canF
}

// env reads variables: globals from g, locals from the top frame, new
// values of assignment targets from post.
type env struct {
	g    *shared
	f    *frame
	post map[*ir.Var]bool
}

func (en *env) read(v *ir.Var) bool {
	if v.Global {
		return en.g.globals[v.Index]
	}
	return en.f.locals[v.Index]
}

func (en *env) eval(e *ir.Expr) vset {
	if e == nil {
		return canT
	}
	switch e.Op {
	case ir.OpConst:
		return single(e.Val)
	case ir.OpNondet:
		return canF | canT
	case ir.OpVar:
		return single(en.read(e.Var))
	case ir.OpPrimed:
		if v, ok := en.post[e.Var]; ok {
			return single(v)
		}
		return single(en.read(e.Var))
	case ir.OpNot:
		x := en.eval(e.X)
		return (x&canF)<<1 | (x&canT)>>1
	case ir.OpChoose:
		// schoose[X, Y]: T when X can be, F when Y can be, else either.
		x, y := en.eval(e.X), en.eval(e.Y)
		var r vset
		if x&canT != 0 {
			r |= canT
		}
		if x&canF != 0 {
			if y&canT != 0 {
				r |= canF
			}
			if y&canF != 0 {
				r |= canF | canT
			}
		}
		return r
	}
	x, y := en.eval(e.X), en.eval(e.Y)
	var r vset
	for _, a := range [2]bool{false, true} {
		if x&single(a) == 0 {
			continue
		}
		for _, b := range [2]bool{false, true} {
			if y&single(b) != 0 {
				r |= single(e.Op.Apply(a, b))
			}
		}
	}
	return r
}

// choices calls f with every combination of values drawn from sets,
// in order, the first varying slowest.
func choices(sets []vset, f func([]bool)) {
	vals := make([]bool, len(sets))
	var rec func(i int)
	rec = func(i int) {
		if i == len(sets) {
			f(vals)
			return
		}
		for _, b := range [2]bool{false, true} {
			if sets[i]&single(b) != 0 {
				vals[i] = b
				rec(i + 1)
			}
		}
	}
	rec(0)
}

// entryFrames calls f with every frame of a new activation of p with the
// given arguments: parameters take the arguments, other locals their
// initial values, every arbitrary one both ways.
func entryFrames(p *ir.Proc, call int, args []bool, f func(frame)) {
	sets := make([]vset, len(p.Locals))
	for i, x := range p.Locals {
		switch {
		case i < len(args):
			sets[i] = single(args[i])
		case x.Init == ir.Unknown:
			sets[i] = canF | canT
		default:
			sets[i] = single(x.Init == ir.True)
		}
	}
	choices(sets, func(vals []bool) {
		f(frame{proc: p, pc: p.Entry, call: call, locals: append([]bool(nil), vals...)})
	})
}

// outcome is one result of a step before interning.
type outcome struct {
	g2       *shared
	l2       *local // nil: the thread has ended
	spawn    *local
	fails    bool
	failText string
}

// step calls emit with every outcome of edge e taken by a thread in
// state l beside shared state g. The thread can move: it is the one in
// an atomic section, or none is.
func (s *system) step(g *shared, l *local, e *ir.Edge, emit func(outcome)) {
	top := l.top()
	en := &env{g: g, f: top}
	if en.eval(e.Guard)&canT == 0 {
		return
	}
	advance := func() (*shared, *local) {
		n := l.clone()
		n.top().pc = e.To
		return g.clone(), n
	}
	fail := func(text string) { emit(outcome{fails: true, failText: text}) }
	switch e.Kind {
	case ir.Skip:
		g2, l2 := advance()
		s.finish(e, g2, l2, nil, emit)
	case ir.Assert:
		if en.eval(e.Cond)&canF != 0 {
			fail(fmt.Sprintf("assertion failed: %s", e.Stmt))
			return
		}
		g2, l2 := advance()
		s.finish(e, g2, l2, nil, emit)
	case ir.Assign, ir.Havoc:
		sets := make([]vset, len(e.Targets))
		for i := range e.Targets {
			if e.Kind == ir.Havoc {
				sets[i] = canF | canT
			} else {
				sets[i] = en.eval(e.Values[i])
			}
		}
		choices(sets, func(vals []bool) {
			if e.Constrain != nil {
				post := map[*ir.Var]bool{}
				for i, x := range e.Targets {
					post[x] = vals[i]
				}
				if (&env{g: g, f: top, post: post}).eval(e.Constrain)&canT == 0 {
					return
				}
			}
			g2, l2 := advance()
			for i, x := range e.Targets {
				write(g2, l2.top(), x, vals[i])
			}
			s.finish(e, g2, l2, nil, emit)
		})
	case ir.Call:
		args := make([]vset, len(e.Args))
		for i, a := range e.Args {
			args[i] = en.eval(a)
		}
		choices(args, func(vals []bool) {
			if e.Spawn {
				entryFrames(e.Callee, -1, vals, func(f frame) {
					g2, l2 := advance()
					s.finish(e, g2, l2, &local{frames: []frame{f}}, emit)
				})
				return
			}
			if s.depth > 0 && len(l.frames) >= s.depth {
				s.deepCall = e // beyond the call depth: cut
				return
			}
			entryFrames(e.Callee, e.ID, vals, func(f frame) {
				g2, l2 := advance()
				if e.Callee.Atomic {
					f.atomic = l2.atomic
					l2.atomic = true
				}
				l2.frames = append(l2.frames, f)
				s.finish(e, g2, l2, nil, emit)
			})
		})
	case ir.Return:
		sets := make([]vset, len(e.Values))
		for i, x := range e.Values {
			sets[i] = en.eval(x)
		}
		if len(l.frames) == 1 {
			s.finish(e, g.clone(), nil, nil, emit)
			return
		}
		call := s.prog.Edges[top.call]
		for i := len(sets); i < len(call.Targets); i++ {
			sets = append(sets, canF|canT) // a return without values returns arbitrary ones
		}
		choices(sets, func(vals []bool) {
			g2, l2 := g.clone(), l.clone()
			callee := l2.frames[len(l2.frames)-1]
			l2.frames = l2.frames[:len(l2.frames)-1]
			if callee.proc.Atomic {
				l2.atomic = callee.atomic
			}
			for i, x := range call.Targets {
				if x != nil {
					write(g2, l2.top(), x, vals[i])
				}
			}
			s.finish(e, g2, l2, nil, emit)
		})
	case ir.Acquire:
		bit := uint64(1) << e.Lock.Index
		if g.locks&bit != 0 {
			return // blocked
		}
		g2, l2 := advance()
		g2.locks |= bit
		l2.holds |= bit
		s.finish(e, g2, l2, nil, emit)
	case ir.Release:
		bit := uint64(1) << e.Lock.Index
		if l.holds&bit == 0 {
			fail(fmt.Sprintf("release of lock %s, which this thread does not hold", e.Lock.Name))
			return
		}
		g2, l2 := advance()
		g2.locks &^= bit
		l2.holds &^= bit
		s.finish(e, g2, l2, nil, emit)
	case ir.TryAcquire:
		bit := uint64(1) << e.Lock.Index
		g2, l2 := advance()
		taken := g.locks&bit == 0
		if taken {
			g2.locks |= bit
			l2.holds |= bit
		}
		if x := e.Targets[0]; x != nil {
			write(g2, l2.top(), x, taken)
		}
		s.finish(e, g2, l2, nil, emit)
	case ir.Fork:
		g2, l2 := advance()
		child := l.clone()
		child.atomic, child.holds = false, 0
		child.top().pc = e.ForkTo
		s.finish(e, g2, l2, child, emit)
	case ir.EndThread:
		s.finish(e, g.clone(), nil, nil, emit)
	default:
		panic(fmt.Sprintf("cover: unknown edge kind %v", e.Kind))
	}
}

func write(g *shared, f *frame, x *ir.Var, v bool) {
	if x.Global {
		g.globals[x.Index] = v
	} else {
		f.locals[x.Index] = v
	}
}

// finish applies the step's atomic mark, the enforce clauses of the
// threads that moved (a failing one discards the outcome) and the error
// labels they stand at.
func (s *system) finish(e *ir.Edge, g2 *shared, l2, spawn *local, emit func(outcome)) {
	if l2 != nil {
		switch e.Atomic {
		case ir.AtomicBegin:
			l2.atomic = true
		case ir.AtomicEnd:
			l2.atomic = false
		}
		g2.atomic = l2.atomic
	} else {
		g2.atomic = false
	}
	for _, t := range []*local{l2, spawn} {
		if t != nil && !enforced(g2, t) {
			return
		}
	}
	for _, t := range []*local{l2, spawn} {
		if t == nil {
			continue
		}
		if n := t.top().proc.Nodes[t.top().pc]; n.Error {
			emit(outcome{fails: true, failText: s.labelText(n)})
			return
		}
	}
	emit(outcome{g2: g2, l2: l2, spawn: spawn})
}

// enforced says whether the enforce clause of t's top frame can hold.
func enforced(g *shared, t *local) bool {
	inv := t.top().proc.Enforce
	return inv == nil || (&env{g: g, f: t.top()}).eval(inv)&canT != 0
}

func (s *system) labelText(n *ir.Node) string {
	var labels []string
	for _, l := range n.Labels {
		for _, t := range s.prog.Targets {
			if l == t {
				labels = append(labels, l)
			}
		}
	}
	return fmt.Sprintf("error label %s reached", strings.Join(labels, ", "))
}

// canMove says whether a thread in state l may take a step beside g:
// inside an atomic section only its owner moves.
func canMove(g *shared, l *local) bool { return l.atomic == g.atomic }
