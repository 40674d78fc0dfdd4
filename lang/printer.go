package lang

import (
	"bytes"
	"strconv"
	"strings"
)

// Format prints f in the normalized syntax. The output parses back to a
// program equal to f (positions and comments aside).
func Format(f *File) []byte {
	pr := &printer{}
	for i, d := range f.Decls {
		if i > 0 {
			if _, isFunc := d.(*FuncDecl); isFunc {
				pr.buf.WriteByte('\n')
			} else if _, prevFunc := f.Decls[i-1].(*FuncDecl); prevFunc {
				pr.buf.WriteByte('\n')
			}
		}
		pr.decl(d)
	}
	return pr.buf.Bytes()
}

// ExprString prints one expression.
func ExprString(e Expr) string {
	pr := &printer{}
	pr.expr(e, precLowest)
	return pr.buf.String()
}

// StmtString prints the head of a statement on one line, for traces: the
// whole statement for simple ones, `if (e) then` for an if, and so on.
func StmtString(s Stmt) string {
	pr := &printer{}
	switch s := s.(type) {
	case *IfStmt:
		pr.buf.WriteString("if ")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteString(" then")
	case *WhileStmt:
		pr.buf.WriteString("while ")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteString(" do")
	default:
		pr.simpleStmt(s)
	}
	return pr.buf.String()
}

type printer struct {
	buf    bytes.Buffer
	indent int
}

func (pr *printer) line() {
	pr.buf.WriteByte('\n')
	pr.buf.WriteString(strings.Repeat("  ", pr.indent))
}

func (pr *printer) decl(d Decl) {
	switch d := d.(type) {
	case *VarDecl:
		pr.varDecl(d)
		pr.buf.WriteByte('\n')
	case *LockDecl:
		pr.buf.WriteString("lock ")
		pr.identList(d.Names)
		pr.buf.WriteString(";\n")
	case *FuncDecl:
		pr.funcDecl(d)
	}
}

func (pr *printer) varDecl(d *VarDecl) {
	pr.buf.WriteString("decl ")
	for i, v := range d.Vars {
		if i > 0 {
			pr.buf.WriteString(", ")
		}
		pr.name(v.Name)
		if v.Init != nil {
			pr.buf.WriteString(" := ")
			pr.expr(v.Init, precLowest)
		}
	}
	pr.buf.WriteByte(';')
}

func (pr *printer) funcDecl(f *FuncDecl) {
	if f.Thread {
		pr.buf.WriteString("thread ")
	}
	switch f.Returns {
	case 0:
		pr.buf.WriteString("void ")
	case 1:
		pr.buf.WriteString("bool ")
	default:
		pr.buf.WriteString("bool<" + strconv.Itoa(f.Returns) + "> ")
	}
	pr.name(f.Name.Name)
	pr.buf.WriteByte('(')
	pr.identList(f.Params)
	pr.buf.WriteString(")\nbegin")
	pr.indent++
	for _, d := range f.Locals {
		pr.line()
		pr.varDecl(d)
	}
	if f.Enforce != nil {
		pr.line()
		pr.buf.WriteString("enforce ")
		pr.expr(f.Enforce, precLowest)
		pr.buf.WriteByte(';')
	}
	pr.stmts(f.Body)
	pr.indent--
	pr.buf.WriteString("\nend\n")
}

func (pr *printer) identList(list []*Ident) {
	for i, id := range list {
		if i > 0 {
			pr.buf.WriteString(", ")
		}
		pr.name(id.Name)
	}
}

// name prints an identifier, braced when it is not a plain identifier.
func (pr *printer) name(n string) {
	if isPlainIdent(n) {
		pr.buf.WriteString(n)
		return
	}
	pr.buf.WriteString("{" + n + "}")
}

func isPlainIdent(n string) bool {
	if n == "" || !isLetter(n[0]) || Lookup(n) != IDENT {
		return false
	}
	for i := 1; i < len(n); i++ {
		if !isIdentPart(n[i]) {
			return false
		}
	}
	return true
}

// label prints a label name; numeric labels stay numbers.
func (pr *printer) label(n string) {
	if n != "" && strings.Trim(n, "0123456789") == "" {
		pr.buf.WriteString(n)
		return
	}
	pr.name(n)
}

func (pr *printer) stmts(list []Stmt) {
	for _, s := range list {
		pr.line()
		pr.stmt(s)
	}
}

func (pr *printer) stmt(s Stmt) {
	for _, l := range s.Labels() {
		pr.label(l.Name)
		pr.buf.WriteString(": ")
	}
	switch s := s.(type) {
	case *IfStmt:
		pr.buf.WriteString("if ")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteString(" then")
		pr.block(s.Then)
		for _, ei := range s.Elifs {
			pr.line()
			pr.buf.WriteString("elsif ")
			pr.expr(ei.Cond, precLowest)
			pr.buf.WriteString(" then")
			pr.block(ei.Body)
		}
		if s.Else != nil {
			pr.line()
			pr.buf.WriteString("else")
			pr.block(s.Else)
		}
		pr.line()
		pr.buf.WriteString("fi")
	case *WhileStmt:
		pr.buf.WriteString("while ")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteString(" do")
		pr.block(s.Body)
		pr.line()
		pr.buf.WriteString("od")
	default:
		pr.simpleStmt(s)
	}
}

func (pr *printer) block(list []Stmt) {
	pr.indent++
	pr.stmts(list)
	pr.indent--
}

func (pr *printer) simpleStmt(s Stmt) {
	switch s := s.(type) {
	case *AssignStmt:
		pr.identList(s.Targets)
		pr.buf.WriteString(" := ")
		pr.exprList(s.Values)
		if s.Constrain != nil {
			pr.buf.WriteString(" constrain ")
			pr.expr(s.Constrain, precLowest)
		}
	case *CallStmt:
		if s.Spawn {
			pr.buf.WriteString("start_thread ")
		}
		if len(s.Targets) > 0 {
			pr.identList(s.Targets)
			pr.buf.WriteString(" := ")
		}
		pr.name(s.Callee.Name)
		pr.buf.WriteByte('(')
		pr.exprList(s.Args)
		pr.buf.WriteByte(')')
	case *ConstrainStmt:
		pr.buf.WriteString("constrain ")
		pr.expr(s.Cond, precLowest)
	case *GotoStmt:
		pr.buf.WriteString("goto ")
		for i, t := range s.Targets {
			if i > 0 {
				pr.buf.WriteString(", ")
			}
			pr.label(t.Name)
		}
	case *AssumeStmt:
		pr.buf.WriteString("assume(")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteByte(')')
	case *AssertStmt:
		pr.buf.WriteString("assert(")
		pr.expr(s.Cond, precLowest)
		pr.buf.WriteByte(')')
	case *SkipStmt:
		pr.buf.WriteString("skip")
	case *ReturnStmt:
		pr.buf.WriteString("return")
		if len(s.Values) > 0 {
			pr.buf.WriteByte(' ')
			pr.exprList(s.Values)
		}
	case *AtomicStmt:
		if s.Begin {
			pr.buf.WriteString("atomic_begin")
		} else {
			pr.buf.WriteString("atomic_end")
		}
	case *DeadStmt:
		pr.buf.WriteString("dead ")
		pr.identList(s.Vars)
	case *ForkStmt:
		pr.buf.WriteString("start_thread goto ")
		if s.Target != nil {
			pr.label(s.Target.Name)
		}
	case *EndThreadStmt:
		pr.buf.WriteString("end_thread")
	}
	pr.buf.WriteByte(';')
}

func (pr *printer) exprList(list []Expr) {
	for i, e := range list {
		if i > 0 {
			pr.buf.WriteString(", ")
		}
		pr.expr(e, precLowest)
	}
}

// Binding strength of operators; higher binds tighter.
const (
	precLowest = iota
	precImplies
	precOr
	precXor
	precAnd
	precEq
	precUnary
)

func binaryPrec(op Token) int {
	switch op {
	case IMPLIES:
		return precImplies
	case OR:
		return precOr
	case XOR:
		return precXor
	case AND:
		return precAnd
	}
	return precEq
}

var opText = map[Token]string{IMPLIES: "=>", OR: "|", XOR: "^", AND: "&", EQ: "=", NEQ: "!="}

// expr prints e, parenthesized when its binding is weaker than min.
func (pr *printer) expr(e Expr, min int) {
	switch e := e.(type) {
	case *Ident:
		pr.name(e.Name)
	case *Primed:
		pr.buf.WriteByte('\'')
		pr.name(e.X.Name)
	case *Const:
		if e.Value {
			pr.buf.WriteByte('T')
		} else {
			pr.buf.WriteByte('F')
		}
	case *Nondet:
		pr.buf.WriteByte('*')
	case *Unary:
		pr.buf.WriteByte('!')
		pr.expr(e.X, precUnary)
	case *Choose:
		pr.buf.WriteString("schoose[")
		pr.expr(e.True, precLowest)
		pr.buf.WriteString(", ")
		pr.expr(e.False, precLowest)
		pr.buf.WriteByte(']')
	case *Binary:
		prec := binaryPrec(e.Op)
		paren := prec < min
		if paren {
			pr.buf.WriteByte('(')
		}
		left, right := prec, prec+1 // left associative
		if e.Op == IMPLIES {
			left, right = prec+1, prec // right associative
		}
		pr.expr(e.X, left)
		pr.buf.WriteString(" " + opText[e.Op] + " ")
		pr.expr(e.Y, right)
		if paren {
			pr.buf.WriteByte(')')
		}
	}
}
