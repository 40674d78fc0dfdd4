package lang

import (
	"context"
	"strconv"

	"bmc/internal/halt"
)

// maxNesting bounds expression and statement nesting so that hostile input
// is reported instead of exhausting the stack.
const maxNesting = 400

type token struct {
	tok Token
	pos Pos
	lit string
}

type parser struct {
	file    string
	sc      Scanner
	errs    ErrorList
	cur     token
	ahead   []token // tokens already scanned past cur
	nesting int
	inBody  bool // parsing a function body, whose end may be missing
	ctx     context.Context
}

// ParseFile parses src. It returns a File (possibly partial) and, when
// non-nil, an ErrorList with every diagnostic found; when ctx ends first
// (a large file takes seconds), no File and ctx's cause.
func ParseFile(ctx context.Context, filename string, src []byte) (f *File, err error) {
	p := &parser{file: filename, ctx: ctx}
	p.sc.Init(filename, src, &p.errs)
	defer halt.Recover(&err)
	p.next()
	f = p.parseFile()
	p.errs.Sort()
	return f, p.errs.Err()
}

// ParseExpr parses a single expression (used by tests and tools).
func ParseExpr(src string) (Expr, error) {
	p := &parser{file: "", ctx: context.Background()}
	p.sc.Init("", []byte(src), &p.errs)
	p.next()
	e := p.parseExpr()
	if p.cur.tok != EOF {
		p.errorExpected("end of expression")
	}
	p.errs.Sort()
	return e, p.errs.Err()
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.cur = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	tok, pos, lit := p.sc.Scan()
	p.cur = token{tok, pos, lit}
}

// peek returns the k-th token after the current one (k >= 1).
func (p *parser) peek(k int) token {
	for len(p.ahead) < k {
		tok, pos, lit := p.sc.Scan()
		p.ahead = append(p.ahead, token{tok, pos, lit})
	}
	return p.ahead[k-1]
}

func (p *parser) error(pos Pos, format string, args ...any) {
	if len(p.errs) < maxErrors {
		p.errs.Add(p.file, pos, format, args...)
	}
}

func (p *parser) describe(t token) string {
	switch t.tok {
	case IDENT:
		return "identifier " + t.lit
	case NUMBER:
		return "number " + t.lit
	case ILLEGAL:
		return "illegal character"
	}
	if t.tok.IsKeyword() {
		return "keyword " + t.tok.String()
	}
	return t.tok.String()
}

func (p *parser) errorExpected(what string) {
	found := p.describe(p.cur)
	if p.cur.tok == IDENT && p.atTopLevel() {
		// thread or lock: keywords at the start of a top-level declaration.
		found = "keyword " + p.cur.lit
	}
	p.error(p.cur.pos, "expected %s, found %s", what, found)
}

// expect consumes a token of kind tok or reports an error.
func (p *parser) expect(tok Token) Pos {
	pos := p.cur.pos
	if p.cur.tok != tok {
		p.errorExpected(tok.String())
		return pos
	}
	p.next()
	return pos
}

func (p *parser) got(tok Token) bool {
	if p.cur.tok == tok {
		p.next()
		return true
	}
	return false
}

func (p *parser) tooMany() bool { return len(p.errs) >= maxErrors }

// ---- declarations ----

func (p *parser) parseFile() *File {
	f := &File{Name: p.file}
	for p.cur.tok != EOF && !p.tooMany() {
		halt.Point(p.ctx)
		switch {
		case p.cur.tok == DECL:
			f.Decls = append(f.Decls, p.parseVarDecl())
		case p.cur.tok == VOID || p.cur.tok == BOOL:
			if fn := p.parseFunc(false); fn != nil {
				f.Decls = append(f.Decls, fn)
			}
		case p.isContextual("thread") && (p.peek(1).tok == VOID || p.peek(1).tok == BOOL):
			p.next()
			if fn := p.parseFunc(true); fn != nil {
				f.Decls = append(f.Decls, fn)
			}
		case p.isContextual("lock") && p.peek(1).tok == IDENT:
			f.Decls = append(f.Decls, p.parseLockDecl())
		case p.cur.tok == SEMI:
			p.next()
		default:
			p.error(p.cur.pos, "expected declaration (decl, lock, void, bool or thread), found %s", p.describe(p.cur))
			p.syncTop()
		}
	}
	return f
}

// isContextual reports whether the current token is the identifier word,
// used for words that are keywords only in one place (thread, lock).
func (p *parser) isContextual(word string) bool {
	return p.cur.tok == IDENT && p.cur.lit == word
}

// maxDeclLookahead bounds the tokens atTopLevel reads past a run of
// declarations, so that a long run costs linear time, not quadratic.
const maxDeclLookahead = 1000

// atTopLevel reports whether the current token can only start a top-level
// declaration: void or bool, which no statement contains; thread before
// void or bool; or a run of decl and lock declarations followed by one of
// these (a local decl is never followed by a function). Inside a function
// body it means that the body's end is missing.
func (p *parser) atTopLevel() bool {
	k := 0
	at := func(i int) token {
		if i == 0 {
			return p.cur
		}
		return p.peek(i)
	}
	for k < maxDeclLookahead {
		t := at(k)
		switch {
		case t.tok == VOID || t.tok == BOOL:
			return true
		case t.tok == IDENT && t.lit == "thread":
			next := at(k + 1).tok
			return next == VOID || next == BOOL
		case t.tok == DECL || t.tok == IDENT && t.lit == "lock" && at(k+1).tok == IDENT:
			// Skip the declaration: names, initial values, commas, ';'.
			k++
			for k < maxDeclLookahead && declToken(at(k).tok) {
				k++
			}
			if at(k).tok == SEMI {
				k++
			}
		default:
			return false
		}
	}
	return false
}

// declToken reports whether t can occur between decl or lock and the ';'
// that ends the declaration.
func declToken(t Token) bool {
	switch t {
	case IDENT, COMMA, ASSIGN, TRUE, FALSE, NUMBER, STAR:
		return true
	}
	return false
}

// syncTop skips to the next token that can start a declaration.
func (p *parser) syncTop() {
	p.next()
	for p.cur.tok != EOF && p.cur.tok != DECL && p.cur.tok != VOID && p.cur.tok != BOOL &&
		!p.isContextual("thread") && !p.isContextual("lock") {
		p.next()
	}
}

func (p *parser) parseVarDecl() *VarDecl {
	d := &VarDecl{Pos: p.expect(DECL)}
	for {
		if p.cur.tok != IDENT {
			p.errorExpected("variable name")
			p.syncStmt()
			return d
		}
		v := &VarSpec{Pos: p.cur.pos, Name: p.cur.lit}
		p.next()
		if p.got(ASSIGN) {
			v.Init = p.parseExpr()
		}
		d.Vars = append(d.Vars, v)
		if !p.got(COMMA) {
			break
		}
	}
	p.expectSemi()
	return d
}

func (p *parser) parseLockDecl() *LockDecl {
	d := &LockDecl{Pos: p.cur.pos}
	p.next()
	d.Names = p.parseIdentList("lock name")
	p.expectSemi()
	return d
}

func (p *parser) parseIdentList(what string) []*Ident {
	var list []*Ident
	for {
		if p.cur.tok != IDENT {
			p.errorExpected(what)
			return list
		}
		list = append(list, &Ident{Pos: p.cur.pos, Name: p.cur.lit})
		p.next()
		if !p.got(COMMA) {
			return list
		}
	}
}

func (p *parser) parseFunc(thread bool) *FuncDecl {
	fn := &FuncDecl{Pos: p.cur.pos, Thread: thread}
	if p.got(VOID) {
		fn.Returns = 0
	} else {
		p.expect(BOOL)
		fn.Returns = 1
		if p.got(LT) {
			if p.cur.tok != NUMBER {
				p.errorExpected("number of return values")
			} else {
				n, err := strconv.Atoi(p.cur.lit)
				if err != nil || n < 1 || n > 1024 {
					p.error(p.cur.pos, "bool<%s>: the number of return values must be between 1 and 1024", p.cur.lit)
				} else {
					fn.Returns = n
				}
				p.next()
			}
			p.expect(GT)
		}
	}
	if p.cur.tok != IDENT {
		p.errorExpected("function name")
		p.syncTop()
		return nil
	}
	fn.Name = &Ident{Pos: p.cur.pos, Name: p.cur.lit}
	p.next()
	p.expect(LPAREN)
	if p.cur.tok != RPAREN {
		fn.Params = p.parseIdentList("parameter name")
	}
	p.expect(RPAREN)
	if p.cur.tok != BEGIN {
		p.errorExpected("begin")
		p.syncTop()
		return nil
	}
	p.next()
	p.inBody = true
	fn.Body = p.parseBody(fn)
	p.inBody = false
	fn.End = p.cur.pos
	if p.cur.tok != END {
		p.errorExpected("end")
		if !p.atTopLevel() {
			p.syncTop()
		}
		return fn
	}
	p.next()
	return fn
}

// parseBody parses local declarations, the optional enforce clause and the
// statements of a function. Declarations after statements are accepted
// (they are function-scoped anyway) and kept with the other locals.
func (p *parser) parseBody(fn *FuncDecl) []Stmt {
	var body []Stmt
	for !p.tooMany() && !p.atTopLevel() {
		switch p.cur.tok {
		case DECL:
			fn.Locals = append(fn.Locals, p.parseVarDecl())
			continue
		case ENFORCE:
			pos := p.cur.pos
			p.next()
			e := p.parseExpr()
			if fn.Enforce != nil {
				p.error(pos, "duplicate enforce clause in function %s", fn.Name.Name)
			} else {
				fn.Enforce = e
			}
			p.expectSemi()
			continue
		}
		if isBlockEnd(p.cur.tok) {
			if p.cur.tok != END && p.cur.tok != EOF {
				p.error(p.cur.pos, "unexpected %s in function body", p.describe(p.cur))
				p.next()
				continue
			}
			return body
		}
		if s := p.parseStmt(); s != nil {
			body = append(body, s)
		}
	}
	return body
}

// ---- statements ----

func isBlockEnd(t Token) bool {
	switch t {
	case END, FI, ELSE, ELSIF, OD, EOF:
		return true
	}
	return false
}

// parseStmtList parses statements up to a block-ending keyword.
func (p *parser) parseStmtList() []Stmt {
	var list []Stmt
	for !isBlockEnd(p.cur.tok) && !p.atTopLevel() && !p.tooMany() {
		if p.cur.tok == DECL {
			p.error(p.cur.pos, "local declarations must be at the top level of the function body")
			p.parseVarDecl()
			continue
		}
		if s := p.parseStmt(); s != nil {
			list = append(list, s)
		}
	}
	return list
}

// expectSemi consumes ';', which may be left out before a block end. In
// a function body, a declaration that can only be top-level ends the body
// (its end is missing, which the body reports), so ';' may be left out
// there too.
func (p *parser) expectSemi() {
	if p.got(SEMI) {
		return
	}
	if isBlockEnd(p.cur.tok) || p.inBody && p.atTopLevel() {
		return
	}
	p.error(p.cur.pos, "expected ';', found %s", p.describe(p.cur))
	p.syncStmt()
}

// syncStmt skips to just after the next ';' or to a token that starts or
// ends a block or starts a top-level declaration, so that parsing resumes
// at a statement boundary.
func (p *parser) syncStmt() {
	for !p.atTopLevel() {
		switch p.cur.tok {
		case EOF, END, FI, ELSE, ELSIF, OD, IF, WHILE, DECL:
			return
		case SEMI:
			p.next()
			return
		}
		p.next()
	}
}

func (p *parser) isLabelStart() bool {
	return (p.cur.tok == IDENT || p.cur.tok == NUMBER) && p.peek(1).tok == COLON
}

func (p *parser) parseStmt() Stmt {
	var labels []*Label
	for p.isLabelStart() {
		labels = append(labels, &Label{Pos: p.cur.pos, Name: p.cur.lit})
		p.next()
		p.next()
	}
	if len(labels) > 0 && (isBlockEnd(p.cur.tok) || p.cur.tok == DECL || p.cur.tok == SEMI || p.atTopLevel()) {
		// A label on an empty statement (`L: ;`, or right before
		// `end`/`fi`/`od` or a missing end) labels a skip.
		p.got(SEMI)
		s := &SkipStmt{StmtBase{Pos: labels[0].Pos}}
		s.setLabels(labels)
		return s
	}
	if p.nesting >= maxNesting {
		p.error(p.cur.pos, "statements nested too deeply")
		p.syncStmt()
		if p.cur.tok != EOF {
			p.next()
		}
		return nil
	}
	p.nesting++
	defer func() { p.nesting-- }()

	s := p.parseUnlabeled()
	if s == nil {
		return nil
	}
	s.setLabels(labels)
	return s
}

func (p *parser) parseUnlabeled() Stmt {
	pos := p.cur.pos
	base := StmtBase{Pos: pos}
	switch p.cur.tok {
	case SEMI:
		p.next() // empty statement
		return nil
	case IDENT:
		return p.parseSimple(base)
	case SKIP:
		p.next()
		p.expectSemi()
		return &SkipStmt{base}
	case GOTO:
		p.next()
		s := &GotoStmt{StmtBase: base, Targets: p.parseLabelList()}
		p.expectSemi()
		return s
	case ASSUME:
		p.next()
		s := &AssumeStmt{StmtBase: base, Cond: p.parseExpr()}
		p.expectSemi()
		return s
	case ASSERT:
		p.next()
		s := &AssertStmt{StmtBase: base, Cond: p.parseExpr()}
		p.expectSemi()
		return s
	case CONSTRAIN:
		p.next()
		s := &ConstrainStmt{StmtBase: base, Cond: p.parseExpr()}
		p.expectSemi()
		return s
	case RETURN:
		p.next()
		s := &ReturnStmt{StmtBase: base}
		if p.cur.tok != SEMI && !isBlockEnd(p.cur.tok) {
			s.Values = p.parseExprList()
		}
		p.expectSemi()
		return s
	case ATOMIC_BEGIN, ATOMIC_END:
		s := &AtomicStmt{StmtBase: base, Begin: p.cur.tok == ATOMIC_BEGIN}
		p.next()
		p.expectSemi()
		return s
	case DEAD:
		p.next()
		s := &DeadStmt{StmtBase: base, Vars: p.parseIdentList("variable name")}
		p.expectSemi()
		return s
	case END_THREAD:
		p.next()
		p.expectSemi()
		return &EndThreadStmt{base}
	case START_THREAD:
		p.next()
		if p.got(GOTO) {
			labels := p.parseLabelList()
			s := &ForkStmt{StmtBase: base}
			if len(labels) > 0 {
				s.Target = labels[0]
			}
			if len(labels) > 1 {
				p.error(labels[1].Pos, "start_thread goto takes one label")
			}
			p.expectSemi()
			return s
		}
		if p.cur.tok != IDENT || p.peek(1).tok != LPAREN {
			p.errorExpected("function call or goto after start_thread")
			p.syncStmt()
			return nil
		}
		s := p.parseCall(base, nil)
		s.Spawn = true
		p.expectSemi()
		return s
	case IF:
		return p.parseIf(base)
	case WHILE:
		p.next()
		s := &WhileStmt{StmtBase: base, Cond: p.parseExpr()}
		p.expect(DO)
		s.Body = p.parseStmtList()
		p.expect(OD)
		p.got(SEMI)
		return s
	}
	p.error(pos, "expected statement, found %s", p.describe(p.cur))
	p.syncStmt()
	if p.cur.pos == pos && p.cur.tok != EOF && !isBlockEnd(p.cur.tok) {
		p.next() // guarantee progress
	}
	return nil
}

func (p *parser) parseLabelList() []*Ident {
	var list []*Ident
	for {
		if p.cur.tok != IDENT && p.cur.tok != NUMBER {
			p.errorExpected("label")
			return list
		}
		list = append(list, &Ident{Pos: p.cur.pos, Name: p.cur.lit})
		p.next()
		if !p.got(COMMA) {
			return list
		}
	}
}

// parseSimple parses statements that start with an identifier: calls and
// assignments (including calls with result targets).
func (p *parser) parseSimple(base StmtBase) Stmt {
	if p.cur.lit == "lock" && p.peek(1).tok == IDENT {
		p.error(p.cur.pos, "locks must be declared at top level, outside functions")
		p.syncStmt()
		return nil
	}
	if p.peek(1).tok == LPAREN {
		s := p.parseCall(base, nil)
		p.expectSemi()
		return s
	}
	targets := p.parseIdentList("assignment target")
	if p.cur.tok != ASSIGN {
		p.errorExpected("':='")
		p.syncStmt()
		return nil
	}
	p.next()
	if p.cur.tok == IDENT && p.peek(1).tok == LPAREN {
		s := p.parseCall(base, targets)
		p.expectSemi()
		return s
	}
	s := &AssignStmt{StmtBase: base, Targets: targets, Values: p.parseExprList()}
	if p.got(CONSTRAIN) {
		s.Constrain = p.parseExpr()
	}
	p.expectSemi()
	return s
}

func (p *parser) parseCall(base StmtBase, targets []*Ident) *CallStmt {
	s := &CallStmt{StmtBase: base, Targets: targets, Callee: &Ident{Pos: p.cur.pos, Name: p.cur.lit}}
	p.next()
	p.expect(LPAREN)
	if p.cur.tok != RPAREN {
		s.Args = p.parseExprList()
	}
	p.expect(RPAREN)
	return s
}

func (p *parser) parseIf(base StmtBase) Stmt {
	p.next()
	s := &IfStmt{StmtBase: base, Cond: p.parseExpr()}
	p.expect(THEN)
	s.Then = p.parseStmtList()
	for p.cur.tok == ELSIF {
		ei := &ElseIf{Pos: p.cur.pos}
		p.next()
		ei.Cond = p.parseExpr()
		p.expect(THEN)
		ei.Body = p.parseStmtList()
		s.Elifs = append(s.Elifs, ei)
	}
	if p.got(ELSE) {
		s.Else = p.parseStmtList()
		if s.Else == nil {
			s.Else = []Stmt{}
		}
	}
	p.expect(FI)
	p.got(SEMI)
	return s
}

// ---- expressions ----

func (p *parser) parseExprList() []Expr {
	list := []Expr{p.parseExpr()}
	for p.got(COMMA) {
		list = append(list, p.parseExpr())
	}
	return list
}

// parseExpr parses with precedence, loosest first: =>, |, ^, &, = !=, unary.
func (p *parser) parseExpr() Expr {
	if p.nesting >= maxNesting {
		p.error(p.cur.pos, "expression nested too deeply")
		pos := p.cur.pos
		for p.cur.tok != EOF && p.cur.tok != SEMI && !isBlockEnd(p.cur.tok) {
			p.next()
		}
		return &Const{Pos: pos}
	}
	p.nesting++
	defer func() { p.nesting-- }()
	x := p.parseBinary(OR)
	if p.cur.tok == IMPLIES {
		pos := p.cur.pos
		p.next()
		y := p.parseExpr() // right associative
		return &Binary{Pos: pos, Op: IMPLIES, X: x, Y: y}
	}
	return x
}

// tighter returns the binary operator level just above op (ILLEGAL: unary).
func tighter(op Token) Token {
	switch op {
	case OR:
		return XOR
	case XOR:
		return AND
	case AND:
		return EQ
	}
	return ILLEGAL
}

func (p *parser) parseBinary(level Token) Expr {
	if level == ILLEGAL {
		return p.parseUnary()
	}
	x := p.parseBinary(tighter(level))
	for p.cur.tok == level || level == EQ && p.cur.tok == NEQ {
		op, pos := p.cur.tok, p.cur.pos
		p.next()
		y := p.parseBinary(tighter(level))
		x = &Binary{Pos: pos, Op: op, X: x, Y: y}
	}
	return x
}

func (p *parser) parseUnary() Expr {
	if p.cur.tok == NOT {
		pos := p.cur.pos
		p.next()
		if p.nesting >= maxNesting {
			p.error(pos, "expression nested too deeply")
			return &Const{Pos: pos}
		}
		p.nesting++
		defer func() { p.nesting-- }()
		return &Unary{Pos: pos, Op: NOT, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() Expr {
	pos := p.cur.pos
	switch p.cur.tok {
	case TRUE:
		p.next()
		return &Const{Pos: pos, Value: true}
	case FALSE:
		p.next()
		return &Const{Pos: pos, Value: false}
	case NUMBER:
		lit := p.cur.lit
		p.next()
		switch lit {
		case "0":
			return &Const{Pos: pos, Value: false}
		case "1":
			return &Const{Pos: pos, Value: true}
		}
		p.error(pos, "only 0 and 1 are Boolean constants, found %s", lit)
		return &Const{Pos: pos}
	case STAR:
		p.next()
		return &Nondet{Pos: pos}
	case IDENT:
		id := &Ident{Pos: pos, Name: p.cur.lit}
		p.next()
		return id
	case PRIME:
		p.next()
		if p.cur.tok != IDENT {
			p.errorExpected("variable name after '")
			return &Const{Pos: pos}
		}
		id := &Ident{Pos: p.cur.pos, Name: p.cur.lit}
		p.next()
		return &Primed{Pos: pos, X: id}
	case LPAREN:
		p.next()
		x := p.parseExpr()
		p.expect(RPAREN)
		return x
	case SCHOOSE:
		p.next()
		p.expect(LBRACK)
		c := &Choose{Pos: pos, True: p.parseExpr()}
		p.expect(COMMA)
		c.False = p.parseExpr()
		p.expect(RBRACK)
		return c
	}
	p.errorExpected("expression")
	if p.cur.tok != EOF && p.cur.tok != SEMI && !isBlockEnd(p.cur.tok) && !p.atTopLevel() {
		p.next()
	}
	return &Const{Pos: pos}
}
