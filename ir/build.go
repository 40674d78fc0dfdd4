package ir

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"bmc/internal/halt"
	"bmc/lang"
)

// DefaultTargets are the error labels used when no --target is given.
var DefaultTargets = []string{"error", "ERROR", "SLIC_ERROR"}

// Options select thread instances and error labels.
type Options struct {
	Threads []ThreadCount // from --threads; empty keeps the dialect's threads
	Target  string        // error label replacing DefaultTargets; "" for the defaults
}

// ThreadCount is one `name=N` or `name=*` entry of --threads.
type ThreadCount struct {
	Name      string
	Count     int
	Unbounded bool
}

// ParseThreads parses "adder=2,stopper=1,reader=*".
func ParseThreads(s string) ([]ThreadCount, error) {
	var out []ThreadCount
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		name, count, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		count = strings.TrimSpace(count)
		if !ok || name == "" || count == "" {
			return nil, fmt.Errorf("--threads: %q is not name=N or name=*", part)
		}
		if seen[name] {
			return nil, fmt.Errorf("--threads: %s given twice", name)
		}
		seen[name] = true
		if count == "*" {
			out = append(out, ThreadCount{Name: name, Unbounded: true})
			continue
		}
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 || n > 1000 {
			return nil, fmt.Errorf("--threads: count of %s must be a number from 0 to 1000 or *, got %q", name, count)
		}
		out = append(out, ThreadCount{Name: name, Count: n})
	}
	return out, nil
}

type builder struct {
	info   *lang.Info
	prog   *Program
	procOf map[*lang.FuncDecl]*Proc
	varOf  map[*lang.Object]*Var
	lockOf map[*lang.Object]*Lock

	nodeOf   map[lang.Stmt]int // node of every statement, in its procedure
	elifNode map[*lang.ElseIf]int
	proc     *Proc // the procedure being lowered
}

// Build lowers a checked program. Errors concern the options (unknown
// thread or label) and are meant as usage errors; when ctx ends first,
// the error is its cause.
func Build(ctx context.Context, info *lang.Info, opts Options) (prog *Program, err error) {
	defer halt.Recover(&err)
	b := &builder{
		info:     info,
		prog:     &Program{File: info.File.Name, Dialect: info.Dialect, InitStop: -1},
		procOf:   map[*lang.FuncDecl]*Proc{},
		varOf:    map[*lang.Object]*Var{},
		lockOf:   map[*lang.Object]*Lock{},
		nodeOf:   map[lang.Stmt]int{},
		elifNode: map[*lang.ElseIf]int{},
	}
	for _, o := range info.Globals {
		v := &Var{Name: o.Name, Global: true, Index: o.Index, Init: initValue(o.Init), Pos: o.Pos}
		b.varOf[o] = v
		b.prog.Globals = append(b.prog.Globals, v)
	}
	for _, o := range info.Locks {
		l := &Lock{Name: o.Name, Index: o.Index, Pos: o.Pos}
		b.lockOf[o] = l
		b.prog.Locks = append(b.prog.Locks, l)
	}
	for i, o := range info.Funcs {
		fn := o.Func
		p := &Proc{Name: fn.Name.Name, Index: i, Pos: fn.Name.Pos, Params: len(fn.Params), Returns: fn.Returns,
			Atomic: strings.Contains(fn.Name.Name, "__VERIFIER_atomic_")}
		for _, lo := range info.Locals[fn] {
			v := &Var{Name: lo.Name, Index: lo.Index, Init: initValue(lo.Init), Pos: lo.Pos}
			b.varOf[lo] = v
			p.Locals = append(p.Locals, v)
		}
		b.procOf[fn] = p
		b.prog.Procs = append(b.prog.Procs, p)
	}
	for _, o := range info.Funcs {
		halt.Point(ctx)
		b.lowerProc(o.Func)
	}
	if err := b.markTargets(opts.Target); err != nil {
		return nil, err
	}
	if info.Init != nil {
		b.prog.Init = b.procOf[info.Init]
		if lo := info.Labels[info.Init]["endinit"]; lo != nil {
			b.prog.InitStop = b.nodeOf[lo.Stmt]
		}
	}
	if err := b.threads(opts.Threads); err != nil {
		return nil, err
	}
	return b.prog, nil
}

func initValue(e lang.Expr) Value {
	if c, ok := e.(*lang.Const); ok {
		if c.Value {
			return True
		}
		return False
	}
	return Unknown
}

func (b *builder) markTargets(target string) error {
	names := DefaultTargets
	if target != "" {
		names = []string{target}
	}
	b.prog.Targets = names
	isTarget := map[string]bool{}
	for _, n := range names {
		isTarget[n] = true
	}
	found := false
	for _, p := range b.prog.Procs {
		for _, n := range p.Nodes {
			for _, l := range n.Labels {
				if isTarget[l] {
					n.Error = true
					found = true
				}
			}
		}
	}
	if target != "" && !found {
		return fmt.Errorf("--target %s: the program has no label %s", target, target)
	}
	return nil
}

// threads applies --threads to the dialect's thread list; the result is in
// declaration order.
func (b *builder) threads(counts []ThreadCount) error {
	chosen := map[*Proc]ThreadCount{}
	for _, fn := range b.info.Threads {
		chosen[b.procOf[fn]] = ThreadCount{Name: fn.Name.Name, Count: 1}
	}
	for _, tc := range counts {
		p := b.prog.ProcByName(tc.Name)
		if p == nil {
			return fmt.Errorf("--threads: no function named %s", tc.Name)
		}
		if p == b.prog.Init {
			return fmt.Errorf("--threads: init runs before the threads and cannot be a thread")
		}
		chosen[p] = tc
	}
	var procs []*Proc
	for p := range chosen {
		procs = append(procs, p)
	}
	sort.Slice(procs, func(i, j int) bool { return procs[i].Index < procs[j].Index })
	for _, p := range procs {
		tc := chosen[p]
		if tc.Count == 0 && !tc.Unbounded {
			continue
		}
		b.prog.Threads = append(b.prog.Threads, ThreadSpec{Proc: p, Count: tc.Count, Unbounded: tc.Unbounded})
	}
	if len(b.prog.Threads) == 0 {
		return fmt.Errorf("--threads: no thread instances left to run")
	}
	return nil
}

// ---- procedures ----

func (b *builder) lowerProc(fn *lang.FuncDecl) {
	p := b.procOf[fn]
	b.proc = p
	b.allocate(fn.Body)
	end := b.newNode(fn.End, nil, "end")
	if fn.Enforce != nil {
		p.Enforce = b.expr(fn.Enforce)
	}
	p.Entry = b.lowerList(fn.Body, end)
	// Falling off `end` returns (without values).
	b.edge(&Edge{From: end, To: -1, Kind: Return, Pos: fn.End, Stmt: "end"})
}

func (b *builder) newNode(pos lang.Pos, labels []*lang.Label, stmt string) int {
	n := &Node{ID: len(b.proc.Nodes), Pos: pos, Stmt: stmt}
	for _, l := range labels {
		n.Labels = append(n.Labels, l.Name)
	}
	b.proc.Nodes = append(b.proc.Nodes, n)
	return n.ID
}

// allocate gives every statement (and every elsif test) its node, so that
// jumps can be resolved in one pass.
func (b *builder) allocate(list []lang.Stmt) {
	for _, s := range list {
		b.nodeOf[s] = b.newNode(s.Position(), s.Labels(), lang.StmtString(s))
		switch s := s.(type) {
		case *lang.IfStmt:
			b.allocate(s.Then)
			for _, ei := range s.Elifs {
				b.elifNode[ei] = b.newNode(ei.Pos, nil, "elsif "+lang.ExprString(ei.Cond)+" then")
				b.allocate(ei.Body)
			}
			b.allocate(s.Else)
		case *lang.WhileStmt:
			b.allocate(s.Body)
		}
	}
}

func (b *builder) edge(e *Edge) {
	e.ID = len(b.prog.Edges)
	e.Proc = b.proc
	if e.Stmt == "" {
		e.Stmt = b.proc.Nodes[e.From].Stmt
	}
	b.prog.Edges = append(b.prog.Edges, e)
	n := b.proc.Nodes[e.From]
	n.Out = append(n.Out, e)
}

// lowerList lowers a statement sequence followed by node after and
// returns its entry node.
func (b *builder) lowerList(list []lang.Stmt, after int) int {
	for i, s := range list {
		next := after
		if i+1 < len(list) {
			next = b.nodeOf[list[i+1]]
		}
		b.lowerStmt(s, next)
	}
	if len(list) == 0 {
		return after
	}
	return b.nodeOf[list[0]]
}

func (b *builder) lowerStmt(s lang.Stmt, next int) {
	from := b.nodeOf[s]
	pos := s.Position()
	// step adds the statement's edge; it continues at next unless set.
	step := func(e *Edge) {
		e.From, e.Pos = from, pos
		if e.To == unset {
			e.To = next
		}
		b.edge(e)
	}
	switch s := s.(type) {
	case *lang.AssignStmt:
		step(b.assign(s))
	case *lang.CallStmt:
		step(b.call(s))
	case *lang.ConstrainStmt:
		e := &Edge{To: unset, Kind: Assign, Constrain: b.expr(s.Cond)}
		for _, v := range append(append([]*Var(nil), b.prog.Globals...), b.proc.Locals...) {
			e.Targets = append(e.Targets, v)
			e.Values = append(e.Values, &Expr{Op: OpNondet})
		}
		step(e)
	case *lang.IfStmt:
		b.lowerIf(s, from, next)
	case *lang.WhileStmt:
		cond := b.expr(s.Cond)
		step(&Edge{Kind: Skip, Guard: cond, To: b.lowerList(s.Body, from)})
		step(&Edge{Kind: Skip, Guard: Not(cond), To: unset})
	case *lang.GotoStmt:
		for _, t := range s.Targets {
			step(&Edge{Kind: Skip, To: b.nodeOf[b.info.Uses[t].Stmt]})
		}
	case *lang.AssumeStmt:
		step(&Edge{To: unset, Kind: Skip, Guard: b.expr(s.Cond)})
	case *lang.AssertStmt:
		step(&Edge{To: unset, Kind: Assert, Cond: b.expr(s.Cond)})
	case *lang.SkipStmt:
		step(&Edge{To: unset, Kind: Skip})
	case *lang.ReturnStmt:
		e := &Edge{Kind: Return, To: -1}
		for _, v := range s.Values {
			e.Values = append(e.Values, b.expr(v))
		}
		step(e)
	case *lang.AtomicStmt:
		mark := AtomicEnd
		if s.Begin {
			mark = AtomicBegin
		}
		step(&Edge{To: unset, Kind: Skip, Atomic: mark})
	case *lang.DeadStmt:
		e := &Edge{To: unset, Kind: Havoc}
		for _, id := range s.Vars {
			e.Targets = append(e.Targets, b.varOf[b.info.Uses[id]])
		}
		step(e)
	case *lang.ForkStmt:
		step(&Edge{To: unset, Kind: Fork, ForkTo: b.nodeOf[b.info.Uses[s.Target].Stmt]})
	case *lang.EndThreadStmt:
		step(&Edge{Kind: EndThread, To: -1})
	default:
		panic(fmt.Sprintf("ir: unexpected statement %T", s))
	}
}

// unset marks an edge whose successor is the next statement.
const unset = -2

func (b *builder) lowerIf(s *lang.IfStmt, from, next int) {
	test := func(at int, pos lang.Pos, cond lang.Expr, body []lang.Stmt, otherwise int) {
		c := b.expr(cond)
		b.edge(&Edge{From: at, To: b.lowerList(body, next), Kind: Skip, Guard: c, Pos: pos})
		b.edge(&Edge{From: at, To: otherwise, Kind: Skip, Guard: Not(c), Pos: pos})
	}
	elseEntry := b.lowerList(s.Else, next)
	// Chain the tests from the last elsif back to the if.
	otherwise := elseEntry
	for i := len(s.Elifs) - 1; i >= 0; i-- {
		ei := s.Elifs[i]
		at := b.elifNode[ei]
		test(at, ei.Pos, ei.Cond, ei.Body, otherwise)
		otherwise = at
	}
	test(from, s.Pos, s.Cond, s.Then, otherwise)
}

func (b *builder) assign(s *lang.AssignStmt) *Edge {
	e := &Edge{To: unset, Kind: Assign}
	var extra []*Expr // relational reading of a target assigned twice
	seen := map[*Var]bool{}
	for i, id := range s.Targets {
		obj := b.info.Uses[id]
		if obj == nil {
			continue // `_`: value discarded
		}
		v, val := b.varOf[obj], b.expr(s.Values[i])
		switch {
		case b.info.Passive[id]:
			e.PassiveTargets = append(e.PassiveTargets, v)
			e.PassiveValues = append(e.PassiveValues, val)
		case seen[v]:
			extra = append(extra, Binary(OpEq, &Expr{Op: OpPrimed, Var: v}, val))
		default:
			seen[v] = true
			e.Targets = append(e.Targets, v)
			e.Values = append(e.Values, val)
			if a := b.info.AtomicVar; a != nil && v == b.varOf[a] {
				e.Atomic = atomicMark(s.Values[i])
			}
		}
	}
	if s.Constrain != nil {
		e.Constrain = b.expr(s.Constrain)
	}
	for _, x := range extra {
		if e.Constrain == nil {
			e.Constrain = x
		} else {
			e.Constrain = Binary(OpAnd, e.Constrain, x)
		}
	}
	return e
}

// atomicMark reads Getafix's `atomic := T` / `atomic := F`.
func atomicMark(v lang.Expr) AtomicMark {
	if c, ok := v.(*lang.Const); ok {
		if c.Value {
			return AtomicBegin
		}
		return AtomicEnd
	}
	return NoMark
}

func (b *builder) call(s *lang.CallStmt) *Edge {
	targets := func() []*Var {
		var ts []*Var
		for _, id := range s.Targets {
			ts = append(ts, b.varOf[b.info.Uses[id]]) // nil for `_`
		}
		return ts
	}
	lock := func() *Lock { return b.lockOf[b.info.Uses[s.Args[0].(*lang.Ident)]] }
	switch b.info.Builtins[s] {
	case lang.Acquire:
		return &Edge{To: unset, Kind: Acquire, Lock: lock()}
	case lang.Release:
		return &Edge{To: unset, Kind: Release, Lock: lock()}
	case lang.TryAcquire:
		return &Edge{To: unset, Kind: TryAcquire, Lock: lock(), Targets: targets()}
	case lang.Print:
		return &Edge{To: unset, Kind: Skip}
	}
	e := &Edge{To: unset, Kind: Call, Callee: b.procOf[b.info.Uses[s.Callee].Func], Spawn: b.info.IsSpawn(s), Targets: targets()}
	for _, a := range s.Args {
		e.Args = append(e.Args, b.expr(a))
	}
	return e
}

func (b *builder) expr(e lang.Expr) *Expr {
	switch e := e.(type) {
	case *lang.Ident:
		v := b.varOf[b.info.Uses[e]]
		if b.info.Passive[e] {
			return &Expr{Op: OpPassive, Var: v}
		}
		return &Expr{Op: OpVar, Var: v}
	case *lang.Primed:
		return &Expr{Op: OpPrimed, Var: b.varOf[b.info.Uses[e.X]]}
	case *lang.Const:
		return Const(e.Value)
	case *lang.Nondet:
		return &Expr{Op: OpNondet}
	case *lang.Unary:
		return Not(b.expr(e.X))
	case *lang.Choose:
		return &Expr{Op: OpChoose, X: b.expr(e.True), Y: b.expr(e.False)}
	case *lang.Binary:
		ops := map[lang.Token]Op{lang.AND: OpAnd, lang.OR: OpOr, lang.XOR: OpXor, lang.NEQ: OpXor, lang.EQ: OpEq, lang.IMPLIES: OpImplies}
		return Binary(ops[e.Op], b.expr(e.X), b.expr(e.Y))
	}
	panic(fmt.Sprintf("ir: unexpected expression %T", e))
}
