package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"bmc/bdd"
	"bmc/solver"
	"bmc/ts"
)

// AmplifyDiagrams decides the inductive case of amplify.go the way the
// paper does (kinduction-with-amplification, §4.2, Alg. 1 lines 9-13,
// on Moped's decision diagrams): as a difference of sets. Y is the least
// fixpoint of the states from which a step reaches Target or a step
// leads into Y (backward reachability, pre*); with Short frozen, Y's
// first states with Short false are M^(K+1) and with Short true M^K,
// both intersected with the envelope (Eqn. 9). The obligation holds when
// M^(K+1) - M^K is empty; otherwise any state of the difference is a
// counterexample to induction, whose run of K+1 epochs the layers of the
// fixpoint give step by step.
//
// The diagrams range over the latches and the inputs, in the order given
// (the latches reversed with reverse, which the independent re-check
// uses); a step's image is the composition with the next-state
// functions, so no second copy of the latches is needed.
func AmplifyDiagrams(ctx context.Context, sys *ts.System, t AmplifyTask, reverse bool) *Amplified {
	out := &Amplified{}
	var cti *Witness
	err := withDiagrams(ctx, sys, t.Sched, reverse, func(d *diagrams) error {
		m := d.m
		start := m.And(d.lit(t.First), d.lit(t.Envelope))
		for _, l := range sys.Latches() {
			if l.Lit != t.Short && l.Lit != t.First {
				start = m.And(start, d.initial(l))
			}
		}
		// The envelope's condition holds in every state a run from BASE
		// passes (each thread's stack stays one the control-flow graph
		// reaches, its atomic mode one the marks allow, each lock with one
		// holder at most): the fixpoint need not look outside it.
		care := d.lit(t.Envelope)
		d.keep = append(d.keep, &start, &care)
		layers, err := d.backward(t.Target, care, t.Progress)
		if err != nil {
			return err
		}
		short := d.level[t.Short.Var()]
		reached := m.And(start, layers[len(layers)-1])
		longer := m.Restrict(reached, map[int]bool{short: false})
		within := m.Restrict(reached, map[int]bool{short: true})
		diff := m.And(m.And(longer, m.Not(within)), m.Not(d.lit(t.Short)))
		if diff != bdd.False {
			cti = d.run(m.Witness(diff), layers, t.Target)
		}
		return nil
	})
	switch {
	case err != nil:
		out.Status, out.Reason = solver.Unknown, err.Error()
	case cti == nil:
		out.Status = solver.Unsat
	default:
		out.Status, out.CTI = solver.Sat, cti
	}
	return out
}

// ReachableByDiagrams decides by decision diagrams whether a path from an
// initial state of sys reaches target: Sat or Unsat, or Unknown with the
// reason. Care must hold in every state of such a path; the search looks
// no further. Sched are the inputs that choose the thread of a step. It
// is the second engine of the base case of amplification.
func ReachableByDiagrams(ctx context.Context, sys *ts.System, target, care ts.Lit, sched []ts.Lit) (solver.Status, string) {
	st := solver.Unsat
	err := withDiagrams(ctx, sys, sched, false, func(d *diagrams) error {
		c := d.lit(care)
		d.keep = append(d.keep, &c)
		layers, err := d.backward(target, c, nil)
		if err != nil {
			return err
		}
		init := layers[len(layers)-1]
		for _, l := range sys.Latches() {
			init = d.m.And(init, d.initial(l))
		}
		if init != bdd.False {
			st = solver.Sat
		}
		return nil
	})
	if err != nil {
		return solver.Unknown, err.Error()
	}
	return st, ""
}

// diagrams are a system's nodes as decision diagrams over its latches and
// inputs.
type diagrams struct {
	ctx    context.Context
	sys    *ts.System
	m      *bdd.Manager
	level  map[int]int // system variable -> diagram variable
	memo   map[int]bdd.Node
	inputs bdd.Set
	ok     bdd.Node    // the constraints
	keep   []*bdd.Node // the caller's diagrams that a collection keeps
	// parts are the step split by the thread that takes it: the
	// scheduler's inputs fixed, the latches it leaves alone (the other
	// threads') are no part of the substitution, which is what makes a
	// step cheap.
	parts []*stepPart
}

// stepPart is the step of one value of the scheduler's inputs.
type stepPart struct {
	at   map[int]bool      // the scheduler's inputs
	sub  map[int]bdd.Node  // each latch that may change by its next-state function
	step *bdd.Substitution // sub, prepared
	ok   bdd.Node          // the constraints
}

// withDiagrams runs f on sys's diagrams, in a manager of its own (whose
// panics, such as running out of nodes, become errors).
func withDiagrams(ctx context.Context, sys *ts.System, sched []ts.Lit, reverse bool, f func(*diagrams) error) error {
	d := &diagrams{ctx: ctx, sys: sys, m: bdd.New(), level: map[int]int{}, memo: map[int]bdd.Node{0: bdd.False}}
	latches, inputs := sys.Latches(), sys.Inputs()
	// The inputs first: the scheduler's select every thread's bits.
	var ins []int
	for j, in := range inputs {
		d.level[in.Var()] = j
		ins = append(ins, j)
	}
	for i, l := range latches {
		d.level[l.Lit.Var()] = len(inputs) + i
		if reverse {
			d.level[l.Lit.Var()] = len(inputs) + len(latches) - 1 - i
		}
	}
	okLit := sys.Ands(sys.Constraints...)
	var ferr error
	err := d.m.Run(func() {
		d.inputs = d.m.NewSet(ins)
		d.ok = d.lit(okLit)
		next := make([]bdd.Node, len(latches))
		for i, l := range latches {
			next[i] = d.lit(l.Next)
		}
		for a := 0; a < 1<<len(sched); a++ {
			part := &stepPart{at: map[int]bool{}, sub: map[int]bdd.Node{}}
			for b, x := range sched {
				part.at[d.level[x.Var()]] = a>>b&1 == 1
			}
			part.ok = d.m.Restrict(d.ok, part.at)
			if part.ok == bdd.False {
				continue // no such thread
			}
			for i, l := range latches {
				v := d.level[l.Lit.Var()]
				if n := d.m.Restrict(next[i], part.at); n != d.m.Var(v) {
					part.sub[v] = n
				}
			}
			part.step = d.m.NewSubstitution(part.sub)
			d.parts = append(d.parts, part)
		}
		ferr = f(d)
	})
	if err != nil {
		return err
	}
	return ferr
}

// lit is the diagram of l.
func (d *diagrams) lit(l ts.Lit) bdd.Node {
	x, ok := d.memo[l.Var()]
	if !ok {
		v := l.Var()
		if d.sys.Kind(v) == ts.And {
			a, b := d.sys.Operands(v)
			x = d.m.And(d.lit(a), d.lit(b))
		} else {
			x = d.m.Var(d.level[v])
		}
		d.memo[v] = x
	}
	if l.IsNeg() {
		return d.m.Not(x)
	}
	return x
}

// initial is latch l's initial value as a condition (true when free).
func (d *diagrams) initial(l ts.LatchInfo) bdd.Node {
	switch l.Init {
	case ts.Init0:
		return d.m.Not(d.lit(l.Lit))
	case ts.Init1:
		return d.lit(l.Lit)
	}
	return bdd.True
}

// backward computes breadth first the states in care from which a path
// reaches target: layers[n] holds those with a path of at most n steps,
// the last layer all of them. Care must hold all along the paths asked
// about.
func (d *diagrams) backward(target ts.Lit, care bdd.Node, progress io.Writer) ([]bdd.Node, error) {
	m := d.m
	y := m.And(m.Exists(d.lit(target), d.inputs), care)
	layers := []bdd.Node{y}
	collected := m.Nodes()
	for frontier := y; ; {
		if d.ctx.Err() != nil {
			return nil, errors.New(stopReason(d.ctx))
		}
		if m.Nodes() > 2*collected+1<<20 {
			roots := append([]*bdd.Node{&y, &frontier, &care}, d.keep...)
			for i := range layers {
				roots = append(roots, &layers[i])
			}
			d.gc(roots)
			collected = m.Nodes()
		}
		// Only the predecessors of the states new in the last step.
		pre := bdd.False
		for _, part := range d.parts {
			pre = m.Or(pre, m.AndExists(part.ok, m.ComposeWith(frontier, part.step), d.inputs))
		}
		frontier = m.And(m.And(pre, care), m.Not(y))
		if frontier == bdd.False {
			return layers, nil
		}
		y = m.Or(y, frontier)
		layers = append(layers, y)
		if progress != nil && len(layers)%10 == 0 {
			fmt.Fprintf(progress, "amplify: diagrams: %d steps back, %d nodes\n", len(layers)-1, m.Nodes())
		}
	}
}

// run is the path from the state s (a partial assignment of diagram
// variables, the rest false) to target that the layers give: from a
// state in layer n, inputs that satisfy the constraints and lead into
// layer n-1, down to layer 0, where inputs make target true.
func (d *diagrams) run(s map[int]bool, layers []bdd.Node, target ts.Lit) *Witness {
	m, sys := d.m, d.sys
	latches, inputs := sys.Latches(), sys.Inputs()
	state := make([]bool, len(latches))
	for i, l := range latches {
		state[i] = s[d.level[l.Lit.Var()]]
	}
	n := 0
	for !d.holds(layers[n], state) {
		n++
	}
	w := &Witness{}
	for ; ; n-- {
		at := map[int]bool{}
		for i, l := range latches {
			at[d.level[l.Lit.Var()]] = state[i]
		}
		var choice map[int]bool
		if n == 0 {
			choice = m.Witness(m.Restrict(d.lit(target), at))
		} else {
			for _, part := range d.parts {
				g := m.Restrict(m.And(part.ok, m.ComposeWith(layers[n-1], part.step)), at)
				if g != bdd.False {
					choice = m.Witness(g)
					for v, x := range part.at {
						choice[v] = x
					}
					break
				}
			}
		}
		vals := make([]bool, sys.NumVars())
		for i, l := range latches {
			vals[l.Lit.Var()] = state[i]
		}
		in := make([]bool, len(inputs))
		for j, x := range inputs {
			in[j] = choice[d.level[x.Var()]]
			vals[x.Var()] = in[j]
		}
		w.Latches, w.Inputs = append(w.Latches, state), append(w.Inputs, in)
		if n == 0 {
			return w
		}
		sys.Eval(vals)
		next := make([]bool, len(latches))
		for i, l := range latches {
			next[i] = ts.Value(vals, l.Next)
		}
		state = next
	}
}

// holds reports whether the diagram f holds in the latch state s.
func (d *diagrams) holds(f bdd.Node, s []bool) bool {
	at := map[int]bool{}
	for i, l := range d.sys.Latches() {
		at[d.level[l.Lit.Var()]] = s[i]
	}
	return d.m.Restrict(f, at) != bdd.False
}

// gc collects the nodes that neither roots, the constraints, the
// next-state functions nor d.keep hold; the memo of literals goes.
func (d *diagrams) gc(roots []*bdd.Node) {
	roots = append(roots, &d.ok)
	type entry struct {
		sub map[int]bdd.Node
		k   int
		n   bdd.Node
	}
	var entries []*entry
	for _, part := range d.parts {
		roots = append(roots, &part.ok)
		for k, n := range part.sub {
			e := &entry{part.sub, k, n}
			entries = append(entries, e)
			roots = append(roots, &e.n)
		}
	}
	d.m.GC(roots)
	for _, e := range entries {
		e.sub[e.k] = e.n
	}
	d.memo = map[int]bdd.Node{0: bdd.False}
}
