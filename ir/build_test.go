package ir

import (
	"context"
	"strings"
	"testing"

	"bmc/lang"
)

func mustLoad(t *testing.T, src string, opts Options) *Program {
	t.Helper()
	p, _, err := Load(context.Background(), "t.bpl", []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// edgesFrom returns the edges leaving the node whose statement starts
// at the given line and column.
func edgesFrom(t *testing.T, pr *Proc, line, col int) []*Edge {
	t.Helper()
	for _, n := range pr.Nodes {
		if n.Pos == (lang.Pos{Line: line, Col: col}) && len(n.Out) > 0 {
			return n.Out
		}
	}
	t.Fatalf("no node at %d:%d in %s", line, col, pr.Name)
	return nil
}

func TestLowering(t *testing.T) {
	src := `decl g;
void main() begin
  decl x;
  if x then g := T; elsif g then skip; else x := F; fi
  while g do g := *; od
  goto a, b;
  a: assert(x);
  b: return;
end`
	p := mustLoad(t, src, Options{})
	main := p.ProcByName("main")

	// if: two complementary edges from the test, to then-branch and elsif test.
	out := edgesFrom(t, main, 4, 3)
	if len(out) != 2 || out[1].Guard.Op != OpNot || out[1].Guard.X != out[0].Guard {
		t.Fatalf("if test: want guards c and !c, got %d edges", len(out))
	}
	if got := main.Nodes[out[0].To].Stmt; got != "g := T;" {
		t.Errorf("then-branch starts with %q", got)
	}
	if got := main.Nodes[out[1].To].Stmt; got != "elsif g then" {
		t.Errorf("else of if goes to %q, want the elsif test", got)
	}
	// The then-branch continues after the whole if, at the while test.
	then := main.Nodes[out[0].To].Out[0]
	if got := main.Nodes[then.To].Stmt; got != "while g do" {
		t.Errorf("after then-branch: %q", got)
	}
	// while: the body loops back to the test.
	w := edgesFrom(t, main, 5, 3)
	body := main.Nodes[w[0].To].Out[0]
	if body.To != w[0].From {
		t.Errorf("while body does not return to the test")
	}
	// goto a, b: two unguarded edges.
	g := edgesFrom(t, main, 6, 3)
	if len(g) != 2 || g[0].Guard != nil || main.Nodes[g[0].To].Labels[0] != "a" || main.Nodes[g[1].To].Labels[0] != "b" {
		t.Errorf("goto a, b lowered wrongly")
	}
	// assert and return.
	if a := edgesFrom(t, main, 7, 6); a[0].Kind != Assert || a[0].Cond == nil {
		t.Errorf("assert lowered to %v", a[0].Kind)
	}
	if r := edgesFrom(t, main, 8, 6); r[0].Kind != Return || r[0].To != -1 {
		t.Errorf("return lowered to %v -> %d", r[0].Kind, r[0].To)
	}
	// Falling off end is a return step at the `end` position.
	end := edgesFrom(t, main, 9, 1)
	if end[0].Kind != Return || end[0].Stmt != "end" {
		t.Errorf("end lowered to %v %q", end[0].Kind, end[0].Stmt)
	}
	// Every edge carries a source position.
	for _, e := range p.Edges {
		if !e.Pos.IsValid() || e.Stmt == "" {
			t.Errorf("edge %d (%v) has no position or text", e.ID, e.Kind)
		}
	}
}

func TestLoweringDialects(t *testing.T) {
	getafix := `decl atomic, g;
void init() begin atomic := F; endinit: skip; g := T; end
void __VERIFIER_atomic_set() begin g := T; end
void thread1() begin atomic := T; g := F; atomic := F; __VERIFIER_atomic_set(); end
void main() begin decl at; atomic, at := T, T; atomic, at := F, F; end`
	p := mustLoad(t, getafix, Options{})
	if p.InitStop < 0 || p.Init.Nodes[p.InitStop].Labels[0] != "endinit" {
		t.Errorf("InitStop does not point at endinit")
	}
	if !p.ProcByName("__VERIFIER_atomic_set").Atomic {
		t.Errorf("__VERIFIER_atomic_ procedure not marked atomic")
	}
	marks := map[string]AtomicMark{}
	for _, e := range p.Edges {
		if e.Atomic != NoMark {
			marks[e.Proc.Name+":"+e.Stmt] = e.Atomic
		}
	}
	want := map[string]AtomicMark{
		"thread1:atomic := T;": AtomicBegin, "thread1:atomic := F;": AtomicEnd,
		"main:atomic, at := T, T;": AtomicBegin, "main:atomic, at := F, F;": AtomicEnd,
		"init:atomic := F;": AtomicEnd,
	}
	for k, v := range want {
		if marks[k] != v {
			t.Errorf("%s: mark %v, want %v", k, marks[k], v)
		}
	}
	var names []string
	for _, th := range p.Threads {
		names = append(names, th.Proc.Name)
	}
	if strings.Join(names, ",") != "thread1,main" {
		t.Errorf("threads %v, want thread1,main", names)
	}

	boom := `void main() begin decl l; l, l$ := T, F; start_thread goto w; end_thread; w: skip; end`
	p = mustLoad(t, boom, Options{})
	var sawBroadcast, sawFork bool
	for _, e := range p.Edges {
		sawBroadcast = sawBroadcast || len(e.PassiveTargets) == 1 && len(e.Targets) == 1
		sawFork = sawFork || e.Kind == Fork && p.Procs[0].Nodes[e.ForkTo].Labels[0] == "w"
	}
	if !sawBroadcast || !sawFork {
		t.Errorf("broadcast %v, fork %v", sawBroadcast, sawFork)
	}
}

func TestOptions(t *testing.T) {
	src := `thread void a() begin skip; end thread void b() begin L: skip; end void c() begin skip; end`
	cases := []struct {
		threads, target string
		want            string // threads as name*count, or an error substring
	}{
		{"", "", "a*1 b*1"},
		{"b=3", "", "a*1 b*3"},
		{"a=0,c=2", "", "b*1 c*2"},
		{"b=*", "", "a*1 b*inf"},
		{"d=1", "", "no function named d"},
		{"", "L", "a*1 b*1"},
		{"", "M", "no label M"},
		{"a=0,b=0", "", "no thread instances"},
	}
	for _, c := range cases {
		opts := Options{Target: c.target}
		if c.threads != "" {
			tc, err := ParseThreads(c.threads)
			if err != nil {
				t.Fatalf("%s: %v", c.threads, err)
			}
			opts.Threads = tc
		}
		p, _, err := Load(context.Background(), "t.bpl", []byte(src), opts)
		var got string
		if err != nil {
			got = err.Error()
		} else {
			var parts []string
			for _, th := range p.Threads {
				n := "inf"
				if !th.Unbounded {
					n = string(rune('0' + th.Count))
				}
				parts = append(parts, th.Proc.Name+"*"+n)
			}
			got = strings.Join(parts, " ")
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("threads %q target %q: got %q, want %q", c.threads, c.target, got, c.want)
		}
	}
	for _, bad := range []string{"a", "a=", "=1", "a=-1", "a=x", "a=1,a=2"} {
		if _, err := ParseThreads(bad); err == nil {
			t.Errorf("ParseThreads(%q) accepted", bad)
		}
	}
}
