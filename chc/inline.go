package chc

import (
	"fmt"
	"slices"

	"bmc/solver"
	"bmc/ts"
)

// Inlined is a system with the predicates that have one clause of their
// own resolved away (what Z3's fp.xform.inline_eager does, done here:
// Z3 4.8.12 and our Spacer solve the context encoding about twice as
// fast without them, and Z3's own inliner returns interpretations that
// do not hold). Each clause of System is a tree of clauses of the original,
// and a derivation of System reads back as one of the original
// (Expand); an interpretation of System is a proof for the original
// too, as every derivation of the original is one of System's.
type Inlined struct {
	System   *System
	Original *System
	of       []*instance // per clause of System
	removed  int
}

// instance is one use of an original clause inside an inlined clause:
// the literal of the inlined graph that each of the clause's inputs
// became, and per body atom either the index of the inlined clause's
// body atom it stayed (kept) or the instance that replaced it.
type instance struct {
	clause *Clause
	inputs map[int]ts.Lit
	kept   []int
	sub    []*instance
	cp     *Copier // while it is built
}

// template is an inlined clause before it is built: an original clause
// with some body atoms replaced by the templates of their predicate's
// one clause.
type template struct {
	clause *Clause
	sub    []*template // per body atom; nil: kept
	size   int         // original clauses in the tree
}

// maxInlinedClauses bounds the original clauses one inlined clause is
// made of, so that a predicate used many times over does not multiply
// the system.
const maxInlinedClauses = 16

// Removed is the number of predicates resolved away.
func (in *Inlined) Removed() int { return in.removed }

// Inline resolves away each predicate that has exactly one clause with
// it as head, not recursive through that clause, where every clause it
// goes into stays within maxInlinedClauses original clauses. A
// predicate that no clause derives keeps its place (its atoms make
// their clauses unusable, which solvers see at once).
func Inline(s *System) *Inlined {
	tmpl := make([]*template, len(s.Clauses))
	defs := make([][]int, len(s.Preds))         // per predicate, the clauses with it as head
	users := make([]map[int]bool, len(s.Preds)) // per predicate, the clauses with it in the body
	for i := range users {
		users[i] = map[int]bool{}
	}
	for i, c := range s.Clauses {
		tmpl[i] = &template{clause: c, sub: make([]*template, len(c.Body)), size: 1}
		if c.Head != nil {
			defs[c.Head.Pred.Index] = append(defs[c.Head.Pred.Index], i)
		}
		for _, a := range c.Body {
			users[a.Pred.Index][i] = true
		}
	}
	alive := make([]bool, len(tmpl))
	for i := range alive {
		alive[i] = true
	}
	gone := make([]bool, len(s.Preds))
	removed := 0
	for changed := true; changed; {
		changed = false
		for p, d := range defs {
			if gone[p] || len(d) != 1 || len(users[p]) == 0 || users[p][d[0]] {
				continue
			}
			def := tmpl[d[0]]
			fits := true
			for i := range users[p] {
				if n := tmpl[i].uses(s.Preds[p]); tmpl[i].size+n*def.size > maxInlinedClauses {
					fits = false
					break
				}
			}
			if !fits {
				continue
			}
			for i := range users[p] {
				tmpl[i] = tmpl[i].replace(s.Preds[p], def)
				for _, q := range def.kept() {
					users[q.Index][i] = true
				}
			}
			for _, q := range def.kept() {
				delete(users[q.Index], d[0])
			}
			alive[d[0]] = false
			users[p] = map[int]bool{}
			gone[p] = true
			removed++
			changed = true
		}
	}

	out := &Inlined{System: New(), Original: s, removed: removed}
	preds := make([]*Pred, len(s.Preds))
	for i, p := range s.Preds {
		if !gone[i] {
			preds[i] = out.System.NewPred(p.Name, p.Args)
		}
	}
	b := aigBuilder{out.System.AIG}
	for i, t := range tmpl {
		if !alive[i] {
			continue
		}
		var body []Atom
		var constraint []ts.Lit
		inst := t.build(s, b, nil, preds, &body, &constraint)
		var head *Atom
		if c := t.clause; c.Head != nil {
			args := make([]ts.Lit, len(c.Head.Args))
			for k, a := range c.Head.Args {
				args[k] = inst.lit(s, b, a)
			}
			head = &Atom{Pred: preds[c.Head.Pred.Index], Args: args}
		}
		name := t.clause.Name
		if t.size > 1 {
			name = fmt.Sprintf("%s (with %d clauses inlined)", name, t.size-1)
		}
		if added := out.System.Add(head, body, out.System.AIG.Ands(constraint...), name); added != nil {
			out.of = append(out.of, inst)
		}
	}
	return out
}

// uses is the number of body atoms of p in t's tree.
func (t *template) uses(p *Pred) int {
	n := 0
	for k, a := range t.clause.Body {
		switch {
		case t.sub[k] != nil:
			n += t.sub[k].uses(p)
		case a.Pred == p:
			n++
		}
	}
	return n
}

// kept are the predicates of t's kept body atoms, with repetitions.
func (t *template) kept() []*Pred {
	var out []*Pred
	for k, a := range t.clause.Body {
		if t.sub[k] != nil {
			out = append(out, t.sub[k].kept()...)
		} else {
			out = append(out, a.Pred)
		}
	}
	return out
}

// replace returns t with every kept body atom of p replaced by def.
func (t *template) replace(p *Pred, def *template) *template {
	if t.uses(p) == 0 {
		return t
	}
	r := &template{clause: t.clause, sub: slices.Clone(t.sub), size: 1}
	for k, a := range t.clause.Body {
		switch {
		case t.sub[k] != nil:
			r.sub[k] = t.sub[k].replace(p, def)
		case a.Pred == p:
			r.sub[k] = def
		}
		if r.sub[k] != nil {
			r.size += r.sub[k].size
		}
	}
	return r
}

// build copies t's clause into b (the inlined graph): its head's
// arguments are args (nil at the root, where they are fresh), kept body
// atoms are appended to body, constraints to constraint.
func (t *template) build(s *System, b aigBuilder, args []ts.Lit, preds []*Pred, body *[]Atom, constraint *[]ts.Lit) *instance {
	inst := &instance{clause: t.clause, inputs: map[int]ts.Lit{}, kept: make([]int, len(t.clause.Body)), sub: make([]*instance, len(t.clause.Body))}
	defer func() { inst.cp = nil }()
	if args != nil {
		// A head argument that is a variable (or its negation) seen
		// for the first time becomes the caller's literal; any other is
		// equated with it.
		for k, a := range t.clause.Head.Args {
			v := a.Var()
			_, seen := inst.inputs[v]
			if v != 0 && s.AIG.Kind(v) != ts.And && !seen {
				l := args[k]
				if a.IsNeg() {
					l = l.Not()
				}
				inst.inputs[v] = l
				continue
			}
			*constraint = append(*constraint, b.s.Eq(inst.lit(s, b, a), args[k]))
		}
	}
	*constraint = append(*constraint, inst.lit(s, b, t.clause.Constraint))
	for k, a := range t.clause.Body {
		actual := make([]ts.Lit, len(a.Args))
		for j, x := range a.Args {
			actual[j] = inst.lit(s, b, x)
		}
		if t.sub[k] != nil {
			inst.sub[k] = t.sub[k].build(s, b, actual, preds, body, constraint)
			continue
		}
		inst.kept[k] = len(*body)
		*body = append(*body, Atom{Pred: preds[a.Pred.Index], Args: actual})
	}
	return inst
}

// lit is l of the original graph built in the inlined one for this
// instance: inputs not yet met become fresh inputs.
func (inst *instance) lit(s *System, b aigBuilder, l ts.Lit) ts.Lit {
	if inst.cp == nil {
		inst.cp = NewCopier(s.AIG, b, func(v int) solver.Lit {
			x, ok := inst.inputs[v]
			if !ok {
				x = ts.Lit(b.NewVar() - 2)
				inst.inputs[v] = x
			}
			return solver.Lit(x + 2)
		})
	}
	return ts.Lit(inst.cp.Lit(l) - 2)
}

// Expand reads a derivation of in.System as the derivation of the
// original system it stands for; a sub-derivation shared in d is one
// shared in the result.
func (in *Inlined) Expand(d *Derivation) *Derivation {
	done := map[*Derivation]*Derivation{} // per node of d, its expansion
	var expand func(inst *instance, d *Derivation) *Derivation
	kept := func(d *Derivation) *Derivation {
		if out, ok := done[d]; ok {
			return out
		}
		out := expand(in.of[d.Clause.Index], d)
		done[d] = out
		return out
	}
	expand = func(inst *instance, d *Derivation) *Derivation {
		vals := make([]bool, in.Original.AIG.NumVars())
		for v, l := range inst.inputs {
			vals[v] = ts.Value(d.Values, l)
		}
		in.Original.AIG.Eval(vals)
		out := &Derivation{Clause: inst.clause, Values: vals}
		for k := range inst.clause.Body {
			if inst.sub[k] != nil {
				out.Body = append(out.Body, expand(inst.sub[k], d))
				continue
			}
			out.Body = append(out.Body, kept(d.Body[inst.kept[k]]))
		}
		return out
	}
	return kept(d)
}
