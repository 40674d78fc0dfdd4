package ir

import (
	"slices"
	"testing"
)

// TestGetafixSwitchNodes checks Getafix's switch points on the forms
// its translator treats apart: the pair `atomic, at := T, T` (no region,
// no shared access), `atomic := T` alone (a point, and a region up to
// `atomic := F`), and plain shared and local statements.
func TestGetafixSwitchNodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []int // lines of the statements a switch may precede, besides the first
	}{
		{"pair sections back to back", `
  atomic, at := T, T;
  x := T;
  atomic, at := F, F;
  atomic, at := T, T;
  x := F;
  atomic, at := F, F;`, []int{8, 11}},
		{"sections written alone", `
  atomic := T;
  x := T;
  atomic := F;
  atomic := T;
  x := F;
  atomic := F;`, []int{7, 10}},
		{"shared and local statements", `
  l := T;
  x := l;
  if (l) then skip; fi
  if (x) then l := F; fi
  assume(!y);`, []int{8, 10, 11}},
		{"reading the flag is a shared access", `
  l := atomic;
  atomic, l := T, F;`, []int{7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "decl atomic, x, y;\n\nvoid thread_one()\nbegin\n  decl at, l;\n  skip;" + tc.body + "\nend\n"
			p := mustLoad(t, src, Options{})
			pr := p.ProcByName("thread_one")
			at := GetafixSwitchNodes(p)[pr.Index]
			var lines []int
			for _, n := range pr.Nodes {
				if at[n.ID] && n.ID != pr.Entry {
					lines = append(lines, n.Pos.Line)
				}
			}
			slices.Sort(lines)
			lines = slices.Compact(lines)
			if !at[pr.Entry] || !slices.Equal(lines, tc.want) {
				t.Errorf("switch points at lines %v (entry %v), want %v\n%s", lines, at[pr.Entry], tc.want, src)
			}
		})
	}
	if f := GetafixFlag(mustLoad(t, "decl super_atomic, atomic;\nvoid main() begin skip; end\n", Options{})); f == nil || f.Name != "super_atomic" {
		t.Errorf("GetafixFlag = %v, want the first global declared", f)
	}
}
