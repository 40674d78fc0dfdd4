package cover

import (
	"context"
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// Options bound the work.
type Options struct {
	// MaxPairs bounds the pairs (shared state, thread state) the forward
	// pass builds; MaxElements the minimal elements the backward search
	// keeps; MaxConfigurations the configurations the counted search of
	// Reach keeps. Reaching one ends the check without a verdict.
	MaxPairs, MaxElements, MaxConfigurations int
	// Depth bounds the frames of a thread where threads recurse: calls
	// beyond it are cut, and an answer then holds within it.
	Depth int
}

// DefaultOptions fit in a few hundred megabytes.
func DefaultOptions() Options {
	return Options{MaxPairs: 2_000_000, MaxElements: 2_000_000, MaxConfigurations: 10_000_000, Depth: 16}
}

// Outcome is what a check found.
type Outcome struct {
	Verdict result.Verdict // Unknown when a limit or the context ended it
	// Stopped says, for Unknown, what ended the check.
	Stopped string
	// For Unsafe: the schedule (steps on threads, numbered as the
	// explicit interpreter numbers them), the program with the thread
	// counts it needs, its threads' roles, and the failure.
	Steps    []result.ReplayStep
	Program  *ir.Program
	Roles    []string
	Threads  int // threads in existence at the end, init not counted
	Depth    int // the deepest call stack of the schedule
	Failure  string
	Pairs    int // pairs the forward pass built (Reach: the pairs it moved from)
	Elements int // minimal elements the backward search made
	// Configurations counts the counted configurations Reach found.
	Configurations int
	Rounds         int // backward steps until the fixpoint or the start
	// Unmatched counts, for Unknown, the violations of the linear
	// interfaces that the program's starts of threads do not match.
	Unmatched int
	// Deeper says, for Unknown, that no violation was found within the
	// call depth (Options.Depth) and some call would have gone beyond it.
	Deeper bool
}

// element is a minimal element of the set of configurations that can
// fail: a shared state and a sorted multiset of thread states, with the
// transition that leads from it towards a failure and the element it
// leads to (-1 after a failing transition).
type element struct {
	g     int32
	m     []int32
	via   int32
	next  int32
	depth int32
	gone  bool // subsumed by a smaller element found later
}

// Check decides whether some number of threads, in some interleaving,
// reaches a violation. The program's threads must not recurse and must
// not broadcast (an *Unsupported error says which construct).
func Check(ctx context.Context, p *ir.Program, opts Options) (*Outcome, error) {
	f, out, err := builtSystem(ctx, p, opts)
	if f == nil {
		return out, err
	}
	b := &backward{forward: f, opts: opts}
	if f.initFail != nil {
		return b.witness(out, nil, -1), nil
	}
	return b.run(ctx, out), nil
}

// builtSystem builds p's thread-transition system by the forward pass,
// with the outcome to fill; f is nil when the pass stopped short (out
// says why) or p is refused (err).
func builtSystem(ctx context.Context, p *ir.Program, opts Options) (f *forward, out *Outcome, err error) {
	sys, err := newSystem(p, opts.Depth)
	if err != nil {
		return nil, nil, err
	}
	f = &forward{system: sys}
	complete, err := f.build(ctx, opts.MaxPairs)
	out = &Outcome{Verdict: result.Unknown, Pairs: len(f.pairs)}
	switch {
	case err != nil:
		out.Stopped = result.Stopped(ctx, "the forward pass").String()
		return nil, out, nil
	case !complete:
		out.Stopped = fmt.Sprintf("the forward pass reached %d pairs of shared and thread state", opts.MaxPairs)
		return nil, out, nil
	}
	return f, out, nil
}

// backward is the backward search over minimal elements.
type backward struct {
	*forward
	opts    Options
	elems   []element
	byLocal map[uint64][]int32 // the elements, by shared state and each thread state they contain
	// into indexes the transitions by target: those that change the
	// shared state by the state they reach, the others by the thread
	// states they produce (the moving thread's and a started one's).
	into      map[int32][]int32
	intoLocal map[uint64][]int32
	startOf   map[int32]int // index in starts by shared state
	// open and fixed are the instances (indices in instances) of any
	// number and the fixed ones.
	open, fixed []int
}

func (b *backward) run(ctx context.Context, out *Outcome) *Outcome {
	b.byLocal, b.into, b.intoLocal, b.startOf = map[uint64][]int32{}, map[int32][]int32{}, map[uint64][]int32{}, map[int32]int{}
	for i, in := range b.instances {
		if in.open {
			b.open = append(b.open, i)
		} else {
			b.fixed = append(b.fixed, i)
		}
	}
	for i, st := range b.starts {
		if !st.dead {
			b.startOf[st.g] = i
		}
	}
	for i, t := range b.trans {
		if t.fails {
			continue
		}
		if t.g2 != t.g {
			b.into[t.g2] = append(b.into[t.g2], int32(i))
			continue
		}
		if t.l2 != dead {
			b.intoLocal[pairKey(t.g2, t.l2)] = append(b.intoLocal[pairKey(t.g2, t.l2)], int32(i))
		}
		for _, sp := range t.spawns {
			b.intoLocal[pairKey(t.g2, sp)] = append(b.intoLocal[pairKey(t.g2, sp)], int32(i))
		}
	}
	queue := []int32{}
	for _, ti := range b.fails {
		t := b.trans[ti]
		if id, ok := b.insert(t.g, []int32{t.l}, ti, -1, 0); ok {
			queue = append(queue, id)
		}
	}
	for len(queue) > 0 {
		if ctx.Err() != nil {
			out.Stopped = result.Stopped(ctx, "the backward search").String()
			return b.stats(out)
		}
		if len(b.elems) > b.opts.MaxElements {
			out.Stopped = fmt.Sprintf("the backward search made %d minimal elements", b.opts.MaxElements)
			return b.stats(out)
		}
		id := queue[0]
		queue = queue[1:]
		e := b.elems[id]
		if e.gone {
			continue
		}
		if out.Rounds < int(e.depth) {
			out.Rounds = int(e.depth)
		}
		if st, ok := b.startOf[e.g]; ok {
			if assign, ok := b.covers(&b.starts[st], e.m); ok {
				return b.witness(b.stats(out), assign, id)
			}
		}
		for _, ti := range b.pre(e) {
			t := b.trans[ti]
			m := slices.Clone(e.m)
			m = remove(m, t.l2)
			for _, sp := range t.spawns {
				m = remove(m, sp)
			}
			m = insertSorted(m, t.l)
			if !b.possible(t.g, m) {
				continue
			}
			if nid, ok := b.insert(t.g, m, ti, id, e.depth+1); ok {
				queue = append(queue, nid)
			}
		}
	}
	if out.Stopped, out.Deeper = b.cut(); out.Stopped == "" {
		out.Verdict = result.Safe
	}
	return b.stats(out)
}

func (b *backward) stats(out *Outcome) *Outcome {
	out.Elements = len(b.elems)
	return out
}

// pre lists the transitions whose predecessors matter for e: those that
// reach e's shared state from another, and those that produce one of
// e's thread states (any other leaves a configuration above e, which
// adds nothing).
func (b *backward) pre(e element) []int32 {
	out := slices.Clone(b.into[e.g])
	for i, l := range e.m {
		if i > 0 && e.m[i-1] == l {
			continue
		}
		out = append(out, b.intoLocal[pairKey(e.g, l)]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// possible says whether every thread state of m occurs beside g in some
// reachable configuration, as far as the forward pass knows.
func (b *backward) possible(g int32, m []int32) bool {
	for _, l := range m {
		if !b.pairs[pairKey(g, l)] {
			return false
		}
	}
	return true
}

// insert adds (g, m) unless an element at least as small is known, and
// retires the known elements it is smaller than. The elements are found
// through the thread states they contain (byLocal): one below m has all
// its thread states in m, so it is listed under each of them; one above
// m is listed under every thread state of m.
func (b *backward) insert(g int32, m []int32, via, next, depth int32) (int32, bool) {
	for i, l := range m {
		if i > 0 && m[i-1] == l {
			continue
		}
		for _, id := range b.byLocal[pairKey(g, l)] {
			if e := &b.elems[id]; !e.gone && e.m[0] == l && below(e.m, m) {
				return 0, false
			}
		}
	}
	id := int32(len(b.elems))
	if len(m) > 0 {
		for _, old := range b.byLocal[pairKey(g, m[0])] {
			if e := &b.elems[old]; !e.gone && below(m, e.m) {
				e.gone = true
			}
		}
	}
	b.elems = append(b.elems, element{g: g, m: m, via: via, next: next, depth: depth})
	for i, l := range m {
		if i == 0 || m[i-1] != l {
			k := pairKey(g, l)
			b.byLocal[k] = append(b.byLocal[k], id)
		}
	}
	return id, true
}

// below reports whether multiset a is contained in multiset b (both
// sorted).
func below(a, b []int32) bool {
	if len(a) > len(b) {
		return false
	}
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// remove takes one occurrence of l out of the sorted multiset m, if any.
func remove(m []int32, l int32) []int32 {
	if l < 0 {
		return m
	}
	if i, ok := slices.BinarySearch(m, l); ok {
		return slices.Delete(m, i, i+1)
	}
	return m
}

func insertSorted(m []int32, l int32) []int32 {
	i, _ := slices.BinarySearch(m, l)
	return slices.Insert(m, i, l)
}

// covers reports whether a start configuration contains multiset m: each
// of m's thread states taken by a thread of any number of instances that
// may start in it, or by its own fixed instance (a bipartite matching).
// It returns, per element of m, the instance (index in b.instances).
func (b *backward) covers(st *start, m []int32) ([]int, bool) {
	assign := make([]int, len(m))
	var rest []int
	for i, l := range m {
		assign[i] = -1
		for k, in := range b.open {
			if slices.Contains(st.open[k], l) {
				assign[i] = in
				break
			}
		}
		if assign[i] < 0 {
			rest = append(rest, i)
		}
	}
	fixed := b.fixed
	holder := make([]int, len(fixed)) // element of m matched to each fixed instance
	for i := range holder {
		holder[i] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for k := range fixed {
			if seen[k] || !slices.Contains(st.fixed[k], m[i]) {
				continue
			}
			seen[k] = true
			if holder[k] < 0 || try(holder[k], seen) {
				holder[k] = i
				return true
			}
		}
		return false
	}
	for _, i := range rest {
		if !try(i, make([]bool, len(fixed))) {
			return nil, false
		}
	}
	for k, i := range holder {
		if i >= 0 {
			assign[i] = fixed[k]
		}
	}
	return assign, true
}
