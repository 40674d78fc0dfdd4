package chc

import (
	"fmt"
	"slices"

	"bmc/ts"
)

// Pred is a predicate: a relation over Boolean arguments.
type Pred struct {
	Name  string
	Index int      // in System.Preds
	Args  []string // the arguments' names, for summaries and certificates
}

// Arity is the number of p's arguments.
func (p *Pred) Arity() int { return len(p.Args) }

// Atom is a predicate applied to literals of the system's graph.
type Atom struct {
	Pred *Pred
	Args []ts.Lit
}

// Clause is head <- body & Constraint, for all values of the graph's
// inputs it reads; without a head it is a query, a body that must not
// hold.
type Clause struct {
	Index      int // in System.Clauses
	Head       *Atom
	Body       []Atom
	Constraint ts.Lit
	Name       string // what the clause stands for, for messages
}

// System is a set of Horn clauses over one and-inverter graph.
type System struct {
	AIG     *ts.System
	Preds   []*Pred
	Clauses []*Clause
}

// New returns an empty system.
func New() *System { return &System{AIG: ts.New()} }

// NewPred declares a predicate with the given argument names.
func (s *System) NewPred(name string, args []string) *Pred {
	p := &Pred{Name: name, Index: len(s.Preds), Args: args}
	s.Preds = append(s.Preds, p)
	return p
}

// Add adds the clause head <- body & constraint (head nil: a query);
// a clause whose constraint is false is left out (it is valid).
func (s *System) Add(head *Atom, body []Atom, constraint ts.Lit, name string) *Clause {
	if constraint == ts.False {
		return nil
	}
	for _, a := range append(slices.Clone(body), atomOrNone(head)...) {
		if len(a.Args) != a.Pred.Arity() {
			panic(fmt.Sprintf("chc: %s applied to %d arguments, has %d", a.Pred.Name, len(a.Args), a.Pred.Arity()))
		}
	}
	c := &Clause{Index: len(s.Clauses), Head: head, Body: body, Constraint: constraint, Name: name}
	s.Clauses = append(s.Clauses, c)
	return c
}

func atomOrNone(a *Atom) []Atom {
	if a == nil {
		return nil
	}
	return []Atom{*a}
}

// Lits are every literal c reads: the head's arguments, the body's and
// the constraint.
func (c *Clause) Lits() []ts.Lit {
	var out []ts.Lit
	if c.Head != nil {
		out = append(out, c.Head.Args...)
	}
	for _, a := range c.Body {
		out = append(out, a.Args...)
	}
	return append(out, c.Constraint)
}

// Vars are the graph's inputs that c reads (its universally quantified
// variables), in increasing order, and its and-nodes in topological
// order.
func (s *System) Vars(c *Clause) (inputs, gates []int) {
	seen := map[int]bool{0: true}
	var stack []int
	for _, l := range c.Lits() {
		stack = append(stack, l.Var())
	}
	// Iterative post-order: the graphs of long programs are deep.
	type item struct {
		v    int
		done bool
	}
	var work []item
	for _, v := range stack {
		work = append(work, item{v, false})
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if it.done {
			gates = append(gates, it.v)
			continue
		}
		if seen[it.v] {
			continue
		}
		seen[it.v] = true
		if s.AIG.Kind(it.v) != ts.And {
			inputs = append(inputs, it.v)
			continue
		}
		work = append(work, item{it.v, true})
		a, b := s.AIG.Operands(it.v)
		for _, o := range []int{b.Var(), a.Var()} {
			if !seen[o] {
				work = append(work, item{o, false})
			}
		}
	}
	slices.Sort(inputs)
	return inputs, gates
}

// HeadsOf groups the clauses by their head's predicate; queries are
// under index len(s.Preds).
func (s *System) HeadsOf() [][]*Clause {
	out := make([][]*Clause, len(s.Preds)+1)
	for _, c := range s.Clauses {
		i := len(s.Preds)
		if c.Head != nil {
			i = c.Head.Pred.Index
		}
		out[i] = append(out[i], c)
	}
	return out
}

// Relevant marks the predicates a query can depend on: those in the
// body of a query, and those in the body of a clause whose head is
// relevant. Interpreting the others as true satisfies every clause with
// one of them in its head or body, so a solver may leave them out.
func (s *System) Relevant() []bool {
	rel := make([]bool, len(s.Preds))
	heads := s.HeadsOf()
	work := heads[len(s.Preds)]
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range c.Body {
			if !rel[a.Pred.Index] {
				rel[a.Pred.Index] = true
				work = append(work, heads[a.Pred.Index]...)
			}
		}
	}
	return rel
}

// Derivation is a derivation tree: Clause applied with Values (a value
// per variable of the graph, and-nodes included, that makes Clause's
// constraint true), one sub-derivation per body atom deriving that
// atom's arguments. The root of a counterexample applies a query.
//
// Sub-derivations may be shared (the same *Derivation under several
// body atoms, at several depths): the tree is kept as a DAG, which can be
// exponentially smaller. A callee's summary atom is derived from its
// call atom, which is derived from the caller's cut point, so each
// returned call in a recursion repeats its caller's derivation: unfolded,
// a violation 20 returned calls deep is a tree of 2^20 nodes. Whatever
// walks a derivation must visit a shared node once (and may not change
// one in place).
type Derivation struct {
	Clause *Clause
	Values []bool
	Body   []*Derivation
}

// Args are the values of the head's arguments at d.
func (d *Derivation) Args() []bool { return d.values(d.Clause.Head.Args) }

func (d *Derivation) values(ls []ts.Lit) []bool {
	out := make([]bool, len(ls))
	for i, l := range ls {
		out[i] = ts.Value(d.Values, l)
	}
	return out
}

// Height is the number of clauses on d's longest branch.
func (d *Derivation) Height() int {
	return d.height(map[*Derivation]int{})
}

func (d *Derivation) height(memo map[*Derivation]int) int {
	if h, ok := memo[d]; ok {
		return h
	}
	h := 0
	for _, b := range d.Body {
		h = max(h, b.height(memo))
	}
	memo[d] = h + 1
	return h + 1
}

// CheckDerivation reports why d is not a derivation of a query of s by
// evaluation alone, or nil: at each node the values satisfy the
// constraint (and the graph), and each body atom's arguments are the
// arguments its sub-derivation derives. A shared sub-derivation is
// checked once; a cycle (no finite derivation) is an error.
func (s *System) CheckDerivation(d *Derivation) error {
	if d.Clause.Head != nil {
		return fmt.Errorf("chc: the derivation ends in %s, not in a query", d.Clause.Head.Pred.Name)
	}
	// Iteratively, depth first: a derivation of a deep recursion is
	// deep. open: on the path from the root; done: checked with all
	// below it.
	const open, done = 1, 2
	state := map[*Derivation]int{}
	type frame struct {
		n    *Derivation
		next int // the sub-derivation to visit next
	}
	var path []frame
	visit := func(n *Derivation) error {
		switch state[n] {
		case open:
			return fmt.Errorf("chc: clause %s: the derivation is cyclic", n.Clause.Name)
		case done:
			return nil
		}
		if err := s.checkNode(n); err != nil {
			return err
		}
		state[n] = open
		path = append(path, frame{n: n})
		return nil
	}
	if err := visit(d); err != nil {
		return err
	}
	for len(path) > 0 {
		f := &path[len(path)-1]
		if f.next == len(f.n.Body) {
			state[f.n] = done
			path = path[:len(path)-1]
			continue
		}
		b := f.n.Body[f.next]
		f.next++
		if err := visit(b); err != nil {
			return err
		}
	}
	return nil
}

// checkNode checks derivation node n on its own: its values, its
// constraint, and its body atoms' arguments against its
// sub-derivations' heads.
func (s *System) checkNode(n *Derivation) error {
	c := n.Clause
	if len(n.Values) != s.AIG.NumVars() {
		return fmt.Errorf("chc: clause %s: %d values for %d variables", c.Name, len(n.Values), s.AIG.NumVars())
	}
	vals := slices.Clone(n.Values)
	s.AIG.Eval(vals)
	if !slices.Equal(vals, n.Values) {
		return fmt.Errorf("chc: clause %s: the values do not follow the graph", c.Name)
	}
	if !ts.Value(vals, c.Constraint) {
		return fmt.Errorf("chc: clause %s: the constraint is false", c.Name)
	}
	if len(n.Body) != len(c.Body) {
		return fmt.Errorf("chc: clause %s: %d sub-derivations for %d body atoms", c.Name, len(n.Body), len(c.Body))
	}
	for i, a := range c.Body {
		b := n.Body[i]
		if b.Clause.Head == nil || b.Clause.Head.Pred != a.Pred {
			return fmt.Errorf("chc: clause %s: body atom %d (%s) derived by clause %s", c.Name, i, a.Pred.Name, b.Clause.Name)
		}
		if !slices.Equal(n.values(a.Args), b.Args()) {
			return fmt.Errorf("chc: clause %s: body atom %d (%s) has other arguments than its derivation", c.Name, i, a.Pred.Name)
		}
	}
	return nil
}
