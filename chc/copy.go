package chc

import (
	"bmc/solver"
	"bmc/ts"
)

// Copier builds literals of a graph in a solver: every and-node once,
// each input as Input says.
type Copier struct {
	aig   *ts.System
	b     solver.Builder
	input func(v int) solver.Lit
	built map[int]solver.Lit
}

// NewCopier returns a copier of aig into b; input gives the solver's
// literal for an input (or latch) variable of aig.
func NewCopier(aig *ts.System, b solver.Builder, input func(v int) solver.Lit) *Copier {
	return &Copier{aig: aig, b: b, input: input, built: map[int]solver.Lit{0: solver.Lit(0)}}
}

// FreshInputs returns an input function that gives each input a fresh
// variable of b, the same one each time it is asked.
func FreshInputs(b solver.Builder) func(v int) solver.Lit {
	vars := map[int]solver.Lit{}
	return func(v int) solver.Lit {
		l, ok := vars[v]
		if !ok {
			l = b.NewVar()
			vars[v] = l
		}
		return l
	}
}

// Lit is l built in the solver.
func (c *Copier) Lit(l ts.Lit) solver.Lit {
	var x solver.Lit
	if l.Var() == 0 {
		x = c.b.Not(c.b.True())
	} else {
		x = c.node(l.Var())
	}
	if l.IsNeg() {
		return c.b.Not(x)
	}
	return x
}

// Lits builds each of ls.
func (c *Copier) Lits(ls []ts.Lit) []solver.Lit {
	out := make([]solver.Lit, len(ls))
	for i, l := range ls {
		out[i] = c.Lit(l)
	}
	return out
}

// node builds variable v, iteratively: graphs of long programs are deep.
func (c *Copier) node(v int) solver.Lit {
	if l, ok := c.built[v]; ok && v != 0 {
		return l
	}
	stack := []int{v}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		if _, ok := c.built[n]; ok && n != 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		if c.aig.Kind(n) != ts.And {
			c.built[n] = c.input(n)
			stack = stack[:len(stack)-1]
			continue
		}
		a, b := c.aig.Operands(n)
		ready := true
		for _, o := range []ts.Lit{a, b} {
			if _, ok := c.built[o.Var()]; !ok && o.Var() != 0 {
				stack = append(stack, o.Var())
				ready = false
			}
		}
		if ready {
			c.built[n] = c.b.And(c.Lit(a), c.Lit(b))
			stack = stack[:len(stack)-1]
		}
	}
	return c.built[v]
}
