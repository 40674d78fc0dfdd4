package ir

import (
	"reflect"
	"strings"
	"testing"
)

// step is an edge of a hand-built procedure: from, to (-1: return).
type step struct {
	from, to int
	kind     Kind
	forkTo   int
}

// graphProc builds a procedure of n nodes, entered at node 0.
func graphProc(n int, steps ...step) *Proc {
	pr := &Proc{Name: "f"}
	for i := 0; i < n; i++ {
		pr.Nodes = append(pr.Nodes, &Node{ID: i})
	}
	for _, s := range steps {
		e := &Edge{Proc: pr, From: s.from, To: s.to, Kind: s.kind, ForkTo: s.forkTo}
		pr.Nodes[s.from].Out = append(pr.Nodes[s.from].Out, e)
	}
	return pr
}

// diamond branches at 0 and meets at 3, which returns.
func diamond() *Proc {
	return graphProc(4, step{0, 1, Skip, 0}, step{0, 2, Skip, 0}, step{1, 3, Skip, 0}, step{2, 3, Skip, 0}, step{3, -1, Return, 0})
}

// loop enters 1, loops 1 -> 2 -> 1 and returns from 2.
func loop() *Proc {
	return graphProc(3, step{0, 1, Skip, 0}, step{1, 2, Skip, 0}, step{2, 1, Skip, 0}, step{2, -1, Return, 0})
}

func TestSuccessors(t *testing.T) {
	cases := []struct {
		name string
		pr   *Proc
		want [][]int
	}{
		{"diamond", diamond(), [][]int{{1, 2}, {3}, {3}, nil}},
		{"fork after its target", graphProc(2, step{0, 1, Fork, 0}, step{1, -1, EndThread, 0}), [][]int{{1, 0}, nil}},
		{"targets outside the graph", graphProc(1, step{0, 7, Skip, 0}, step{0, 0, Fork, -3}), [][]int{{0}}},
	}
	for _, c := range cases {
		if got := Successors(c.pr); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Successors = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDominators(t *testing.T) {
	cases := []struct {
		name      string
		succs     [][]int
		root      int
		idom      []int
		dominates [][2]int // pairs (a, b) where a dominates b
		not       [][2]int
	}{
		{
			name:      "diamond",
			succs:     [][]int{{1, 2}, {3}, {3}, nil},
			idom:      []int{-1, 0, 0, 0},
			dominates: [][2]int{{0, 3}, {0, 0}, {1, 1}},
			not:       [][2]int{{1, 3}, {2, 3}, {3, 0}},
		},
		{
			name:      "loop with an unreachable node",
			succs:     [][]int{{1}, {2}, {1, 3}, nil, {3}},
			idom:      []int{-1, 0, 1, 2, -1},
			dominates: [][2]int{{1, 3}, {2, 3}},
			not:       [][2]int{{3, 1}, {4, 3}, {3, 4}},
		},
		{
			name:  "root not in the graph",
			succs: [][]int{{1}, nil},
			root:  5,
			idom:  []int{-1, -1},
			not:   [][2]int{{0, 1}, {0, 0}},
		},
		{
			name:      "successor not in the graph",
			succs:     [][]int{{1, 9, -1}, nil},
			idom:      []int{-1, 0},
			dominates: [][2]int{{0, 1}},
			not:       [][2]int{{0, 9}, {-1, 0}},
		},
	}
	for _, c := range cases {
		d := Dominators(c.succs, c.root)
		if !reflect.DeepEqual(d.Idom, c.idom) {
			t.Errorf("%s: Idom = %v, want %v", c.name, d.Idom, c.idom)
		}
		for _, ab := range c.dominates {
			if !d.Dominates(ab[0], ab[1]) {
				t.Errorf("%s: %d does not dominate %d", c.name, ab[0], ab[1])
			}
		}
		for _, ab := range c.not {
			if d.Dominates(ab[0], ab[1]) {
				t.Errorf("%s: %d dominates %d", c.name, ab[0], ab[1])
			}
		}
	}
}

func TestPostDominators(t *testing.T) {
	cases := []struct {
		name string
		pr   *Proc
		idom []int // the last node is the virtual exit
	}{
		{"diamond meets at 3", diamond(), []int{3, 3, 3, 4, -1}},
		{"loop left from 2", loop(), []int{1, 2, 3, -1}},
		{"a node without steps is an exit", graphProc(2, step{0, 1, Skip, 0}), []int{1, 2, -1}},
	}
	for _, c := range cases {
		if got := PostDominators(c.pr).Idom; !reflect.DeepEqual(got, c.idom) {
			t.Errorf("%s: Idom = %v, want %v", c.name, got, c.idom)
		}
	}
}

func TestLoopHeads(t *testing.T) {
	cases := []struct {
		name string
		pr   *Proc
		want []int
	}{
		{"no loop", diamond(), nil},
		{"loop", loop(), []int{1}},
		{"fork back to the entry", graphProc(2, step{0, 1, Skip, 0}, step{1, 1, Fork, 0}), []int{1, 0}},
		{"loop not reached from the entry", graphProc(3, step{0, -1, Return, 0}, step{1, 2, Skip, 0}, step{2, 1, Skip, 0}), []int{1}},
		{"entry not in the graph", &Proc{Entry: 3, Nodes: loop().Nodes}, []int{1}},
	}
	for _, c := range cases {
		if got := LoopHeads(c.pr); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: LoopHeads = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTopoOrder(t *testing.T) {
	cases := []struct {
		name    string
		pr      *Proc
		want    []int
		wantErr string
	}{
		{"diamond", diamond(), []int{0, 2, 1, 3}, ""},
		{"unreached nodes are left out", graphProc(3, step{0, 2, Skip, 0}, step{1, 2, Skip, 0}), []int{0, 2}, ""},
		{"loop", loop(), nil, "f has a loop at"},
		{"entry not in the graph", &Proc{Name: "f", Entry: -1, Nodes: diamond().Nodes}, nil, "f has no entry node"},
	}
	for _, c := range cases {
		got, err := TopoOrder(c.pr)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !reflect.DeepEqual(got, c.want):
			t.Errorf("%s: TopoOrder = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCallDepth(t *testing.T) {
	cases := []struct {
		name, src string
		want      int
	}{
		{"no calls", `void main() begin skip; end`, 1},
		{"nested calls", `void g() begin skip; end void f() begin g(); end void main() begin f(); g(); end`, 3},
		{"spawns add no frame", `void f() begin skip; end void main() begin start_thread f(); end`, 1},
		{"recursion", `void f() begin f(); end void main() begin f(); end`, -1},
	}
	for _, c := range cases {
		p := mustLoad(t, c.src, Options{})
		if got := CallDepth(p.ProcByName("main")); got != c.want {
			t.Errorf("%s: CallDepth = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestLoops checks the loop nest: bodies, nesting, the innermost loop of
// each node, an order without back edges, and the error on a cycle
// entered at two nodes.
func TestLoops(t *testing.T) {
	// 0 -> 1; outer loop at 1: 1 -> 2, inner loop at 2: 2 -> 3 -> 2,
	// 3 -> 4 -> 1; 1 -> 5 returns.
	nested := graphProc(6, step{0, 1, Skip, 0}, step{1, 2, Skip, 0}, step{2, 3, Skip, 0}, step{3, 2, Skip, 0},
		step{3, 4, Skip, 0}, step{4, 1, Skip, 0}, step{1, 5, Skip, 0}, step{5, -1, Return, 0})
	cases := []struct {
		name      string
		pr        *Proc
		heads     []int         // outer loops first
		innermost []int         // by node: the head of its innermost loop, -1: none
		body      map[int][]int // by head
		err       string
	}{
		{"diamond", diamond(), nil, []int{-1, -1, -1, -1}, nil, ""},
		{"loop", loop(), []int{1}, []int{-1, 1, 1}, map[int][]int{1: {1, 2}}, ""},
		{"nested", nested, []int{1, 2}, []int{-1, 1, 2, 2, 1, -1}, map[int][]int{1: {1, 2, 3, 4}, 2: {2, 3}}, ""},
		{"two entries", graphProc(3, step{0, 1, Skip, 0}, step{0, 2, Skip, 0}, step{1, 2, Skip, 0}, step{2, 1, Skip, 0}), nil, nil, nil, "entered other than at its head"},
	}
	for _, c := range cases {
		nest, err := Loops(c.pr)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var heads []int
		for _, l := range nest.Loops {
			heads = append(heads, l.Head)
			var body []int
			for n, in := range l.Body {
				if in {
					body = append(body, n)
				}
			}
			if !reflect.DeepEqual(body, c.body[l.Head]) {
				t.Errorf("%s: body of the loop at %d: %v, want %v", c.name, l.Head, body, c.body[l.Head])
			}
			for _, in := range l.Inner {
				if in.Outer != l {
					t.Errorf("%s: the loop at %d is inside %d but names another outer loop", c.name, in.Head, l.Head)
				}
			}
		}
		if !reflect.DeepEqual(heads, c.heads) {
			t.Errorf("%s: heads %v, want %v", c.name, heads, c.heads)
		}
		for n, l := range nest.Innermost {
			h := -1
			if l != nil {
				h = l.Head
			}
			if h != c.innermost[n] {
				t.Errorf("%s: innermost loop of node %d at %d, want %d", c.name, n, h, c.innermost[n])
			}
		}
		pos := map[int]int{}
		for i, n := range nest.Order {
			pos[n] = i
		}
		for _, nd := range c.pr.Nodes {
			for _, e := range nd.Out {
				back := false
				for _, l := range nest.Loops {
					back = back || e.To == l.Head && l.Body[e.From]
				}
				if e.To >= 0 && !back && pos[e.From] >= pos[e.To] {
					t.Errorf("%s: %d -> %d is not a back edge but goes back in the order %v", c.name, e.From, e.To, nest.Order)
				}
			}
		}
	}
}
