package decompile_test

import (
	"bufio"
	"bytes"
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"bmc/decompile"
	"bmc/explicit"
	"bmc/internal/corpus"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// format prints p, failing the test on an error.
func format(t *testing.T, p *ir.Program) string {
	t.Helper()
	var buf bytes.Buffer
	if err := decompile.Write(context.Background(), &buf, p); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

// reload parses printed text back with the default options.
func reload(t *testing.T, name, text string) *ir.Program {
	t.Helper()
	q, _, err := ir.Load(context.Background(), name, []byte(text), ir.Options{})
	if err != nil {
		t.Fatalf("printed program does not load: %v\n%s", err, excerpt(text))
	}
	return q
}

// excerpt is the beginning of a printed program, for failure messages.
func excerpt(text string) string {
	lines := strings.Split(text, "\n")
	if len(lines) > 200 {
		lines = append(lines[:200], "...")
	}
	return strings.Join(lines, "\n")
}

func instances(p *ir.Program) int {
	n := 0
	for _, t := range p.Threads {
		n += t.Count
	}
	return n
}

func spawns(p *ir.Program) bool {
	for _, e := range p.Edges {
		if e.Kind == ir.Fork || e.Kind == ir.Call && e.Spawn {
			return true
		}
	}
	return false
}

// verdict runs the explicit checker; ok is false when it cannot decide.
func verdict(t *testing.T, p *ir.Program, opts explicit.Options) (result.Verdict, bool) {
	t.Helper()
	ck, err := explicit.New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	res := ck.Run(context.Background())
	return res.Verdict, res.Verdict != result.Unknown
}

// sameVerdict checks p and its printed form q under opts.
func sameVerdict(t *testing.T, p, q *ir.Program, opts explicit.Options, text string) bool {
	t.Helper()
	v1, ok1 := verdict(t, p, opts)
	if !ok1 {
		return false
	}
	v2, ok2 := verdict(t, q, opts)
	if !ok2 {
		return false
	}
	if v1 != v2 {
		t.Errorf("verdict %s, printed program %s\n%s", v1, v2, excerpt(text))
	}
	return true
}

// checkShape compares what Write promises to keep.
func checkShape(t *testing.T, p, q *ir.Program) {
	t.Helper()
	if len(p.Globals) != len(q.Globals) || len(p.Locks) != len(q.Locks) {
		t.Errorf("globals/locks: %d/%d became %d/%d", len(p.Globals), len(p.Locks), len(q.Globals), len(q.Locks))
	}
	if instances(p) != instances(q) || spawns(p) != spawns(q) || (p.Init == nil) != (q.Init == nil) || (p.InitStop < 0) != (q.InitStop < 0) {
		t.Errorf("threads: %d instances (spawns %v, init %v) became %d (spawns %v, init %v)",
			instances(p), spawns(p), p.Init != nil, instances(q), spawns(q), q.Init != nil)
	}
}

// TestWriteCorpus round-trips every example and every benchmark program
// and compares explicit verdicts on the small ones.
func TestWriteCorpus(t *testing.T) {
	targets := map[string]string{}
	benchDir := corpus.Optional(t)
	cases, _ := corpus.Load(benchDir)
	for _, c := range cases {
		targets[filepath.Clean(c.Path())] = c.Bounds().Target
	}
	files, _ := filepath.Glob("../examples/*.bpl")
	filepath.WalkDir(benchDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bp") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no programs found")
	}
	start := time.Now()
	var loaded, printed, rejected, compared, fixed int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := ir.Load(context.Background(), path, src, ir.Options{Target: targets[filepath.Clean(path)]})
		if err != nil {
			continue // bad-input cases of the corpus
		}
		loaded++
		var buf bytes.Buffer
		if err := decompile.Write(context.Background(), &buf, p); err != nil {
			rejected++
			t.Logf("%s: rejected: %v", path, err)
			continue
		}
		printed++
		text := buf.String()
		q, _, err := ir.Load(context.Background(), path+".printed", buf.Bytes(), ir.Options{})
		if err != nil {
			t.Errorf("%s: printed program does not load: %v\n%s", path, err, excerpt(text))
			continue
		}
		checkShape(t, p, q)
		// The printed program prints again; mostly identically (the layout
		// may still move a few jumps), which is counted.
		var again bytes.Buffer
		if err := decompile.Write(context.Background(), &again, q); err != nil {
			t.Errorf("%s: printed program is rejected: %v", path, err)
		} else if again.String() == text {
			fixed++
		}
		if len(src) > 12000 || testing.Short() && len(src) > 4000 {
			continue
		}
		opts := explicit.DefaultOptions()
		opts.MaxStates = 200000
		opts.Timeout = 2 * time.Second
		if instances(p) > 1 || spawns(p) {
			opts.Rounds = 2
		}
		if sameVerdict(t, p, q, opts, text) {
			compared++
		}
	}
	t.Logf("%d programs: %d loaded, %d printed and reloaded (%d print identically again), %d rejected by Write, %d verdicts compared; %v",
		len(files), loaded, printed, fixed, rejected, compared, time.Since(start).Round(time.Millisecond))
}

// TestWriteExampleBounds prints every example under the thread counts
// of its `// expect:` lines (so thread functions are printed several
// times) and compares explicit verdicts under the bounds of those lines.
func TestWriteExampleBounds(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.bpl")
	compared := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(src))
		for sc.Scan() {
			rest, ok := strings.CutPrefix(sc.Text(), "// expect:")
			if !ok {
				break
			}
			opts := explicit.DefaultOptions()
			opts.MaxStates = 300000
			opts.Timeout = 5 * time.Second
			var lo ir.Options
			fields := strings.Fields(rest)[1:]
			usable := true
			for i := 0; i+1 < len(fields); i += 2 {
				n, _ := strconv.Atoi(fields[i+1])
				switch fields[i] {
				case "--switches":
					opts.Switches = n
				case "-k":
					opts.Rounds = n
				case "--depth":
					opts.Depth = n
				case "--threads":
					if lo.Threads, err = ir.ParseThreads(fields[i+1]); err != nil {
						t.Fatal(err)
					}
					if strings.Contains(fields[i+1], "=*") {
						usable = false // every number of threads: no program text says that
					}
				default:
					usable = false // --lasso, --max-steps: not explicit's business
				}
			}
			if !usable {
				continue
			}
			p, _, err := ir.Load(context.Background(), path, src, lo)
			if err != nil {
				t.Fatal(err)
			}
			text := format(t, p)
			q := reload(t, path, text)
			if instances(p) != instances(q) {
				t.Errorf("%s %v: %d thread instances became %d", path, fields, instances(p), instances(q))
			}
			if sameVerdict(t, p, q, opts, text) {
				compared++
			}
		}
	}
	t.Logf("%d verdicts compared", compared)
}

// TestWriteSemantics round-trips small programs whose verdict depends
// on one construct each (atomicity, init, labels, spawns, broadcasts, ...)
// and checks the expected verdict on both.
func TestWriteSemantics(t *testing.T) {
	type tc struct {
		name    string
		src     string
		threads string // --threads
		target  string // --target
		rounds  int    // 0: every interleaving
		want    result.Verdict
		text    string // a substring of the printed program
	}
	cases := []tc{
		{name: "if-then-else and while", src: `decl x, y, z; void main() begin
			if x then y := T; elsif z then y := F; else y := x; fi
			while !z do z := T; od
			assert(y = x & z); end`, want: result.Safe, text: "else"},
		{name: "atomic section", src: `decl g;
			void init() begin g := F; end
			thread void a() begin atomic_begin; g := T; g := F; atomic_end; end
			thread void b() begin assert(!g); end`, want: result.Safe, text: "atomic_begin;"},
		{name: "Getafix atomic variable", src: `decl atomic, g;
			void init() begin atomic := F; g := F; endinit: skip; end
			void thread1() begin atomic := T; g := T; g := F; atomic := F; end
			void main() begin assert(!g); end`, rounds: 4, want: result.Safe, text: "void thread1()"},
		{name: "Getafix atomic variable, thread printed twice", src: `decl atomic, g;
			void init() begin atomic := F; g := F; endinit: skip; end
			void thread1() begin atomic := T; g := T; g := F; atomic := F; end
			void main() begin assert(!g); end`, threads: "thread1=2", rounds: 3, want: result.Safe, text: "atomic := F;\n  atomic_end;"},
		{name: "atomic is an ordinary variable with thread functions", src: `decl atomic, g;
			void init() begin atomic := F; g := F; end
			thread void a() begin atomic := T; g := T; g := F; atomic := F; end
			thread void b() begin assert(!g); end`, want: result.Unsafe},
		{name: "__VERIFIER_atomic call", src: `decl g;
			void init() begin g := F; end
			void __VERIFIER_atomic_flip() begin g := T; g := F; end
			void thread1() begin __VERIFIER_atomic_flip(); end
			void main() begin assert(!g); end`, want: result.Safe},
		{name: "init stops at endinit", src: `decl g;
			void init() begin g := T; endinit: skip; g := F; end
			void main() begin assert(g); end`, want: result.Safe, text: "endinit:"},
		{name: "error label in init", src: `void init() begin SLIC_ERROR: skip; end void main() begin skip; end`, want: result.Unsafe},
		{name: "repeated error labels", src: `decl g; void main() begin
			if g then SLIC_ERROR: skip; else SLIC_ERROR: skip; fi end`, want: result.Unsafe},
		{name: "custom target", src: `void main() begin decl x; if x then error: skip; fi if !x then MINE: skip; fi end`,
			target: "MINE", want: result.Unsafe, text: "MINE: error:"},
		{name: "custom target, default labels are plain", src: `void main() begin error: skip; assume(F); MINE: skip; end`,
			target: "MINE", want: result.Safe},
		{name: "goto to a label that is also an error label", src: `void main() begin goto ERROR; ERROR: skip; end`, want: result.Unsafe},
		{name: "locks", src: `decl in; lock m;
			void init() begin in := F; end
			thread void a() begin acquire(m); in := T; assert(in); in := F; release(m); end
			thread void b() begin decl t; t := tryacquire(m); if t then in := T; in := F; release(m); fi end`, want: result.Safe},
		{name: "release of a lock not held", src: `lock m; thread void a() begin release(m); end`, want: result.Unsafe},
		{name: "enforce", src: `decl g; void f() begin enforce g; g := F; assert(F); end void main() begin g := T; f(); end`,
			want: result.Safe, text: "enforce g;"},
		{name: "local shadows global", src: `decl g; void main() begin decl g; g := F; assert(!g); end`, want: result.Safe},
		{name: "standalone constrain", src: `decl g, h; void main() begin g := T; constrain('h & 'g = g); assert(g & h); end`, want: result.Safe},
		{name: "target assigned twice", src: `void main() begin decl x; x, x := T, F; assert(F); end`, want: result.Safe},
		{name: "return without values", src: `bool f() begin return; end void main() begin decl x; x := f(); assert(x); end`, want: result.Unsafe},
		{name: "ASYNC label spawns", src: `decl g; void t() begin g := T; end
			void main() begin g := F; ASYNC_1: t(); assert(!g); end`, want: result.Unsafe, text: "start_thread t();"},
		{name: "start_thread passes arguments", src: `void t(a) begin assert(a); end
			void main() begin start_thread t(T); end`, want: result.Safe},
		{name: "fork copies the locals", src: `void main() begin decl l; l := T; start_thread goto w; l := F; goto done; w: assert(l); done: skip; end`,
			want: result.Safe, text: "start_thread goto"},
		{name: "end_thread", src: `void main() begin start_thread goto w; end_thread; assert(F); w: skip; end`, want: result.Safe},
		{name: "broadcast", src: `void main() begin decl l; l := F;
			start_thread goto w; l, l$ := F, T; goto done;
			w: assume(l); SLIC_ERROR: skip; done: skip; end`, want: result.Unsafe, text: "l, l$ := F, T;"},
		{name: "passive constraint", src: `void main() begin decl l; l := F;
			start_thread goto w; l := T constrain l$; assert(F); w: goto w; end`, want: result.Safe},
		{name: "thread instances", src: `decl c0, c1;
			void init() begin c0, c1 := F, F; end
			thread void inc() begin atomic_begin; c1, c0 := c1 | c0, !c0; atomic_end; end
			thread void check() begin assert(!c1); end`, threads: "inc=2", want: result.Unsafe, text: "thread void inc_2()"},
		{name: "race needs two rounds", src: `decl x, y;
			void init() begin x, y := F, F; end
			thread void a() begin x := T; assert(!y); end
			thread void b() begin y := x; end`, rounds: 1, want: result.Safe},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo := ir.Options{Target: c.target}
			if c.threads != "" {
				var err error
				if lo.Threads, err = ir.ParseThreads(c.threads); err != nil {
					t.Fatal(err)
				}
			}
			p, _, err := ir.Load(context.Background(), "t.bpl", []byte(c.src), lo)
			if err != nil {
				t.Fatal(err)
			}
			text := format(t, p)
			if want := strings.ReplaceAll(c.text, "\\n", "\n"); !strings.Contains(text, want) {
				t.Errorf("printed program lacks %q:\n%s", want, text)
			}
			q := reload(t, "t.bpl", text)
			opts := explicit.DefaultOptions()
			opts.Rounds = c.rounds
			if c.rounds > 0 {
				opts.Switches = -1
			}
			for i, prog := range []*ir.Program{p, q} {
				if got, _ := verdict(t, prog, opts); got != c.want {
					t.Errorf("program %d: verdict %s, want %s\n%s", i, got, c.want, text)
				}
			}
			if c.target != "" {
				// The custom label still works with --target.
				r, _, err := ir.Load(context.Background(), "t.bpl", []byte(text), ir.Options{Target: c.target})
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := verdict(t, r, opts); got != c.want {
					t.Errorf("with --target %s: verdict %s, want %s", c.target, got, c.want)
				}
			}
		})
	}
}

// TestWriteRandom round-trips generated programs, sequential and
// concurrent, and compares explicit verdicts.
func TestWriteRandom(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 120
	}
	for _, threads := range []int{1, 2} {
		cfg := progen.DefaultConfig()
		cfg.Threads = threads
		opts := explicit.DefaultOptions()
		opts.MaxStates = 200000
		if threads == 1 {
			opts.Depth = 3
		} else {
			opts.Rounds = 2
		}
		compared := 0
		for seed := int64(1); seed <= int64(seeds); seed++ {
			src := progen.Generate(seed, cfg)
			p, _, err := ir.Load(context.Background(), "gen.bpl", []byte(src), ir.Options{})
			if err != nil {
				t.Fatalf("seed %d: generated program does not load: %v", seed, err)
			}
			text := format(t, p)
			q := reload(t, "gen.bpl", text)
			checkShape(t, p, q)
			if sameVerdict(t, p, q, opts, text) {
				compared++
			}
			if t.Failed() {
				t.Fatalf("threads %d, seed %d; source:\n%s", threads, seed, src)
			}
		}
		t.Logf("threads %d: %d of %d verdicts compared", threads, compared, seeds)
		if compared < seeds/2 {
			t.Errorf("threads %d: only %d of %d verdicts compared", threads, compared, seeds)
		}
	}
}

// perturb changes a loaded program the way the front end never would:
// guards on any kind of edge (with *), extra guarded choices, assignments
// with constrain, atomic marks, error nodes. With concurrent, it keeps to
// what has a faithful text with threads: guards that become a step of
// their own read only locals, and marks go on skips and plain
// assignments.
func perturb(p *ir.Program, r *rand.Rand, concurrent bool) {
	var expr func(pr *ir.Proc, depth int) *ir.Expr
	local := false
	expr = func(pr *ir.Proc, depth int) *ir.Expr {
		vars := append([]*ir.Var(nil), pr.Locals...)
		if !local {
			vars = append(vars, p.Globals...)
		}
		if depth == 0 || r.Intn(3) == 0 {
			switch k := r.Intn(8); {
			case k == 0:
				return ir.Const(r.Intn(2) == 0)
			case k == 1:
				return nondet()
			case len(vars) > 0:
				return v(vars[r.Intn(len(vars))])
			}
			return ir.Const(true)
		}
		switch r.Intn(6) {
		case 0:
			return ir.Not(expr(pr, depth-1))
		case 1:
			return &ir.Expr{Op: ir.OpChoose, X: expr(pr, depth-1), Y: expr(pr, depth-1)}
		}
		ops := []ir.Op{ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpEq, ir.OpImplies}
		return ir.Binary(ops[r.Intn(len(ops))], expr(pr, depth-1), expr(pr, depth-1))
	}
	addEdge := func(pr *ir.Proc, from int, e *ir.Edge) {
		e.ID, e.Proc, e.From = len(p.Edges), pr, from
		p.Edges = append(p.Edges, e)
		pr.Nodes[from].Out = append(pr.Nodes[from].Out, e)
	}
	for _, pr := range p.Procs {
		for i, n := range pr.Nodes {
			for _, e := range n.Out {
				markable := e.Kind != ir.Return && e.Kind != ir.Call
				if concurrent {
					markable = e.Kind == ir.Skip && e.Guard == nil || e.Kind == ir.Assign && e.Constrain == nil
				}
				if r.Intn(10) == 0 && markable {
					e.Atomic = ir.AtomicMark(1 + r.Intn(2))
				}
				if r.Intn(6) == 0 {
					folded := e.Kind == ir.Skip && e.Atomic == ir.NoMark || e.Kind == ir.Havoc ||
						e.Kind == ir.Assign && e.Atomic != ir.AtomicBegin
					local = concurrent && !folded
					e.Guard = expr(pr, 2)
					local = false
				}
			}
			switch r.Intn(12) {
			case 0:
				addEdge(pr, i, &ir.Edge{Kind: ir.Skip, Guard: expr(pr, 2), To: r.Intn(len(pr.Nodes))})
			case 1:
				vars := append(append([]*ir.Var(nil), p.Globals...), pr.Locals...)
				x := vars[r.Intn(len(vars))]
				addEdge(pr, i, &ir.Edge{Kind: ir.Assign, Guard: expr(pr, 1), Targets: []*ir.Var{x}, Values: []*ir.Expr{expr(pr, 1)},
					Constrain: ir.Binary(ir.OpOr, primed(x), expr(pr, 1)), To: r.Intn(len(pr.Nodes))})
			case 2:
				n.Error = true
			}
		}
	}
}

// TestWritePerturbed prints perturbed random programs: sequential ones
// must all print; concurrent ones may be rejected where a guard cannot be
// split off faithfully. Printed programs must have the same verdicts.
func TestWritePerturbed(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 80
	}
	for _, threads := range []int{1, 2} {
		cfg := progen.DefaultConfig()
		cfg.Threads = threads
		opts := explicit.DefaultOptions()
		opts.MaxStates = 100000
		if threads == 1 {
			opts.Depth = 3
		} else {
			opts.Rounds = 2
		}
		compared, rejected := 0, 0
		for seed := int64(1); seed <= int64(seeds); seed++ {
			p, _, err := ir.Load(context.Background(), "gen.bpl", []byte(progen.Generate(seed, cfg)), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			perturb(p, rand.New(rand.NewSource(seed)), threads > 1)
			var buf bytes.Buffer
			if err := decompile.Write(context.Background(), &buf, p); err != nil {
				if threads == 1 {
					t.Fatalf("seed %d: %v", seed, err)
				}
				rejected++
				t.Logf("seed %d: %v", seed, err)
				continue
			}
			text := buf.String()
			q := reload(t, "gen.bpl", text)
			if sameVerdict(t, p, q, opts, text) {
				compared++
			}
			if t.Failed() {
				t.Fatalf("threads %d, seed %d", threads, seed)
			}
		}
		t.Logf("threads %d: %d verdicts compared, %d rejected", threads, compared, rejected)
		if rejected > seeds/10 {
			t.Errorf("threads %d: %d of %d perturbed programs rejected", threads, rejected, seeds)
		}
	}
}

// A small hand-built program: main with locals and the given nodes.
type builder struct {
	p    *ir.Program
	main *ir.Proc
}

func newBuilder(globals ...string) *builder {
	b := &builder{p: &ir.Program{File: "hand.bpl", InitStop: -1, Targets: ir.DefaultTargets}}
	for i, g := range globals {
		b.p.Globals = append(b.p.Globals, &ir.Var{Name: g, Global: true, Index: i, Init: ir.Unknown})
	}
	b.main = b.proc("main", 0, 0)
	b.p.Threads = []ir.ThreadSpec{{Proc: b.main, Count: 1}}
	return b
}

func (b *builder) proc(name string, params, returns int, locals ...string) *ir.Proc {
	pr := &ir.Proc{Name: name, Index: len(b.p.Procs), Params: params, Returns: returns}
	for i, l := range locals {
		pr.Locals = append(pr.Locals, &ir.Var{Name: l, Index: i, Init: ir.Unknown})
	}
	b.p.Procs = append(b.p.Procs, pr)
	return pr
}

func (b *builder) nodes(pr *ir.Proc, n int) {
	for i := 0; i < n; i++ {
		pr.Nodes = append(pr.Nodes, &ir.Node{ID: i})
	}
}

func (b *builder) edge(pr *ir.Proc, from int, e *ir.Edge) *ir.Edge {
	e.ID, e.Proc, e.From = len(b.p.Edges), pr, from
	b.p.Edges = append(b.p.Edges, e)
	pr.Nodes[from].Out = append(pr.Nodes[from].Out, e)
	return e
}

func v(x *ir.Var) *ir.Expr      { return &ir.Expr{Op: ir.OpVar, Var: x} }
func primed(x *ir.Var) *ir.Expr { return &ir.Expr{Op: ir.OpPrimed, Var: x} }
func nondet() *ir.Expr          { return &ir.Expr{Op: ir.OpNondet} }

// TestWriteHandBuilt prints IR that the front end never produces, as
// the sequentializations build it.
func TestWriteHandBuilt(t *testing.T) {
	type tc struct {
		name  string
		build func(b *builder)
		want  result.Verdict
		text  []string // substrings of the printed program
	}
	cases := []tc{
		{
			name: "nondeterministic node with guarded edges",
			// 0: choose among g := T (when !g), assert(g) (when g | *),
			// return; 1: assert(F) reached after g := T.
			build: func(b *builder) {
				g := b.p.Globals[0]
				b.nodes(b.main, 2)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assign, Guard: ir.Not(v(g)), Targets: []*ir.Var{g}, Values: []*ir.Expr{ir.Const(true)}, To: 1})
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assert, Guard: ir.Binary(ir.OpOr, v(g), nondet()), Cond: v(g), To: 0})
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Return, To: -1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Assert, Cond: ir.Not(v(g)), To: 0})
			},
			want: result.Unsafe,
			text: []string{"goto L0_1, L0_2, L0_3;", "g := T constrain !g;", "assume(g | *);"},
		},
		{
			name: "return with nil values is arbitrary",
			build: func(b *builder) {
				f := b.proc("f#1", 0, 2)
				b.nodes(f, 1)
				b.edge(f, 0, &ir.Edge{Kind: ir.Return, To: -1})
				x := &ir.Var{Name: "x.0", Index: 0, Init: ir.False}
				b.main.Locals = []*ir.Var{x}
				b.nodes(b.main, 3)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Call, Callee: f, Targets: []*ir.Var{nil, x}, To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Assert, Cond: ir.Not(v(x)), To: 2})
				b.edge(b.main, 2, &ir.Edge{Kind: ir.Return, To: -1})
			},
			want: result.Unsafe,
			text: []string{"bool<2> f_1()", "decl x_0 := F;", "_, x_0 := f_1();"},
		},
		{
			name: "error node",
			build: func(b *builder) {
				g := b.p.Globals[0]
				b.nodes(b.main, 3)
				b.main.Nodes[2].Error = true
				b.main.Nodes[2].Labels = []string{"L1"} // not a jump label: it names another node below
				b.main.Nodes[1].Labels = []string{"error"}
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Skip, Guard: v(g), To: 2})
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Skip, Guard: ir.Not(v(g)), To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Return, To: -1})
				b.edge(b.main, 2, &ir.Edge{Kind: ir.Skip, To: 1})
			},
			want: result.Unsafe,
			text: []string{"error: skip;"},
		},
		{
			name: "error node not reached",
			build: func(b *builder) {
				b.nodes(b.main, 3)
				b.main.Nodes[2].Error = true
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Skip, Guard: ir.Const(false), To: 2})
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Skip, Guard: ir.Not(ir.Const(false)), To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Return, To: -1})
				b.edge(b.main, 2, &ir.Edge{Kind: ir.Skip, To: 1})
			},
			want: result.Safe,
		},
		{
			name: "constrain and havoc",
			build: func(b *builder) {
				g, h := b.p.Globals[0], b.p.Globals[1]
				b.nodes(b.main, 4)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assign, Targets: []*ir.Var{g, h}, Values: []*ir.Expr{nondet(), v(g)},
					Constrain: ir.Binary(ir.OpXor, primed(g), primed(h)), To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Assert, Cond: ir.Not(ir.Binary(ir.OpEq, v(g), v(h))), To: 2})
				b.edge(b.main, 2, &ir.Edge{Kind: ir.Havoc, Guard: v(g), Targets: []*ir.Var{h}, To: 3})
				b.edge(b.main, 3, &ir.Edge{Kind: ir.Assert, Cond: v(g), To: 3})
			},
			want: result.Safe,
			text: []string{"g, h := *, g constrain 'g ^ 'h;", "h := * constrain g;"},
		},
		{
			name: "names that need sanitizing",
			build: func(b *builder) {
				g, h := b.p.Globals[0], b.p.Globals[1]
				loc := &ir.Var{Name: "h", Index: 0, Init: ir.True} // would hide global h
				b.main.Name = "t#1"
				b.main.Locals = []*ir.Var{loc}
				other := b.proc("thread.helper", 0, 0)
				b.nodes(other, 1)
				b.edge(other, 0, &ir.Edge{Kind: ir.Return, To: -1})
				b.nodes(b.main, 3)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assign, Targets: []*ir.Var{g, h}, Values: []*ir.Expr{v(loc), ir.Not(v(loc))}, To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Call, Callee: other, To: 2})
				b.edge(b.main, 2, &ir.Edge{Kind: ir.Assert, Cond: ir.Binary(ir.OpAnd, v(g), ir.Not(v(h))), To: 2})
			},
			want: result.Safe,
			text: []string{"decl if_, h;", "void main()", "decl h_2 := T;", "void p_thread_helper()"},
		},
		{
			name: "assignment without targets is an assume",
			build: func(b *builder) {
				g, h := b.p.Globals[0], b.p.Globals[1]
				b.nodes(b.main, 2)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assign, Guard: v(h), Constrain: ir.Not(primed(g)), To: 1})
				b.edge(b.main, 1, &ir.Edge{Kind: ir.Assert, Cond: ir.Binary(ir.OpAnd, ir.Not(v(g)), v(h)), To: 1})
			},
			want: result.Safe,
			text: []string{"assume(h & !g);"},
		},
		{
			name: "init with endinit",
			build: func(b *builder) {
				g := b.p.Globals[0]
				b.main.Name = "worker"
				in := b.proc("setup", 0, 0)
				b.p.Init = in
				b.nodes(in, 3)
				b.p.InitStop = 1
				b.edge(in, 0, &ir.Edge{Kind: ir.Assign, Targets: []*ir.Var{g}, Values: []*ir.Expr{ir.Const(true)}, To: 1})
				b.edge(in, 1, &ir.Edge{Kind: ir.Assign, Targets: []*ir.Var{g}, Values: []*ir.Expr{ir.Const(false)}, To: 2})
				b.edge(in, 2, &ir.Edge{Kind: ir.Return, To: -1})
				b.nodes(b.main, 1)
				b.edge(b.main, 0, &ir.Edge{Kind: ir.Assert, Cond: v(g), To: 0})
			},
			want: result.Safe,
			text: []string{"void init()", "endinit: g := F;"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBuilder("g", "h")
			if c.name == "names that need sanitizing" {
				b.p.Globals[0].Name, b.p.Globals[1].Name = "if", "h"
			}
			c.build(b)
			text := format(t, b.p)
			for _, s := range c.text {
				if !strings.Contains(text, s) {
					t.Errorf("printed program lacks %q:\n%s", s, text)
				}
			}
			q := reload(t, "hand.bpl", text)
			opts := explicit.DefaultOptions()
			for _, p := range []*ir.Program{b.p, q} {
				if got, _ := verdict(t, p, opts); got != c.want {
					t.Errorf("verdict %s, want %s\n%s", got, c.want, text)
				}
			}
		})
	}
}

// TestWriteRejects lists constructs without a faithful text.
func TestWriteRejects(t *testing.T) {
	unbounded := newBuilder("g")
	unbounded.nodes(unbounded.main, 1)
	unbounded.edge(unbounded.main, 0, &ir.Edge{Kind: ir.Return, To: -1})
	unbounded.p.Threads[0] = ir.ThreadSpec{Proc: unbounded.main, Unbounded: true}

	nondetEnforce := newBuilder("g")
	nondetEnforce.nodes(nondetEnforce.main, 1)
	nondetEnforce.edge(nondetEnforce.main, 0, &ir.Edge{Kind: ir.Return, To: -1})
	nondetEnforce.main.Enforce = nondet()

	// Two threads; a call guarded by a global cannot be split from it.
	split := newBuilder("g")
	other := split.proc("other", 0, 0)
	split.nodes(other, 1)
	split.edge(other, 0, &ir.Edge{Kind: ir.Return, To: -1})
	split.p.Threads = append(split.p.Threads, ir.ThreadSpec{Proc: other, Count: 1})
	split.nodes(split.main, 2)
	split.edge(split.main, 0, &ir.Edge{Kind: ir.Call, Callee: other, Guard: v(split.p.Globals[0]), To: 1})
	split.edge(split.main, 1, &ir.Edge{Kind: ir.Return, To: -1})

	// Two threads; a return that ends an atomic section.
	ret := newBuilder("g")
	ret.nodes(ret.main, 1)
	ret.edge(ret.main, 0, &ir.Edge{Kind: ir.Return, Atomic: ir.AtomicEnd, To: -1})
	ret.p.Threads = append(ret.p.Threads, ir.ThreadSpec{Proc: other, Count: 1})
	ret.p.Procs = append(ret.p.Procs, other)

	for name, c := range map[string]struct {
		p    *ir.Program
		want string
	}{
		"unbounded threads":    {unbounded.p, "unboundedly many"},
		"* in enforce":         {nondetEnforce.p, "enforce"},
		"split guard":          {split.p, "guard reads shared"},
		"atomic end on return": {ret.p, "return in main ends an atomic section"},
	} {
		var buf bytes.Buffer
		err := decompile.Write(context.Background(), &buf, c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one mentioning %q", name, err, c.want)
		}
		if buf.Len() > 0 {
			t.Errorf("%s: output written despite the error", name)
		}
	}
	// The same guarded call is fine in a sequential program.
	split.p.Threads = split.p.Threads[:1]
	text := format(t, split.p)
	reload(t, "split.bpl", text)
	if !strings.Contains(text, "assume(g);") {
		t.Errorf("guard not printed as assume:\n%s", text)
	}
}

// TestWriteMopedRefuses: the Moped syntax takes only programs lowered
// for it (package moped); anything else is an error naming the construct.
func TestWriteMopedRefuses(t *testing.T) {
	cases := []struct{ src, want string }{
		{`decl g; void main() begin assert(g); end`, "an assertion"},
		{`decl g := T; void main() begin skip; end`, "initial value"},
		{`decl g, h; void main() begin g := * constrain 'g = h; end`, "a constrain clause"},
		{`decl g; void main() begin dead g; end`, "dead variables"},
		{`decl g; void main() begin atomic_begin; g := T; atomic_end; end`, "an atomic mark"},
		{`bool<2> f() begin return T, F; end void main() begin decl a; a, _ := f(); end`, "a discarded result"},
		{`lock m; void main() begin acquire(m); end`, "lock m"},
		{`void init() begin skip; end void main() begin skip; end`, "init"},
		{`decl g; void main() begin enforce g; skip; end`, "enforce"},
		{`decl g; void main() begin g := g & *; end`, "* (nondeterministic value)"},
		{`decl g; void main() begin g := !schoose[g, F]; end`, "schoose inside an expression"},
		{`thread void a() begin skip; end thread void b() begin skip; end`, "sequential programs only"},
	}
	for _, c := range cases {
		p, _, err := ir.Load(context.Background(), "p.bpl", []byte(c.src), ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		p.Targets = []string{"error"} // as lowered: one label
		var buf bytes.Buffer
		err = decompile.WriteSyntax(context.Background(), &buf, p, decompile.Moped)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.src, err, c.want)
		}
	}
	// Without those, the text differs from the classic one as documented.
	p, _, err := ir.Load(context.Background(), "p.bpl", []byte(`decl g, print;
void main() begin
  goto A, B, C;
  A: g := *; goto D;
  B: g := !!g; goto D;
  C: if (*) then D: skip; fi
end`), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Targets = []string{"error"}
	var buf bytes.Buffer
	if err := decompile.WriteSyntax(context.Background(), &buf, p, decompile.Moped); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"if (*) then\n", "elsif (*) then\n", "schoose[F, F]", "!(!g)", "print_", "if (*) then"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for _, not := range []string{"goto A, B", ":= *", "!!"} {
		if strings.Contains(text, not) {
			t.Errorf("%q in\n%s", not, text)
		}
	}
}
