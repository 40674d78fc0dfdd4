package solver

import (
	"bufio"
	"fmt"
	"io"
)

// SMT2 is a Builder that records formulas as SMT-LIB 2 text: a declared
// constant per variable and a defined function per conjunction, so shared
// subformulas stay shared.
type SMT2 struct {
	lines []string
	names []string // by Lit index; "" unused
	neg   map[Lit]Lit
	ands  map[[2]Lit]Lit
	tru   Lit
}

// NewSMT2 returns an empty recorder.
func NewSMT2() *SMT2 {
	s := &SMT2{names: []string{""}, neg: map[Lit]Lit{}, ands: map[[2]Lit]Lit{}}
	s.tru = s.add("true")
	return s
}

func (s *SMT2) add(name string) Lit {
	s.names = append(s.names, name)
	return Lit(len(s.names) - 1)
}

// True is the constant true.
func (s *SMT2) True() Lit { return s.tru }

// NewVar declares a fresh Boolean constant.
func (s *SMT2) NewVar() Lit {
	name := fmt.Sprintf("x%d", len(s.names))
	s.lines = append(s.lines, fmt.Sprintf("(declare-const %s Bool)", name))
	return s.add(name)
}

// Not negates a.
func (s *SMT2) Not(a Lit) Lit {
	if n, ok := s.neg[a]; ok {
		return n
	}
	n := s.add("(not " + s.names[a] + ")")
	s.neg[a], s.neg[n] = n, a
	return n
}

// And defines the conjunction of a and b.
func (s *SMT2) And(a, b Lit) Lit {
	if a > b {
		a, b = b, a
	}
	if l, ok := s.ands[[2]Lit{a, b}]; ok {
		return l
	}
	name := fmt.Sprintf("g%d", len(s.names))
	s.lines = append(s.lines, fmt.Sprintf("(define-fun %s () Bool (and %s %s))", name, s.names[a], s.names[b]))
	l := s.add(name)
	s.ands[[2]Lit{a, b}] = l
	return l
}

// Write prints the recorded definitions, asserts goal and asks for
// satisfiability; header lines become comments.
func (s *SMT2) Write(w io.Writer, goal Lit, header ...string) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		fmt.Fprintf(bw, "; %s\n", h)
	}
	fmt.Fprintln(bw, "(set-logic QF_UF)")
	for _, l := range s.lines {
		fmt.Fprintln(bw, l)
	}
	fmt.Fprintf(bw, "(assert %s)\n(check-sat)\n(exit)\n", s.names[goal])
	return bw.Flush()
}
