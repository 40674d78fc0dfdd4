// Package encode turns a sequential ir.Program (one thread) into a
// transition system (package ts).
//
// State: a latch per global and per lock (held), and a call stack of D
// frames kept as a shift register: frame 0 is always the running frame,
// a call shifts every frame down by one and a return shifts them up, so
// the running frame's variables are read and written without any mux over
// the stack depth. Each frame holds a program counter (binary) and the
// locals (as many slots as the procedure with most locals). A caller's pc
// holds the *return site* of the call it waits in, which tells the return
// which variables receive the results and where execution continues.
//
// Steps are large blocks: one step executes a maximal straight-line run of
// edges from a block head and then one edge of its last node (a branch,
// a call or a return), so loop-free code costs one step per basic block
// instead of one per statement. Violations inside a block (a failing
// assert, a reached error label, a bad release) are detected in the step
// that executes them; a step that cannot be taken (assume, constrain,
// enforce, a blocked acquire) is excluded by the system's constraint.
//
// Nondeterminism comes from a pool of inputs shared by all blocks (only one
// block runs per step), so the number of inputs is the largest need of any
// one block.
//
// A loop-free, non-recursive program can instead be encoded whole
// (Unwind): every call inlined, every statement once. That is still a
// transition system, of one frame without latches, so the same engine
// decides it; for the long chains of blocks that sequentializations of
// loop-free threads are, it is much smaller than the step-by-step
// unrolling.
package encode

import (
	"context"
	"fmt"
	"math/bits"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/ts"
)

// Properties of the encoded system, by index in ts.System.Bad.
const (
	PropViolation = 0 // assert failure, error label, bad release
	PropOverflow  = 1 // a call with all D frames in use
)

// Reserved program counter values.
const (
	PCEmpty = 0 // a frame not in use
	PCDone  = 1 // the program has terminated
)

// LocKind says what a program counter value denotes.
type LocKind uint8

const (
	LocEmpty LocKind = iota
	LocDone
	LocHead    // the head of a block: Proc, Node
	LocRetSite // waiting for the callee of call edge Call to return
)

// Loc is the meaning of one program counter value.
type Loc struct {
	Kind LocKind
	Proc *ir.Proc
	Node int
	Call *ir.Edge
}

// Encoding is the transition system of a program with the names of its
// latches and inputs, so that models can be read back as program states.
type Encoding struct {
	Prog    *ir.Program
	Sys     *ts.System
	Depth   int
	Locs    []Loc // indexed by program counter value
	PC      [][]ts.Lit
	Locals  [][]ts.Lit
	Globals []ts.Lit
	Locks   []ts.Lit
	Choice  []ts.Lit // inputs that pick the final edge of a block
	Pool    []ts.Lit // inputs for nondeterministic values, used in order by each block
	Main    *ir.Proc // the thread's entry function

	headPC map[[2]int]int // (proc, node) -> pc
	retPC  map[int]int    // call edge ID -> pc of its return site
	blocks []*Block
	conditions
	next map[ts.Lit][]guarded
	byPC map[int]*Block // blocks by the pc of their head
}

// Block is a run of edges from a head; its last node's edges are the
// alternatives that end the step.
type Block struct {
	PC     int
	Proc   *ir.Proc
	Head   int
	Path   []*ir.Edge // straight-line edges before the last node
	Last   *ir.Node
	InitAt bool // the head is init's `endinit`: with an empty stack, main starts
}

type guarded struct{ sel, val ts.Lit }

// Sequential reports why p cannot be encoded as one thread, or nil.
func Sequential(p *ir.Program) error {
	n := 0
	for _, t := range p.Threads {
		if t.Unbounded {
			return fmt.Errorf("thread %s has unboundedly many instances", t.Proc.Name)
		}
		n += t.Count
	}
	if n != 1 {
		return fmt.Errorf("the program has %d threads", n)
	}
	for _, e := range p.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		}
	}
	return nil
}

// Options shape the encoding.
type Options struct {
	Depth int // call stack frames
	// SmallSteps makes every statement a step of its own instead of
	// executing straight-line blocks in one step (to measure what large
	// blocks gain).
	SmallSteps bool
}

// Encode builds the transition system of a sequential program with call
// stacks of at most depth frames. When ctx ends first, the error is its
// cause.
func Encode(ctx context.Context, p *ir.Program, depth int) (*Encoding, error) {
	return EncodeWith(ctx, p, Options{Depth: depth})
}

// EncodeWith is Encode with all options.
func EncodeWith(ctx context.Context, p *ir.Program, o Options) (en *Encoding, err error) {
	defer halt.Recover(&err)
	depth := o.Depth
	if err := Sequential(p); err != nil {
		return nil, fmt.Errorf("the bmc engine checks one thread: %v", err)
	}
	if depth < 1 {
		return nil, fmt.Errorf("depth must be at least 1")
	}
	sys := ts.New()
	en = &Encoding{Prog: p, Sys: sys, conditions: conditions{sys: sys}, Depth: depth, Main: p.Threads[0].Proc,
		headPC: map[[2]int]int{}, retPC: map[int]int{}, next: map[ts.Lit][]guarded{}, byPC: map[int]*Block{}}
	en.findBlocks(o.SmallSteps)
	en.makeState()
	for _, b := range en.blocks {
		halt.Point(ctx)
		en.encodeBlock(b)
	}
	en.finish(ctx)
	return en, nil
}

// ---- blocks ----

func (en *Encoding) findBlocks(small bool) {
	l := newLayout(en.Prog, small, nil)
	en.Locs, en.headPC, en.retPC, en.blocks, en.byPC = l.locs, l.headPC, l.retPC, l.blocks, l.byPC
}

// layout numbers the program counter values: a block per head, then a
// return site per call edge.
type layout struct {
	locs   []Loc
	headPC map[[2]int]int // (proc, node) -> pc
	retPC  map[int]int    // call edge ID -> pc of its return site
	blocks []*Block
	byPC   map[int]*Block
}

// newLayout finds the blocks of p. Heads are the entries, init's stop
// label, join points, branch targets and call continuations; extra (if
// not nil) names more heads; with small every node is one.
func newLayout(p *ir.Program, small bool, extra func(pr *ir.Proc, id int) bool) *layout {
	l := &layout{locs: []Loc{{Kind: LocEmpty}, {Kind: LocDone}}, headPC: map[[2]int]int{}, retPC: map[int]int{}, byPC: map[int]*Block{}}
	for _, pr := range p.Procs {
		heads := make([]bool, len(pr.Nodes))
		in := make([]int, len(pr.Nodes))
		heads[pr.Entry] = true
		if pr == p.Init && p.InitStop >= 0 {
			// The block at the stop label ends there, so where its edges
			// lead must be heads too.
			heads[p.InitStop] = true
			for _, e := range pr.Nodes[p.InitStop].Out {
				if e.To >= 0 {
					heads[e.To] = true
				}
			}
		}
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.To >= 0 {
					in[e.To]++
					if len(n.Out) > 1 || e.Kind == ir.Call || e.Kind == ir.Fork {
						heads[e.To] = true
					}
				}
				if e.Kind == ir.Fork {
					heads[e.ForkTo] = true // where the copy starts
				}
			}
		}
		for id, c := range in {
			if c > 1 || small || extra != nil && extra(pr, id) {
				heads[id] = true
			}
		}
		for id, h := range heads {
			if !h {
				continue
			}
			b := &Block{PC: len(l.locs), Proc: pr, Head: id, InitAt: pr == p.Init && id == p.InitStop}
			l.headPC[[2]int{pr.Index, id}] = b.PC
			l.locs = append(l.locs, Loc{Kind: LocHead, Proc: pr, Node: id})
			n, seen := pr.Nodes[id], map[int]bool{id: true}
			for len(n.Out) == 1 && !b.InitAt {
				e := n.Out[0]
				if e.Kind == ir.Call || e.Kind == ir.Return || e.Kind == ir.EndThread || e.Kind == ir.Fork || heads[e.To] || seen[e.To] {
					break
				}
				b.Path = append(b.Path, e)
				n = pr.Nodes[e.To]
				seen[n.ID] = true
			}
			b.Last = n
			l.blocks = append(l.blocks, b)
			l.byPC[b.PC] = b
		}
	}
	for _, e := range p.Edges {
		if e.Kind == ir.Call {
			l.retPC[e.ID] = len(l.locs)
			l.locs = append(l.locs, Loc{Kind: LocRetSite, Call: e})
		}
	}
	return l
}

// ---- state ----

func (en *Encoding) makeState() {
	s, p := en.Sys, en.Prog
	for _, g := range p.Globals {
		en.Globals = append(en.Globals, s.NewLatch(g.Name, latchInit(g.Init)))
	}
	for _, l := range p.Locks {
		en.Locks = append(en.Locks, s.NewLatch("lock "+l.Name, ts.Init0))
	}
	width := bits.Len(uint(len(en.Locs) - 1))
	maxLocals := 0
	for _, pr := range p.Procs {
		maxLocals = max(maxLocals, len(pr.Locals))
	}
	start := en.Main
	if p.Init != nil {
		start = p.Init
	}
	startPC := en.headPC[[2]int{start.Index, start.Entry}]
	for d := 0; d < en.Depth; d++ {
		pcStart := PCEmpty
		if d == 0 {
			pcStart = startPC
		}
		en.PC = append(en.PC, newPC(s, fmt.Sprintf("pc[%d]", d), width, pcStart))
		var locals []ts.Lit
		for k := 0; k < maxLocals; k++ {
			init := ts.Init0
			if d == 0 && k < len(start.Locals) {
				init = latchInit(start.Locals[k].Init)
			}
			locals = append(locals, s.NewLatch(fmt.Sprintf("local[%d].%d", d, k), init))
		}
		en.Locals = append(en.Locals, locals)
	}
	maxOut := 1
	for _, b := range en.blocks {
		maxOut = max(maxOut, len(b.Last.Out))
	}
	for i := 0; i < bits.Len(uint(maxOut-1)); i++ {
		en.Choice = append(en.Choice, s.NewInput(fmt.Sprintf("choice.%d", i)))
	}
}

// newPC makes the width program counter latches of a frame, named
// prefix.i, holding start initially.
func newPC(s *ts.System, prefix string, width, start int) []ts.Lit {
	pc := make([]ts.Lit, width)
	for i := range pc {
		init := ts.Init0
		if start>>i&1 == 1 {
			init = ts.Init1
		}
		pc[i] = s.NewLatch(fmt.Sprintf("%s.%d", prefix, i), init)
	}
	return pc
}

func latchInit(v ir.Value) ts.Init {
	switch v {
	case ir.True:
		return ts.Init1
	case ir.False:
		return ts.Init0
	}
	return ts.InitFree
}

// pcIs is the condition that frame d's program counter equals v.
func (en *Encoding) pcIs(d, v int) ts.Lit {
	r := ts.True
	for i, b := range en.PC[d] {
		if v>>i&1 == 1 {
			r = en.Sys.And(r, b)
		} else {
			r = en.Sys.And(r, b.Not())
		}
	}
	return r
}

// pcConst is the value v as program counter bits.
func (en *Encoding) pcConst(v int) []ts.Lit {
	out := make([]ts.Lit, len(en.PC[0]))
	for i := range out {
		if v>>i&1 == 1 {
			out[i] = ts.True
		} else {
			out[i] = ts.False
		}
	}
	return out
}

// choiceIs is the condition that the choice inputs select alternative i.
func (en *Encoding) choiceIs(i int) ts.Lit {
	r := ts.True
	for k, c := range en.Choice {
		if i>>k&1 == 1 {
			r = en.Sys.And(r, c)
		} else {
			r = en.Sys.And(r, c.Not())
		}
	}
	return r
}

// set records that under sel latch l takes value val in the next state.
func (en *Encoding) set(l ts.Lit, sel, val ts.Lit) {
	if !en.sealed {
		en.next[l] = append(en.next[l], guarded{sel, val})
	}
}

// finish defines every latch's next state, the constraint and the
// properties.
func (en *Encoding) finish(ctx context.Context) {
	s := en.Sys
	setNext(ctx, s, en.next)
	bad, ovf := s.Ors(en.bad...), s.Ors(en.ovf...)
	s.AddBad("violation", bad)
	s.AddBad("stack overflow", ovf)
	// A step is one of the block alternatives, feasible; a finished
	// program stays as it is.
	done := en.pcIs(0, PCDone)
	s.AddConstraint(s.Ors(append([]ts.Lit{done}, en.valid...)...))
	en.sealed = true
}

// setNext defines each latch's next state from the guarded writes to
// it: the value of the write selected, or the latch's own value when
// none is.
func setNext(ctx context.Context, s *ts.System, next map[ts.Lit][]guarded) {
	for _, li := range s.Latches() {
		halt.Point(ctx)
		gs := next[li.Lit]
		if len(gs) == 0 {
			continue
		}
		val, none := ts.False, ts.True
		for _, g := range gs {
			val = s.Or(val, s.And(g.sel, g.val))
			none = s.And(none, g.sel.Not())
		}
		s.SetNext(li.Lit, s.Or(val, s.And(none, li.Lit)))
	}
}

// Running is the condition that the program has not terminated.
func (en *Encoding) Running() ts.Lit { return en.pcIs(0, PCDone).Not() }
