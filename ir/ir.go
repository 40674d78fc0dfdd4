package ir

import (
	"fmt"

	"bmc/lang"
)

// Program is a checked, lowered program with its thread instances.
type Program struct {
	File    string
	Globals []*Var
	Locks   []*Lock
	Procs   []*Proc
	// Init runs first and alone, from its entry until it returns or
	// reaches InitStop (the Getafix `endinit` label; -1 when absent).
	Init     *Proc
	InitStop int
	Threads  []ThreadSpec // initial thread instances, in schedule order
	Dialect  lang.Dialect
	Edges    []*Edge  // every edge, indexed by Edge.ID
	Targets  []string // error labels that define Node.Error
}

// ThreadSpec is a group of identical initial threads.
type ThreadSpec struct {
	Proc      *Proc
	Count     int  // instances; with Unbounded, instances per bounded run
	Unbounded bool // `--threads f=*`: any number of instances (parameterized)
}

// Var is a Boolean variable: a global or a local of one procedure.
type Var struct {
	Name   string
	Global bool
	Index  int   // in Program.Globals or Proc.Locals
	Init   Value // initial value when the variable comes into existence
	Pos    lang.Pos
}

// Value is a Boolean value or Unknown (arbitrary).
type Value int8

const (
	False   Value = 0
	True    Value = 1
	Unknown Value = 2
)

func (v Value) String() string { return [...]string{"F", "T", "?"}[v] }

// Lock is a shared lock, free initially.
type Lock struct {
	Name  string
	Index int
	Pos   lang.Pos
}

// Proc is one procedure's control-flow graph.
type Proc struct {
	Name    string
	Index   int
	Pos     lang.Pos
	Params  int    // the first Params locals are the parameters
	Locals  []*Var // parameters, then declared locals
	Returns int
	Nodes   []*Node
	Entry   int
	Enforce *Expr // assumed on entry and after every step; nil when absent
	// Atomic marks Getafix `__VERIFIER_atomic_*` procedures: a call runs
	// the whole body as one atomic step sequence.
	Atomic bool
}

// Node is a program location: the point before one step.
type Node struct {
	ID     int // index in Proc.Nodes
	Pos    lang.Pos
	Labels []string
	Out    []*Edge
	Error  bool   // reaching this node is a violation (error label)
	Stmt   string // the statement that starts here, for traces
}

// Kind is what an edge does besides its guard.
type Kind uint8

const (
	Skip       Kind = iota // skip, goto, branch tests, assume, print, atomic markers
	Assign                 // parallel assignment with optional constrain
	Assert                 // fails when Cond can be false
	Call                   // push a frame, or with Spawn start a thread
	Return                 // pop the frame, writing Values into the caller's targets
	Acquire                // blocks while Lock is held
	Release                // error when the thread does not hold Lock
	TryAcquire             // Targets[0] := whether Lock was taken
	Fork                   // SatAbs `start_thread goto L`: copy of the thread at ForkTo
	EndThread              // the thread terminates
	Havoc                  // dead x: Targets become arbitrary
)

var kindNames = [...]string{"skip", "assign", "assert", "call", "return", "acquire", "release", "tryacquire", "fork", "end_thread", "havoc"}

func (k Kind) String() string { return kindNames[k] }

// AtomicMark says how a step changes the thread's atomic mode.
type AtomicMark uint8

const (
	NoMark      AtomicMark = iota
	AtomicBegin            // no context switch after this step until AtomicEnd
	AtomicEnd
)

// Edge is one step from node From to node To of Proc.
type Edge struct {
	ID    int
	Proc  *Proc
	From  int
	To    int
	Guard *Expr // the step can be taken when Guard can be true; nil is true
	Kind  Kind

	// Assign, TryAcquire, Havoc, and Call (result targets; nil entries
	// discard a value).
	Targets   []*Var
	Values    []*Expr
	Constrain *Expr // over old values and 'x (new values); nil when absent
	// Broadcast (SatAbs/Boom `l$ := e`): the copy of each local in
	// PassiveTargets in every other thread running this procedure.
	PassiveTargets []*Var
	PassiveValues  []*Expr

	Cond   *Expr // Assert
	Callee *Proc // Call
	Args   []*Expr
	Spawn  bool  // Call starts a new thread instead of pushing a frame
	Lock   *Lock // Acquire, Release, TryAcquire
	ForkTo int   // Fork: where the new thread starts

	Atomic AtomicMark
	Pos    lang.Pos
	Stmt   string // source text of the step, for traces
}

// Op is an expression operator.
type Op uint8

const (
	OpConst   Op = iota // Val
	OpNondet            // arbitrary value, chosen anew at each evaluation
	OpVar               // Var (current value)
	OpPrimed            // 'Var inside constrain: the new value
	OpPassive           // Var$: the copy of a local in another thread
	OpNot
	OpAnd
	OpOr
	OpXor
	OpEq
	OpImplies
	OpChoose // schoose[X, Y]
)

// Apply is the value of binary operator op on a and b.
func (op Op) Apply(a, b bool) bool {
	switch op {
	case OpAnd:
		return a && b
	case OpOr:
		return a || b
	case OpXor:
		return a != b
	case OpEq:
		return a == b
	case OpImplies:
		return !a || b
	}
	panic(fmt.Sprintf("ir: operator %d is not binary", op))
}

// Expr is an expression tree.
type Expr struct {
	Op   Op
	Val  bool
	Var  *Var
	X, Y *Expr
}

// Const returns the constant expression v.
func Const(v bool) *Expr { return &Expr{Op: OpConst, Val: v} }

// Not returns !x.
func Not(x *Expr) *Expr { return &Expr{Op: OpNot, X: x} }

// Binary returns x op y.
func Binary(op Op, x, y *Expr) *Expr { return &Expr{Op: op, X: x, Y: y} }

// And is a & b, where a nil operand (no condition) is true.
func And(a, b *Expr) *Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return Binary(OpAnd, a, b)
}

// InstanceEntries are the thread instances of p's fixed threads, in
// order (each ThreadSpec's Count times), as their entry procedures and
// their names in traces: the procedure's name, with #k for the k-th
// instance when there are several.
func (p *Program) InstanceEntries() (entries []*Proc, names []string) {
	count := map[*Proc]int{}
	for _, t := range p.Threads {
		count[t.Proc] += t.Count
	}
	seen := map[*Proc]int{}
	for _, t := range p.Threads {
		for i := 0; i < t.Count; i++ {
			seen[t.Proc]++
			name := t.Proc.Name
			if count[t.Proc] > 1 {
				name = fmt.Sprintf("%s#%d", name, seen[t.Proc])
			}
			entries, names = append(entries, t.Proc), append(names, name)
		}
	}
	return entries, names
}

// Disabled reports whether e's guard is the constant false: the step is
// never taken (FoldConstantGlobals leaves such steps).
func (e *Edge) Disabled() bool { return e.Guard != nil && e.Guard.Op == OpConst && !e.Guard.Val }

// TouchesShared reports whether e reads or writes a global, uses a lock
// or changes atomicity: the steps after which the sequentializations
// offer a context switch (one elsewhere can be moved back to such a point
// without changing what other threads see).
func (e *Edge) TouchesShared() bool {
	if e.Lock != nil || e.Atomic != NoMark {
		return true
	}
	for _, t := range e.Targets {
		if t != nil && t.Global {
			return true
		}
	}
	return readsGlobal(append(append([]*Expr{e.Guard, e.Constrain, e.Cond}, e.Values...), e.Args...))
}

// readsGlobal reports whether one of xs reads a global.
func readsGlobal(xs []*Expr) bool {
	reads := false
	for _, x := range xs {
		x.Walk(func(y *Expr) {
			if y.Var != nil && y.Var.Global {
				reads = true
			}
		})
	}
	return reads
}

// IsNondetDecider reports whether e is `*` or a negation of it: as a
// decider (the condition of if, while or assume, which is taken when it
// can be true) it is the same as `*`.
func IsNondetDecider(e *Expr) bool {
	for e != nil && e.Op == OpNot {
		e = e.X
	}
	return e != nil && e.Op == OpNondet
}

// Walk calls f for e and every subexpression.
func (e *Expr) Walk(f func(*Expr)) {
	if e == nil {
		return
	}
	f(e)
	e.X.Walk(f)
	e.Y.Walk(f)
}

// ProcByName returns the procedure called name, or nil.
func (p *Program) ProcByName(name string) *Proc {
	for _, pr := range p.Procs {
		if pr.Name == name {
			return pr
		}
	}
	return nil
}

// Instances is the number of thread instances p starts with, or an error
// when a thread has unboundedly many.
func (p *Program) Instances() (int, error) {
	n := 0
	for _, t := range p.Threads {
		if t.Unbounded {
			return 0, fmt.Errorf("thread %s has unboundedly many instances", t.Proc.Name)
		}
		n += t.Count
	}
	return n, nil
}
