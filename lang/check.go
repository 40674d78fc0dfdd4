package lang

import (
	"context"
	"regexp"
	"strings"

	"bmc/internal/halt"
)

// ObjKind says what a name denotes.
type ObjKind int

const (
	GlobalVar ObjKind = iota
	LocalVar
	LockObj
	FuncObj
	LabelObj
)

// Object is a declared entity.
type Object struct {
	Kind  ObjKind
	Name  string
	Pos   Pos
	Index int       // among globals, among the function's locals (params first), or among locks
	Init  Expr      // variable initialiser, nil when absent
	Func  *FuncDecl // owning function of a local or label; the declaration of a function
	Stmt  Stmt      // the statement a label names
}

// Builtin identifies call-shaped built-in statements.
type Builtin int

const (
	NotBuiltin Builtin = iota
	Acquire
	Release
	TryAcquire
	Print
)

var builtinNames = map[string]Builtin{"acquire": Acquire, "release": Release, "tryacquire": TryAcquire, "print": Print}

// Dialect is the rule that decides which functions are threads.
type Dialect int

const (
	// DialectThreads: functions marked `thread` are the threads.
	DialectThreads Dialect = iota
	// DialectSpawn: `main` is the only initial thread and spawns others
	// (Boppo `ASYNC_n:` and `start_thread`, SatAbs/Boom `start_thread goto`).
	DialectSpawn
	// DialectGetafix: `main` and functions named thread..., in declaration
	// order; a plain sequential program is the case of `main` alone.
	DialectGetafix
)

func (d Dialect) String() string {
	return [...]string{"thread functions", "main with spawned threads", "main and thread... functions"}[d]
}

// Info is what the checker learns about a program.
type Info struct {
	File       *File
	Globals    []*Object
	Locks      []*Object
	Funcs      []*Object // in declaration order
	FuncByName map[string]*Object
	Locals     map[*FuncDecl][]*Object // parameters first, then declared locals
	Labels     map[*FuncDecl]map[string]*Object
	Uses       map[*Ident]*Object // every resolved name: variables, locks, callees, goto targets
	Passive    map[*Ident]bool    // x$ references: the copy of local x in the other threads
	Builtins   map[*CallStmt]Builtin
	Async      map[*CallStmt]bool // calls labelled ASYNC_n (Boppo spawn)
	Dialect    Dialect
	Init       *FuncDecl   // nil when there is no init function
	Threads    []*FuncDecl // initial thread entry functions, in order
	AtomicVar  *Object     // Getafix: the global `atomic` that brackets atomic sections
	Warnings   ErrorList   // legal but suspicious constructs, with how they are read
}

// IsSpawn reports whether the call starts a new thread.
func (in *Info) IsSpawn(c *CallStmt) bool { return c.Spawn || in.Async[c] }

var asyncLabel = regexp.MustCompile(`^ASYNC_[0-9]+$`)

type checker struct {
	info      *Info
	errs      ErrorList
	file      string
	fn        *FuncDecl
	scope     map[string]*Object // locals of fn
	dupLabels map[string]bool    // labels of fn defined more than once
	global    map[string]*Object // global variables and locks
}

// exprCtx says what an expression may contain.
type exprCtx struct {
	nondet  bool // * allowed
	primed  bool // 'x allowed
	passive bool // x$ allowed
	what    string
}

// Check resolves names and checks a parsed program. Errors are collected
// and returned as an ErrorList; Info is complete when the error is nil.
// When ctx ends first, the error is its cause.
func Check(ctx context.Context, f *File) (info *Info, err error) {
	defer halt.Recover(&err)
	c := &checker{file: f.Name, global: map[string]*Object{}}
	c.info = &Info{
		File:       f,
		FuncByName: map[string]*Object{},
		Locals:     map[*FuncDecl][]*Object{},
		Labels:     map[*FuncDecl]map[string]*Object{},
		Uses:       map[*Ident]*Object{},
		Passive:    map[*Ident]bool{},
		Builtins:   map[*CallStmt]Builtin{},
		Async:      map[*CallStmt]bool{},
	}
	c.collect(f)
	for _, o := range c.info.Funcs {
		halt.Point(ctx)
		c.checkFunc(o.Func)
	}
	c.threads(f)
	c.errs.Sort()
	return c.info, c.errs.Err()
}

func (c *checker) error(pos Pos, format string, args ...any) {
	c.errs.Add(c.file, pos, format, args...)
}

func (c *checker) warn(pos Pos, format string, args ...any) {
	c.info.Warnings.Add(c.file, pos, "warning: "+format, args...)
}

// collect declares globals, locks and functions; functions may be used
// before their declaration.
func (c *checker) collect(f *File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *VarDecl:
			for _, v := range d.Vars {
				o := &Object{Kind: GlobalVar, Name: v.Name, Pos: v.Pos, Index: len(c.info.Globals), Init: v.Init}
				if c.declareGlobal(o) {
					c.info.Globals = append(c.info.Globals, o)
				}
				c.checkInit(v)
			}
		case *LockDecl:
			for _, id := range d.Names {
				o := &Object{Kind: LockObj, Name: id.Name, Pos: id.Pos, Index: len(c.info.Locks)}
				if c.declareGlobal(o) {
					c.info.Locks = append(c.info.Locks, o)
				}
				c.info.Uses[id] = o
			}
		case *FuncDecl:
			name := d.Name.Name
			if prev := c.info.FuncByName[name]; prev != nil {
				c.error(d.Name.Pos, "function %s redeclared (first declared at %s)", name, prev.Pos)
				continue
			}
			o := &Object{Kind: FuncObj, Name: name, Pos: d.Name.Pos, Func: d}
			c.info.FuncByName[name] = o
			c.info.Funcs = append(c.info.Funcs, o)
			c.info.Uses[d.Name] = o
		}
	}
}

func (c *checker) declareGlobal(o *Object) bool {
	if prev := c.global[o.Name]; prev != nil {
		c.error(o.Pos, "%s redeclared (first declared at %s)", o.Name, prev.Pos)
		return false
	}
	c.global[o.Name] = o
	return true
}

// checkInit accepts only constant initialisers: they are evaluated when
// the variable comes into existence, before any statement runs.
func (c *checker) checkInit(v *VarSpec) {
	switch v.Init.(type) {
	case nil, *Const, *Nondet:
	default:
		c.error(v.Init.Position(), "initializer of %s must be a constant (T, F, 0, 1 or *)", v.Name)
	}
}

func (c *checker) checkFunc(fn *FuncDecl) {
	c.fn = fn
	c.scope = map[string]*Object{}
	declare := func(name string, pos Pos, init Expr) {
		if prev := c.scope[name]; prev != nil {
			c.error(pos, "%s redeclared in function %s (first declared at %s)", name, fn.Name.Name, prev.Pos)
			return
		}
		o := &Object{Kind: LocalVar, Name: name, Pos: pos, Index: len(c.info.Locals[fn]), Init: init, Func: fn}
		c.scope[name] = o
		c.info.Locals[fn] = append(c.info.Locals[fn], o)
	}
	for _, p := range fn.Params {
		declare(p.Name, p.Pos, nil)
		c.info.Uses[p] = c.scope[p.Name]
	}
	for _, d := range fn.Locals {
		for _, v := range d.Vars {
			declare(v.Name, v.Pos, v.Init)
			c.checkInit(v)
		}
	}
	// A label may be defined more than once (generated code repeats
	// `SLIC_ERROR: skip;`); only a jump to such a label is an error.
	labels := map[string]*Object{}
	c.info.Labels[fn] = labels
	c.dupLabels = map[string]bool{}
	walkStmts(fn.Body, func(s Stmt) {
		for _, l := range s.Labels() {
			if labels[l.Name] != nil {
				c.dupLabels[l.Name] = true
				continue
			}
			labels[l.Name] = &Object{Kind: LabelObj, Name: l.Name, Pos: l.Pos, Func: fn, Stmt: s}
		}
	})
	if fn.Enforce != nil {
		c.expr(fn.Enforce, exprCtx{what: "enforce"})
	}
	walkStmts(fn.Body, c.stmt)
}

// walkStmts calls visit for every statement, nested ones included.
func walkStmts(list []Stmt, visit func(Stmt)) {
	for _, s := range list {
		visit(s)
		switch s := s.(type) {
		case *IfStmt:
			walkStmts(s.Then, visit)
			for _, ei := range s.Elifs {
				walkStmts(ei.Body, visit)
			}
			walkStmts(s.Else, visit)
		case *WhileStmt:
			walkStmts(s.Body, visit)
		}
	}
}

var valueCtx = exprCtx{nondet: true, what: "expression"}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *AssignStmt:
		c.assign(s)
	case *CallStmt:
		c.call(s)
	case *ConstrainStmt:
		c.expr(s.Cond, exprCtx{nondet: true, primed: true, what: "constrain"})
	case *IfStmt:
		c.expr(s.Cond, valueCtx)
		for _, ei := range s.Elifs {
			c.expr(ei.Cond, valueCtx)
		}
	case *WhileStmt:
		c.expr(s.Cond, valueCtx)
	case *GotoStmt:
		for _, t := range s.Targets {
			c.label(t)
		}
	case *ForkStmt:
		if s.Target != nil {
			c.label(s.Target)
		}
	case *AssumeStmt:
		c.expr(s.Cond, valueCtx)
	case *AssertStmt:
		// `assert(*)` occurs in SatAbs output: it fails when some choice
		// makes the condition false.
		c.expr(s.Cond, valueCtx)
	case *ReturnStmt:
		if n := len(s.Values); n > 0 && n != c.fn.Returns {
			// At the first value too many, or at the values when some are missing.
			at := s.Values[0].Position()
			if n > c.fn.Returns {
				at = s.Values[c.fn.Returns].Position()
			}
			c.error(at, "function %s returns %d value(s), return gives %d", c.fn.Name.Name, c.fn.Returns, n)
		}
		for _, v := range s.Values {
			c.expr(v, valueCtx)
		}
	case *DeadStmt:
		for _, v := range s.Vars {
			c.variable(v, "dead")
		}
	}
}

func (c *checker) label(id *Ident) {
	if c.dupLabels[id.Name] {
		c.error(id.Pos, "label %s is defined more than once in function %s, so the jump is ambiguous", id.Name, c.fn.Name.Name)
		return
	}
	if o := c.info.Labels[c.fn][id.Name]; o != nil {
		c.info.Uses[id] = o
		return
	}
	c.error(id.Pos, "label %s not defined in function %s", id.Name, c.fn.Name.Name)
}

// variable resolves an assignable variable name.
func (c *checker) variable(id *Ident, what string) *Object {
	o := c.lookup(id.Name)
	switch {
	case o == nil:
		c.error(id.Pos, "undeclared variable %s", id.Name)
		return nil
	case o.Kind == LockObj:
		c.error(id.Pos, "%s: %s is a lock, not a variable", what, id.Name)
		return nil
	}
	c.info.Uses[id] = o
	return o
}

func (c *checker) lookup(name string) *Object {
	if o := c.scope[name]; o != nil {
		return o
	}
	return c.global[name]
}

// passiveLocal resolves x$ to local x when x$ itself is not declared.
func (c *checker) passiveLocal(name string) *Object {
	if !strings.HasSuffix(name, "$") || c.lookup(name) != nil {
		return nil
	}
	if o := c.scope[strings.TrimSuffix(name, "$")]; o != nil {
		return o
	}
	return nil
}

func (c *checker) targets(ids []*Ident, allowPassive bool) {
	seen := map[*Object]bool{}
	seenPassive := map[*Object]bool{}
	for _, id := range ids {
		if id.Name == "_" && c.lookup("_") == nil {
			continue // discarded value
		}
		if o := c.passiveLocal(id.Name); o != nil && allowPassive {
			if seenPassive[o] {
				c.error(id.Pos, "%s assigned twice", id.Name)
			}
			seenPassive[o] = true
			c.info.Uses[id] = o
			c.info.Passive[id] = true
			continue
		}
		o := c.variable(id, "assignment")
		if o == nil {
			continue
		}
		if seen[o] {
			c.warn(id.Pos, "%s assigned twice in one assignment: read relationally, the step is taken only when both values agree", id.Name)
		}
		seen[o] = true
	}
}

func (c *checker) assign(s *AssignStmt) {
	c.targets(s.Targets, true)
	if nt, nv := len(s.Targets), len(s.Values); nt != nv {
		// At the first target or value that has no partner.
		var at Pos
		if nt > nv {
			at = s.Targets[nv].Pos
		} else {
			at = s.Values[nt].Position()
		}
		c.error(at, "assignment has %d target(s) but %d value(s)", nt, nv)
	}
	ctx := exprCtx{nondet: true, passive: true, what: "assignment"}
	for _, v := range s.Values {
		c.expr(v, ctx)
	}
	if s.Constrain != nil {
		ctx.primed = true
		ctx.what = "constrain"
		c.expr(s.Constrain, ctx)
	}
}

func (c *checker) call(s *CallStmt) {
	name := s.Callee.Name
	callee := c.info.FuncByName[name]
	spawn := s.Spawn
	for _, l := range s.Labels() {
		if asyncLabel.MatchString(l.Name) {
			c.info.Async[s] = true
			spawn = true
		}
	}
	if callee == nil {
		b, ok := builtinNames[name]
		if !ok {
			c.error(s.Callee.Pos, "undefined function %s", name)
			return
		}
		if spawn {
			c.error(s.Callee.Pos, "%s is a built-in statement and cannot start a thread", name)
		}
		c.info.Builtins[s] = b
		c.builtin(s, b)
		return
	}
	c.info.Uses[s.Callee] = callee
	fn := callee.Func
	if len(s.Args) != len(fn.Params) {
		c.error(s.Callee.Pos, "function %s takes %d argument(s), call gives %d", name, len(fn.Params), len(s.Args))
	}
	for _, a := range s.Args {
		c.expr(a, valueCtx)
	}
	if len(s.Targets) == 0 {
		return // a value-returning function called as a statement: values discarded
	}
	if spawn {
		c.error(s.Pos, "a call that starts a thread cannot assign results")
		return
	}
	if len(s.Targets) != fn.Returns {
		c.error(s.Callee.Pos, "function %s returns %d value(s), assignment expects %d", name, fn.Returns, len(s.Targets))
	}
	c.targets(s.Targets, false)
}

func (c *checker) builtin(s *CallStmt, b Builtin) {
	name := s.Callee.Name
	if b == Print {
		if len(s.Targets) > 0 {
			c.error(s.Callee.Pos, "print returns no value")
		}
		for _, a := range s.Args {
			c.expr(a, valueCtx)
		}
		return
	}
	if len(s.Args) != 1 {
		c.error(s.Callee.Pos, "%s takes one lock, call gives %d argument(s)", name, len(s.Args))
		return
	}
	id, ok := s.Args[0].(*Ident)
	var lock *Object
	if ok {
		lock = c.lookup(id.Name)
	}
	switch {
	case !ok:
		c.error(s.Args[0].Position(), "%s of a non-lock: the argument must be a lock name", name)
	case lock == nil:
		c.error(id.Pos, "undeclared lock %s", id.Name)
	case lock.Kind != LockObj:
		c.error(id.Pos, "%s of non-lock %s (declare it with `lock %s;`)", name, id.Name, id.Name)
	default:
		c.info.Uses[id] = lock
	}
	if b == TryAcquire {
		if len(s.Targets) != 1 {
			c.error(s.Callee.Pos, "tryacquire returns one value, assignment expects %d", len(s.Targets))
			return
		}
		c.targets(s.Targets, false)
	} else if len(s.Targets) > 0 {
		c.error(s.Callee.Pos, "%s returns no value", name)
	}
}

func (c *checker) expr(e Expr, ctx exprCtx) {
	switch e := e.(type) {
	case *Ident:
		c.valueRef(e, ctx)
	case *Primed:
		if !ctx.primed {
			c.error(e.Pos, "'%s is only allowed inside constrain", e.X.Name)
			return
		}
		if c.passiveLocal(e.X.Name) != nil {
			c.error(e.Pos, "'%s: the new value of another thread's copy is not supported", e.X.Name)
			return
		}
		c.valueRef(e.X, ctx)
	case *Nondet:
		if !ctx.nondet {
			c.error(e.Pos, "* (nondeterministic value) is not allowed in %s", ctx.what)
		}
	case *Unary:
		c.expr(e.X, ctx)
	case *Binary:
		c.expr(e.X, ctx)
		c.expr(e.Y, ctx)
	case *Choose:
		c.expr(e.True, ctx)
		c.expr(e.False, ctx)
	}
}

func (c *checker) valueRef(id *Ident, ctx exprCtx) {
	if o := c.lookup(id.Name); o != nil {
		if o.Kind == LockObj {
			c.error(id.Pos, "lock %s used as a value", id.Name)
			return
		}
		c.info.Uses[id] = o
		return
	}
	if o := c.passiveLocal(id.Name); o != nil {
		if !ctx.passive {
			c.error(id.Pos, "%s (the copy of %s in other threads) may only be used in an assignment", id.Name, o.Name)
			return
		}
		c.info.Uses[id] = o
		c.info.Passive[id] = true
		return
	}
	if c.info.FuncByName[id.Name] != nil {
		c.error(id.Pos, "%s is a function, not a variable", id.Name)
		return
	}
	c.error(id.Pos, "undeclared variable %s", id.Name)
}

// threads applies the dialect rules of LANGUAGE.md to find init and the
// initial threads.
func (c *checker) threads(f *File) {
	in := c.info
	if o := in.FuncByName["init"]; o != nil {
		in.Init = o.Func
		if len(o.Func.Params) > 0 {
			c.error(o.Pos, "init takes no parameters")
		}
		if o.Func.Thread {
			c.error(o.Pos, "init runs before the threads and cannot be a thread function")
		}
	}
	spawns := false
	for _, o := range in.Funcs {
		if o.Func.Thread && o.Func != in.Init {
			in.Threads = append(in.Threads, o.Func)
		}
		walkStmts(o.Func.Body, func(s Stmt) {
			switch s := s.(type) {
			case *ForkStmt:
				spawns = true
			case *CallStmt:
				spawns = spawns || in.IsSpawn(s)
			}
		})
	}
	switch {
	case len(in.Threads) > 0:
		in.Dialect = DialectThreads
		return
	case spawns:
		in.Dialect = DialectSpawn
		if o := in.FuncByName["main"]; o != nil {
			in.Threads = []*FuncDecl{o.Func}
			return
		}
	default:
		in.Dialect = DialectGetafix
		for _, o := range in.Funcs {
			if o.Func != in.Init && isGetafixThread(o.Name) {
				in.Threads = append(in.Threads, o.Func)
			}
		}
		if o := c.global["atomic"]; o != nil && o.Kind == GlobalVar {
			in.AtomicVar = o
		}
		if len(in.Threads) > 0 {
			return
		}
	}
	c.error(Pos{1, 1}, "no thread to run: declare main, mark thread functions with `thread`, or name them thread...")
}

// isGetafixThread is Getafix's rule: main, or a name longer than six
// characters starting with "thread" in any case.
func isGetafixThread(name string) bool {
	if strings.EqualFold(name, "main") {
		return true
	}
	return len(name) > 6 && strings.EqualFold(name[:6], "thread")
}
