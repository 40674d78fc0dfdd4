package decompile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
)

// Write prints p as a Boolean program in the classic syntax: `decl`
// globals, `void`/`bool<n>` functions with `begin decl ...; ... end`,
// labels, `goto`, `if (e) then ... fi`, `while (e) do ... od`, `assume`,
// `assert`, `skip`, parallel assignments with `constrain`, calls,
// `return`, `dead`, `*`, `schoose`, `T`/`F`, `enforce`; concurrent
// programs add `lock`, `thread`, acquire/release/tryacquire,
// atomic_begin/atomic_end, start_thread, end_thread and `x$`.
// Loading the text with ir.Load (default Options) gives a program with
// the same behaviour (the same verdicts under every bound; a step may be
// split into a few, see below). Nothing is written when an error is
// returned; an error names the construct that has no faithful text.
//
// How the graph is printed:
//   - Each node is one statement (or a short run of statements), printed
//     in flow order: a successor that is printed next is reached by falling
//     through, any other by `goto L;` (one extra step, local to the
//     thread; a `skip` followed by it becomes the goto). Two complementary
//     Skip edges (guards c and !c) become `if (c) then ... [else ...] fi`
//     or `while (c) do ... od` (dominators and post-dominators find the
//     bodies and where branches meet); several unguarded Skip edges become
//     `goto L1, L2;`; any other node with several edges is
//     `goto L1, ..., Ln;` followed by one labelled block per edge.
//   - A guard is folded into the step when the step allows it (assume for
//     Skip, constrain for Assign and Havoc); otherwise it becomes
//     `assume(g);` right before the step. Atomic marks that the step cannot
//     carry become `atomic_begin;` before it or `atomic_end;` after it. In
//     a concurrent program such a split is refused when another thread
//     could observe it (the guard reads shared state, the step can block
//     inside the new atomic section, or the section would end after a
//     callee or before a return).
//   - A Return with nil Values is `return;` (arbitrary results in a bool
//     function; the last one may be left to falling off `end`). An Error
//     node carries its own target label, or else p.Targets[0] (`error`
//     without targets), followed by `error` when that is not a default
//     label, so that both --target and the defaults find it; no other
//     node carries a target label. InitStop carries `endinit`. Original
//     labels are kept where a goto needs a label and they are
//     unambiguous; other jump labels are L<node> or L<node>_<edge>,
//     avoiding every label, variable and function name.
//   - Threads: a program with one thread instance and no spawns is printed
//     without the `thread` keyword, its thread being `main` (the classic
//     sequential program); so are programs whose threads already follow
//     the Getafix naming rule. Otherwise thread functions are marked
//     `thread`; a thread with Count n > 1 is printed n times (name,
//     name_2, ...). Unbounded thread counts are rejected.
//
// Names: every character outside [A-Za-z0-9_] becomes '_', a leading
// digit gets a '_' prefix, keywords and `_` get a '_' suffix, and a name
// already taken in its name space gets _2, _3, ... (globals and locks
// first, then functions, then each function's parameters and locals, in
// program order, so the result is deterministic and collision-free).
// Function names are further adjusted so that the front end reads them
// as intended: only p.Init is `init`; `acquire`, `release`, `tryacquire`
// and `print` get a '_' suffix; Atomic procedures contain
// `__VERIFIER_atomic_` and no other does; without the `thread` keyword,
// exactly the thread functions follow the Getafix rule (`main` or
// thread...). A local that would hide a global or lock its function uses
// is renamed.
//
// A sequentialization with many contexts prints to hundreds of megabytes,
// so ctx is watched; when it ends first, nothing is written and the error
// is its cause.
func Write(ctx context.Context, w io.Writer, p *ir.Program) error {
	return WriteSyntax(ctx, w, p, Classic)
}

// WriteSyntax prints p in the given syntax: Classic is Write's; Moped
// (see Syntax) takes only programs already within Moped's reach and
// refuses the others with an error naming the construct.
func WriteSyntax(ctx context.Context, w io.Writer, p *ir.Program, syntax Syntax) (err error) {
	defer halt.Recover(&err)
	f := &formatter{p: p, ctx: ctx, syntax: syntax}
	var buf bytes.Buffer
	f.program(&buf)
	if f.err != nil {
		return f.err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

type formatter struct {
	ctx        context.Context
	p          *ir.Program
	syntax     Syntax
	err        error
	sequential bool // one thread instance, no spawns: interleaving is moot
	getafix    bool // threads chosen by the Getafix naming rule, not `thread`
	// atomicVar is the global printed as `atomic` in Getafix style, whose
	// constant assignments the front end reads as atomic marks.
	atomicVar  *ir.Var
	shared     map[*ir.Var]bool // globals and locals written by broadcasts
	globalName map[*ir.Var]string
	lockName   map[*ir.Lock]string
	procName   map[*ir.Proc]string
	count      map[*ir.Proc]int // thread instances per thread procedure
	allNames   map[string]bool
	errLabels  []string
}

func (f *formatter) errorf(pos lang.Pos, format string, args ...any) {
	if f.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if pos.IsValid() {
		file := f.p.File
		if file == "" {
			file = "program"
		}
		msg = fmt.Sprintf("%s:%s: %s", file, pos, msg)
	}
	f.err = fmt.Errorf("decompile: %s", msg)
}

// ---- names ----

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

func (f *formatter) names() {
	p := f.p
	f.globalName = map[*ir.Var]string{}
	f.lockName = map[*ir.Lock]string{}
	f.procName = map[*ir.Proc]string{}
	f.allNames = map[string]bool{}
	reserveAtomic := false
	// Moped's target label is no other name, so that nothing hides it.
	reserved := func(n namer) namer {
		if f.syntax == Moped {
			n[p.Targets[0]] = true
		}
		return n
	}
	for {
		g := reserved(namer{})
		if reserveAtomic {
			g["atomic"] = true
		}
		f.atomicVar = nil
		for _, v := range p.Globals {
			f.globalName[v] = g.take(sanitize(v.Name))
			if f.getafix && f.syntax == Classic && f.globalName[v] == "atomic" {
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
	pn := reserved(namer{})
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

// ---- program ----

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
	if f.syntax == Moped {
		f.mopedProgram()
		if f.err != nil {
			return
		}
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
	if f.syntax == Moped {
		f.errLabels = p.Targets[:1] // mopedProgram checked it
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

// isLabel reports whether s can be written as a label in f's syntax:
// Moped's labels are identifiers only.
func (f *formatter) isLabel(s string) bool {
	return isLabelName(s) && (f.syntax == Classic || strings.Trim(s, "0123456789") != "")
}

// declList prints `decl a, b := T;` in lines of at most eight names.
func (f *formatter) declList(buf *bytes.Buffer, indent string, vars []*ir.Var, names map[*ir.Var]string) {
	for i := 0; i < len(vars); i += 8 {
		var parts []string
		for _, v := range vars[i:min(i+8, len(vars))] {
			s := names[v]
			if v.Init != ir.Unknown && f.syntax == Moped {
				f.errorf(v.Pos, "variable %s has an initial value, which Moped's decl cannot give", v.Name)
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

// ---- procedures ----

// procFmt prints one procedure.
type procFmt struct {
	*formatter
	pr    *ir.Proc
	local map[*ir.Var]string
	fwd   [][]int     // sources of forward edges into each node
	pdom  *ir.DomTree // post-dominators; node len(Nodes) is the exit
	stops []int       // where the enclosing nested chains end
	depth int         // nesting of the block being printed
	// reachable marks the nodes reachable from the entry.
	reachable []bool
	done      []bool
	branch    [][2]int // branch key - len(Nodes) -> node, edge index
	refs      map[int]bool
	label     map[int]string
}

type stmtKind uint8

const (
	kSimple stmtKind = iota
	kGoto
	kFork
	kIf
	kWhile
)

// stmt is one printed statement; jumps are resolved to label names when
// the whole procedure is laid out.
type stmt struct {
	kind  stmtKind
	node  int // the node whose labels precede the statement, or -1
	key   int // a branch label preceding the statement, or -1
	text  string
	jumps []int // goto / start_thread goto targets (node or branch keys)
	cond  string
	then  []*stmt
	els   []*stmt
	// skip is a plain `skip` that may become the goto that follows it;
	// ret is a plain `return` that may be left to falling off `end`.
	skip, ret bool
}

func simple(text string) *stmt { return &stmt{kind: kSimple, node: -1, key: -1, text: text} }

func (f *formatter) proc(buf *bytes.Buffer, pr *ir.Proc, name string) {
	halt.Point(f.ctx)
	pf := &procFmt{formatter: f, pr: pr, local: map[*ir.Var]string{}, refs: map[int]bool{}, label: map[int]string{}}
	if pr.Params > len(pr.Locals) || pr.Returns < 0 || pr.Returns > 1024 {
		f.errorf(pr.Pos, "procedure %s has %d parameters but %d locals, or %d results", pr.Name, pr.Params, len(pr.Locals), pr.Returns)
		return
	}
	if len(pr.Nodes) == 0 || pr.Entry < 0 || pr.Entry >= len(pr.Nodes) {
		f.errorf(pr.Pos, "procedure %s has no entry node", pr.Name)
		return
	}
	pf.localNames()
	if f.count[pr] > 0 || pr == f.p.Init {
		for _, v := range pr.Locals[:pr.Params] {
			if v.Init != ir.Unknown {
				f.errorf(v.Pos, "parameter %s of thread function %s has an initial value, which the program text cannot express", v.Name, pr.Name)
			}
		}
	}
	body := pf.layout()
	if f.err != nil {
		return
	}
	pf.nameLabels(body)

	if f.count[pr] > 0 && !f.getafix {
		buf.WriteString("thread ")
	}
	switch pr.Returns {
	case 0:
		buf.WriteString("void ")
	case 1:
		buf.WriteString("bool ")
	default:
		fmt.Fprintf(buf, "bool<%d> ", pr.Returns)
	}
	var params []string
	for _, v := range pr.Locals[:pr.Params] {
		params = append(params, pf.local[v])
	}
	fmt.Fprintf(buf, "%s(%s)\nbegin\n", name, strings.Join(params, ", "))
	if len(pr.Locals) > pr.Params {
		f.declList(buf, "  ", pr.Locals[pr.Params:], pf.local)
	}
	if pr.Enforce != nil {
		if f.syntax == Moped {
			// Moped checks enforce at other points than bmc does.
			f.errorf(pr.Pos, "procedure %s has an enforce clause, which Moped reads differently", pr.Name)
		}
		fmt.Fprintf(buf, "  enforce %s;\n", pf.expr(pr.Enforce, exprCtx{what: "enforce"}))
	}
	// Falling off `end` is the return of an unlabelled last `return;`.
	if n := len(body); n > 0 && body[n-1].ret && len(pf.labels(body[n-1])) == 0 {
		body = body[:n-1]
	}
	pf.print(buf, body, 1)
	buf.WriteString("end\n")
}

// localNames names parameters and locals, avoiding the names of the
// globals and locks the procedure uses, which they would hide.
func (pf *procFmt) localNames() {
	n := namer{"_": true}
	if pf.syntax == Moped {
		// Moped refuses a local named like a global or function.
		for name := range pf.allNames {
			n[name] = true
		}
		n[pf.p.Targets[0]] = true
	}
	isLocal := map[*ir.Var]bool{}
	for _, v := range pf.pr.Locals {
		isLocal[v] = true
	}
	use := func(e *ir.Expr) {
		e.Walk(func(x *ir.Expr) {
			if x.Var != nil && !isLocal[x.Var] {
				if name, ok := pf.globalName[x.Var]; ok {
					n[name] = true
				}
			}
		})
	}
	use(pf.pr.Enforce)
	for _, nd := range pf.pr.Nodes {
		for _, e := range nd.Out {
			use(e.Guard)
			use(e.Constrain)
			use(e.Cond)
			for _, list := range [][]*ir.Expr{e.Values, e.PassiveValues, e.Args} {
				for _, x := range list {
					use(x)
				}
			}
			for _, v := range e.Targets {
				if v != nil && !isLocal[v] {
					if name, ok := pf.globalName[v]; ok {
						n[name] = true
					}
				}
			}
			if e.Lock != nil {
				if name, ok := pf.lockName[e.Lock]; ok {
					n[name] = true
				}
			}
		}
	}
	for _, v := range pf.pr.Locals {
		pf.local[v] = n.take(sanitize(v.Name))
	}
}

func (pf *procFmt) varName(v *ir.Var, pos lang.Pos) string {
	if name, ok := pf.local[v]; ok {
		return name
	}
	if name, ok := pf.globalName[v]; ok {
		return name
	}
	name := "<nil>"
	if v != nil {
		name = v.Name
	}
	pf.errorf(pos, "variable %s used in %s is neither a global nor one of its locals", name, pf.pr.Name)
	return "_"
}

// ---- layout ----

// layout orders the nodes: from the entry along the flow, then every node
// not placed yet, in node order.
func (pf *procFmt) layout() []*stmt {
	nodes := pf.pr.Nodes
	pf.analyze()
	pf.done = make([]bool, len(nodes))
	var body []*stmt
	start := pf.pr.Entry
	for start >= 0 && pf.err == nil {
		out, exit := pf.chain(start, -1, false)
		body = append(body, out...)
		if exit >= 0 {
			body = pf.appendGoto(body, exit)
		}
		start = -1
		for i := range nodes {
			if !pf.done[i] {
				start = i
				break
			}
		}
	}
	return body
}

// analyze finds, per node, the sources of the edges into it except back
// edges (from nodes it dominates), and the post-dominator tree. A node
// whose forward predecessors are all printed can follow the last one,
// even inside a nested block: the others jump to it, and back edges
// close a while loop or jump too. The immediate post-dominator of a test
// is where its branches meet.
func (pf *procFmt) analyze() {
	succs := ir.Successors(pf.pr)
	dom := ir.Dominators(succs, pf.pr.Entry)
	pf.reachable = dom.Reachable
	pf.fwd = make([][]int, len(succs))
	for u, ss := range succs {
		for _, t := range ss {
			if !dom.Dominates(t, u) {
				pf.fwd[t] = append(pf.fwd[t], u)
			}
		}
	}
	pf.pdom = ir.PostDominators(pf.pr)
}

// chain prints node n and its successors for as long as they can follow
// by falling through. It stops before stop (reached by falling through)
// and returns the node the last statement continues at when that node
// cannot follow (the caller adds a goto), or -1. Nested chains (inside if
// and while bodies and branch blocks) take only nodes whose other forward
// predecessors are printed already.
func (pf *procFmt) chain(n, stop int, nested bool) ([]*stmt, int) {
	if stop >= 0 {
		pf.stops = append(pf.stops, stop)
		defer func() { pf.stops = pf.stops[:len(pf.stops)-1] }()
	}
	var out []*stmt
	for pf.err == nil {
		pf.done[n] = true
		code, cont, how := pf.node(n, stop, nested)
		out = append(out, code...)
		switch {
		case cont < 0:
			return out, -1
		case cont == stop:
			return out, stop
		case !pf.claimable(cont, nested):
			if how == soft {
				return out, -1
			}
			return out, cont
		}
		n = cont
	}
	return out, -1
}

// claimable reports whether node n can be printed next. Inside nested
// blocks it must not be where an enclosing block ends, and its other
// forward predecessors must be printed already.
func (pf *procFmt) claimable(n int, nested bool) bool {
	if pf.done[n] {
		return false
	}
	for _, s := range pf.stops {
		if s == n {
			return false
		}
	}
	for _, u := range pf.fwd[n] {
		if !pf.done[u] && (nested || pf.reachable[u]) {
			return false
		}
	}
	return true
}

// appendGoto continues list at node or branch key x.
func (pf *procFmt) appendGoto(list []*stmt, x int) []*stmt {
	pf.refs[x] = true
	if k := len(list); k > 0 && list[k-1].skip {
		// A skip followed by a goto is the goto: one step either way.
		last := list[k-1]
		last.kind, last.jumps, last.skip = kGoto, []int{x}, false
		return list
	}
	return append(list, &stmt{kind: kGoto, node: -1, key: -1, jumps: []int{x}})
}

// block prints a nested chain from n; it ends by falling through to stop
// (falls) or with a jump.
func (pf *procFmt) block(n, stop int) (out []*stmt, falls bool) {
	out, exit := pf.chain(n, stop, true)
	if exit >= 0 && exit == stop {
		return out, true
	}
	if exit >= 0 {
		out = pf.appendGoto(out, exit)
	}
	return out, false
}

// continuation says how the code of a node continues at its successor.
type continuation uint8

const (
	hard continuation = iota // falls through: the successor follows or is jumped to
	soft                     // jumps there anyway; placing it next is optional
)

// node prints node n. It returns the statements and the node the last one
// continues at (-1: none).
func (pf *procFmt) node(n, stop int, nested bool) ([]*stmt, int, continuation) {
	nd := pf.pr.Nodes[n]
	out := nd.Out
	for _, e := range out {
		pf.checkEdge(e)
	}
	if pf.err != nil {
		return nil, -1, hard
	}
	switch {
	case len(out) == 0:
		// No step is possible here, which is what assume(F) does.
		s := simple("assume(F)")
		s.node = n
		return []*stmt{s}, -1, hard
	case len(out) == 1:
		code := pf.edgeCode(out[0])
		code[0].node = n
		return code, out[0].To, hard
	}
	plainSkips := true
	for _, e := range out {
		plainSkips = plainSkips && e.Kind == ir.Skip && e.Atomic == ir.NoMark && guardOf(e) == nil
	}
	if plainSkips {
		s := &stmt{kind: kGoto, node: n, key: -1}
		for _, e := range out {
			s.jumps = append(s.jumps, e.To)
			pf.refs[e.To] = true
		}
		return []*stmt{s}, out[0].To, soft
	}
	if c, then, els, ok := ifShape(out); ok {
		return pf.ifNode(n, stop, nested, c, then, els)
	}
	// General choice: goto one block per edge; the last block falls
	// through to its successor.
	s := &stmt{kind: kGoto, node: n, key: -1}
	code := []*stmt{s}
	for i, e := range out {
		key := len(pf.pr.Nodes) + len(pf.branch)
		pf.branch = append(pf.branch, [2]int{n, i + 1})
		s.jumps = append(s.jumps, key)
		pf.refs[key] = true
		ec := pf.edgeCode(e)
		ec[0].key = key
		code = append(code, ec...)
		if i == len(out)-1 || e.To < 0 {
			continue
		}
		if e.To != stop && pf.claimable(e.To, true) {
			b, _ := pf.block(e.To, -1)
			code = append(code, b...)
		} else {
			code = pf.appendGoto(code, e.To)
		}
	}
	return code, out[len(out)-1].To, hard
}

// ifShape recognises two Skip edges with guards c and !c.
func ifShape(out []*ir.Edge) (c *ir.Expr, then, els int, ok bool) {
	if len(out) != 2 {
		return
	}
	a, b := out[0], out[1]
	if a.Kind != ir.Skip || b.Kind != ir.Skip || a.Atomic != ir.NoMark || b.Atomic != ir.NoMark || a.To < 0 || b.To < 0 {
		return
	}
	ga, gb := a.Guard, b.Guard
	if ga == nil || gb == nil {
		return
	}
	if gb.Op == ir.OpNot && exprEqual(gb.X, ga) {
		return ga, a.To, b.To, true
	}
	if ga.Op == ir.OpNot && exprEqual(ga.X, gb) {
		return gb, b.To, a.To, true
	}
	return
}

// maxDepth bounds the nesting of printed blocks (the parser allows 400
// levels of statements and expressions together); deeper code jumps.
const maxDepth = 64

// ifNode prints a test with guards c and !c as an if or while statement.
func (pf *procFmt) ifNode(n, stop int, nested bool, c *ir.Expr, then, els int) ([]*stmt, int, continuation) {
	s := &stmt{kind: kIf, node: n, key: -1, cond: pf.expr(c, exprCtx{nondet: true, decider: true, what: "a branch condition"})}
	switch {
	case then == n:
		// A test that jumps back to itself is an empty while loop.
		s.kind = kWhile
		return []*stmt{s}, els, hard
	case then == els:
		return []*stmt{s}, els, hard
	case pf.depth >= maxDepth || !pf.claimable(then, true) || then == stop:
		s.then = pf.appendGoto(nil, then)
		return []*stmt{s}, els, hard
	}
	pf.depth++
	defer func() { pf.depth-- }()
	tb, tx := pf.chain(then, els, true)
	switch {
	case tx == n:
		s.kind, s.then = kWhile, tb
		return []*stmt{s}, els, hard
	case tx == els || tx < 0:
		s.then = tb
		return []*stmt{s}, els, hard
	case !pf.claimable(els, true) || els == stop || !pf.joins(n, els, tx):
		// The then branch jumps away; the else branch follows the if.
		s.then = pf.appendGoto(tb, tx)
		return []*stmt{s}, els, hard
	}
	// Both branches meet at tx: if-then-else.
	eb, falls := pf.block(els, tx)
	s.then, s.els = tb, eb
	if !falls && tx != stop && !pf.claimable(tx, nested) {
		// Only the then branch goes on, and not by falling through.
		s.then = pf.appendGoto(tb, tx)
		return []*stmt{s}, -1, hard
	}
	return []*stmt{s}, tx, hard
}

// joins reports whether the then branch of test n, which continues at tx,
// and the else branch starting at els meet at tx: tx is where every path
// from n meets, or the else branch cannot reach tx at all (it returns).
// When the else branch passes an enclosing block's end first, it is not
// nested here but follows the if, so that it reaches that end directly.
func (pf *procFmt) joins(n, els, tx int) bool {
	for _, s := range pf.stops {
		if s != tx && pf.pdom.Dominates(s, els) && pf.pdom.Dominates(tx, s) {
			return false
		}
	}
	if pf.pdom.Idom[n] == tx {
		return true
	}
	// Search from els for tx; a long search counts as reaching it.
	seen := map[int]bool{els: true}
	work := []int{els}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if u == tx || len(seen) > 4096 {
			return false
		}
		for _, e := range pf.pr.Nodes[u].Out {
			if t := e.To; t >= 0 && t < len(pf.pr.Nodes) && !seen[t] {
				seen[t] = true
				work = append(work, t)
			}
		}
	}
	return true
}

func guardOf(e *ir.Edge) *ir.Expr {
	if e.Guard != nil && e.Guard.Op == ir.OpConst && e.Guard.Val {
		return nil
	}
	return e.Guard
}

func exprEqual(a, b *ir.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Op == b.Op && a.Val == b.Val && a.Var == b.Var && exprEqual(a.X, b.X) && exprEqual(a.Y, b.Y)
}

// ---- edges ----

// checkEdge rejects edges whose fields do not fit their kind.
func (pf *procFmt) checkEdge(e *ir.Edge) {
	nodes := len(pf.pr.Nodes)
	switch e.Kind {
	case ir.Return, ir.EndThread:
	default:
		if e.To < 0 || e.To >= nodes {
			pf.errorf(e.Pos, "%s edge in %s leads to node %d, which does not exist", e.Kind, pf.pr.Name, e.To)
		}
	}
	switch e.Kind {
	case ir.Call:
		if _, ok := pf.procName[e.Callee]; !ok || e.Callee == nil {
			pf.errorf(e.Pos, "call in %s to a procedure that is not in the program", pf.pr.Name)
			return
		}
		if len(e.Args) != e.Callee.Params {
			pf.errorf(e.Pos, "call of %s with %d arguments; it takes %d", e.Callee.Name, len(e.Args), e.Callee.Params)
		}
		if targets(e) > 0 && (len(e.Targets) != e.Callee.Returns || e.Spawn) {
			pf.errorf(e.Pos, "call of %s assigns %d results; it returns %d", e.Callee.Name, len(e.Targets), e.Callee.Returns)
		}
	case ir.Return:
		if len(e.Values) > 0 && len(e.Values) != pf.pr.Returns {
			pf.errorf(e.Pos, "return of %d values in %s, which returns %d", len(e.Values), pf.pr.Name, pf.pr.Returns)
		}
	case ir.Acquire, ir.Release, ir.TryAcquire:
		if _, ok := pf.lockName[e.Lock]; !ok {
			pf.errorf(e.Pos, "%s of a lock that is not in the program", e.Kind)
		}
		if e.Kind == ir.TryAcquire && len(e.Targets) > 1 {
			pf.errorf(e.Pos, "tryacquire with %d targets", len(e.Targets))
		}
	case ir.Fork:
		if e.ForkTo < 0 || e.ForkTo >= nodes {
			pf.errorf(e.Pos, "start_thread goto to node %d, which does not exist", e.ForkTo)
		}
	case ir.Assign:
		if len(e.Values) != len(e.Targets) || len(e.PassiveValues) != len(e.PassiveTargets) {
			pf.errorf(e.Pos, "assignment with %d targets and %d values", len(e.Targets)+len(e.PassiveTargets), len(e.Values)+len(e.PassiveValues))
		}
		seen := map[*ir.Var]bool{}
		for _, v := range e.Targets {
			if v != nil && seen[v] {
				pf.errorf(e.Pos, "assignment to %s twice: the front end would read it relationally", v.Name)
			}
			seen[v] = true
		}
	case ir.Skip, ir.Assert, ir.Havoc, ir.EndThread:
	default:
		pf.errorf(e.Pos, "edge of unknown kind %d", e.Kind)
	}
	if e.Kind != ir.Assign && len(e.PassiveTargets) > 0 {
		pf.errorf(e.Pos, "broadcast targets on a %s edge", e.Kind)
	}
}

func targets(e *ir.Edge) int {
	n := 0
	for _, v := range e.Targets {
		if v != nil {
			n++
		}
	}
	return n
}

// edgeCode prints one edge as one statement, or a few when the guard or
// atomic mark cannot be part of it; the last continues at e.To.
func (pf *procFmt) edgeCode(e *ir.Edge) []*stmt {
	if pf.syntax == Moped {
		if what := mopedMisses(e); what != "" {
			pf.errorf(e.Pos, "%s edge in %s has %s, which Moped cannot read", e.Kind, pf.pr.Name, what)
			return []*stmt{simple("skip")}
		}
	}
	guard := guardOf(e)
	guardCtx := exprCtx{nondet: true, decider: true, what: "a guard"}
	if guard != nil {
		pf.expr(guard, guardCtx) // only checks it
	}
	valCtx := exprCtx{nondet: true, list: true, what: "a value"}
	var main *stmt
	carried := false // the statement itself carries the atomic mark
	blocking := false
	switch e.Kind {
	case ir.Skip:
		switch {
		case e.Atomic == ir.AtomicBegin:
			main, carried = simple("atomic_begin"), true
		case e.Atomic == ir.AtomicEnd:
			main, carried = simple("atomic_end"), true
		case guard != nil:
			main, guard = simple("assume("+pf.expr(guard, guardCtx)+")"), nil
		default:
			main = simple("skip")
			main.skip = true
		}
	case ir.Assign:
		main, guard, blocking = pf.assign(e, guard)
		carried = pf.atomicVar != nil && assignTargets(e) > 0
	case ir.Havoc:
		var names []string
		for _, v := range e.Targets {
			if v != nil {
				names = append(names, pf.varName(v, e.Pos))
			}
		}
		switch {
		case len(names) == 0 && guard != nil:
			main, guard = simple("assume("+pf.expr(guard, guardCtx)+")"), nil
		case len(names) == 0:
			main = simple("skip")
		case guard != nil:
			stars := strings.TrimSuffix(strings.Repeat("*, ", len(names)), ", ")
			main = simple(fmt.Sprintf("%s := %s constrain %s", strings.Join(names, ", "), stars, pf.expr(guard, guardCtx)))
			blocking = pf.readsShared(guard)
			guard = nil
		default:
			main = simple("dead " + strings.Join(names, ", "))
		}
	case ir.Assert:
		if e.Cond == nil {
			pf.errorf(e.Pos, "assert without a condition")
			return []*stmt{simple("skip")}
		}
		main = simple("assert(" + pf.expr(e.Cond, guardCtx) + ")")
	case ir.Call:
		var b strings.Builder
		if e.Spawn {
			b.WriteString("start_thread ")
		} else if targets(e) > 0 {
			b.WriteString(pf.targetList(e.Targets, e.Pos) + " := ")
		}
		b.WriteString(pf.procName[e.Callee] + "(" + pf.exprList(e.Args, valCtx) + ")")
		main = simple(b.String())
	case ir.Return:
		text := "return"
		if len(e.Values) > 0 {
			text += " " + pf.exprList(e.Values, valCtx)
		}
		main = simple(text)
		main.ret = guard == nil && e.Atomic == ir.NoMark && len(e.Values) == 0
	case ir.Acquire:
		main, blocking = simple("acquire("+pf.lockName[e.Lock]+")"), true
	case ir.Release:
		main = simple("release(" + pf.lockName[e.Lock] + ")")
	case ir.TryAcquire:
		t := "_"
		if len(e.Targets) == 1 && e.Targets[0] != nil {
			t = pf.varName(e.Targets[0], e.Pos)
		}
		main = simple(t + " := tryacquire(" + pf.lockName[e.Lock] + ")")
	case ir.Fork:
		main = &stmt{kind: kFork, node: -1, key: -1, jumps: []int{e.ForkTo}}
		pf.refs[e.ForkTo] = true
	case ir.EndThread:
		main, carried = simple("end_thread"), true // ending the thread ends its atomic section
	}
	if main == nil || pf.err != nil {
		return []*stmt{simple("skip")}
	}

	var code []*stmt
	concurrent := !pf.sequential
	if guard != nil {
		// The guard becomes a step of its own; another thread could change
		// what it reads before the step is taken. (atomic_end alone has
		// no effect another thread could see.)
		if concurrent && pf.readsShared(guard) && !(e.Kind == ir.Skip && e.Atomic == ir.AtomicEnd) {
			pf.errorf(e.Pos, "guarded %s edge in %s: its guard reads shared variables, so it cannot be split from the step in a concurrent program", e.Kind, pf.pr.Name)
		}
		code = append(code, simple("assume("+pf.expr(guard, guardCtx)+")"))
	}
	mark := e.Atomic
	if carried {
		mark = ir.NoMark
	}
	switch mark {
	case ir.AtomicBegin:
		if concurrent && blocking {
			pf.errorf(e.Pos, "%s edge in %s begins an atomic section but can wait for other threads; atomic_begin before it would block them", e.Kind, pf.pr.Name)
		}
		code = append(code, simple("atomic_begin"), main)
	case ir.AtomicEnd:
		switch {
		case e.Kind == ir.Call && concurrent:
			pf.errorf(e.Pos, "call in %s ends an atomic section on entering the callee, which the program text cannot express", pf.pr.Name)
		case e.Kind == ir.Return && concurrent:
			pf.errorf(e.Pos, "return in %s ends an atomic section, which the program text cannot express", pf.pr.Name)
		case e.Kind == ir.Return:
			// One thread: atomicity changes nothing; keep the mark nearby.
			code = append(code, simple("atomic_end"), main)
		default:
			code = append(code, main, simple("atomic_end"))
		}
	default:
		code = append(code, main)
	}
	if len(code) == 0 { // after an error
		code = append(code, main)
	}
	if len(code) > 1 {
		main.skip = false
	}
	return code
}

// assign prints an Assign edge, folding the guard into the constrain
// clause; it returns the guard when it could not be folded and whether
// the step can be disabled by shared state.
func (pf *procFmt) assign(e *ir.Edge, guard *ir.Expr) (*stmt, *ir.Expr, bool) {
	var names []string
	var vals []string
	valCtx := exprCtx{nondet: true, passive: true, list: true, what: "an assigned value"}
	for i, v := range e.Targets {
		if v == nil {
			continue // a discarded value has no effect
		}
		names = append(names, pf.varName(v, e.Pos))
		vals = append(vals, pf.expr(e.Values[i], valCtx))
	}
	for i, v := range e.PassiveTargets {
		if _, ok := pf.local[v]; !ok {
			pf.errorf(e.Pos, "broadcast to %s, which is not a local of %s", v.Name, pf.pr.Name)
			return simple("skip"), nil, false
		}
		names = append(names, pf.local[v]+"$")
		vals = append(vals, pf.expr(e.PassiveValues[i], valCtx))
	}
	cond := e.Constrain
	if len(names) == 0 {
		// Nothing is assigned: 'x is x, so the step is assume(guard & c).
		if cond != nil {
			cond = unprime(cond)
			cond.Walk(func(x *ir.Expr) {
				if x.Op == ir.OpPassive {
					pf.errorf(e.Pos, "constrain without targets reads other threads' copies (x$)")
				}
			})
		}
		c := ir.And(guard, cond)
		if c == nil {
			s := simple("skip")
			s.skip = true
			return s, nil, false
		}
		return simple("assume(" + pf.expr(c, exprCtx{nondet: true, decider: true, what: "a guard"}) + ")"), nil, false
	}
	text := strings.Join(names, ", ") + " := " + strings.Join(vals, ", ")
	if pf.syntax == Moped {
		// No constrain clause (mopedMisses): the guard goes before.
		return simple(text), guard, false
	}
	c := ir.And(cond, guard)
	if c != nil {
		text += " constrain " + pf.expr(c, exprCtx{nondet: true, primed: true, passive: true, what: "constrain"})
	}
	return simple(text), nil, c != nil && pf.readsShared(c)
}

// unprime returns e with every 'x read as x.
func unprime(e *ir.Expr) *ir.Expr {
	if e == nil {
		return nil
	}
	c := *e
	if c.Op == ir.OpPrimed {
		c.Op = ir.OpVar
	}
	c.X, c.Y = unprime(e.X), unprime(e.Y)
	return &c
}

// readsShared reports whether e reads a variable another thread can write.
func (pf *procFmt) readsShared(e *ir.Expr) bool {
	found := false
	e.Walk(func(x *ir.Expr) {
		found = found || x.Op == ir.OpPassive || x.Var != nil && pf.shared[x.Var]
	})
	return found
}

func (pf *procFmt) targetList(vs []*ir.Var, pos lang.Pos) string {
	var names []string
	for _, v := range vs {
		if v == nil {
			names = append(names, "_")
		} else {
			names = append(names, pf.varName(v, pos))
		}
	}
	return strings.Join(names, ", ")
}

// ---- expressions ----

type exprCtx struct {
	nondet, primed, passive bool
	// decider: the whole expression is the condition of if, while or
	// assume; list: it is one element of a list of values (assigned,
	// passed or returned). Moped's `*` is a decider only, and its
	// schoose an element of such a list only (choose: this one).
	decider, list, choose bool
	what                  string
}

var binOps = map[ir.Op]string{ir.OpImplies: "=>", ir.OpOr: "|", ir.OpXor: "^", ir.OpAnd: "&", ir.OpEq: "="}

func (pf *procFmt) expr(e *ir.Expr, ctx exprCtx) string {
	var b strings.Builder
	if pf.syntax == Moped && e != nil {
		switch {
		case ctx.decider && ir.IsNondetDecider(e):
			return "*"
		case ctx.list && e.Op == ir.OpNondet:
			return "schoose[F, F]"
		}
		ctx.nondet = false // nowhere else
		ctx.choose = ctx.list && e.Op == ir.OpChoose
	}
	pf.writeExpr(&b, e, false, ctx)
	return b.String()
}

func (pf *procFmt) exprList(list []*ir.Expr, ctx exprCtx) string {
	var parts []string
	for _, e := range list {
		parts = append(parts, pf.expr(e, ctx))
	}
	return strings.Join(parts, ", ")
}

// writeExpr prints e; operand says that a binary e needs parentheses.
func (pf *procFmt) writeExpr(b *strings.Builder, e *ir.Expr, operand bool, ctx exprCtx) {
	if e == nil {
		pf.errorf(lang.Pos{}, "missing expression in %s of %s", ctx.what, pf.pr.Name)
		return
	}
	switch e.Op {
	case ir.OpConst:
		if e.Val {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case ir.OpNondet:
		if !ctx.nondet {
			pf.errorf(lang.Pos{}, "* (nondeterministic value) in %s of %s", ctx.what, pf.pr.Name)
		}
		b.WriteByte('*')
	case ir.OpVar:
		b.WriteString(pf.varName(e.Var, lang.Pos{}))
	case ir.OpPrimed:
		if !ctx.primed {
			pf.errorf(lang.Pos{}, "'%s (new value) outside constrain, in %s of %s", nameOf(e.Var), ctx.what, pf.pr.Name)
		}
		b.WriteString("'" + pf.varName(e.Var, lang.Pos{}))
	case ir.OpPassive:
		name, ok := pf.local[e.Var]
		if !ctx.passive || !ok {
			pf.errorf(lang.Pos{}, "%s$ (another thread's copy) in %s of %s", nameOf(e.Var), ctx.what, pf.pr.Name)
		}
		b.WriteString(name + "$")
	case ir.OpNot:
		b.WriteByte('!')
		if pf.syntax == Moped && e.X != nil && e.X.Op == ir.OpNot {
			// Moped's ! applies to a primary: !(!x), not !!x.
			b.WriteByte('(')
			pf.writeExpr(b, e.X, true, ctx)
			b.WriteByte(')')
			break
		}
		pf.writeExpr(b, e.X, true, ctx)
	case ir.OpChoose:
		if pf.syntax == Moped && !ctx.choose {
			pf.errorf(lang.Pos{}, "schoose inside an expression, in %s of %s, which Moped cannot read", ctx.what, pf.pr.Name)
		}
		ctx.choose = false
		b.WriteString("schoose[")
		pf.writeExpr(b, e.X, false, ctx)
		b.WriteString(", ")
		pf.writeExpr(b, e.Y, false, ctx)
		b.WriteByte(']')
	default:
		text, ok := binOps[e.Op]
		if !ok {
			pf.errorf(lang.Pos{}, "unknown operator %d in %s of %s", e.Op, ctx.what, pf.pr.Name)
			return
		}
		// Every binary operand of another operator is parenthesized, so
		// the text does not depend on precedence rules, which differ
		// between tools.
		if operand {
			b.WriteByte('(')
		}
		// Chains of & or of | need no parentheses: a & (b & c) is
		// printed a & b & c.
		pf.writeOperand(b, e.X, e.Op, ctx)
		b.WriteString(" " + text + " ")
		pf.writeOperand(b, e.Y, e.Op, ctx)
		if operand {
			b.WriteByte(')')
		}
	}
}

func (pf *procFmt) writeOperand(b *strings.Builder, x *ir.Expr, op ir.Op, ctx exprCtx) {
	pf.writeExpr(b, x, x == nil || x.Op != op || op != ir.OpAnd && op != ir.OpOr, ctx)
}

func nameOf(v *ir.Var) string {
	if v == nil {
		return "<nil>"
	}
	return v.Name
}

// ---- labels and printing ----

// nameLabels names the referenced jump targets: an original label when it
// is unambiguous, else L<node> or L<node>_<edge>.
func (pf *procFmt) nameLabels(body []*stmt) {
	used := namer{"endinit": true, "error": true, "_": true}
	for n := range pf.allNames {
		used[n] = true
	}
	for n := range pf.local {
		used[pf.local[n]] = true
	}
	for _, l := range pf.errLabels {
		used[l] = true
	}
	for _, t := range pf.p.Targets {
		used[t] = true
	}
	for _, t := range ir.DefaultTargets {
		used[t] = true
	}
	count := map[string]int{}
	for _, nd := range pf.pr.Nodes {
		for _, l := range nd.Labels {
			count[l]++
		}
	}
	nodes := len(pf.pr.Nodes)
	for n := 0; n < nodes; n++ {
		if !pf.refs[n] {
			continue
		}
		for _, l := range pf.pr.Nodes[n].Labels {
			if count[l] == 1 && pf.isLabel(l) && !used[l] && !asyncLabel.MatchString(l) {
				pf.label[n] = used.take(l)
				break
			}
		}
	}
	for _, nd := range pf.pr.Nodes {
		for _, l := range nd.Labels {
			used[l] = true // generated labels never look like program labels
		}
	}
	for n := 0; n < nodes; n++ {
		if pf.refs[n] && pf.label[n] == "" {
			pf.label[n] = used.take("L" + strconv.Itoa(n))
		}
	}
	for i, br := range pf.branch {
		pf.label[nodes+i] = used.take(fmt.Sprintf("L%d_%d", br[0], br[1]))
	}
}

// errorLabels are the labels that make nd an error node: its own target
// label when it has one, else the program's; a label that is not a
// default target is followed by `error`, for loading without --target.
func (pf *procFmt) errorLabels(nd *ir.Node) []string {
	if pf.syntax == Moped {
		return pf.errLabels // one target, which mopedProgram checked
	}
	for _, l := range nd.Labels {
		if !isLabelName(l) || l == "endinit" || asyncLabel.MatchString(l) {
			continue
		}
		for _, t := range pf.p.Targets {
			if l != t {
				continue
			}
			if isDefaultTarget(l) {
				return []string{l}
			}
			return []string{l, "error"}
		}
	}
	return pf.errLabels
}

// labels are the labels that precede s.
func (pf *procFmt) labels(s *stmt) []string {
	var ls []string
	if s.node >= 0 {
		if nd := pf.pr.Nodes[s.node]; nd.Error {
			ls = append(ls, pf.errorLabels(nd)...)
		}
		if pf.pr == pf.p.Init && s.node == pf.p.InitStop {
			ls = append(ls, "endinit")
		}
		if l := pf.label[s.node]; l != "" {
			ls = append(ls, l)
		}
	}
	if s.key >= 0 {
		ls = append(ls, pf.label[s.key])
	}
	return ls
}

func (pf *procFmt) print(buf *bytes.Buffer, list []*stmt, depth int) {
	indent := strings.Repeat("  ", depth)
	if len(list) == 0 && pf.syntax == Moped {
		buf.WriteString(indent + "skip;\n") // Moped has no empty statement list
		return
	}
	for _, s := range list {
		halt.Point(pf.ctx)
		ls := pf.labels(s)
		if pf.syntax == Moped {
			// One label a statement: the others go on skips before it.
			for len(ls) > 1 {
				buf.WriteString(indent + ls[0] + ": skip;\n")
				ls = ls[1:]
			}
		}
		buf.WriteString(indent)
		for _, l := range ls {
			buf.WriteString(l + ": ")
		}
		switch s.kind {
		case kSimple:
			buf.WriteString(s.text + ";\n")
		case kGoto, kFork:
			var ls []string
			for _, j := range s.jumps {
				ls = append(ls, pf.label[j])
			}
			if s.kind == kFork {
				buf.WriteString("start_thread ")
			} else if len(ls) > 1 && pf.syntax == Moped {
				pf.gotoChain(buf, ls, indent)
				continue
			}
			buf.WriteString("goto " + strings.Join(ls, ", ") + ";\n")
		case kIf:
			buf.WriteString("if (" + s.cond + ") then\n")
			pf.print(buf, s.then, depth+1)
			if s.els != nil {
				buf.WriteString(indent + "else\n")
				pf.print(buf, s.els, depth+1)
			}
			buf.WriteString(indent + "fi\n")
		case kWhile:
			buf.WriteString("while (" + s.cond + ") do\n")
			pf.print(buf, s.then, depth+1)
			buf.WriteString(indent + "od\n")
		}
	}
}

// gotoChain prints `goto L1, ..., Ln;` for Moped, whose goto has one
// target: `if (*) then goto L1; elsif (*) then goto L2; ... else goto Ln;
// fi`, a choice of one of them, as before.
func (pf *procFmt) gotoChain(buf *bytes.Buffer, labels []string, indent string) {
	for i, l := range labels {
		switch {
		case i == 0:
			buf.WriteString("if (*) then\n")
		case i < len(labels)-1:
			buf.WriteString(indent + "elsif (*) then\n")
		default:
			buf.WriteString(indent + "else\n")
		}
		buf.WriteString(indent + "  goto " + l + ";\n")
	}
	buf.WriteString(indent + "fi\n")
}
