package decompile

import (
	"strings"

	"bmc/ir"
	"bmc/lang"
)

type exprCtx struct {
	nondet, primed, passive bool
	// decider: the whole expression is the condition of if, while or
	// assume; list: it is one element of a list of values (assigned,
	// passed or returned). Without the dialect's nondet, `*` is a
	// decider only and schoose an element of such a list only (choose:
	// this one).
	decider, list, choose bool
	what                  string
}

var binOps = map[ir.Op]string{ir.OpImplies: "=>", ir.OpOr: "|", ir.OpXor: "^", ir.OpAnd: "&", ir.OpEq: "="}

func (pf *procFmt) expr(e *ir.Expr, ctx exprCtx) string {
	var b strings.Builder
	if !pf.dialect.nondet && e != nil {
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
		if !pf.dialect.doubleNot && e.X != nil && e.X.Op == ir.OpNot {
			b.WriteByte('(')
			pf.writeExpr(b, e.X, true, ctx)
			b.WriteByte(')')
			break
		}
		pf.writeExpr(b, e.X, true, ctx)
	case ir.OpChoose:
		if !pf.dialect.nondet && !ctx.choose {
			pf.errorf(lang.Pos{}, "schoose inside an expression, in %s of %s, which %s cannot read", ctx.what, pf.pr.Name, pf.dialect.name)
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
