package decompile

import (
	"regexp"
	"strconv"
	"strings"

	"bmc/ir"
	"bmc/lang"
)

type namer map[string]bool

// take returns base, or base_2, base_3, ... when taken, and reserves it.
func (n namer) take(base string) string {
	name := base
	for i := 2; n[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	n[name] = true
	return name
}

// sanitize maps a name to a plain identifier of the classic syntax.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	name := string(b)
	if name == "" || '0' <= name[0] && name[0] <= '9' {
		name = "_" + name
	}
	if name == "_" || name == "print" || lang.Lookup(name) != lang.IDENT {
		// print is a statement of Moped's and of some other dialects.
		name += "_"
	}
	return name
}

// isGetafixThread mirrors the front end's rule for programs without the
// `thread` keyword: main, or a name longer than six characters starting
// with "thread" in any case.
func isGetafixThread(name string) bool {
	if strings.EqualFold(name, "main") {
		return true
	}
	return len(name) > 6 && strings.EqualFold(name[:6], "thread")
}

const atomicInfix = "__VERIFIER_atomic_"

var builtinProcs = map[string]bool{"acquire": true, "release": true, "tryacquire": true, "print": true}

var asyncLabel = regexp.MustCompile(`^ASYNC_[0-9]+$`)

// procBase is the name a procedure asks for before collisions.
func (f *formatter) procBase(pr *ir.Proc) string {
	if pr == f.p.Init {
		return "init"
	}
	name := sanitize(pr.Name)
	if name == "init" || builtinProcs[name] {
		name += "_"
	}
	if pr.Atomic && !strings.Contains(name, atomicInfix) {
		name = atomicInfix + name
	}
	for !pr.Atomic && strings.Contains(name, atomicInfix) {
		name = strings.ReplaceAll(name, atomicInfix, "__VERIFIER_nonatomic_")
	}
	if f.getafix && f.count[pr] == 0 {
		switch {
		case strings.EqualFold(name, "main"):
			name += "_"
		case isGetafixThread(name):
			name = "p_" + name
		}
	}
	return name
}

// reserveTarget keeps a dialect's one target label (anyTargets) from
// every other name, so that nothing hides it, and returns n.
func (f *formatter) reserveTarget(n namer) namer {
	if !f.dialect.anyTargets {
		n[f.p.Targets[0]] = true
	}
	return n
}

func (f *formatter) names() {
	p := f.p
	f.globalName = map[*ir.Var]string{}
	f.lockName = map[*ir.Lock]string{}
	f.procName = map[*ir.Proc]string{}
	f.allNames = map[string]bool{}
	reserveAtomic := false
	for {
		g := f.reserveTarget(namer{})
		if reserveAtomic {
			g["atomic"] = true
		}
		f.atomicVar = nil
		for _, v := range p.Globals {
			f.globalName[v] = g.take(sanitize(v.Name))
			if f.getafix && f.dialect.threads && f.globalName[v] == "atomic" {
				f.atomicVar = v
			}
		}
		for _, l := range p.Locks {
			f.lockName[l] = g.take(sanitize(l.Name))
		}
		if f.atomicVar == nil || f.atomicMarksAgree() {
			break
		}
		// The front end would add or miss marks: print the marks as
		// atomic_begin/atomic_end and keep the name `atomic` unused.
		reserveAtomic = true
	}
	pn := f.reserveTarget(namer{})
	threads := len(f.count)
	// Fixed names first, so that no other procedure takes them.
	if p.Init != nil {
		f.procName[p.Init] = pn.take("init")
	}
	if f.getafix && threads == 1 {
		for pr := range f.count {
			f.procName[pr] = pn.take("main")
		}
	}
	for _, pr := range p.Procs {
		if _, ok := f.procName[pr]; !ok {
			f.procName[pr] = pn.take(f.procBase(pr))
		}
	}
	for _, n := range f.globalName {
		f.allNames[n] = true
	}
	for _, n := range f.lockName {
		f.allNames[n] = true
	}
	for _, n := range f.procName {
		f.allNames[n] = true
	}
}

// derivedMark is the atomic mark the front end gives a printed assignment
// to targets in Getafix style.
func (f *formatter) derivedMark(e *ir.Edge) ir.AtomicMark {
	if f.atomicVar == nil {
		return ir.NoMark
	}
	for i, v := range e.Targets {
		if v == f.atomicVar && i < len(e.Values) && e.Values[i] != nil && e.Values[i].Op == ir.OpConst {
			if e.Values[i].Val {
				return ir.AtomicBegin
			}
			return ir.AtomicEnd
		}
	}
	return ir.NoMark
}

func (f *formatter) atomicMarksAgree() bool {
	for _, pr := range f.p.Procs {
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				if e.Kind == ir.Assign && assignTargets(e) > 0 && f.derivedMark(e) != e.Atomic {
					return false
				}
			}
		}
	}
	return true
}

// assignTargets counts the targets an Assign edge is printed with.
func assignTargets(e *ir.Edge) int {
	n := len(e.PassiveTargets)
	for _, v := range e.Targets {
		if v != nil {
			n++
		}
	}
	return n
}
