package sat

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"bmc/solver"

	"github.com/go-air/gini"
	"github.com/go-air/gini/logic"
	"github.com/go-air/gini/z"
)

// Solver is a solver.Solver backed by gini. It is not safe for concurrent
// use by several goroutines.
type Solver struct {
	c *logic.C
	g *gini.Gini

	marks   []int8  // CnfSince marks: nodes whose clauses are in g
	sent    int     // nodes 0..sent-1 of c were passed to g as roots
	roots   []z.Lit // scratch for CnfSince roots
	assert  []z.Lit // every asserted formula, in order
	nAssert int     // assert[:nAssert] are unit clauses in g
	// pending holds the clauses added since the last sync, each ended by
	// z.LitNull, for g once their variables exist there.
	pending []z.Lit

	status solver.Status // result of the last Solve
	failed []solver.Lit  // failed assumptions of the last Solve (Unsat)
	// model holds, per variable, the values of the last Solve that returned
	// Sat. Variables built after that Solve are filled in lazily by
	// evaluating the circuit (new inputs are false).
	model []bool
}

var _ solver.Solver = (*Solver)(nil)

// New returns an empty solver.
func New() *Solver {
	return &Solver{c: logic.NewC(), g: gini.New()}
}

// Name returns "gini".
func (s *Solver) Name() string { return "gini" }

// lit converts a solver.Lit made by s to a circuit literal, panicking on
// handles that s never made (including the zero Lit).
func (s *Solver) lit(a solver.Lit) z.Lit {
	m := z.Lit(uint32(a))
	if a <= 0 || m.Var() < 1 || int(m.Var()) >= s.c.Len() {
		panic(fmt.Sprintf("sat: invalid literal %d", a))
	}
	return m
}

func out(m z.Lit) solver.Lit { return solver.Lit(int32(m)) }

// True returns the constant true.
func (s *Solver) True() solver.Lit { return out(s.c.T) }

// NewVar returns a fresh input of the circuit.
func (s *Solver) NewVar() solver.Lit { return out(s.c.Lit()) }

// Not returns the negation of a.
func (s *Solver) Not(a solver.Lit) solver.Lit { return out(s.lit(a).Not()) }

// And returns a & b, shared with any equal And built before and folded
// when an operand is constant or the operands are equal or complementary.
func (s *Solver) And(a, b solver.Lit) solver.Lit {
	return out(s.c.And(s.lit(a), s.lit(b)))
}

// Assert adds a permanently; it reaches the SAT solver at the next Solve.
func (s *Solver) Assert(a solver.Lit) {
	s.assert = append(s.assert, s.lit(a))
}

// sync hands the SAT solver everything built or asserted since the last
// call.
func (s *Solver) sync() {
	n := s.c.Len()
	if s.sent < n {
		start := s.sent
		if start < 1 {
			start = 1
		}
		s.roots = s.roots[:0]
		for v := start; v < n; v++ {
			s.roots = append(s.roots, z.Var(v).Pos())
		}
		s.marks, _ = s.c.CnfSince(s.g, s.marks, s.roots...)
		// Inputs that occur in no clause yet are unknown to gini unless
		// we make it allocate them; Value and Assume need them.
		for int(s.g.MaxVar()) < n-1 {
			s.g.Lit()
		}
		s.sent = n
	}
	for _, m := range s.assert[s.nAssert:] {
		s.g.Add(m)
		s.g.Add(z.LitNull)
	}
	s.nAssert = len(s.assert)
	for _, m := range s.pending {
		s.g.Add(m)
	}
	s.pending = s.pending[:0]
}

// AddClause adds the disjunction of lits as one clause of g (at the next
// Solve), building no gate.
func (s *Solver) AddClause(lits ...solver.Lit) {
	for _, a := range lits {
		s.pending = append(s.pending, s.lit(a))
	}
	s.pending = append(s.pending, z.LitNull)
}

// Solve decides the assertions under the assumptions. It returns
// solver.Unknown when ctx is done before gini finishes; gini polls for the
// stop request every 20000 propagations (xo.PropTick), so this is prompt.
func (s *Solver) Solve(ctx context.Context, assumptions ...solver.Lit) solver.Status {
	ms := make([]z.Lit, len(assumptions))
	for i, a := range assumptions {
		ms[i] = s.lit(a)
	}
	s.failed = nil
	s.status = solver.Unknown
	if ctx.Err() != nil {
		return solver.Unknown
	}
	s.sync()
	s.g.Assume(ms...)

	var r int
	if ctx.Done() == nil {
		r = s.g.Solve() // not cancellable: no goroutine needed
	} else {
		r = s.goSolve(ctx)
	}

	switch r {
	case 1:
		s.status = solver.Sat
		s.snapshot()
	case -1:
		s.status = solver.Unsat
		s.failed = s.why(ms)
	}
	return s.status
}

// goSolve runs gini in its background goroutine and stops it when ctx is
// done. gini's handle offers no channel to select on, so the result is
// polled with an interval growing from a few microseconds (cheap calls stay
// cheap) to a few milliseconds (long calls cost little CPU).
func (s *Solver) goSolve(ctx context.Context) int {
	h := s.g.GoSolve()
	const maxDelay = 4 * time.Millisecond
	delay := 5 * time.Microsecond
	t := time.NewTimer(delay)
	defer t.Stop()
	for {
		if r, done := h.Test(); done {
			return r
		}
		select {
		case <-ctx.Done():
			// Stop returns gini's answer if it finished meanwhile,
			// else 0 once the solve goroutine has returned.
			return h.Stop()
		case <-t.C:
			if delay < maxDelay {
				delay *= 2
			}
			t.Reset(delay)
		}
	}
}

// why converts gini's failed assumptions back, keeping only literals that
// really were assumptions of this call.
func (s *Solver) why(ms []z.Lit) []solver.Lit {
	if len(ms) == 0 {
		return nil
	}
	ws := s.g.Why(nil)
	if len(ws) == 0 {
		return nil
	}
	assumed := make(map[z.Lit]bool, len(ms))
	for _, m := range ms {
		assumed[m] = true
	}
	var res []solver.Lit
	seen := make(map[z.Lit]bool, len(ws))
	for _, w := range ws {
		if assumed[w] && !seen[w] {
			seen[w] = true
			res = append(res, out(w))
		}
	}
	return res
}

// snapshot copies gini's model so that Value keeps answering for it after
// later Solves.
func (s *Solver) snapshot() {
	n := s.c.Len()
	if cap(s.model) < n {
		s.model = make([]bool, n)
	}
	s.model = s.model[:n]
	for v := 1; v < n; v++ {
		s.model[v] = s.g.Value(z.Var(v).Pos())
	}
}

// Value returns a's value in the model of the last Solve that returned Sat.
// Formulas built after that Solve are evaluated on the circuit with new
// inputs false; before any Sat Solve every input counts as false.
func (s *Solver) Value(a solver.Lit) bool {
	m := s.lit(a)
	v := int(m.Var())
	if v >= len(s.model) {
		s.extendModel(v + 1)
	}
	return s.model[v] == m.IsPos()
}

// extendModel evaluates nodes len(model)..n-1, which are in topological
// order in logic.C.
func (s *Solver) extendModel(n int) {
	val := func(m z.Lit) bool { return s.model[m.Var()] == m.IsPos() }
	for v := len(s.model); v < n; v++ {
		var b bool
		switch a, c := s.c.Ins(z.Var(v).Pos()); {
		case v == 1:
			b = true // the constant: c.T is variable 1, positive
		case a == z.LitNull:
			b = false // an input unseen by the last Sat Solve
		default:
			b = val(a) && val(c)
		}
		s.model = append(s.model, b)
	}
}

// Failed returns the failed assumptions of the last Solve if it returned
// Unsat: a subset of its assumptions that is unsatisfiable together with
// the assertions. It is nil when no assumption took part in the refutation
// (the assertions alone are unsatisfiable), and after Sat or Unknown.
func (s *Solver) Failed() []solver.Lit {
	if s.status != solver.Unsat || len(s.failed) == 0 {
		return nil
	}
	return append([]solver.Lit(nil), s.failed...)
}

// Close drops the circuit and the SAT solver; s must not be used after.
func (s *Solver) Close() {
	s.c, s.g = nil, nil
	s.marks, s.roots, s.assert, s.pending, s.failed, s.model = nil, nil, nil, nil, nil, nil
}

// clauses collects clauses in the form logic.C's CnfSince emits them
// (inter.Adder: literals, each clause ended by z.LitNull).
type clauses struct {
	lits   []z.Lit
	n      int
	maxVar z.Var
}

func (cs *clauses) Add(m z.Lit) {
	cs.lits = append(cs.lits, m)
	if m == z.LitNull {
		cs.n++
	} else if m.Var() > cs.maxVar {
		cs.maxVar = m.Var()
	}
}

// cone returns the positive literals of all nodes reachable from roots, in
// increasing variable order.
func (s *Solver) cone(roots []z.Lit) []z.Lit {
	in := make([]bool, s.c.Len())
	stack := make([]z.Var, 0, len(roots))
	for _, m := range roots {
		stack = append(stack, m.Var())
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[v] {
			continue
		}
		in[v] = true
		if a, b := s.c.Ins(v.Pos()); a != z.LitNull {
			stack = append(stack, a.Var(), b.Var())
		}
	}
	var res []z.Lit
	for v, ok := range in {
		if ok {
			res = append(res, z.Var(v).Pos())
		}
	}
	return res
}

// WriteDIMACS writes in DIMACS CNF the Tseitin encoding of the cone of
// everything asserted so far, plus extraUnits as unit clauses: satisfiable
// exactly when Solve with extraUnits as assumptions would return Sat.
// Variables are gini's (circuit) variables; variable 1 is the constant true.
func (s *Solver) WriteDIMACS(w io.Writer, extraUnits ...solver.Lit) error {
	units := make([]z.Lit, 0, len(s.assert)+len(extraUnits))
	units = append(units, s.assert...)
	for _, a := range extraUnits {
		units = append(units, s.lit(a))
	}
	cs := &clauses{}
	// Passing the cone's nodes in index (topological) order keeps
	// CnfSince's recursion one level deep however deep the circuit is.
	s.c.CnfSince(cs, nil, s.cone(units)...) // also emits the unit for true
	for _, m := range units {
		cs.Add(m)
		cs.Add(z.LitNull)
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "c bmc\np cnf %d %d\n", cs.maxVar, cs.n)
	var buf []byte
	first := true
	for _, m := range cs.lits {
		if !first {
			buf = append(buf, ' ')
		}
		first = m == z.LitNull
		buf = strconv.AppendInt(buf, int64(m.Dimacs()), 10)
		if first {
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return bw.Flush()
}
