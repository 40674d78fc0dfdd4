package ir_test

import (
	"context"
	"testing"

	"bmc/ir"
)

// TestLiveLocals checks liveness on a loop: a local read after the loop
// is live through it, one written before every read is dead before the
// write, and one never read is dead everywhere.
func TestLiveLocals(t *testing.T) {
	src := `decl g;
void main()
begin
  decl a, b, c;
  a := g;
  while (g) do
    b := a;
    g := b;
  od
  c := T;
  assert(a);
end
`
	p, _, err := ir.Load(context.Background(), "live.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr := p.ProcByName("main")
	live := ir.LiveLocals(pr)
	a, b, c := 0, 1, 2
	seen := map[int]bool{}
	for _, n := range pr.Nodes {
		for _, e := range n.Out {
			line := e.Pos.Line
			got := live[e.From]
			want := map[int][3]bool{ // a, b, c live before the step at line
				5:  {false, false, false},
				6:  {true, false, false},
				7:  {true, false, false},
				8:  {true, true, false},
				10: {true, false, false},
				11: {true, false, false},
			}
			w, ok := want[line]
			if !ok {
				continue
			}
			seen[line] = true
			if got[a] != w[0] || got[b] != w[1] || got[c] != w[2] {
				t.Errorf("line %d (%s): live a, b, c = %v, %v, %v; want %v", line, e.Stmt, got[a], got[b], got[c], w)
			}
		}
	}
	if len(seen) != 6 {
		t.Errorf("steps checked at lines %v, want 5, 6, 7, 8, 10, 11", seen)
	}
}
