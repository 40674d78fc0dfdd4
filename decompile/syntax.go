package decompile

import (
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

func (s Syntax) String() string {
	if s == Moped {
		return "Moped"
	}
	return "classic"
}

// mopedProgram refuses what Moped cannot run as bmc would: a program that
// is not sequential, locks, init, or a target other than one label.
func (f *formatter) mopedProgram() {
	p := f.p
	switch {
	case !f.sequential:
		f.errorf(lang.Pos{}, "Moped reads sequential programs only: this one has threads")
	case len(p.Locks) > 0:
		f.errorf(p.Locks[0].Pos, "lock %s: Moped has no locks", p.Locks[0].Name)
	case p.Init != nil:
		f.errorf(p.Init.Pos, "Moped has no init procedure; call it from main")
	case len(p.Targets) != 1 || !f.isLabel(p.Targets[0]):
		f.errorf(lang.Pos{}, "Moped reaches one label, an identifier; the program's targets are %v", p.Targets)
	}
	for _, t := range p.Threads {
		if t.Count > 0 && t.Proc.Atomic {
			f.errorf(t.Proc.Pos, "Moped has no atomic procedures (%s)", t.Proc.Name)
		}
	}
}

// mopedMisses names what edge e has that Moped cannot read, or "".
func mopedMisses(e *ir.Edge) string {
	switch {
	case e.Atomic != ir.NoMark:
		return "an atomic mark"
	case len(e.PassiveTargets) > 0:
		return "a broadcast (x$)"
	}
	switch e.Kind {
	case ir.Havoc:
		return "dead variables"
	case ir.Assert:
		return "an assertion (Moped reads assert as assume)"
	case ir.Assign:
		if e.Constrain != nil {
			return "a constrain clause"
		}
	case ir.Call:
		if e.Spawn {
			return "a thread start"
		}
		if n := targets(e); n > 0 && n < len(e.Targets) {
			return "a discarded result"
		}
	case ir.Acquire, ir.Release, ir.TryAcquire:
		return "a lock operation"
	case ir.Fork, ir.EndThread:
		return "a thread operation"
	}
	return ""
}
