package moped

import (
	"fmt"
	"strconv"
	"strings"
)

// CheckText reports, as line:col: message, the first thing in src that
// Moped 1.0.15 would not read as bmc means it, or nil. It is our own
// recogniser of Moped's grammar (bp.y and bplex.l, as listed in
// shared/peers/MOPED.md), narrowed to what keeps bmc's meaning, with the
// checks whose failure Moped does not report:
//   - the lexis: identifiers [A-Za-z_][A-Za-z0-9_]*, no keyword or T/F
//     as a name, `//` comments only, and no other character (Moped drops
//     unknown characters silently, so `x.y` would read as `x y`);
//   - the grammar: global `decl`s, then functions; plain `decl`s, then a
//     non-empty statement list; one label a statement; single-target
//     goto; `*` only as a whole decider and schoose only as a whole list
//     element; `!` only before a primary; constants T, F, 0, 1;
//   - refused because Moped reads them differently: assert (an assume),
//     constrain and enforce (no frame condition), print, 'x;
//   - names: every variable read or assigned is declared (Moped declares
//     an assigned unknown name silently), no local named like a global,
//     no name declared twice, every goto target a label of its function
//     and no label twice in one (Moped invents or merges such points),
//     calls of existing functions with as many arguments as parameters
//     and as many targets as results (Moped pairs them from the right or
//     crashes), returns of none or all results, a main, and label defined
//     in exactly one function.
func CheckText(src []byte, label string) error {
	toks, err := scan(src)
	if err != nil {
		return err
	}
	r := &recogniser{toks: toks, funcs: map[string]*function{}, globals: map[string]bool{}}
	if err := r.program(); err != nil {
		return err
	}
	return r.resolve(label)
}

// ---- tokens ----

type tokKind uint8

const (
	tIdent tokKind = iota
	tKeyword
	tNumber
	tPunct
	tEOF
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

func (t token) String() string {
	if t.kind == tEOF {
		return "end of file"
	}
	return strconv.Quote(t.text)
}

var mopedKeywords = map[string]bool{
	"return": true, "goto": true, "skip": true, "do": true, "od": true, "else": true, "elsif": true,
	"if": true, "then": true, "fi": true, "decl": true, "while": true, "begin": true, "end": true,
	"bool": true, "void": true, "assert": true, "assume": true, "print": true, "enforce": true,
	"constrain": true, "schoose": true,
}

// puncts are Moped's operators and separators, longest first.
var puncts = []string{":=", "!=", "=>", "&&", "||", ":", ";", ",", "(", ")", "[", "]", "<", ">", "!", "~", "&", "|", "^", "=", "'", "*", "?"}

func scan(src []byte) ([]token, error) {
	var toks []token
	line, col := 1, 1
	s := string(src)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i, col = i+1, col+1
			continue
		case strings.HasPrefix(s[i:], "//"):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return nil, fmt.Errorf("%d:%d: a comment on the last line needs a newline after it", line, col)
			}
			i += end
			continue
		case isLetter(c):
			j := i
			for j < len(s) && (isLetter(s[j]) || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			kind := tIdent
			if mopedKeywords[s[i:j]] {
				kind = tKeyword
			}
			toks = append(toks, token{kind, s[i:j], line, col})
			col += j - i
			i = j
			continue
		case '0' <= c && c <= '9':
			j := i
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
			toks = append(toks, token{tNumber, s[i:j], line, col})
			col += j - i
			i = j
			continue
		}
		matched := false
		for _, p := range puncts {
			if strings.HasPrefix(s[i:], p) {
				toks = append(toks, token{tPunct, p, line, col})
				i, col, matched = i+len(p), col+len(p), true
				break
			}
		}
		if !matched {
			return nil, fmt.Errorf("%d:%d: character %q, which Moped drops silently", line, col, c)
		}
	}
	return append(toks, token{kind: tEOF, line: line, col: col}), nil
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ---- recogniser ----

type function struct {
	name            string
	params, results int
	locals          map[string]bool
	labels          map[string]token
	gotos           []token
	calls           []call
	at              token
}

type call struct {
	callee        token
	args, targets int
}

type recogniser struct {
	toks    []token
	pos     int
	globals map[string]bool
	funcs   map[string]*function
	order   []*function
	fn      *function // being read
}

func (r *recogniser) peek() token { return r.toks[r.pos] }

func (r *recogniser) next() token {
	t := r.toks[r.pos]
	if t.kind != tEOF {
		r.pos++
	}
	return t
}

func (r *recogniser) is(text string) bool {
	t := r.peek()
	return (t.kind == tKeyword || t.kind == tPunct) && t.text == text
}

func (r *recogniser) errAt(t token, format string, args ...any) error {
	return fmt.Errorf("%d:%d: %s", t.line, t.col, fmt.Sprintf(format, args...))
}

func (r *recogniser) expect(text string) (token, error) {
	t := r.next()
	if (t.kind == tKeyword || t.kind == tPunct) && t.text == text {
		return t, nil
	}
	return t, r.errAt(t, "expected %q, found %s", text, t)
}

// ident reads a name that may be declared: not a keyword, T or F.
func (r *recogniser) ident() (token, error) {
	t := r.next()
	if t.kind != tIdent || t.text == "T" || t.text == "F" {
		return t, r.errAt(t, "expected a name, found %s", t)
	}
	return t, nil
}

func (r *recogniser) program() error {
	for r.is("decl") {
		names, err := r.decl()
		if err != nil {
			return err
		}
		for _, n := range names {
			if r.globals[n.text] {
				return r.errAt(n, "global %s declared twice", n.text)
			}
			r.globals[n.text] = true
		}
	}
	if r.peek().kind == tEOF {
		return r.errAt(r.peek(), "no function")
	}
	for r.peek().kind != tEOF {
		if err := r.function(); err != nil {
			return err
		}
	}
	return nil
}

// decl reads `decl a, b;`: no initial values in Moped.
func (r *recogniser) decl() ([]token, error) {
	r.next()
	names, err := r.idents()
	if err != nil {
		return nil, err
	}
	_, err = r.expect(";")
	return names, err
}

func (r *recogniser) idents() ([]token, error) {
	var out []token
	for {
		t, err := r.ident()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if !r.is(",") {
			return out, nil
		}
		r.next()
	}
}

func (r *recogniser) function() error {
	f := &function{locals: map[string]bool{}, labels: map[string]token{}}
	switch t := r.next(); {
	case t.kind == tKeyword && t.text == "void":
	case t.kind == tKeyword && t.text == "bool":
		f.results = 1
		if r.is("<") {
			r.next()
			n := r.next()
			k, err := strconv.Atoi(n.text)
			if n.kind != tNumber || err != nil || k < 1 {
				return r.errAt(n, "expected a number of results, found %s", n)
			}
			f.results = k
			if _, err := r.expect(">"); err != nil {
				return err
			}
		}
	default:
		return r.errAt(t, "expected void or bool (a function), found %s", t)
	}
	name, err := r.ident()
	if err != nil {
		return err
	}
	if r.funcs[name.text] != nil {
		return r.errAt(name, "function %s declared twice", name.text)
	}
	f.name, f.at = name.text, name
	r.funcs[f.name], r.order, r.fn = f, append(r.order, f), f
	if _, err := r.expect("("); err != nil {
		return err
	}
	if !r.is(")") {
		params, err := r.idents()
		if err != nil {
			return err
		}
		if err := r.locals(params); err != nil {
			return err
		}
		f.params = len(params)
	}
	if _, err := r.expect(")"); err != nil {
		return err
	}
	if _, err := r.expect("begin"); err != nil {
		return err
	}
	for r.is("decl") {
		names, err := r.decl()
		if err != nil {
			return err
		}
		if err := r.locals(names); err != nil {
			return err
		}
	}
	if r.is("enforce") {
		return r.errAt(r.peek(), "enforce: Moped checks it at other points than bmc")
	}
	if err := r.stmts("end"); err != nil {
		return err
	}
	_, err = r.expect("end")
	return err
}

// locals declares names as locals of the function being read.
func (r *recogniser) locals(names []token) error {
	for _, n := range names {
		if err := r.local(n); err != nil {
			return err
		}
	}
	return nil
}

func (r *recogniser) local(t token) error {
	switch {
	case r.globals[t.text]:
		return r.errAt(t, "local %s has the name of a global, which Moped refuses", t.text)
	case r.fn.locals[t.text]:
		return r.errAt(t, "%s declared twice in %s", t.text, r.fn.name)
	}
	r.fn.locals[t.text] = true
	return nil
}

// stmts reads a non-empty statement list up to one of the closing words.
func (r *recogniser) stmts(closers ...string) error {
	for first := true; ; first = false {
		for _, c := range closers {
			if r.is(c) {
				if first {
					return r.errAt(r.peek(), "empty statement list before %q", c)
				}
				return nil
			}
		}
		if err := r.stmt(); err != nil {
			return err
		}
	}
}

func (r *recogniser) stmt() error {
	if t := r.peek(); t.kind == tIdent && r.toks[r.pos+1].text == ":" && r.toks[r.pos+1].kind == tPunct {
		l, err := r.ident()
		if err != nil {
			return err
		}
		if prev, ok := r.fn.labels[l.text]; ok {
			return r.errAt(l, "label %s defined twice in %s (first at %d:%d); Moped merges the two", l.text, r.fn.name, prev.line, prev.col)
		}
		r.fn.labels[l.text] = l
		r.next()
		if t := r.peek(); t.kind == tIdent && r.toks[r.pos+1].text == ":" && r.toks[r.pos+1].kind == tPunct {
			return r.errAt(t, "a second label on one statement")
		}
	}
	t := r.peek()
	if t.kind == tKeyword {
		switch t.text {
		case "skip":
			r.next()
			_, err := r.expect(";")
			return err
		case "goto":
			r.next()
			l, err := r.ident()
			if err != nil {
				return err
			}
			if r.is(",") {
				return r.errAt(r.peek(), "goto with several targets")
			}
			r.fn.gotos = append(r.fn.gotos, l)
			_, err = r.expect(";")
			return err
		case "return":
			r.next()
			if !r.is(";") {
				n, err := r.exprList()
				if err != nil {
					return err
				}
				if n != r.fn.results {
					return r.errAt(t, "return of %d values in %s, which returns %d", n, r.fn.name, r.fn.results)
				}
			}
			_, err := r.expect(";")
			return err
		case "assume":
			r.next()
			return r.condition(";")
		case "if":
			return r.ifStmt()
		case "while":
			r.next()
			if err := r.condition("do"); err != nil {
				return err
			}
			if err := r.stmts("od"); err != nil {
				return err
			}
			_, err := r.expect("od")
			return err
		case "assert":
			return r.errAt(t, "assert: Moped reads it as assume")
		case "constrain", "enforce":
			return r.errAt(t, "%s: Moped keeps no other variable's value", t.text)
		case "print":
			return r.errAt(t, "print: not a statement bmc prints")
		}
		return r.errAt(t, "unexpected %s", t)
	}
	return r.assignOrCall()
}

func (r *recogniser) ifStmt() error {
	for first := true; first || r.is("elsif"); first = false {
		r.next() // if or elsif
		if err := r.condition("then"); err != nil {
			return err
		}
		if err := r.stmts("elsif", "else", "fi"); err != nil {
			return err
		}
	}
	if r.is("else") {
		r.next()
		if err := r.stmts("fi"); err != nil {
			return err
		}
	}
	_, err := r.expect("fi")
	return err
}

// condition reads `(decider) word`: word is then, do or ; (assume).
func (r *recogniser) condition(word string) error {
	if _, err := r.expect("("); err != nil {
		return err
	}
	if err := r.decider(); err != nil {
		return err
	}
	if _, err := r.expect(")"); err != nil {
		return err
	}
	_, err := r.expect(word)
	return err
}

func (r *recogniser) decider() error {
	if r.is("*") || r.is("?") {
		r.next()
		return nil
	}
	return r.expr()
}

// assignOrCall reads `f(args);`, `xs := f(args);` or `xs := es;`.
func (r *recogniser) assignOrCall() error {
	first, err := r.ident()
	if err != nil {
		return err
	}
	if r.is("(") {
		return r.call(first, 0)
	}
	targets := []token{first}
	for r.is(",") {
		r.next()
		t, err := r.ident()
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	seen := map[string]bool{}
	for _, t := range targets {
		if err := r.variable(t); err != nil {
			return err
		}
		if seen[t.text] {
			return r.errAt(t, "%s assigned twice in one step", t.text)
		}
		seen[t.text] = true
	}
	if _, err := r.expect(":="); err != nil {
		return err
	}
	if t := r.peek(); t.kind == tIdent && r.toks[r.pos+1].kind == tPunct && r.toks[r.pos+1].text == "(" {
		r.next()
		return r.call(t, len(targets))
	}
	n, err := r.exprList()
	if err != nil {
		return err
	}
	if n != len(targets) {
		return r.errAt(first, "%d targets and %d values", len(targets), n)
	}
	_, err = r.expect(";")
	return err
}

// call reads the argument list of a call of callee with targets results
// assigned, then the `;`.
func (r *recogniser) call(callee token, targets int) error {
	r.next() // (
	args := 0
	if !r.is(")") {
		n, err := r.exprList()
		if err != nil {
			return err
		}
		args = n
	}
	if _, err := r.expect(")"); err != nil {
		return err
	}
	r.fn.calls = append(r.fn.calls, call{callee: callee, args: args, targets: targets})
	_, err := r.expect(";")
	return err
}

// variable checks that t names a declared variable.
func (r *recogniser) variable(t token) error {
	if !r.fn.locals[t.text] && !r.globals[t.text] {
		return r.errAt(t, "%s is not declared (Moped would declare it silently)", t.text)
	}
	return nil
}

// exprList reads list elements: expressions or schoose[e, e].
func (r *recogniser) exprList() (int, error) {
	for n := 1; ; n++ {
		if r.is("schoose") {
			r.next()
			if _, err := r.expect("["); err != nil {
				return 0, err
			}
			if err := r.expr(); err != nil {
				return 0, err
			}
			if _, err := r.expect(","); err != nil {
				return 0, err
			}
			if err := r.expr(); err != nil {
				return 0, err
			}
			if _, err := r.expect("]"); err != nil {
				return 0, err
			}
		} else if err := r.expr(); err != nil {
			return 0, err
		}
		if !r.is(",") {
			return n, nil
		}
		r.next()
	}
}

// binaryLevels are Moped's binary operators, loosest first.
var binaryLevels = [][]string{{"=>"}, {"|", "||"}, {"^"}, {"&", "&&"}, {"=", "!="}}

func (r *recogniser) expr() error { return r.binary(0) }

func (r *recogniser) binary(level int) error {
	if level == len(binaryLevels) {
		return r.unary()
	}
	for {
		if err := r.binary(level + 1); err != nil {
			return err
		}
		found := false
		for _, op := range binaryLevels[level] {
			found = found || r.is(op)
		}
		if !found {
			return nil
		}
		r.next()
	}
}

func (r *recogniser) unary() error {
	if r.is("!") || r.is("~") {
		r.next()
		if r.is("!") || r.is("~") {
			return r.errAt(r.peek(), "! before !: Moped's ! applies to a primary")
		}
	}
	return r.primary()
}

func (r *recogniser) primary() error {
	t := r.next()
	switch {
	case t.kind == tPunct && t.text == "(":
		if err := r.expr(); err != nil {
			return err
		}
		_, err := r.expect(")")
		return err
	case t.kind == tIdent && (t.text == "T" || t.text == "F"):
		return nil
	case t.kind == tNumber && (t.text == "0" || t.text == "1"):
		return nil
	case t.kind == tIdent:
		return r.variable(t)
	case t.kind == tPunct && (t.text == "*" || t.text == "?"):
		return r.errAt(t, "* inside an expression: Moped takes it as a whole decider only")
	case t.kind == tPunct && t.text == "'":
		return r.errAt(t, "'x: bmc prints no primed variable for Moped")
	case t.kind == tKeyword && t.text == "schoose":
		return r.errAt(t, "schoose inside an expression: Moped takes it as a whole list element only")
	}
	return r.errAt(t, "expected an expression, found %s", t)
}

// resolve checks what needs every function: gotos, calls, main and the
// target label.
func (r *recogniser) resolve(label string) error {
	if r.funcs["main"] == nil {
		return fmt.Errorf("no function main, where Moped starts")
	}
	var with []*function
	for _, f := range r.order {
		if _, ok := f.labels[label]; ok {
			with = append(with, f)
		}
		for _, g := range f.gotos {
			if _, ok := f.labels[g.text]; !ok {
				return r.errAt(g, "goto %s: no such label in %s (Moped would make a dead end of it)", g.text, f.name)
			}
		}
		for _, c := range f.calls {
			callee := r.funcs[c.callee.text]
			switch {
			case callee == nil:
				return r.errAt(c.callee, "call of %s, which is not a function", c.callee.text)
			case c.args != callee.params:
				return r.errAt(c.callee, "call of %s with %d arguments; it takes %d", callee.name, c.args, callee.params)
			case c.targets > 0 && c.targets != callee.results:
				return r.errAt(c.callee, "call of %s assigns %d results; it returns %d", callee.name, c.targets, callee.results)
			}
		}
	}
	if len(with) != 1 {
		return fmt.Errorf("label %s is defined in %d functions; Moped needs it in exactly one", label, len(with))
	}
	// Moped refuses a target in a function that main never calls.
	reached := map[*function]bool{r.funcs["main"]: true}
	work := []*function{r.funcs["main"]}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range f.calls {
			if g := r.funcs[c.callee.text]; !reached[g] {
				reached[g] = true
				work = append(work, g)
			}
		}
	}
	if !reached[with[0]] {
		return fmt.Errorf("label %s is in %s, which main never calls", label, with[0].name)
	}
	return nil
}
