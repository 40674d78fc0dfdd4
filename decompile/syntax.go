package decompile

import (
	"fmt"

	"bmc/ir"
	"bmc/lang"
)

// Syntax is the dialect a program is printed in.
type Syntax uint8

const (
	// Classic is the syntax bmc reads: every construct of the language,
	// concurrency included.
	Classic Syntax = iota
	// Moped is the part of the classic syntax that Moped 1.0.15 reads with
	// the meaning bmc gives it (its grammar, bp.y, as listed in
	// shared/peers/MOPED.md). WriteSyntax prints only sequential programs
	// without locks, init, enforce, atomic marks, assertions, constrain
	// clauses, dead variables, initial values, discarded call results or
	// nondeterminism inside an expression; the package moped lowers a
	// program into that form. The printer then differs from Classic only
	// in its text: `goto A, B;` becomes an `if (*) then goto A; elsif ...`
	// chain, `*` as a value becomes `schoose[F, F]` (a decider keeps `*`),
	// a statement carries one label (others precede it on `skip`s), no
	// label is a number, no statement list is empty, `!` applies only to
	// a primary, and no local shares its name with a global or function.
	Moped
)

func (s Syntax) String() string { return s.dialect().name }

// dialect is what a syntax reads and how it spells it. The printer asks
// it rather than which syntax it prints, so that the differences are
// all here. A program with something the dialect does not read is
// refused with an error naming it (refuseProgram, misses, and the
// printer where the construct is printed).
type dialect struct {
	name string // in error messages

	// What it reads with bmc's meaning. threads: several threads,
	// start_thread, end_thread, locks, x$ and atomic sections
	// (atomic_begin/end, atomic procedures, Getafix's global `atomic`).
	threads       bool
	init          bool // an init procedure
	assert        bool // assert (Moped reads it as assume)
	dead          bool // dead variables
	constrain     bool // constrain clauses; else a guard is an assume before the assignment
	discard       bool // discarded call results: `a, _ := f();`
	initialValues bool // `decl x := T;`
	enforce       bool // enforce clauses (Moped checks them at other points)
	// anyTargets: every target label is printed, followed by `error`
	// when it is not a default target; else the program has exactly one
	// target, an identifier, which every error node carries and no other
	// name takes, so that nothing hides it.
	anyTargets bool

	// How it spells what it reads.
	numericLabels bool // labels may be numbers
	multiLabels   bool // several labels on a statement; else the others precede it on skips
	multiGoto     bool // `goto A, B;`; else an if (*) chain (gotoChain)
	emptyLists    bool // an empty statement list; else `skip;`
	doubleNot     bool // `!!x`; else `!(!x)`: ! applies to a primary
	// nondet: `*` and schoose anywhere in an expression; else `*` only
	// as a whole condition (if, while, assume) and schoose only as a
	// whole value in a list (assigned, passed, returned), where a value
	// `*` is spelled schoose[F, F].
	nondet bool
	// shadowing: a local may share its name with a global or function
	// its function does not use; else no local shares a global's or a
	// function's name (Moped refuses one).
	shadowing bool
}

var (
	classic = dialect{
		name:    "classic",
		threads: true, init: true, assert: true, dead: true, constrain: true,
		discard: true, initialValues: true, enforce: true, anyTargets: true,
		numericLabels: true, multiLabels: true, multiGoto: true,
		emptyLists: true, doubleNot: true, nondet: true, shadowing: true,
	}
	// Moped's is the zero dialect: none of the above.
	moped = dialect{name: "Moped"}
)

func (s Syntax) dialect() *dialect {
	if s == Moped {
		return &moped
	}
	return &classic
}

// refuseProgram refuses what the dialect cannot run as bmc would: a
// program that is not sequential, locks, init, atomic procedures, or
// targets other than one label.
func (f *formatter) refuseProgram() {
	p, d := f.p, f.dialect
	switch {
	case !d.threads && !f.sequential:
		f.errorf(lang.Pos{}, "%s reads sequential programs only: this one has threads", d.name)
	case !d.threads && len(p.Locks) > 0:
		f.errorf(p.Locks[0].Pos, "lock %s: %s has no locks", p.Locks[0].Name, d.name)
	case !d.init && p.Init != nil:
		f.errorf(p.Init.Pos, "%s has no init procedure; call it from main", d.name)
	case !d.anyTargets && (len(p.Targets) != 1 || !f.isLabel(p.Targets[0])):
		f.errorf(lang.Pos{}, "%s reaches one label, an identifier; the program's targets are %v", d.name, p.Targets)
	}
	for _, t := range p.Threads {
		if t.Count > 0 && t.Proc.Atomic && !d.threads {
			f.errorf(t.Proc.Pos, "%s has no atomic procedures (%s)", d.name, t.Proc.Name)
		}
	}
}

// misses names what edge e has that the dialect cannot read, or "".
func (d *dialect) misses(e *ir.Edge) string {
	if !d.threads {
		switch {
		case e.Atomic != ir.NoMark:
			return "an atomic mark"
		case len(e.PassiveTargets) > 0:
			return "a broadcast (x$)"
		case e.Kind == ir.Call && e.Spawn:
			return "a thread start"
		case e.Kind == ir.Acquire || e.Kind == ir.Release || e.Kind == ir.TryAcquire:
			return "a lock operation"
		case e.Kind == ir.Fork || e.Kind == ir.EndThread:
			return "a thread operation"
		}
	}
	switch {
	case e.Kind == ir.Havoc && !d.dead:
		return "dead variables"
	case e.Kind == ir.Assert && !d.assert:
		return fmt.Sprintf("an assertion (%s reads assert as assume)", d.name)
	case e.Kind == ir.Assign && e.Constrain != nil && !d.constrain:
		return "a constrain clause"
	case e.Kind == ir.Call && !d.discard:
		if n := targets(e); n > 0 && n < len(e.Targets) {
			return "a discarded result"
		}
	}
	return ""
}
