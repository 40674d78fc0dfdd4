package decompile

import (
	"bytes"
	"fmt"
	"strings"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
)

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
		if !f.dialect.enforce {
			f.errorf(pr.Pos, "procedure %s has an enforce clause, which %s reads differently", pr.Name, f.dialect.name)
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
	n := pf.reserveTarget(namer{"_": true})
	if !pf.dialect.shadowing {
		for name := range pf.allNames {
			n[name] = true
		}
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
