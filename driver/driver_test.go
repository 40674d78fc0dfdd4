package driver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/smt"
)

func TestUsageErrors(t *testing.T) {
	seq, _, err := ir.Load(context.Background(), "s.bpl", []byte(`void main() begin assert(F); end`), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conc, _, err := ir.Load(context.Background(), "c.bpl", []byte(`thread void a() begin skip; end thread void b() begin skip; end`), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := method.Options{Engine: "auto", Solver: "gini", MaxSteps: 5, Bounds: method.DefaultBounds()}
	cases := []struct {
		name string
		p    *ir.Program
		mod  func(*method.Options)
		want string // substring of a *UsageError; "" for success
	}{
		{"auto on one thread races bmc and explicit", seq, func(o *method.Options) {}, ""},
		{"auto on threads is explicit", conc, func(o *method.Options) {}, ""},
		{"unknown engine", seq, func(o *method.Options) { o.Engine = "magic" }, `unknown engine "magic"`},
		{"unknown solver", seq, func(o *method.Options) { o.Solver = "foo" }, `unknown solver "foo"`},
		{"bmc on threads without a bound", conc, func(o *method.Options) { o.Engine = "bmc" }, "needs a bound"},
		{"bmc on threads with a bound", conc, func(o *method.Options) { o.Engine = "bmc"; o.Bounds.Rounds = 1 }, ""},
		{"unknown sequentialization", conc, func(o *method.Options) { o.Seq = "greedy" }, `unknown sequentialization "greedy"`},
		// Names are checked whether or not the engine reads them.
		{"unknown solver, explicit engine", conc, func(o *method.Options) { o.Engine, o.Solver = "explicit", "foo" }, `unknown solver "foo"`},
		{"unknown sequentialization, explicit engine", conc, func(o *method.Options) { o.Engine, o.Seq = "explicit", "greedy" }, `unknown sequentialization "greedy"`},
		{"a sequentialization for the explicit engine", conc, func(o *method.Options) { o.Engine, o.Seq = "explicit", "lazy" }, "--seq lazy needs the bmc engine"},
	}
	if !smt.Available {
		cases = append(cases, struct {
			name string
			p    *ir.Program
			mod  func(*method.Options)
			want string
		}{"z3 without Z3", seq, func(o *method.Options) { o.Solver = "z3" }, "built without Z3"})
	}
	for _, c := range cases {
		o := base
		c.mod(&o)
		res, err := Check(context.Background(), c.p, o)
		var ue *result.UsageError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "" && res == nil:
			t.Errorf("%s: no result", c.name)
		case c.want != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want a usage error with %q", c.name, err, c.want)
		}
	}
	// Auto races BMC and the explicit engine on a one-thread program.
	res, _ := Check(context.Background(), seq, base)
	if len(res.Plan) != 2 || res.Plan[0].Engine != "bmc+gini" || res.Plan[1].Engine != "explicit" || res.Verdict != result.Unsafe {
		t.Errorf("auto on one thread: %s by %s, plan %v", res.Verdict, res.Engine, res.Plan)
	}
}
