package chc

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"bmc/ts"
)

// Write prints s in SMT-LIB 2's HORN logic, for CHC solvers such as
// Z3's Spacer, Eldarica or Golem: a function into Bool per predicate,
// and per clause an assertion "for all its variables: body => head",
// where the clause's and-nodes are variables too, each defined by an
// equation in the body (so that shared nodes are written once). A
// query's head is false, so that "sat" means that no query's body can
// hold (the program is safe) and "unsat" that one can.
func Write(w io.Writer, s *System) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "(set-logic HORN)")
	for _, p := range s.Preds {
		fmt.Fprintf(bw, "; %s(%s)\n(declare-fun %s (%s) Bool)\n", p.Name, strings.Join(p.Args, ", "),
			predSymbol(p), strings.TrimSpace(strings.Repeat("Bool ", p.Arity())))
	}
	for _, c := range s.Clauses {
		inputs, gates := s.Vars(c)
		lit := func(l ts.Lit) string {
			var x string
			switch v := l.Var(); {
			case v == 0:
				x = "false"
			default:
				x = fmt.Sprintf("v%d", v)
			}
			if l.IsNeg() {
				return "(not " + x + ")"
			}
			return x
		}
		atom := func(a Atom) string {
			if a.Pred.Arity() == 0 {
				return predSymbol(a.Pred)
			}
			args := make([]string, len(a.Args))
			for i, l := range a.Args {
				args[i] = lit(l)
			}
			return "(" + predSymbol(a.Pred) + " " + strings.Join(args, " ") + ")"
		}
		var body []string
		for _, g := range gates {
			a, b := s.AIG.Operands(g)
			body = append(body, fmt.Sprintf("(= v%d (and %s %s))", g, lit(a), lit(b)))
		}
		for _, a := range c.Body {
			body = append(body, atom(a))
		}
		body = append(body, lit(c.Constraint))
		head := "false"
		if c.Head != nil {
			head = atom(*c.Head)
		}
		fmt.Fprintf(bw, "; %s\n(assert ", c.Name)
		vars := append(inputs, gates...)
		if len(vars) > 0 {
			bw.WriteString("(forall (")
			for i, v := range vars {
				if i > 0 {
					bw.WriteByte(' ')
				}
				fmt.Fprintf(bw, "(v%d Bool)", v)
			}
			bw.WriteString(") ")
		}
		premise := body[0]
		if len(body) > 1 {
			premise = "(and " + strings.Join(body, " ") + ")"
		}
		fmt.Fprintf(bw, "(=> %s %s)", premise, head)
		if len(vars) > 0 {
			bw.WriteByte(')')
		}
		bw.WriteString(")\n")
	}
	fmt.Fprintln(bw, "(check-sat)")
	return bw.Flush()
}

// predSymbol is p's SMT-LIB symbol: its index, and its name where that
// is a simple symbol.
func predSymbol(p *Pred) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.':
			return r
		}
		return '_'
	}, p.Name)
	return fmt.Sprintf("p%d_%s", p.Index, name)
}
