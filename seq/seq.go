package seq

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// Bound is a context bound: Rounds > 0 round-robin rounds (threads in
// instance order, one possibly empty context each per round), otherwise at
// most Switches context switches.
type Bound struct {
	Rounds   int
	Switches int
}

func (b Bound) String() string {
	if b.Rounds > 0 {
		return result.Plural(b.Rounds, "round-robin round")
	}
	return result.Plural(b.Switches, "context switch")
}

// Translation names the translation that made a Program.
type Translation string

// The translations.
const (
	EagerTranslation   Translation = "eager"   // Lal-Reps
	LazyTranslation    Translation = "lazy"    // La Torre-Madhusudan-Parlato
	LassoTranslation   Translation = "lasso"   // MUTANT
	AmplifyTranslation Translation = "amplify" // K-induction with amplification
)

// Program is a sequentialization: the sequential program and what is
// needed to map its counterexamples back to interleavings.
type Program struct {
	Seq    *ir.Program // one thread, `main`
	Orig   *ir.Program
	Method Translation
	Bound  Bound
	// Threads names the thread instances, as in traces (adder#2).
	Threads []string

	origins  []origin  // by Seq edge ID
	ctx      []*ir.Var // eager: current context (one-hot); lazy: context being replayed
	err      *ir.Var   // eager: a violation happened
	runs     map[int]int
	contexts int
	loop     int // lasso: the first context of the loop
	period   int // lasso with keyframes: the loop's contexts (keyframe.go)
	lasso    result.LassoBound
}

// origin says which original step a sequential edge executes.
type origin struct {
	thread int      // instance; -1 for init
	edge   *ir.Edge // nil: control code
	fail   bool     // taken exactly when the original step is a violation
	// errorLabel (eager): control code taken when the thread has arrived
	// at an error label, so the original step before it is the violation.
	errorLabel bool
	// snap (lasso with keyframes): control code that takes the
	// thread's snapshot where its period begins.
	snap bool
}

// Supported says why p cannot be sequentialized, or nil.
func Supported(p *ir.Program) error {
	switch n, err := p.Instances(); {
	case err != nil:
		return err
	case n == 0:
		return fmt.Errorf("the program has no threads")
	}
	for _, e := range p.Edges {
		switch {
		case e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn:
			return fmt.Errorf("%s:%s: the program starts threads", p.File, e.Pos)
		case len(e.PassiveTargets) > 0:
			return fmt.Errorf("%s:%s: broadcast assignments ($) are not sequentialized", p.File, e.Pos)
		case e.Lock != nil && p.Init != nil && e.Proc == p.Init:
			return fmt.Errorf("%s:%s: init uses a lock", p.File, e.Pos)
		}
	}
	return nil
}

// Eager returns the eager sequentialization of p for bound b. When ctx
// ends first, the error is its cause.
func Eager(ctx context.Context, p *ir.Program, b Bound) (*Program, error) {
	return translate(ctx, p, b, true)
}

// Lazy returns the lazy sequentialization of p for bound b. When ctx ends
// first, the error is its cause.
func Lazy(ctx context.Context, p *ir.Program, b Bound) (*Program, error) {
	return translate(ctx, p, b, false)
}

func translate(ctx context.Context, p *ir.Program, bd Bound, eager bool) (sp *Program, err error) {
	if err := Supported(p); err != nil {
		return nil, err
	}
	if bd.Rounds < 0 || bd.Rounds == 0 && bd.Switches < 0 {
		return nil, fmt.Errorf("the bound must be at least 1 round or 0 switches")
	}
	defer halt.Recover(&err)
	b := newBuilder(p, bd, eager)
	b.ctx = ctx
	b.declare()
	if eager {
		b.eagerMain()
	} else {
		b.lazyMain()
	}
	method := LazyTranslation
	if eager {
		method = EagerTranslation
	}
	return &Program{Seq: b.out, Orig: p, Method: method, Bound: bd, Threads: b.instNames,
		origins: b.origins, ctx: b.ctxVar(), err: b.errVar, runs: b.runs, contexts: b.C}, nil
}

// Size estimates, without building it, how many expression nodes the
// translation of p within bd has: at each switch point of a thread the
// test for each later context and the assignment of its shared state,
// C * (C + 3|S|) nodes for C contexts and |S| shared bits, which outweigh
// the thread code when there are many contexts. It lets a caller refuse
// a translation that cannot fit in memory before building it (eager and
// lazy differ by a small factor).
func Size(p *ir.Program, bd Bound) (int64, error) {
	if err := Supported(p); err != nil {
		return 0, err
	}
	if bd.Rounds < 0 || bd.Rounds == 0 && bd.Switches < 0 {
		return 0, fmt.Errorf("the bound must be at least 1 round or 0 switches")
	}
	b := newBuilder(p, bd, false)
	b.ctx, b.sizing = context.Background(), true
	b.declare()
	for i, entry := range b.instances {
		b.cloneThread(i, entry)
	}
	c, s := int64(b.C), int64(len(b.shared))
	return b.switchPoints * c * (c + 3*s), nil
}

// ---- the builder ----

type builder struct {
	ctx context.Context // translation ends with it (internal/halt)
	// sizing: clone the threads but only count their switch points
	// (Size), leaving out the switches, which grow with the square of the
	// contexts.
	sizing       bool
	switchPoints int64

	orig  *ir.Program
	out   *ir.Program
	eager bool
	bound Bound

	instances []*ir.Proc // entry procedure of each thread instance
	instNames []string
	n, C      int // thread instances, contexts
	names     map[string]bool
	origins   []origin
	runs      map[int]int // main's call edges (by ID) -> instance they run

	shared []*ir.Var // S: the original globals, then lock holders
	// A lock is shared as one bit, lockHeld; which thread holds it is
	// that thread's own business, held[lock][instance], outside S: only
	// the holder's release reads it. (A holder bit per thread in S would
	// make S, which every context copies, grow with threads x locks.)
	lockHeld []*ir.Var
	held     [][]*ir.Var
	copies   [][]*ir.Var  // [context][k]: S at the start of the context
	sched    [][]*ir.Var  // switches: [context] the running instance, in binary
	cx, ic   []*ir.Var    // one-hot contexts: eager cx = current; lazy cx = newest, ic = replayed
	atomic   *ir.Var      // the running thread is inside an atomic section
	done     *ir.Var      // the running thread has used its contexts: unwind to main
	errVar   *ir.Var      // eager: a violation happened (confirmed at the end)
	lasso    *lassoVars   // the lasso translation (lasso.go); nil otherwise
	amp      *amplifyVars // Amplify's phases (amplify.go); nil otherwise
	visible  [][]bool     // lasso with keyframes: ir.VisibleNodes of the original
	initRun  *ir.Proc     // clone of init, returning at endinit
	entries  []*ir.Proc   // per instance: the bottom-frame clone of its entry procedure
}

func newBuilder(p *ir.Program, bd Bound, eager bool) *builder {
	b := &builder{orig: p, eager: eager, bound: bd, names: map[string]bool{}, runs: map[int]int{},
		out: &ir.Program{File: p.File, Dialect: p.Dialect, InitStop: -1, Targets: p.Targets}}
	b.instances, b.instNames = p.InstanceEntries()
	b.n = len(b.instances)
	if bd.Rounds > 0 {
		b.C = bd.Rounds * b.n
	} else {
		b.C = bd.Switches + 1
	}
	for _, pr := range p.Procs {
		b.names[pr.Name] = true
	}
	for _, g := range p.Globals {
		b.names[g.Name] = true
	}
	return b
}

// unique returns name, or name with underscores appended, unused so far.
func (b *builder) unique(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '#' || r == '.' || r == ' ' {
			return '_'
		}
		return r
	}, name)
	for b.names[name] {
		name += "_"
	}
	b.names[name] = true
	return name
}

func (b *builder) global(name string, init ir.Value) *ir.Var {
	v := &ir.Var{Name: b.unique(name), Global: true, Index: len(b.out.Globals), Init: init}
	b.out.Globals = append(b.out.Globals, v)
	return v
}

// declare creates the sequential program's variables: the original
// globals first (same indices, so values map back directly), then the
// lock holders, the copies of the shared state and the control variables.
func (b *builder) declare() {
	b.names["main"] = true // reserved for the driver
	b.out.Globals = append(b.out.Globals, b.orig.Globals...)
	b.shared = append(b.shared, b.orig.Globals...)
	for _, l := range b.orig.Locks {
		lh := b.global(l.Name+"_held", ir.False)
		b.lockHeld = append(b.lockHeld, lh)
		b.shared = append(b.shared, lh)
		var hs []*ir.Var
		for i := range b.instances {
			hs = append(hs, b.global(fmt.Sprintf("%s_held_by_%s", l.Name, b.instNames[i]), ir.False))
		}
		b.held = append(b.held, hs)
	}
	for c := 0; c < b.C; c++ {
		if l := b.lasso; l != nil && l.period > 0 && c >= l.first+l.period {
			// The second period starts its contexts in the first's states.
			b.copies = append(b.copies, b.copies[c-l.period])
			continue
		}
		init := ir.False // lazy: written before they are read
		if b.eager && c > 0 || b.amp != nil {
			init = ir.Unknown // eager: the guess; amplify: the state at BASE too
		}
		var cp []*ir.Var
		for _, s := range b.shared {
			cp = append(cp, b.global(fmt.Sprintf("%s_c%d", s.Name, c), init))
		}
		b.copies = append(b.copies, cp)
	}
	if b.bound.Rounds == 0 {
		w := bits.Len(uint(b.n - 1))
		for c := 0; c < b.C; c++ {
			var s []*ir.Var
			for k := 0; k < w; k++ {
				s = append(s, b.global(fmt.Sprintf("sched_c%d_b%d", c, k), ir.Unknown))
			}
			b.sched = append(b.sched, s)
		}
	}
	for c := 0; c < b.C; c++ {
		b.cx = append(b.cx, b.global(fmt.Sprintf("cx%d", c), ir.False))
	}
	if !b.eager {
		for c := 0; c < b.C; c++ {
			b.ic = append(b.ic, b.global(fmt.Sprintf("ic%d", c), ir.False))
		}
	}
	b.atomic = b.global("in_atomic", ir.False)
	b.done = b.global("thread_done", ir.False)
	if b.eager && b.lasso == nil {
		b.errVar = b.global("violated", ir.False)
	}
}

// ctxVar is the one-hot variable telling which context the running
// thread's steps belong to.
func (b *builder) ctxVar() []*ir.Var {
	if b.eager {
		return b.cx
	}
	return b.ic
}

// ---- expressions (folding constants keeps rounds-mode code small) ----

var (
	tt = ir.Const(true)
	ff = ir.Const(false)
)

func isConst(e *ir.Expr, v bool) bool { return e.Op == ir.OpConst && e.Val == v }

func ref(v *ir.Var) *ir.Expr { return &ir.Expr{Op: ir.OpVar, Var: v} }

func not(x *ir.Expr) *ir.Expr {
	switch {
	case x.Op == ir.OpConst:
		return ir.Const(!x.Val)
	case x.Op == ir.OpNot:
		return x.X
	}
	return ir.Not(x)
}

func and(xs ...*ir.Expr) *ir.Expr {
	r := tt
	for _, x := range xs {
		switch {
		case x == nil || isConst(x, true):
		case isConst(x, false):
			return ff
		case isConst(r, true):
			r = x
		default:
			r = ir.Binary(ir.OpAnd, r, x)
		}
	}
	return r
}

func or(xs ...*ir.Expr) *ir.Expr {
	r := ff
	for _, x := range xs {
		switch {
		case isConst(x, false):
		case isConst(x, true):
			return tt
		case isConst(r, false):
			r = x
		default:
			r = ir.Binary(ir.OpOr, r, x)
		}
	}
	return r
}

func eq(x, y *ir.Expr) *ir.Expr {
	switch {
	case x.Op == ir.OpConst:
		if x.Val {
			return y
		}
		return not(y)
	case y.Op == ir.OpConst:
		return eq(y, x)
	}
	return ir.Binary(ir.OpEq, x, y)
}

// owner is the condition that instance i runs context c.
func (b *builder) owner(c, i int) *ir.Expr {
	if b.bound.Rounds > 0 {
		return ir.Const(c%b.n == i)
	}
	r := tt
	for k, v := range b.sched[c] {
		if i>>k&1 == 1 {
			r = and(r, ref(v))
		} else {
			r = and(r, not(ref(v)))
		}
	}
	return r
}

// first is the condition that c is instance i's first context.
func (b *builder) first(c, i int) *ir.Expr {
	r := b.owner(c, i)
	for j := 0; j < c; j++ {
		r = and(r, not(b.owner(j, i)))
	}
	return r
}

// sharedEq is the condition that the shared state equals copy c.
func (b *builder) sharedEq(c int) *ir.Expr {
	r := tt
	for k, s := range b.shared {
		r = and(r, eq(ref(s), ref(b.copies[c][k])))
	}
	return r
}

// copiesEq is the condition that copies c and d of the shared state are
// equal.
func (b *builder) copiesEq(c, d int) *ir.Expr {
	r := tt
	for k := range b.shared {
		r = and(r, eq(ref(b.copies[c][k]), ref(b.copies[d][k])))
	}
	return r
}

// before is lazy's condition that context d precedes the newest one.
func (b *builder) before(d int) *ir.Expr {
	r := ff
	for c := d + 1; c < b.C; c++ {
		r = or(r, ref(b.cx[c]))
	}
	return r
}

// load assigns to the shared state the copy selected by the one-hot sel.
func (b *builder) load(sel []*ir.Expr, targets *[]*ir.Var, values *[]*ir.Expr) {
	for k, s := range b.shared {
		v := ff
		for c, x := range sel {
			v = or(v, and(x, ref(b.copies[c][k])))
		}
		*targets = append(*targets, s)
		*values = append(*values, v)
	}
}

// ---- procedures and edges ----

func (b *builder) newProc(name string, like *ir.Proc) *ir.Proc {
	pr := &ir.Proc{Name: b.unique(name), Index: len(b.out.Procs)}
	if like != nil {
		pr.Pos, pr.Params, pr.Returns = like.Pos, like.Params, like.Returns
		pr.Locals = append([]*ir.Var(nil), like.Locals...)
	}
	b.out.Procs = append(b.out.Procs, pr)
	return pr
}

func (b *builder) node(pr *ir.Proc, pos lang.Pos, stmt string) int {
	pr.Nodes = append(pr.Nodes, &ir.Node{ID: len(pr.Nodes), Pos: pos, Stmt: stmt})
	return len(pr.Nodes) - 1
}

// edge adds e (its Proc, From and To set by the caller) with its origin.
func (b *builder) edge(e *ir.Edge, o origin) *ir.Edge {
	e.ID = len(b.out.Edges)
	b.out.Edges = append(b.out.Edges, e)
	b.origins = append(b.origins, o)
	pr := e.Proc
	pr.Nodes[e.From].Out = append(pr.Nodes[e.From].Out, e)
	return e
}

func control(pr *ir.Proc, from, to int, guard *ir.Expr, pos lang.Pos, stmt string) *ir.Edge {
	if guard != nil && isConst(guard, true) {
		guard = nil
	}
	return &ir.Edge{Proc: pr, From: from, To: to, Guard: guard, Kind: ir.Skip, Pos: pos, Stmt: stmt}
}

func assign(pr *ir.Proc, from, to int, guard *ir.Expr, targets []*ir.Var, values []*ir.Expr, pos lang.Pos, stmt string) *ir.Edge {
	e := control(pr, from, to, guard, pos, stmt)
	e.Kind, e.Targets, e.Values = ir.Assign, targets, values
	return e
}
