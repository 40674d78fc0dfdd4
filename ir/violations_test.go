package ir_test

import (
	"context"
	"testing"

	"bmc/ir"
)

func TestMayViolate(t *testing.T) {
	cases := []struct {
		name, src string
		fold      bool // after FoldConstantGlobals
		want      bool
	}{
		{"assertion", `decl g; thread void t0() begin assert(g); end`, false, true},
		{"assertion of true", `decl g; thread void t0() begin assert(T | g); end`, false, false},
		{"error label behind false", `decl g; thread void t0() begin if (F & g) then ERROR: skip; fi end`, false, false},
		{"error label behind assume(F)", `decl g; thread void t0() begin assume(F); ERROR: skip; end`, false, false},
		{"error label", `decl g; thread void t0() begin if (g) then ERROR: skip; fi end`, false, true},
		{"in a callee", `decl g; void f() begin assert(g); end thread void t0() begin f(); end`, false, true},
		{"in an unreached procedure", `decl g; void f() begin assert(g); end thread void t0() begin skip; end`, false, false},
		{"a release", `lock l; thread void t0() begin release(l); end`, false, true},
		{"schoose of true", `decl g; thread void t0() begin assert(schoose[T, g]); end`, false, false},
		{"a test the fold cuts off", `decl a; void init() begin a := F; end
thread void t0() begin a := F; if (a) then ERROR: skip; fi end
thread void t1() begin if (a) then ERROR: skip; fi end`, true, false},
		{"the same unfolded", `decl a; void init() begin a := F; end
thread void t0() begin a := F; if (a) then ERROR: skip; fi end
thread void t1() begin if (a) then ERROR: skip; fi end`, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := ir.Load(context.Background(), "p.bpl", []byte(c.src), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.fold {
				p, _ = ir.FoldConstantGlobals(p)
			}
			if got := ir.MayViolate(p); got != c.want {
				t.Errorf("MayViolate = %v, want %v", got, c.want)
			}
		})
	}
}
