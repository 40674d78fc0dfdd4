package decompile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"bmc/internal/halt"
	"bmc/ir"
)

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
	if !pf.dialect.anyTargets {
		return pf.errLabels // one target, which refuseProgram checked
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
	if len(list) == 0 && !pf.dialect.emptyLists {
		buf.WriteString(indent + "skip;\n")
		return
	}
	for _, s := range list {
		halt.Point(pf.ctx)
		ls := pf.labels(s)
		if !pf.dialect.multiLabels {
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
			} else if len(ls) > 1 && !pf.dialect.multiGoto {
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

// gotoChain prints `goto L1, ..., Ln;` for a dialect whose goto has one
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
