package encode

import (
	"bmc/ir"
	"bmc/ts"
)

// controlReach over-approximates, step by step, where the program can
// be: the running frame's program counter together with the return sites
// of the frames below it, so that a return goes back only to the call
// that made it (a graph over program counters alone would let every
// return reach every caller and see cycles a program without loops does
// not have). The unrolling uses it to fold, at each frame, the blocks
// that cannot run there (the control-state reachability of Ganai and
// Gupta's program BMC): in a sequentialized program, with its long
// sequence of thread runs, only a small part of the code is live at any
// one step. Once nothing but "terminated" is reachable, every execution
// has ended and the unrolling is complete without a query.
//
// The stacks considered are those of the encoding (at most Depth frames),
// so the sets are finite; with recursion they can be large, and the
// analysis then stops refining (every pc counts as live) beyond maxStacks
// stacks in a step.
type controlReach struct {
	en     *sequential
	is     []ts.Lit // pc -> the condition that frame 0 holds pc
	steps  [][]string
	live   [][]bool // per step: the pcs frame 0 may hold; nil = any
	gaveUp bool
}

const maxStacks = 1 << 14

func newControlReach(en *sequential) *controlReach {
	locs := en.lay.locs
	r := &controlReach{en: en, is: make([]ts.Lit, len(locs))}
	// Stacks are strings of pcs as runes: stay below the surrogates.
	r.gaveUp = len(locs) >= 0xD800
	// Frame 0 holds a head or "terminated": never a return site, and never
	// empty (the machine's call knows that too).
	for pc := range locs {
		if k := locs[pc].Kind; k == locHead || k == locDone {
			r.is[pc] = en.pcIs(0, pc)
		}
	}
	start := en.main
	if en.prog.Init != nil {
		start = en.prog.Init
	}
	r.add([]string{stackKey([]int{en.lay.head(start, start.Entry)})})
	return r
}

// A stack is its pcs, running frame first, as a string of runes.
func stackKey(pcs []int) string {
	rs := make([]rune, len(pcs))
	for i, pc := range pcs {
		rs[i] = rune(pc)
	}
	return string(rs)
}

func (r *controlReach) add(stacks []string) {
	live := make([]bool, len(r.en.lay.locs))
	for _, st := range stacks {
		for _, pc := range st {
			live[int(pc)] = true
			break
		}
	}
	r.steps = append(r.steps, stacks)
	r.live = append(r.live, live)
}

// successors are the stacks one step after st.
func (r *controlReach) successors(st []rune, out map[string]bool) {
	en, l := r.en, r.en.lay
	mainEntry := l.head(en.main, en.main.Entry)
	pc, below := int(st[0]), st[1:]
	put := func(pcs ...int) {
		k := stackKey(pcs) + string(below)
		out[k] = true
	}
	if pc == pcDone {
		put(pcDone)
		return
	}
	b := l.byPC[pc]
	if b.InitAt && len(below) == 0 {
		put(mainEntry)
	}
	for _, e := range b.Last.Out {
		switch e.Kind {
		case ir.Call:
			if len(st) < en.depth {
				put(l.head(e.Callee, e.Callee.Entry), l.retPC[e.ID])
			}
		case ir.Return:
			switch {
			case len(below) > 0:
				call := l.locs[int(below[0])].Call
				out[stackKey([]int{l.head(call.Proc, call.To)})+string(below[1:])] = true
			case b.Proc == en.prog.Init:
				put(mainEntry)
			default:
				put(pcDone)
			}
		case ir.EndThread:
			out[stackKey([]int{pcDone})] = true
		default:
			put(l.head(b.Proc, e.To))
		}
	}
}

// at returns the pcs frame 0 may hold after k steps, nil for any.
func (r *controlReach) at(k int) []bool {
	for len(r.steps) <= k && !r.gaveUp {
		next := map[string]bool{}
		for _, st := range r.steps[len(r.steps)-1] {
			r.successors([]rune(st), next)
		}
		if len(next) > maxStacks {
			r.gaveUp = true
			break
		}
		stacks := make([]string, 0, len(next))
		for st := range next {
			stacks = append(stacks, st)
		}
		r.add(stacks)
	}
	if k < len(r.live) {
		return r.live[k]
	}
	return nil
}

// Fixed returns the values the system's nodes are known to have at frame
// k of any path whose earlier steps are valid: "frame 0 holds pc" is
// false for every pc not reachable in k steps.
func (r *controlReach) Fixed(k int) map[int]bool {
	live := r.at(k)
	out := map[int]bool{}
	if live == nil {
		return out
	}
	for pc, l := range r.is {
		if !live[pc] && !l.IsNeg() && r.en.sys.Kind(l.Var()) == ts.And {
			out[l.Var()] = false
		}
	}
	return out
}

// Ended reports that after k steps every execution has terminated.
func (r *controlReach) Ended(k int) bool {
	live := r.at(k)
	if live == nil {
		return false
	}
	for pc, ok := range live {
		if ok && pc != pcDone {
			return false
		}
	}
	return true
}

// longestRun is the most steps a thread starting in entry can take (its
// return included), or -1 when loops or recursion leave it unbounded or
// it starts threads.
func (l *layout) longestRun(entry *ir.Proc) int {
	const visiting = -2
	memo := map[int]int{} // pc of a head -> steps from it to the return
	var from func(pr *ir.Proc, node int) int
	from = func(pr *ir.Proc, node int) int {
		pc := l.head(pr, node)
		if n, ok := memo[pc]; ok {
			if n == visiting {
				return -1
			}
			return n
		}
		memo[pc] = visiting
		b := l.byPC[pc]
		most := 0
		for _, e := range b.Last.Out {
			rest := 0
			switch {
			case starts(e):
				rest = -1
			case e.Kind == ir.Call:
				callee, after := from(e.Callee, e.Callee.Entry), from(pr, e.To)
				rest = callee + after
				if callee < 0 || after < 0 {
					rest = -1
				}
			case e.Kind == ir.Return || e.Kind == ir.EndThread:
			default:
				rest = from(pr, e.To)
			}
			if rest < 0 {
				memo[pc] = -1
				return -1
			}
			most = max(most, rest)
		}
		memo[pc] = 1 + most
		return 1 + most
	}
	return from(entry, entry.Entry)
}

// stepBound is the most steps any execution of the direct encoding
// takes: init's, then every thread's to its end, since each step runs a
// block of one thread; -1 when loops, recursion or started threads leave
// it unbounded.
func (d *direct) stepBound() int {
	total := 0
	runs := d.entries
	if d.prog.Init != nil {
		runs = append([]*ir.Proc{d.prog.Init}, runs...)
	}
	for _, e := range runs {
		n := d.lay.longestRun(e)
		if n < 0 {
			return -1
		}
		total += n
	}
	return total
}
