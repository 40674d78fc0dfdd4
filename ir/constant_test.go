package ir_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"bmc/ir"
)

// TestConstantGlobals checks which globals keep one value while the
// threads run: every write stores it and the global holds it when init
// ends.
func TestConstantGlobals(t *testing.T) {
	threads := `
thread void t0() begin
  decl l;
  WRITES
  if (a & b & c & d & e) then ERROR: skip; fi
end
`
	cases := []struct {
		name, init, writes string
		want               map[string]bool
	}{
		{"init and threads store one value", "a, b := F, T;", "a := F; b := T;", map[string]bool{"a": false, "b": true}},
		{"two values", "a := F;", "a := F; if (l) then a := T; fi", map[string]bool{}},
		{"never written, arbitrary at first", "", "", map[string]bool{}},
		{"init writes it on one path only", "if (*) then a := F; fi", "a := F;", map[string]bool{}},
		{"init writes it on every path", "if (*) then a := F; else a, b := F, F; fi", "", map[string]bool{"a": false}},
		{"after endinit init does not run", "skip; endinit: a := F;", "", map[string]bool{}},
		{"before endinit", "a := T; endinit: skip;", "", map[string]bool{"a": true}},
		{"a nondeterministic write", "a := F;", "a := *;", map[string]bool{}},
		{"a write with constrain", "a := F;", "a, l := F, * constrain 'l;", map[string]bool{}},
		{"a write of an expression", "a := F;", "a := l & !l;", map[string]bool{}},
		{"a call's result", "a := F;", "a := f();", map[string]bool{}},
		{"dead", "a := F;", "dead a;", map[string]bool{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "decl a, b, c, d, e;\nbool f() begin return F; end\nvoid init() begin\n  " + tc.init + "\nend\n" +
				strings.ReplaceAll(threads, "WRITES", tc.writes)
			p, errs, err := ir.Load(context.Background(), "fold.bpl", []byte(src), ir.Options{})
			if err != nil || len(errs) > 0 {
				t.Fatalf("%v %v\n%s", err, errs, src)
			}
			got := map[string]bool{}
			for g, v := range ir.ConstantGlobals(p) {
				got[g.Name] = v
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("constant globals %v, want %v\n%s", got, tc.want, src)
			}
		})
	}
}

// TestFoldConstantGlobals checks the copy: a thread's test of a constant
// global becomes a constant, init's own reads stay (it may read before
// it writes), the steps keep their IDs, and the error guarded by the
// test is no longer reached (ir.Reached).
func TestFoldConstantGlobals(t *testing.T) {
	src := `decl a, g;
void init() begin
  if (a) then g := T; fi
  a := F;
end
thread void t0() begin
  g := !g;
  if (a & g) then ERROR: skip; fi
  a := F;
end
`
	p, _, err := ir.Load(context.Background(), "fold.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, folded := ir.FoldConstantGlobals(p)
	if len(folded) != 1 || folded[0].Name != "a" {
		t.Fatalf("folded %v, want [a]", folded)
	}
	if q == p {
		t.Fatal("the copy is p itself")
	}
	reads := func(e *ir.Edge, name string) bool {
		found := false
		for _, x := range append([]*ir.Expr{e.Guard, e.Cond}, e.Values...) {
			x.Walk(func(y *ir.Expr) { found = found || y.Var != nil && y.Var.Name == name })
		}
		return found
	}
	for i, e := range q.Edges {
		if e.ID != i || e.Pos != p.Edges[i].Pos {
			t.Fatalf("step %d of the copy is %d at %s, p's at %s", i, e.ID, e.Pos, p.Edges[i].Pos)
		}
		switch {
		case e.Proc.Name == "init" && reads(p.Edges[i], "a") && !reads(e, "a"):
			t.Errorf("init's read of a at %s was folded", e.Pos)
		case e.Proc.Name == "t0" && reads(e, "a"):
			t.Errorf("t0 still reads a at %s", e.Pos)
		}
		if e.Proc.Name == "t0" && p.Edges[i].Guard != nil && reads(p.Edges[i], "a") && e.Guard.Op != ir.OpConst {
			t.Errorf("the guard at %s is not a constant", e.Pos)
		}
	}
	pr := q.ProcByName("t0")
	reached := ir.Reached(pr)
	for _, n := range pr.Nodes {
		if n.Error && reached[n.ID] {
			t.Errorf("the error at %s is still reached", n.Pos)
		}
	}
	if pr0 := p.ProcByName("t0"); !reachedError(pr0) {
		t.Error("in p the error is not reached: the test checks nothing")
	}
}

func reachedError(pr *ir.Proc) bool {
	reached := ir.Reached(pr)
	for _, n := range pr.Nodes {
		if n.Error && reached[n.ID] {
			return true
		}
	}
	return false
}

// TestFoldAfterWrite checks the reads of a global whose writes all store
// one value but which starts arbitrary: folded where the procedure wrote
// it on every path before, kept elsewhere.
func TestFoldAfterWrite(t *testing.T) {
	src := `decl y;
thread void t0() begin
  decl a, b, c, d;
  a := y;
  y := F;
  b := y;
  if (*) then y := F; fi
  c := y;
end
thread void t1() begin
  decl e;
  if (*) then y := F; else y := F; fi
  e := y;
end
thread void t2() begin
  decl f;
  f := y;
end
`
	p, _, err := ir.Load(context.Background(), "fold.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := ir.ConstantGlobals(p); len(c) != 0 {
		t.Errorf("constant everywhere: %v, want none (y starts arbitrary)", c)
	}
	q, folded := ir.FoldConstantGlobals(p)
	if len(folded) != 1 || folded[0].Name != "y" {
		t.Fatalf("folded %v, want [y]", folded)
	}
	want := map[string]bool{"a": false, "b": true, "c": true, "e": true, "f": false} // target: its value folded
	got := map[string]bool{}
	for _, e := range q.Edges {
		if e.Kind == ir.Assign && len(e.Targets) == 1 && !e.Targets[0].Global {
			got[e.Targets[0].Name] = e.Values[0].Op == ir.OpConst
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("folded reads by target %v, want %v", got, want)
	}
}
