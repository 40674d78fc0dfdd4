package lang

// File is one parsed program. Decls keeps the source order of global
// variable, lock and function declarations, which decides thread order.
type File struct {
	Name  string
	Decls []Decl
}

// Decl is a top-level declaration: *VarDecl, *LockDecl or *FuncDecl.
type Decl interface {
	Position() Pos
	declNode()
}

// VarDecl is `decl a, b := e;` at top level or inside a function.
type VarDecl struct {
	Pos  Pos
	Vars []*VarSpec
}

// VarSpec is one declared variable with its optional initialiser.
type VarSpec struct {
	Pos  Pos
	Name string
	Init Expr // nil: arbitrary initial value
}

// LockDecl is `lock m, n;`.
type LockDecl struct {
	Pos   Pos
	Names []*Ident
}

// FuncDecl is a function; Returns is the number of Boolean results
// (void = 0, bool = 1, bool<n> = n).
type FuncDecl struct {
	Pos     Pos
	Thread  bool
	Returns int
	Name    *Ident
	Params  []*Ident
	Locals  []*VarDecl
	Enforce Expr // nil when absent
	Body    []Stmt
	End     Pos // position of the closing `end`
}

func (d *VarDecl) Position() Pos  { return d.Pos }
func (d *LockDecl) Position() Pos { return d.Pos }
func (d *FuncDecl) Position() Pos { return d.Pos }
func (*VarDecl) declNode()        {}
func (*LockDecl) declNode()       {}
func (*FuncDecl) declNode()       {}

// Label names a statement; Boolean programs allow several per statement.
type Label struct {
	Pos  Pos
	Name string
}

// Stmt is a statement; every statement may carry labels.
type Stmt interface {
	Position() Pos
	Labels() []*Label
	setLabels([]*Label)
	stmtNode()
}

// StmtBase holds what all statements share.
type StmtBase struct {
	Pos       Pos
	LabelList []*Label
}

func (s *StmtBase) Position() Pos        { return s.Pos }
func (s *StmtBase) Labels() []*Label     { return s.LabelList }
func (s *StmtBase) setLabels(l []*Label) { s.LabelList = l }
func (*StmtBase) stmtNode()              {}

// AssignStmt is `x, y := e1, e2 constrain c;`. A target named "_" is
// discarded; a target ending in '$' is the copy of a local in every other
// thread (SatAbs/Boom broadcast).
type AssignStmt struct {
	StmtBase
	Targets   []*Ident
	Values    []Expr
	Constrain Expr // nil when absent
}

// CallStmt is `f(a);`, `x, y := f(a);`, `start_thread f(a);`, or a
// built-in written as a call: acquire, release, tryacquire, print.
type CallStmt struct {
	StmtBase
	Targets []*Ident
	Callee  *Ident
	Args    []Expr
	Spawn   bool // start_thread f(...)
}

// ConstrainStmt is the Getafix standalone `constrain(e);`: every variable
// in scope takes a new value such that e holds over old and new ('x) values.
type ConstrainStmt struct {
	StmtBase
	Cond Expr
}

// IfStmt is `if e then ... elsif e then ... else ... fi`.
type IfStmt struct {
	StmtBase
	Cond  Expr
	Then  []Stmt
	Elifs []*ElseIf
	Else  []Stmt // nil when there is no else branch
}

// ElseIf is one `elsif e then ...` branch.
type ElseIf struct {
	Pos  Pos
	Cond Expr
	Body []Stmt
}

// WhileStmt is `while e do ... od`.
type WhileStmt struct {
	StmtBase
	Cond Expr
	Body []Stmt
}

// GotoStmt is `goto L;` or the nondeterministic `goto L1, L2;`.
type GotoStmt struct {
	StmtBase
	Targets []*Ident
}

// AssumeStmt is `assume(e);`.
type AssumeStmt struct {
	StmtBase
	Cond Expr
}

// AssertStmt is `assert(e);`.
type AssertStmt struct {
	StmtBase
	Cond Expr
}

// SkipStmt is `skip;`.
type SkipStmt struct{ StmtBase }

// ReturnStmt is `return;` or `return e1, e2;`.
type ReturnStmt struct {
	StmtBase
	Values []Expr
}

// AtomicStmt is `atomic_begin;` (Begin) or `atomic_end;`.
type AtomicStmt struct {
	StmtBase
	Begin bool
}

// DeadStmt is `dead x, y;`.
type DeadStmt struct {
	StmtBase
	Vars []*Ident
}

// ForkStmt is the SatAbs/Boom `start_thread goto L;`.
type ForkStmt struct {
	StmtBase
	Target *Ident
}

// EndThreadStmt is `end_thread;`.
type EndThreadStmt struct{ StmtBase }

// Expr is an expression.
type Expr interface {
	Position() Pos
	exprNode()
}

// Ident is a name: a variable, function, lock or label.
type Ident struct {
	Pos  Pos
	Name string
}

// Primed is 'x, the new value of x inside a constrain clause.
type Primed struct {
	Pos Pos
	X   *Ident
}

// Const is T/1 (true) or F/0 (false).
type Const struct {
	Pos   Pos
	Value bool
}

// Nondet is * (or ?), an arbitrary value.
type Nondet struct{ Pos Pos }

// Unary is !x.
type Unary struct {
	Pos Pos
	Op  Token
	X   Expr
}

// Binary is x op y for & | ^ = != =>; Pos is the operator's position.
type Binary struct {
	Pos  Pos
	Op   Token
	X, Y Expr
}

// Choose is schoose[t, f]: T if t holds, else F if f holds, else arbitrary.
type Choose struct {
	Pos   Pos
	True  Expr
	False Expr
}

func (e *Ident) Position() Pos  { return e.Pos }
func (e *Primed) Position() Pos { return e.Pos }
func (e *Const) Position() Pos  { return e.Pos }
func (e *Nondet) Position() Pos { return e.Pos }
func (e *Unary) Position() Pos  { return e.Pos }
func (e *Binary) Position() Pos { return e.X.Position() } // where the expression starts
func (e *Choose) Position() Pos { return e.Pos }
func (*Ident) exprNode()        {}
func (*Primed) exprNode()       {}
func (*Const) exprNode()        {}
func (*Nondet) exprNode()       {}
func (*Unary) exprNode()        {}
func (*Binary) exprNode()       {}
func (*Choose) exprNode()       {}
