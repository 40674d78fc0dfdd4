package decompile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"bmc/ir"
	"bmc/lang"
)

func (f *formatter) program(buf *bytes.Buffer) {
	p := f.p
	if !f.wellFormed() {
		return
	}
	f.count = map[*ir.Proc]int{}
	spawns, broadcasts := false, false
	for _, pr := range p.Procs {
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				spawns = spawns || e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn
				broadcasts = broadcasts || len(e.PassiveTargets) > 0
			}
		}
	}
	inProgram := map[*ir.Proc]bool{}
	for _, pr := range p.Procs {
		inProgram[pr] = true
	}
	var threadOrder []*ir.Proc
	total, multi := 0, false
	for _, t := range p.Threads {
		switch {
		case t.Proc == nil || !inProgram[t.Proc]:
			f.errorf(lang.Pos{}, "a thread runs a procedure that is not in the program")
		case t.Unbounded:
			f.errorf(t.Proc.Pos, "thread %s has unboundedly many instances (--threads %s=*), which the program text cannot express", t.Proc.Name, t.Proc.Name)
		case f.count[t.Proc] > 0:
			f.errorf(t.Proc.Pos, "thread %s is listed twice", t.Proc.Name)
		case t.Proc == p.Init:
			f.errorf(t.Proc.Pos, "init cannot be a thread")
		case t.Count > 0:
			f.count[t.Proc] = t.Count
			threadOrder = append(threadOrder, t.Proc)
			total += t.Count
			multi = multi || t.Count > 1
		}
	}
	if total == 0 {
		f.errorf(lang.Pos{}, "the program has no thread to run")
	}
	if p.Init != nil && (!inProgram[p.Init] || p.Init.Params > 0) {
		f.errorf(p.Init.Pos, "init must be a procedure of the program without parameters")
	}
	if broadcasts && multi {
		f.errorf(lang.Pos{}, "copies of a thread function would not receive each other's broadcasts (x$); run it with one instance")
	}
	if f.err != nil {
		return
	}
	f.sequential = !spawns && total == 1
	if f.refuseProgram(); f.err != nil {
		return
	}
	f.shared = map[*ir.Var]bool{}
	for _, v := range p.Globals {
		f.shared[v] = true
	}
	for _, pr := range p.Procs {
		for _, n := range pr.Nodes {
			for _, e := range n.Out {
				for _, v := range e.PassiveTargets {
					f.shared[v] = true
				}
			}
		}
	}
	// Without the `thread` keyword only Getafix-named functions are
	// threads; a single thread is renamed main.
	f.getafix = !spawns && !multi
	for _, pr := range threadOrder {
		if len(threadOrder) > 1 && !isGetafixThread(sanitize(pr.Name)) || len(threadOrder) == 1 && pr.Atomic {
			// Renaming would make it a thread or change its atomicity.
			f.getafix = false
		}
	}
	f.names()

	f.errLabels = []string{"error"}
	if !f.dialect.anyTargets {
		f.errLabels = p.Targets[:1] // refuseProgram checked it
	} else if len(p.Targets) > 0 {
		t := p.Targets[0]
		switch {
		case isDefaultTarget(t):
			f.errLabels = []string{t}
		case isLabelName(t) && t != "endinit" && !asyncLabel.MatchString(t):
			f.errLabels = []string{t, "error"}
		}
	}

	if len(p.Globals) > 0 {
		f.declList(buf, "", p.Globals, f.globalName)
	}
	if len(p.Locks) > 0 {
		var ls []string
		for _, l := range p.Locks {
			ls = append(ls, f.lockName[l])
		}
		fmt.Fprintf(buf, "lock %s;\n", strings.Join(ls, ", "))
	}
	// Declaration order decides thread order: thread functions take the
	// places of thread functions in the order of p.Threads.
	order := append([]*ir.Proc(nil), p.Procs...)
	k := 0
	for i, pr := range order {
		if f.count[pr] > 0 {
			order[i] = threadOrder[k]
			k++
		}
	}
	copyNames := namer{}
	for n := range f.allNames {
		copyNames[n] = true
	}
	for _, pr := range order {
		for i := 1; i <= max(1, f.count[pr]); i++ {
			name := f.procName[pr]
			if i > 1 {
				name = copyNames.take(name + "_" + strconv.Itoa(i))
			}
			buf.WriteByte('\n')
			f.proc(buf, pr, name)
			if f.err != nil {
				return
			}
		}
	}
}

// wellFormed rejects missing pieces that would stop the printer.
func (f *formatter) wellFormed() bool {
	p := f.p
	for _, v := range p.Globals {
		if v == nil {
			f.errorf(lang.Pos{}, "nil global variable")
		}
	}
	for _, l := range p.Locks {
		if l == nil {
			f.errorf(lang.Pos{}, "nil lock")
		}
	}
	for _, pr := range p.Procs {
		if pr == nil {
			f.errorf(lang.Pos{}, "nil procedure")
			continue
		}
		for _, v := range pr.Locals {
			if v == nil {
				f.errorf(pr.Pos, "nil local in %s", pr.Name)
			}
		}
		for i, n := range pr.Nodes {
			if n == nil {
				f.errorf(pr.Pos, "nil node %d in %s", i, pr.Name)
				continue
			}
			for _, e := range n.Out {
				if e == nil {
					f.errorf(n.Pos, "nil edge in %s", pr.Name)
				}
			}
		}
	}
	return f.err == nil
}

func isDefaultTarget(s string) bool {
	for _, t := range ir.DefaultTargets {
		if s == t {
			return true
		}
	}
	return false
}

// isLabelName reports whether s can be written as a label: a plain
// identifier of the classic syntax or a number.
func isLabelName(s string) bool {
	if s == "" {
		return false
	}
	if strings.Trim(s, "0123456789") == "" {
		return true
	}
	return sanitize(s) == s
}

// isLabel reports whether s can be written as a label in f's dialect.
func (f *formatter) isLabel(s string) bool {
	return isLabelName(s) && (f.dialect.numericLabels || strings.Trim(s, "0123456789") != "")
}

// declList prints `decl a, b := T;` in lines of at most eight names.
func (f *formatter) declList(buf *bytes.Buffer, indent string, vars []*ir.Var, names map[*ir.Var]string) {
	for i := 0; i < len(vars); i += 8 {
		var parts []string
		for _, v := range vars[i:min(i+8, len(vars))] {
			s := names[v]
			if v.Init != ir.Unknown && !f.dialect.initialValues {
				f.errorf(v.Pos, "variable %s has an initial value, which %s's decl cannot give", v.Name, f.dialect.name)
			}
			switch v.Init {
			case ir.True:
				s += " := T"
			case ir.False:
				s += " := F"
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(buf, "%sdecl %s;\n", indent, strings.Join(parts, ", "))
	}
}
