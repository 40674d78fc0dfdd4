package lang

import (
	"context"
	"strings"
	"testing"
)

// checkProg parses and checks src, failing the test on any error.
func checkProg(t *testing.T, src string) *Info {
	t.Helper()
	f := parseProg(t, src)
	info, err := Check(context.Background(), f)
	if err != nil {
		t.Fatalf("Check: %v\n%s", err, src)
	}
	return info
}

func funcNames(list []*FuncDecl) string {
	var s []string
	for _, fn := range list {
		s = append(s, fn.Name.Name)
	}
	return strings.Join(s, ",")
}

// TestCheckThreads covers the dialect rules of LANGUAGE.md: thread
// functions if any; else main alone if the program spawns; else main and
// thread... functions (Getafix), in declaration order, init excluded.
func TestCheckThreads(t *testing.T) {
	const body = " begin skip; end\n"
	tests := []struct {
		name    string
		src     string
		dialect Dialect
		threads string
		init    string
	}{
		{"thread functions only",
			"thread void a()" + body + "void main()" + body + "thread bool b()" + body + "void thread1()" + body,
			DialectThreads, "a,b", ""},
		{"thread functions with init",
			"void init()" + body + "thread void w()" + body,
			DialectThreads, "w", "init"},
		{"thread functions win over spawning",
			"thread void a()" + body + "void main() begin start_thread a(); end\n",
			DialectThreads, "a", ""},
		{"spawn by ASYNC label",
			"void thread1()" + body + "void main() begin ASYNC_1: thread1(); end\n",
			DialectSpawn, "main", ""},
		{"spawn by start_thread call",
			"void w()" + body + "void threadX()" + body + "void main() begin start_thread w(); end\n",
			DialectSpawn, "main", ""},
		{"spawn by start_thread goto",
			"void init()" + body + "void main() begin start_thread goto L; L: skip; end\n",
			DialectSpawn, "main", "init"},
		{"spawn from a helper function",
			"void w()" + body + "void h() begin start_thread w(); end\nvoid main() begin h(); end\n",
			DialectSpawn, "main", ""},
		{"plain sequential program",
			"void f()" + body + "void main() begin f(); end\n",
			DialectGetafix, "main", ""},
		{"Getafix: declaration order, init excluded",
			"void thread2()" + body + "void init()" + body + "void main()" + body + "void thread1()" + body,
			DialectGetafix, "thread2,main,thread1", "init"},
		{"Getafix: thread prefix in any case",
			"void THREAD_a()" + body + "void Thread0()" + body + "void tHrEaDx()" + body,
			DialectGetafix, "THREAD_a,Thread0,tHrEaDx", ""},
		{"Getafix: names of six characters or less are not threads",
			"void thread()" + body + "void threa()" + body + "void xthread1()" + body + "void main()" + body,
			DialectGetafix, "main", ""},
		{"Getafix: threads without main",
			"void init()" + body + "void thread_1()" + body + "void thread_2()" + body,
			DialectGetafix, "thread_1,thread_2", "init"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := checkProg(t, tc.src)
			if info.Dialect != tc.dialect {
				t.Errorf("dialect %v, want %v", info.Dialect, tc.dialect)
			}
			if got := funcNames(info.Threads); got != tc.threads {
				t.Errorf("threads %q, want %q", got, tc.threads)
			}
			got := ""
			if info.Init != nil {
				got = info.Init.Name.Name
			}
			if got != tc.init {
				t.Errorf("init %q, want %q", got, tc.init)
			}
		})
	}
}

func TestCheckThreadErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"no function", "decl g;\n", "p.bpl:1:1: no thread to run"},
		{"no thread-named function", "void f() begin skip; end\nvoid thread() begin skip; end\n", "p.bpl:1:1: no thread to run"},
		{"only init", "void init() begin skip; end\n", "p.bpl:1:1: no thread to run"},
		{"spawn without main", "void w() begin skip; end\nvoid thread1() begin start_thread w(); end\n", "p.bpl:1:1: no thread to run"},
		{"init marked thread", "thread void init() begin skip; end\nthread void w() begin skip; end\n",
			"p.bpl:1:13: init runs before the threads and cannot be a thread function"},
		{"init with parameters", "void init(a) begin skip; end\nvoid main() begin skip; end\n", "p.bpl:1:6: init takes no parameters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(context.Background(), parseProg(t, tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if got := err.(ErrorList)[0].Error(); !strings.HasPrefix(got, tc.want) {
				t.Errorf("first error %q, want prefix %q", got, tc.want)
			}
		})
	}
}

// TestCheckAtomicVar: the global `atomic` brackets atomic sections only in
// the Getafix dialect.
func TestCheckAtomicVar(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"Getafix", "decl atomic;\nvoid thread1() begin atomic := T; atomic := F; end\n", true},
		{"Getafix sequential main", "decl x, atomic;\nvoid main() begin atomic, x := T, T; end\n", true},
		{"Getafix without atomic", "decl at;\nvoid main() begin at := T; end\n", false},
		{"thread functions", "decl atomic;\nthread void w() begin atomic := T; end\n", false},
		{"spawn", "decl atomic;\nvoid w() begin skip; end\nvoid main() begin atomic := T; start_thread w(); end\n", false},
		{"local atomic", "void main() begin decl atomic; atomic := T; end\n", false},
		{"lock named atomic", "lock atomic;\nvoid main() begin acquire(atomic); end\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := checkProg(t, tc.src)
			if got := info.AtomicVar != nil; got != tc.want {
				t.Fatalf("AtomicVar set %v, want %v", got, tc.want)
			}
			if tc.want && (info.AtomicVar.Name != "atomic" || info.AtomicVar.Kind != GlobalVar) {
				t.Errorf("AtomicVar %+v", info.AtomicVar)
			}
		})
	}
}

// calls returns main's call statements in order, nested ones included.
func calls(info *Info) []*CallStmt {
	var out []*CallStmt
	walkStmts(info.FuncByName["main"].Func.Body, func(s Stmt) {
		if c, ok := s.(*CallStmt); ok {
			out = append(out, c)
		}
	})
	return out
}

func TestCheckAsync(t *testing.T) {
	src := `lock m;
void w() begin skip; end
void main()
begin
  ASYNC_1: w();
  ASYNC_x: w();
  L: ASYNC_12: w();
  start_thread w();
  w();
  if T then ASYNC_3: w(); fi
  async_4: w();
  ASYNC_5_: w();
  acquire(m);
end
`
	info := checkProg(t, src)
	cs := calls(info)
	want := []struct{ async, spawn bool }{
		{true, true},   // ASYNC_1
		{false, false}, // ASYNC_x
		{true, true},   // L: ASYNC_12
		{false, true},  // start_thread
		{false, false}, // plain call
		{true, true},   // nested ASYNC_3
		{false, false}, // lower case
		{false, false}, // trailing _
		{false, false}, // acquire
	}
	if len(cs) != len(want) {
		t.Fatalf("%d calls, want %d", len(cs), len(want))
	}
	for i, c := range cs {
		if info.Async[c] != want[i].async || info.IsSpawn(c) != want[i].spawn {
			t.Errorf("call %d (%s): Async %v IsSpawn %v, want %v %v", i, StmtString(c), info.Async[c], info.IsSpawn(c), want[i].async, want[i].spawn)
		}
	}
	if info.Dialect != DialectSpawn {
		t.Errorf("dialect %v", info.Dialect)
	}
	if b := info.Builtins[cs[8]]; b != Acquire {
		t.Errorf("acquire: builtin %v", b)
	}
}

func TestCheckBuiltins(t *testing.T) {
	info := checkProg(t, `lock m;
decl x;
void main()
begin
  acquire(m); x := tryacquire(m); release(m); print(x, T);
end
`)
	cs := calls(info)
	want := []Builtin{Acquire, TryAcquire, Release, Print}
	for i, c := range cs {
		if info.Builtins[c] != want[i] {
			t.Errorf("%s: builtin %v, want %v", StmtString(c), info.Builtins[c], want[i])
		}
	}
	if o := info.Uses[cs[0].Args[0].(*Ident)]; o == nil || o.Kind != LockObj {
		t.Errorf("acquire argument resolves to %+v", o)
	}
	// A user function of the same name replaces the built-in.
	info = checkProg(t, "void acquire(a) begin skip; end\nvoid main() begin acquire(T); end\n")
	if c := calls(info)[0]; info.Builtins[c] != NotBuiltin || info.Uses[c.Callee] == nil {
		t.Errorf("user acquire: builtin %v", info.Builtins[c])
	}
}

func TestCheckResolve(t *testing.T) {
	src := `decl g, l;
void main()
begin
  decl l;
  l, l$ := g, l;
  g := l;
end
`
	info := checkProg(t, src)
	main := info.FuncByName["main"].Func
	as := main.Body[0].(*AssignStmt)
	local := info.Locals[main][0]
	if local.Name != "l" || local.Kind != LocalVar {
		t.Fatalf("local %+v", local)
	}
	if info.Uses[as.Targets[0]] != local || info.Passive[as.Targets[0]] {
		t.Errorf("target l: %+v passive %v", info.Uses[as.Targets[0]], info.Passive[as.Targets[0]])
	}
	if info.Uses[as.Targets[1]] != local || !info.Passive[as.Targets[1]] {
		t.Errorf("target l$: %+v passive %v", info.Uses[as.Targets[1]], info.Passive[as.Targets[1]])
	}
	if o := info.Uses[as.Values[0].(*Ident)]; o == nil || o.Kind != GlobalVar || o.Name != "g" {
		t.Errorf("value g: %+v", o)
	}
	// The local shadows the global l.
	if o := info.Uses[main.Body[1].(*AssignStmt).Values[0].(*Ident)]; o != local {
		t.Errorf("l resolves to %+v, want the local", o)
	}
	if len(info.Globals) != 2 || info.Globals[1].Index != 1 {
		t.Errorf("globals %+v", info.Globals)
	}
	// Functions may be used before their declaration; parameters come
	// first among the locals.
	info = checkProg(t, "void main() begin decl x; x := f(x); end\nbool f(p) begin decl q; return p & q; end\n")
	f := info.FuncByName["f"].Func
	if ls := info.Locals[f]; len(ls) != 2 || ls[0].Name != "p" || ls[1].Name != "q" || ls[1].Index != 1 {
		t.Errorf("locals of f: %+v", ls)
	}
	if c := calls(info)[0]; info.Uses[c.Callee] != info.FuncByName["f"] {
		t.Errorf("callee resolves to %+v", info.Uses[c.Callee])
	}
	// A declared x$ is an ordinary variable, not the copy of x.
	info = checkProg(t, "void main() begin decl x, x$; x$ := x; end\n")
	id := info.FuncByName["main"].Func.Body[0].(*AssignStmt).Targets[0]
	if info.Passive[id] || info.Uses[id].Name != "x$" {
		t.Errorf("declared x$: passive %v, resolves to %s", info.Passive[id], info.Uses[id].Name)
	}
}

func TestCheckLabels(t *testing.T) {
	src := `void main()
begin
  SLIC_ERROR: skip;
  if T then SLIC_ERROR: skip; L: skip; fi
  goto L;
  start_thread goto M;
  M: end_thread;
end
`
	info := checkProg(t, src) // a label defined twice is fine without jumps to it
	main := info.FuncByName["main"].Func
	labels := info.Labels[main]
	if labels["SLIC_ERROR"] == nil || labels["L"] == nil || labels["M"] == nil {
		t.Fatalf("labels %v", labels)
	}
	if labels["SLIC_ERROR"].Pos != (Pos{3, 3}) {
		t.Errorf("SLIC_ERROR at %v, want the first definition 3:3", labels["SLIC_ERROR"].Pos)
	}
	g := main.Body[2].(*GotoStmt)
	if o := info.Uses[g.Targets[0]]; o != labels["L"] || o.Stmt != main.Body[1].(*IfStmt).Then[1] {
		t.Errorf("goto L resolves to %+v", o)
	}
	if o := info.Uses[main.Body[3].(*ForkStmt).Target]; o != labels["M"] {
		t.Errorf("start_thread goto M resolves to %+v", o)
	}
}

func TestCheckWarnings(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"assigned twice", "x, x := T, F;", []string{"p.bpl:6:6: warning: x assigned twice in one assignment"}},
		{"call result assigned twice", "x, x := f();", []string{"p.bpl:6:6: warning: x assigned twice in one assignment"}},
		{"three times", "x, y, x, x := T, F, T, T;",
			[]string{"p.bpl:6:9: warning: x assigned twice", "p.bpl:6:12: warning: x assigned twice"}},
		{"local and its broadcast copy", "l, l$ := T, F;", nil},
		{"discarded twice", "_, _ := f();", nil},
		{"distinct targets", "x, y := T, F;", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "decl x, y;\nbool<2> f() begin return T, F; end\nvoid main()\nbegin\n  decl l;\n  " + tc.body + "\nend\n"
			info := checkProg(t, src)
			if len(info.Warnings) != len(tc.want) {
				t.Fatalf("warnings %v, want %d", info.Warnings, len(tc.want))
			}
			for i, w := range info.Warnings {
				if !strings.HasPrefix(w.Error(), tc.want[i]) {
					t.Errorf("warning %q, want prefix %q", w.Error(), tc.want[i])
				}
			}
		})
	}
}

// TestCheckAccepts lists constructs that must check without errors.
func TestCheckAccepts(t *testing.T) {
	tests := []struct{ name, body string }{
		{"star where a value may be nondeterministic", "if * then skip; fi while * do skip; od assume(*); x := *; x := !* & x;"},
		{"assert(*) from SatAbs output", "assert(*); assert(!(*));"},
		{"constrain", "x, y := *, * constrain 'x != 'y | x; constrain('x = !x);"},
		{"broadcast in the value and constrain", "l, l$ := l$, x constrain 'l = l$;"},
		{"discarded targets", "_, x := f(); x := tryacquire(m); _ := tryacquire(m);"},
		{"value-returning call as a statement", "f();"},
		{"dead", "dead x, l;"},
		{"goto forward and backward", "A: goto B; B: goto A, B;"},
		{"local shadowing a global and a lock", "skip;\n  decl m;\n  m := x;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "decl x := T, y := *;\nlock m;\nbool<2> f() begin return; end\nvoid main()\nbegin\n  decl l := 0;\n  " + tc.body + "\nend\n"
			checkProg(t, src)
		})
	}
}

// TestCheckErrors checks the first diagnostic of programs with one
// semantic error. The body goes into main, after the declarations below.
func TestCheckErrors(t *testing.T) {
	const head = "decl x, y;\nlock m;\nbool<2> f(a) begin return a, a; end\nvoid v() begin skip; end\nvoid main()\nbegin\n  decl l;\n  "
	const line = "p.bpl:8:"
	tests := []struct{ name, body, want string }{
		{"undeclared variable", "z := T;", "3: undeclared variable z"},
		{"undeclared variable in value", "x := x & z;", "12: undeclared variable z"},
		{"undeclared variable in dead", "dead z;", "8: undeclared variable z"},
		{"undefined function", "g();", "3: undefined function g"},
		{"too many arguments", "v(T);", "3: function v takes 0 argument(s), call gives 1"},
		{"too few arguments", "x, y := f();", "11: function f takes 1 argument(s), call gives 0"},
		{"more values than targets", "x, y := T, F, T;", "17: assignment has 2 target(s) but 3 value(s)"},
		{"more targets than values", "x, y, l := T, F;", "9: assignment has 3 target(s) but 2 value(s)"},
		{"fewer targets than returns", "x := f(T);", "8: function f returns 2 value(s), assignment expects 1"},
		{"more targets than returns", "x, y, l := f(T);", "14: function f returns 2 value(s), assignment expects 3"},
		{"targets of a void call", "x := v();", "8: function v returns 0 value(s), assignment expects 1"},
		{"return in void", "return T;", "10: function main returns 0 value(s), return gives 1"},
		{"label not defined", "goto L;", "8: label L not defined in function main"},
		{"ambiguous jump", "L: skip; L: skip; goto L;", "26: label L is defined more than once in function main, so the jump is ambiguous"},
		{"ambiguous fork", "L: skip; L: skip; start_thread goto L;", "39: label L is defined more than once in function main, so the jump is ambiguous"},
		{"primed outside constrain", "x := 'x;", "8: 'x is only allowed inside constrain"},
		{"primed in if", "if 'x then skip; fi", "6: 'x is only allowed inside constrain"},
		{"star in enforce", "enforce * & x;", "11: * (nondeterministic value) is not allowed in enforce"},
		{"primed in enforce", "enforce 'x;", "11: 'x is only allowed inside constrain"},
		{"assignment to a lock", "m := T;", "3: assignment: m is a lock, not a variable"},
		{"lock as call target", "x, m := f(T);", "6: assignment: m is a lock, not a variable"},
		{"dead lock", "dead m;", "8: dead: m is a lock, not a variable"},
		{"acquire of a non-lock", "acquire(x);", "11: acquire of non-lock x (declare it with `lock x;`)"},
		{"release of a local", "release(l);", "11: release of non-lock l (declare it with `lock l;`)"},
		{"tryacquire of a non-lock", "x := tryacquire(y);", "19: tryacquire of non-lock y (declare it with `lock y;`)"},
		{"acquire of two locks", "acquire(m, m);", "3: acquire takes one lock, call gives 2 argument(s)"},
		{"acquire of nothing", "acquire();", "3: acquire takes one lock, call gives 0 argument(s)"},
		{"acquire of a constant", "acquire(T);", "11: acquire of a non-lock: the argument must be a lock name"},
		{"undeclared lock", "release(n);", "11: undeclared lock n"},
		{"tryacquire without target", "tryacquire(m);", "3: tryacquire returns one value, assignment expects 0"},
		{"tryacquire two targets", "x, y := tryacquire(m);", "11: tryacquire returns one value, assignment expects 2"},
		{"acquire with target", "x := acquire(m);", "8: acquire returns no value"},
		{"print with target", "x := print(x);", "8: print returns no value"},
		{"lock as value", "x := m;", "8: lock m used as a value"},
		{"lock in condition", "assume(m | x);", "10: lock m used as a value"},
		{"lock as argument", "x, y := f(m);", "13: lock m used as a value"},
		{"function as value", "x := v;", "8: v is a function, not a variable"},
		{"broadcast in assume", "assume(l$);", "10: l$ (the copy of l in other threads) may only be used in an assignment"},
		{"broadcast as argument", "x, y := f(l$);", "13: l$ (the copy of l in other threads) may only be used in an assignment"},
		{"broadcast as call target", "x, l$ := f(T);", "6: undeclared variable l$"},
		{"broadcast of a global", "x$ := T;", "3: undeclared variable x$"},
		{"broadcast twice", "l$, l$ := T, F;", "7: l$ assigned twice"},
		{"spawn with results", "ASYNC_1: x, y := f(T);", "12: a call that starts a thread cannot assign results"},
		{"spawned built-in", "start_thread release(m);", "16: release is a built-in statement and cannot start a thread"},
		{"discard target is not a value", "x := _;", "8: undeclared variable _"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body + "\nend\n"
			want := line + tc.want
			_, err := Check(context.Background(), parseProg(t, src))
			if err == nil {
				t.Fatalf("no error, want %q", want)
			}
			list := err.(ErrorList)
			if got := list[0].Error(); got != want {
				t.Errorf("first error:\n got  %s\n want %s\nall: %v", got, want, list)
			}
		})
	}
}

func TestCheckGlobalErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"duplicate global", "decl x;\ndecl x;\nvoid main() begin skip; end\n", "p.bpl:2:6: x redeclared (first declared at 1:6)"},
		{"global and lock", "lock x;\ndecl x;\nvoid main() begin skip; end\n", "p.bpl:2:6: x redeclared (first declared at 1:6)"},
		{"duplicate lock", "lock m, m;\nvoid main() begin skip; end\n", "p.bpl:1:9: m redeclared (first declared at 1:6)"},
		{"duplicate function", "void main() begin skip; end\nvoid main() begin skip; end\n", "p.bpl:2:6: function main redeclared (first declared at 1:6)"},
		{"duplicate parameter", "void f(a, a) begin skip; end\nvoid main() begin skip; end\n", "p.bpl:1:11: a redeclared in function f (first declared at 1:8)"},
		{"duplicate local", "void main() begin decl a; decl b, a; skip; end\n", "p.bpl:1:35: a redeclared in function main (first declared at 1:24)"},
		{"local shadowing a global is fine, twice is not", "decl a;\nvoid main() begin decl a, a; skip; end\n", "p.bpl:2:27: a redeclared in function main (first declared at 2:24)"},
		{"local and parameter", "void f(a) begin decl a; skip; end\nvoid main() begin skip; end\n", "p.bpl:1:22: a redeclared in function f (first declared at 1:8)"},
		{"global initialiser not constant", "decl x, y := !x;\nvoid main() begin skip; end\n", "p.bpl:1:14: initializer of y must be a constant (T, F, 0, 1 or *)"},
		{"local initialiser not constant", "void main() begin decl b, a := b; skip; end\n", "p.bpl:1:32: initializer of a must be a constant (T, F, 0, 1 or *)"},
		{"lock used in enforce", "lock m;\nvoid main() begin enforce m; skip; end\n", "p.bpl:2:27: lock m used as a value"},
		{"return with too few values", "bool<2> f() begin return T; end\nvoid main() begin skip; end\n", "p.bpl:1:26: function f returns 2 value(s), return gives 1"},
		{"return with too many values", "bool f() begin return T, F; end\nvoid main() begin skip; end\n", "p.bpl:1:26: function f returns 1 value(s), return gives 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(context.Background(), parseProg(t, tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if got := err.(ErrorList)[0].Error(); got != tc.want {
				t.Errorf("first error:\n got  %s\n want %s", got, tc.want)
			}
		})
	}
}
