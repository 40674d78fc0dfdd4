package cover

import (
	"context"
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// Adequacy is the check of section 5 of the linear-interfaces paper: a
// game in which Eve builds a (k+1)-round execution thread by thread,
// revealing where each thread stands after its context in round k+1,
// and Adam answers each thread with a thread of the same code that
// stands there after round k, building a k-round execution beside hers.
// Eve wins when Adam cannot answer and she completes a wrapped initial
// interface, or when she completes one and his is not wrapped. If Adam
// wins (no start of Eve's is in her attractor), every configuration a
// (k+1)-round execution reaches is reached within k rounds, and so by
// induction every reachable configuration (Theorem 2; the threads must
// not recurse). The game is explored explicitly from its starts and
// solved backward (the attractor of Eve's winning positions).
type adequacy struct {
	short, long *rounds // k and k+1 rounds, on one thread-transition system
	// coShort and coLong are the interfaces, by key, that a wrapped
	// initial one of the whole order extends.
	coShort, coLong map[string]bool
	nodes           []*gameNode
	index           map[string]int32
	limit           int
}

// gameNode is a position of the game: Eve's (eve) or Adam's, with the
// interfaces both have built, Eve's (u, v) of k+1 rounds and Adam's
// (x, y) of k.
type gameNode struct {
	eve          bool
	stage, n     int
	matched      bool // Adam has answered every thread so far
	started      bool // Adam has answered a first thread (chosen x)
	u, v         []int32
	x, y         []int32
	local        int32    // at Adam's: the local state Eve's thread ended round k+1 in
	proc         *ir.Proc // at Adam's: the code of Eve's last thread
	succ         []int32
	stopWin      bool // at Eve's: stopping here wins
	winning      bool // in Eve's attractor
	pending      int  // at Adam's: successors not yet known winning
	predecessors []int32
}

func (a *adequacy) key(g *gameNode) string {
	n := g.n
	groups := a.short.prog.Threads
	if g.stage < len(groups) && groups[g.stage].Unbounded {
		n = 0
	}
	bit := func(b bool) int32 {
		if b {
			return 1
		}
		return 0
	}
	proc := int32(-1)
	if g.proc != nil {
		proc = int32(g.proc.Index)
	}
	buf := appendInts(nil, bit(g.eve), int32(g.stage), int32(n), bit(g.matched), bit(g.started), g.local, proc)
	for _, part := range [][]int32{g.u, g.v, g.x, g.y} {
		buf = appendInts(buf, int32(len(part)))
		buf = appendInts(buf, part...)
	}
	return string(buf)
}

func (a *adequacy) node(g *gameNode) int32 {
	if !g.matched {
		g.started, g.x, g.y = false, nil, nil // Adam is out of the play
	}
	k := a.key(g)
	if id, ok := a.index[k]; ok {
		return id
	}
	id := int32(len(a.nodes))
	a.index[k] = id
	a.nodes = append(a.nodes, g)
	return id
}

// AdequacySupported refuses what Supported refuses, recursive threads
// (Theorem 2) and programs that start threads on the way: the game of
// section 5 answers each of Eve's threads with one of Adam's from a
// thread order fixed at the start, where a thread started in round k+1
// of hers would need a start in round k or before in his, which the
// paper's game does not provide.
func AdequacySupported(p *ir.Program) error {
	if err := Supported(p); err != nil {
		return err
	}
	if e := startsThreads(p); e != nil {
		return &Unsupported{e.Pos, fmt.Sprintf("%q starts a thread on the way: the adequacy game (linear interfaces, section 5) takes the threads a run starts with (fixed counts and f=*)", e.Stmt)}
	}
	if e := recursiveCall(p); e != nil {
		return &Unsupported{e.Pos, fmt.Sprintf("%s is recursive (the call %q closes a cycle): the adequacy game (linear interfaces, Theorem 2) needs finitely many thread states", e.Callee.Name, e.Stmt)}
	}
	return nil
}

// Adequate reports whether the adequacy check holds at k: k rounds reach
// every configuration that any number of rounds reaches, for every
// number of threads. It takes what AdequacySupported takes. Unknown
// comes with the reason.
func Adequate(ctx context.Context, p *ir.Program, k int, opts Options) (result.Verdict, string, error) {
	if err := AdequacySupported(p); err != nil {
		return result.Unknown, "", err
	}
	sys, _ := newSystem(p, 0)
	f := &forward{system: sys}
	reachable := f.reachableShared(ctx, opts.MaxPairs)
	switch {
	case ctx.Err() != nil:
		return result.Unknown, result.Stopped(ctx, "the forward pass").String(), nil
	case f.initFail != nil:
		return result.Unsafe, "", nil // init fails: no thread is needed
	}
	// Both players only ever need interfaces that a wrapped initial one
	// of the whole thread order extends: Eve wins only by completing
	// one, and an answer of Adam's that cannot be completed loses as
	// dropping out does. The fixpoints of k and k+1 rounds say which.
	var short, long *rounds
	for known := map[int32]bool{}; ; {
		short, long = newRounds(f, k, opts), newRounds(f, k+1, opts)
		short.reachable, long.reachable = reachable, reachable
		short.keepLocal, long.keepLocal = true, true
		for b := range known {
			short.see(b)
			long.see(b)
		}
		for _, r := range []*rounds{long, short} {
			if _, stopped := r.run(ctx, nil); stopped != "" {
				return result.Unknown, stopped, nil
			}
		}
		grown := false
		for _, b := range slices.Concat(short.bounds, long.bounds) {
			grown = grown || !known[b]
			known[b] = true
		}
		if !grown {
			break
		}
	}
	a := &adequacy{short: short, long: long, coShort: short.coreachable(), coLong: long.coreachable(),
		index: map[string]int32{}, limit: opts.MaxElements}
	if stopped := a.explore(ctx); stopped != "" {
		return result.Unknown, stopped, nil
	}
	for _, id := range a.starts() {
		if a.nodes[id].winning {
			return result.Unsafe, fmt.Sprintf("Eve wins: a %s execution reaches a configuration no %s one is shown to reach", result.Plural(k+1, "round"), result.Plural(k, "round")), nil
		}
	}
	return result.Safe, "", nil
}

// starts are Eve's first positions: her guesses of the inputs, an
// initial shared state first.
func (a *adequacy) starts() []int32 {
	var out []int32
	for _, u := range guesses(a.long) {
		if a.coLong[a.long.key(&entry{u: u, v: u})] {
			out = append(out, a.node(&gameNode{eve: true, matched: true, u: u, v: u}))
		}
	}
	return out
}

// explore builds the positions reachable from Eve's starts and solves
// the game; it returns why it stopped short, or "".
func (a *adequacy) explore(ctx context.Context) string {
	queue := a.starts()
	for i := 0; i < len(queue); i++ {
		if ctx.Err() != nil {
			return result.Stopped(ctx, "the adequacy check").String()
		}
		if len(a.nodes) > a.limit {
			return fmt.Sprintf("the adequacy game grew beyond %d positions", a.limit)
		}
		id := queue[i]
		before := len(a.nodes)
		a.expand(id)
		for j := before; j < len(a.nodes); j++ {
			queue = append(queue, int32(j))
		}
	}
	a.solve()
	return ""
}

func (a *adequacy) link(from int32, to *gameNode) {
	id := a.node(to)
	a.nodes[from].succ = append(a.nodes[from].succ, id)
}

// expand makes the moves of a position.
func (a *adequacy) expand(id int32) {
	g := a.nodes[id]
	groups := a.short.prog.Threads
	k := a.short.k
	if !g.eve {
		// Adam answers with a thread of the same code ending round k
		// where Eve's ended round k+1, or drops out.
		answered := false
		answer := func(x, in []int32) {
			e := &entry{u: x, v: in}
			a.short.apply(e, g.proc, nil, func(y []int32, run []reachOut) {
				if run[k-1].l == g.local && y[k-1] == g.v[k] && a.coShort[a.short.key(&entry{stage: g.stage, n: g.n, u: x, v: y})] {
					answered = true
					a.link(id, &gameNode{eve: true, stage: g.stage, n: g.n, matched: true, started: true, u: g.u, v: g.v, x: x, y: y})
				}
			})
		}
		if g.started {
			answer(g.x, g.y)
		} else {
			for _, x := range guesses(a.short) {
				answer(x, x)
			}
		}
		if !answered {
			a.link(id, &gameNode{eve: true, stage: g.stage, n: g.n, u: g.u, v: g.v})
		}
		return
	}
	if g.stage == len(groups) {
		g.stopWin = wrappedAt(g.u, g.v) && (!g.matched || g.started && !wrappedAt(g.x, g.y))
		return
	}
	grp := groups[g.stage]
	if (grp.Unbounded || g.n == grp.Count) && a.coLong[a.long.key(&entry{stage: g.stage + 1, u: g.u, v: g.v})] {
		next := *g
		next.stage, next.n, next.succ, next.predecessors = g.stage+1, 0, nil, nil
		a.link(id, &next)
	}
	if grp.Unbounded || g.n < grp.Count {
		a.long.apply(&entry{u: g.u, v: g.v}, grp.Proc, nil, func(v []int32, run []reachOut) {
			if !a.coLong[a.long.key(&entry{stage: g.stage, n: g.n + 1, u: g.u, v: v})] {
				return // Eve cannot complete it
			}
			if !g.matched {
				a.link(id, &gameNode{eve: true, stage: g.stage, n: g.n + 1, u: g.u, v: v})
				return
			}
			a.link(id, &gameNode{stage: g.stage, n: g.n + 1, matched: true, started: g.started, u: g.u, v: v,
				x: g.x, y: g.y, local: run[k].l, proc: grp.Proc})
		})
	}
}

// wrappedAt says whether each round's output is the next one's input.
func wrappedAt(u, v []int32) bool {
	for i := 0; i+1 < len(u); i++ {
		if v[i] != u[i+1] {
			return false
		}
	}
	return true
}

// solve computes Eve's attractor: an Eve position wins when stopping
// there wins or a move reaches a winning position; an Adam position
// when every answer does.
func (a *adequacy) solve() {
	for id, g := range a.nodes {
		g.pending = len(g.succ)
		for _, s := range g.succ {
			a.nodes[s].predecessors = append(a.nodes[s].predecessors, int32(id))
		}
	}
	var queue []int32
	for id, g := range a.nodes {
		if g.eve && g.stopWin {
			g.winning = true
			queue = append(queue, int32(id))
		}
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for _, p := range a.nodes[id].predecessors {
			pg := a.nodes[p]
			if pg.winning {
				continue
			}
			if pg.eve {
				pg.winning = true
				queue = append(queue, p)
				continue
			}
			pg.pending--
			if pg.pending == 0 {
				pg.winning = true
				queue = append(queue, p)
			}
		}
	}
}
