package explicit

import "bmc/ir"

// vset is the set of values an expression can take: each * is an
// independent choice, so a set (not a single value) is the exact result.
type vset uint8

const (
	canF vset = 1
	canT vset = 2
	both      = canF | canT
)

func single(v bool) vset {
	if v {
		return canT
	}
	return canF
}

// value is the variable value that stores a set: Unknown for both.
func (v vset) value() ir.Value {
	switch v {
	case canT:
		return ir.True
	case canF:
		return ir.False
	}
	return ir.Unknown
}

func fromValue(v ir.Value) vset {
	switch v {
	case ir.True:
		return canT
	case ir.False:
		return canF
	}
	return both
}

// env says where the variables of an expression live.
type env struct {
	s       *state
	t       int                  // thread whose top frame holds the locals
	passive int                  // thread holding the x$ copies; -1: use hyp
	hyp     map[*ir.Var]ir.Value // x$ values of a hypothetical passive thread
	post    map[*ir.Var]ir.Value // new values of assignment targets, for 'x
}

func (en *env) read(v *ir.Var) vset { return fromValue(en.s.get(en.s.varSlot(v, en.t))) }

func (en *env) eval(e *ir.Expr) vset {
	switch e.Op {
	case ir.OpConst:
		return single(e.Val)
	case ir.OpNondet:
		return both
	case ir.OpVar:
		return en.read(e.Var)
	case ir.OpPrimed:
		if v, ok := en.post[e.Var]; ok {
			return fromValue(v)
		}
		return en.read(e.Var) // not assigned: the new value is the old one
	case ir.OpPassive:
		if en.passive < 0 {
			return fromValue(en.hyp[e.Var])
		}
		return fromValue(en.s.get(en.s.varSlot(e.Var, en.passive)))
	case ir.OpNot:
		x := en.eval(e.X)
		return (x&canF)<<1 | (x&canT)>>1
	case ir.OpChoose:
		x, y := en.eval(e.X), en.eval(e.Y)
		var r vset
		if x&canT != 0 {
			r |= canT
		}
		if x&canF != 0 {
			if y&canT != 0 {
				r |= canF
			}
			if y&canF != 0 {
				r |= both
			}
		}
		return r
	}
	x, y := en.eval(e.X), en.eval(e.Y)
	var r vset
	for _, a := range [2]bool{false, true} {
		if x&single(a) == 0 {
			continue
		}
		for _, b := range [2]bool{false, true} {
			if y&single(b) == 0 {
				continue
			}
			r |= single(e.Op.Apply(a, b))
		}
	}
	return r
}
