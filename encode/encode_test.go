package encode

import (
	"testing"

	"bmc/ir"
)

func load(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, _, err := ir.Load("t.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBlocks checks which statements form one step.
func TestBlocks(t *testing.T) {
	p := load(t, `decl a, b;
bool f(x) begin return !x; end
void main() begin
  a := T; b := F; a := a & b;
  if a then b := T; else b := F; fi
  a := f(b);
  b := a;
  L: a := !a; goto L;
end`)
	en, err := Encode(p, 4)
	if err != nil {
		t.Fatal(err)
	}
	byHead := map[string]*Block{}
	for _, b := range en.blocks {
		byHead[b.Proc.Name+":"+b.Proc.Nodes[b.Head].Stmt] = b
	}
	cases := []struct {
		head  string
		path  int    // straight-line edges
		last  string // the statement whose edges end the step
		nOuts int
	}{
		{"main:a := T;", 3, "if a then", 2},     // three assignments, then the branch
		{"main:b := T;", 0, "b := T;", 1},       // a branch target is a head
		{"main:a := f(b);", 0, "a := f(b);", 1}, // the call ends the step
		{"main:b := a;", 0, "b := a;", 1},       // the call's continuation is a head
		{"main:a := !a;", 1, "goto L;", 1},      // the loop head (two predecessors)
		{"f:return !x;", 0, "return !x;", 1},    // entry of f
	}
	for _, c := range cases {
		b := byHead[c.head]
		if b == nil {
			t.Errorf("no block at %q; heads: %v", c.head, keys(byHead))
			continue
		}
		if len(b.Path) != c.path || b.Last.Stmt != c.last || len(b.Last.Out) != c.nOuts {
			t.Errorf("%s: path %d, last %q with %d edges; want %d, %q, %d", c.head, len(b.Path), b.Last.Stmt, len(b.Last.Out), c.path, c.last, c.nOuts)
		}
	}
	small, err := EncodeWith(p, Options{Depth: 4, SmallSteps: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range small.blocks {
		if len(b.Path) != 0 {
			t.Errorf("small steps: block at %q has %d straight-line edges", b.Proc.Nodes[b.Head].Stmt, len(b.Path))
		}
	}
	if len(small.blocks) <= len(en.blocks) {
		t.Errorf("small steps: %d blocks, large: %d", len(small.blocks), len(en.blocks))
	}
}

func keys(m map[string]*Block) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestRejectsConcurrentPrograms(t *testing.T) {
	for _, src := range []string{
		`thread void a() begin skip; end thread void b() begin skip; end`,
		`void t() begin skip; end void main() begin start_thread t(); end`,
		`void main() begin start_thread goto L; L: skip; end`,
	} {
		if _, err := Encode(load(t, src), 4); err == nil {
			t.Errorf("accepted %q", src)
		}
	}
	if _, err := Encode(load(t, `void main() begin skip; end`), 0); err == nil {
		t.Error("accepted depth 0")
	}
	// Depth 1: every call overflows; the encoding must still be built.
	if _, err := Encode(load(t, `void f() begin skip; end void main() begin f(); end`), 1); err != nil {
		t.Error(err)
	}
}
