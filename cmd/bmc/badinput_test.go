package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threadProg is a valid program for the usage-error cases: one thread
// function adder with a label L.
const threadProg = `decl g;
thread void adder()
begin
  L: g := T;
end
`

// badInputCase is one malformed program or command line. The program is
// written to prog.bpl in a fresh temporary directory; "{file}" in args
// stands for its path. Exactly one of want and sub is set:
//   - want is the exact first line of stderr, with the temporary
//     directory removed, as `prog.bpl:LINE:COL: message`;
//   - sub is a substring stderr must contain (usage errors).
type badInputCase struct {
	name string
	prog string
	args []string // nil: check {file}
	want string
	sub  string
}

var badInputCases = []badInputCase{
	// ---- syntax errors ----
	{
		name: "missing semicolon mid-body",
		prog: "void main()\nbegin\n  skip\n  skip;\nend\n",
		want: "prog.bpl:4:3: expected ';', found keyword skip",
	},
	{
		name: "missing semicolon after assignment",
		prog: "decl x, y;\nvoid main()\nbegin\n  x := T\n  y := F;\nend\n",
		want: "prog.bpl:5:3: expected ';', found identifier y",
	},
	{
		name: "missing fi",
		prog: "void main()\nbegin\n  if (T) then skip;\nend\n",
		want: "prog.bpl:4:1: expected fi, found keyword end",
	},
	{
		name: "missing od",
		prog: "void main()\nbegin\n  while (T) do skip;\nend\n",
		want: "prog.bpl:4:1: expected od, found keyword end",
	},
	{
		name: "missing end",
		prog: "void main()\nbegin\n  skip;\n",
		want: "prog.bpl:4:1: expected end, found end of file",
	},
	{
		name: "missing end before a thread function",
		prog: "thread void producer()\nbegin\n  x := T;\nthread void consumer()\nbegin\n  skip;\nend\n",
		want: "prog.bpl:4:1: expected end, found keyword thread",
	},
	{
		name: "missing end before a function",
		prog: "decl x;\nvoid main()\nbegin\n  x := T\nvoid f()\nbegin\n  skip;\nend\n",
		want: "prog.bpl:5:1: expected end, found keyword void",
	},
	{
		name: "missing end before a bool<2> function",
		prog: "void main()\nbegin\n  skip;\nbool<2> f()\nbegin\n  return T, F;\nend\n",
		want: "prog.bpl:4:1: expected end, found keyword bool",
	},
	{
		name: "missing end before global declarations",
		prog: "void main()\nbegin\n  skip;\ndecl g;\nlock m;\nvoid f()\nbegin\n  skip;\nend\n",
		want: "prog.bpl:4:1: expected end, found keyword decl",
	},
	{
		name: "missing then",
		prog: "void main()\nbegin\n  if (T) skip; fi\nend\n",
		want: "prog.bpl:3:10: expected then, found keyword skip",
	},
	{
		name: "missing assignment operator",
		prog: "decl x;\nvoid main()\nbegin\n  x T;\nend\n",
		want: "prog.bpl:4:5: expected ':=', found keyword T",
	},
	{
		name: "bad token",
		prog: "void main()\nbegin\n  skip; %\nend\n",
		want: "prog.bpl:3:9: illegal character '%'",
	},
	{
		name: "non-ASCII byte",
		prog: "void main()\nbegin\n  \xc3\xa9 := T;\nend\n",
		want: "prog.bpl:3:3: illegal character 0xc3",
	},
	{
		name: "unterminated block comment",
		prog: "void main()\nbegin\n  skip; /* no end\nend\n",
		want: "prog.bpl:3:9: comment not terminated",
	},
	{
		name: "unterminated braced identifier",
		prog: "decl {a.b;\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:6: braced identifier not terminated",
	},
	{
		name: "number 2 in expression",
		prog: "decl g;\nvoid main()\nbegin\n  g := 2;\nend\n",
		want: "prog.bpl:4:8: only 0 and 1 are Boolean constants, found 2",
	},
	{
		name: "empty parameter between commas",
		prog: "void f(a,,b) begin skip; end\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:10: expected parameter name, found ','",
	},
	{
		name: "bool<0>",
		prog: "bool<0> f() begin skip; end\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:6: bool<0>: the number of return values must be between 1 and 1024",
	},
	{
		name: "statement at top level",
		prog: "decl x;\nx := T;\nvoid main() begin skip; end\n",
		want: "prog.bpl:2:1: expected declaration (decl, lock, void, bool or thread), found identifier x",
	},
	{
		name: "start_thread goto with two labels",
		prog: "void main()\nbegin\n  start_thread goto A, B;\n  A: skip;\n  B: skip;\nend\n",
		want: "prog.bpl:3:24: start_thread goto takes one label",
	},

	// ---- semantic errors ----
	{
		name: "unknown variable",
		prog: "void main()\nbegin\n  x := T;\nend\n",
		want: "prog.bpl:3:3: undeclared variable x",
	},
	{
		name: "unknown variable in expression",
		prog: "decl g;\nvoid main()\nbegin\n  g := g & h;\nend\n",
		want: "prog.bpl:4:12: undeclared variable h",
	},
	{
		name: "unknown function",
		prog: "void main()\nbegin\n  f();\nend\n",
		want: "prog.bpl:3:3: undefined function f",
	},
	{
		name: "call argument count",
		prog: "void f(a) begin skip; end\nvoid main()\nbegin\n  f(T, F);\nend\n",
		want: "prog.bpl:4:3: function f takes 1 argument(s), call gives 2",
	},
	{
		name: "assignment targets vs values",
		prog: "decl x, y;\nvoid main()\nbegin\n  x, y := T;\nend\n",
		want: "prog.bpl:4:6: assignment has 2 target(s) but 1 value(s)",
	},
	{
		name: "call targets vs returns",
		prog: "decl x, y;\nbool f() begin return T; end\nvoid main()\nbegin\n  x, y := f();\nend\n",
		want: "prog.bpl:5:11: function f returns 1 value(s), assignment expects 2",
	},
	{
		name: "more targets than the call returns",
		prog: "decl h, l, carry, x, y;\nbool<2> succ2(a, b) begin return a & b, a ^ b; end\nvoid main()\nbegin\n  h, l, carry := succ2(x, y);\nend\n",
		want: "prog.bpl:5:18: function succ2 returns 2 value(s), assignment expects 3",
	},
	{
		name: "more values than targets",
		prog: "decl x, y;\nvoid main()\nbegin\n  x, y := T, F, x;\nend\n",
		want: "prog.bpl:4:17: assignment has 2 target(s) but 3 value(s)",
	},
	{
		name: "target of a built-in without value",
		prog: "lock m;\ndecl x;\nvoid main()\nbegin\n  x := acquire(m);\nend\n",
		want: "prog.bpl:5:8: acquire returns no value",
	},
	{
		name: "return value count",
		prog: "bool<2> f()\nbegin\n  return T;\nend\nvoid main() begin skip; end\n",
		want: "prog.bpl:3:10: function f returns 2 value(s), return gives 1",
	},
	{
		name: "return value from void",
		prog: "void main()\nbegin\n  return T;\nend\n",
		want: "prog.bpl:3:10: function main returns 0 value(s), return gives 1",
	},
	{
		name: "duplicate global",
		prog: "decl x;\ndecl y, x;\nvoid main() begin skip; end\n",
		want: "prog.bpl:2:9: x redeclared (first declared at 1:6)",
	},
	{
		name: "lock with the name of a global",
		prog: "decl m;\nlock m;\nvoid main() begin skip; end\n",
		want: "prog.bpl:2:6: m redeclared (first declared at 1:6)",
	},
	{
		name: "duplicate local",
		prog: "void main()\nbegin\n  decl a, a;\n  skip;\nend\n",
		want: "prog.bpl:3:11: a redeclared in function main (first declared at 3:8)",
	},
	{
		name: "local with the name of a parameter",
		prog: "void f(p)\nbegin\n  decl p;\n  skip;\nend\nvoid main() begin skip; end\n",
		want: "prog.bpl:3:8: p redeclared in function f (first declared at 1:8)",
	},
	{
		name: "duplicate parameter",
		prog: "void f(p, p) begin skip; end\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:11: p redeclared in function f (first declared at 1:8)",
	},
	{
		name: "duplicate function",
		prog: "void main() begin skip; end\nbool main() begin skip; end\n",
		want: "prog.bpl:2:6: function main redeclared (first declared at 1:6)",
	},
	{
		name: "missing label in goto",
		prog: "void main()\nbegin\n  goto L;\nend\n",
		want: "prog.bpl:3:8: label L not defined in function main",
	},
	{
		name: "label of another function",
		prog: "void f() begin L: skip; end\nvoid main()\nbegin\n  goto L;\nend\n",
		want: "prog.bpl:4:8: label L not defined in function main",
	},
	{
		name: "missing label in start_thread goto",
		prog: "void main()\nbegin\n  start_thread goto L;\nend\n",
		want: "prog.bpl:3:21: label L not defined in function main",
	},
	{
		name: "jump to a label defined twice",
		prog: "void main()\nbegin\n  L: skip;\n  L: skip;\n  goto L;\nend\n",
		want: "prog.bpl:5:8: label L is defined more than once in function main, so the jump is ambiguous",
	},
	{
		name: "primed variable outside constrain",
		prog: "decl x;\nvoid main()\nbegin\n  x := 'x;\nend\n",
		want: "prog.bpl:4:8: 'x is only allowed inside constrain",
	},
	{
		name: "primed variable in assume",
		prog: "decl x;\nvoid main()\nbegin\n  assume(!'x);\nend\n",
		want: "prog.bpl:4:11: 'x is only allowed inside constrain",
	},
	{
		name: "star in enforce",
		prog: "decl x;\nvoid main()\nbegin\n  enforce x | *;\n  skip;\nend\n",
		want: "prog.bpl:4:15: * (nondeterministic value) is not allowed in enforce",
	},
	{
		name: "assignment to a lock",
		prog: "lock m;\nvoid main()\nbegin\n  m := T;\nend\n",
		want: "prog.bpl:4:3: assignment: m is a lock, not a variable",
	},
	{
		name: "call result assigned to a lock",
		prog: "lock m;\nbool f() begin return T; end\nvoid main()\nbegin\n  m := f();\nend\n",
		want: "prog.bpl:5:3: assignment: m is a lock, not a variable",
	},
	{
		name: "acquire of a non-lock",
		prog: "decl x;\nvoid main()\nbegin\n  acquire(x);\nend\n",
		want: "prog.bpl:4:11: acquire of non-lock x (declare it with `lock x;`)",
	},
	{
		name: "release of a non-lock",
		prog: "decl x;\nvoid main()\nbegin\n  release(x);\nend\n",
		want: "prog.bpl:4:11: release of non-lock x (declare it with `lock x;`)",
	},
	{
		name: "tryacquire of a non-lock",
		prog: "decl x, y;\nvoid main()\nbegin\n  y := tryacquire(x);\nend\n",
		want: "prog.bpl:4:19: tryacquire of non-lock x (declare it with `lock x;`)",
	},
	{
		name: "acquire of an expression",
		prog: "lock m;\nvoid main()\nbegin\n  acquire(!m);\nend\n",
		want: "prog.bpl:4:11: acquire of a non-lock: the argument must be a lock name",
	},
	{
		name: "acquire of an undeclared lock",
		prog: "void main()\nbegin\n  acquire(m);\nend\n",
		want: "prog.bpl:3:11: undeclared lock m",
	},
	{
		name: "lock used as a value",
		prog: "lock m;\ndecl x;\nvoid main()\nbegin\n  x := m;\nend\n",
		want: "prog.bpl:5:8: lock m used as a value",
	},
	{
		name: "lock used as a call argument",
		prog: "lock m;\nvoid f(a) begin skip; end\nvoid main()\nbegin\n  f(m);\nend\n",
		want: "prog.bpl:5:5: lock m used as a value",
	},
	{
		name: "function used as a variable",
		prog: "decl x;\nvoid main()\nbegin\n  x := main;\nend\n",
		want: "prog.bpl:4:8: main is a function, not a variable",
	},
	{
		name: "no thread to run",
		prog: "void foo()\nbegin\n  skip;\nend\n",
		want: "prog.bpl:1:1: no thread to run: declare main, mark thread functions with `thread`, or name them thread...",
	},
	{
		name: "x$ outside an assignment",
		prog: "void main()\nbegin\n  decl l;\n  assume(l$);\nend\n",
		want: "prog.bpl:4:10: l$ (the copy of l in other threads) may only be used in an assignment",
	},
	{
		name: "x$ as a call argument",
		prog: "void f(a) begin skip; end\nvoid main()\nbegin\n  decl l;\n  f(l$);\nend\n",
		want: "prog.bpl:5:5: l$ (the copy of l in other threads) may only be used in an assignment",
	},
	{
		name: "g$ of a global",
		prog: "decl g;\nvoid main()\nbegin\n  g$ := T;\nend\n",
		want: "prog.bpl:4:3: undeclared variable g$",
	},
	{
		name: "init with parameters",
		prog: "void init(a) begin skip; end\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:6: init takes no parameters",
	},
	{
		name: "non-constant initializer",
		prog: "decl a, b := a;\nvoid main() begin skip; end\n",
		want: "prog.bpl:1:14: initializer of b must be a constant (T, F, 0, 1 or *)",
	},
	{
		name: "built-in started as a thread",
		prog: "lock m;\nvoid main()\nbegin\n  ASYNC_1: acquire(m);\nend\n",
		want: "prog.bpl:4:12: acquire is a built-in statement and cannot start a thread",
	},

	// ---- usage errors ----
	{
		name: "unknown thread in --threads",
		prog: threadProg,
		args: []string{"check", "--threads", "nope=2", "{file}"},
		sub:  "prog.bpl: --threads: no function named nope",
	},
	{
		name: "--threads without count",
		prog: threadProg,
		args: []string{"check", "--threads", "adder", "{file}"},
		sub:  `--threads: "adder" is not name=N or name=*`,
	},
	{
		name: "unknown solver",
		prog: "void main() begin skip; end",
		args: []string{"check", "--solver", "foo", "{file}"},
		sub:  `unknown solver "foo" (available: gini, z3, bdd)`,
	},
	{
		name: "solver bdd for the bmc engine",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "bmc", "--solver", "bdd", "{file}"},
		sub:  "bmc check: the solver bdd (decision diagrams) serves the summary engine, the counter abstraction",
	},
	{
		name: "solver bdd for the explicit livelock search",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--solver", "bdd", "--engine", "explicit", "{file}"},
		sub:  "--solver does not go with --engine explicit",
	},
	{
		name: "solver bdd for the lasso on the interleaving product",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--solver", "bdd", "--seq", "direct", "{file}"},
		sub:  "the solver bdd (decision diagrams) serves the summary engine, the counter abstraction",
	},
	{
		name: "summaries for the lasso on the interleaving product",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--engine", "summaries", "--seq", "direct", "{file}"},
		sub:  "the summary engine decides the lasso translation with keyframes (--seq eager), not --seq direct",
	},
	{
		name: "solver bdd for a pdr proof",
		prog: "void main() begin skip; end",
		args: []string{"prove", "--method", "pdr", "--solver", "bdd", "{file}"},
		sub:  "bmc prove: the solver bdd (decision diagrams) serves the summary engine, the counter abstraction",
	},
	{
		name: "unknown engine",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "magic", "{file}"},
		sub:  `unknown engine "magic"`,
	},
	{
		name: "unknown solver for the explicit engine",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "explicit", "--solver", "foo", "{file}"},
		sub:  `bmc check: unknown solver "foo" (available: gini, z3, bdd)`,
	},
	{
		name: "solver for the explicit engine",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "explicit", "--solver", "z3", "{file}"},
		sub:  "bmc check: --solver does not go with --engine explicit: the explicit engine uses no solver",
	},
	{
		name: "state limit for the bmc engine",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "bmc", "--max-states", "10", "{file}"},
		sub:  "bmc check: --max-states does not go with --engine bmc",
	},
	{
		name: "bad memory size",
		prog: "void main() begin skip; end",
		args: []string{"check", "--max-memory", "4X", "{file}"},
		sub:  `invalid argument "4X" for "--max-memory" flag: invalid size "4X" (examples: 512M, 4G)`,
	},
	{
		name: "export --property with --aiger",
		prog: "void main() begin skip; end",
		args: []string{"export", "--aiger", "--property", "violation", "{file}"},
		sub:  "bmc export: --property does not go with --aiger: --property chooses the bad state of --dimacs or --smt2",
	},
	{
		name: "export of an unrolling larger than the memory limit",
		prog: "void main() begin skip; end",
		args: []string{"export", "--dimacs", "1000000000", "{file}"},
		sub:  "more than the memory limit of",
	},
	{
		name: "bmc engine on a concurrent program without a bound",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"check", "--engine", "bmc", "{file}"},
		sub:  "the bmc engine needs a bound for a concurrent program",
	},
	{
		name: "negative step bound",
		prog: "void main() begin skip; end",
		args: []string{"check", "--max-steps", "-1", "{file}"},
		sub:  "--max-steps must not be negative",
	},
	{
		name: "bmc with depth 0",
		prog: "void main() begin skip; end",
		args: []string{"check", "--engine", "bmc", "--depth", "0", "{file}"},
		sub:  "--depth must be at least 1",
	},
	{
		name: "export without a format",
		prog: "void main() begin skip; end",
		args: []string{"export", "{file}"},
		sub:  "give exactly one of --aiger, --dimacs K, --smt2 K",
	},
	{
		name: "export with two formats",
		prog: "void main() begin skip; end",
		args: []string{"export", "--aiger", "--dimacs", "3", "{file}"},
		sub:  "give exactly one of",
	},
	{
		name: "export --binary without --aiger",
		prog: "void main() begin skip; end",
		args: []string{"export", "--binary", "--smt2", "2", "{file}"},
		sub:  "--binary goes with --aiger",
	},
	{
		name: "export with a negative bound",
		prog: "void main() begin skip; end",
		args: []string{"export", "--dimacs", "-2", "{file}"},
		sub:  "must not be negative",
	},
	{
		name: "export --seq eager without a bound",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--seq", "eager", "{file}"},
		sub:  "bmc export: --seq eager needs a bound: -k K or --switches N",
	},
	{
		name: "export --seq of a one-thread program",
		prog: "void main() begin skip; end",
		args: []string{"export", "--aiger", "--seq", "lazy", "-k", "2", "{file}"},
		sub:  "bmc export: --seq lazy is for a concurrent program; this one has one thread",
	},
	{
		name: "export with an unknown sequentialization",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--seq", "greedy", "{file}"},
		sub:  "greedy",
	},
	{
		name: "export with rounds and switches",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "-k", "2", "--switches", "3", "{file}"},
		sub:  "bmc export:",
	},
	{
		name: "export --lasso with rounds",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--lasso", "1,1", "-k", "2", "{file}"},
		sub:  "bmc export: --rounds does not go with --lasso",
	},
	{
		name: "export --lasso with a sequentialization",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--lasso", "1,1", "--seq", "eager", "{file}"},
		sub:  "bmc export: --seq eager does not go with --lasso",
	},
	{
		name: "export --lasso with a bad bound",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--lasso", "1,0", "{file}"},
		sub:  "bmc export: --lasso 1,0: the stem needs at least 0 rounds and the loop at least 1",
	},
	{
		name: "export --fairness without --lasso",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--fairness", "weak", "{file}"},
		sub:  "bmc export: --fairness goes with --lasso",
	},
	{
		name: "export --lasso with an unknown fairness",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--lasso", "1,1", "--fairness", "fair", "{file}"},
		sub:  "bmc export: unknown fairness \"fair\" (available: strong, weak, none)",
	},
	{
		name: "export --liveness-outputs without --lasso",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--liveness-outputs", "{file}"},
		sub:  "bmc export: --liveness-outputs goes with --aiger --lasso k1,k2",
	},
	{
		name: "export --lasso of a program that starts threads",
		prog: "void t() begin skip; end void main() begin start_thread t(); end",
		args: []string{"export", "--aiger", "--lasso", "1,1", "{file}"},
		sub:  "does not support starting threads",
	},
	{
		name: "export of a missing file",
		args: []string{"export", "--aiger", "/nonexistent/prog.bpl"},
		sub:  "no such file",
	},
	{
		name: "--threads with a bad count",
		prog: threadProg,
		args: []string{"check", "--threads", "adder=x", "{file}"},
		sub:  `count of adder must be a number from 0 to 1000 or *, got "x"`,
	},
	{
		name: "--threads with an empty entry",
		prog: threadProg,
		args: []string{"check", "--threads", "adder=1,", "{file}"},
		sub:  `--threads: "" is not name=N or name=*`,
	},
	{
		name: "--threads naming a thread twice",
		prog: threadProg,
		args: []string{"check", "--threads", "adder=1,adder=2", "{file}"},
		sub:  "--threads: adder given twice",
	},
	{
		name: "--threads leaving no thread",
		prog: threadProg,
		args: []string{"check", "--threads", "adder=0", "{file}"},
		sub:  "no thread instances left to run",
	},
	{
		name: "--target naming a missing label",
		prog: threadProg,
		args: []string{"check", "--target", "M", "{file}"},
		sub:  "prog.bpl: --target M: the program has no label M",
	},
	{
		name: "unknown flag",
		prog: threadProg,
		args: []string{"check", "--bogus", "{file}"},
		sub:  "unknown flag: --bogus",
	},
	{
		name: "both -k and --switches",
		prog: threadProg,
		args: []string{"check", "-k", "2", "--switches", "3", "{file}"},
		sub:  "give either -k (rounds) or --switches, not both",
	},
	{
		name: "-k 0",
		prog: threadProg,
		args: []string{"check", "-k", "0", "{file}"},
		sub:  "-k must be between 1 and 32, got 0",
	},
	{
		name: "-k over the maximum",
		prog: threadProg,
		args: []string{"check", "-k", "33", "{file}"},
		sub:  "-k must be between 1 and 32, got 33",
	},
	{
		name: "--switches over the maximum",
		prog: threadProg,
		args: []string{"check", "--switches", "65", "{file}"},
		sub:  "--switches must be between 0 and 64, got 65",
	},
	{
		name: "unknown sequentialization",
		prog: threadProg,
		args: []string{"check", "--seq", "greedy", "-k", "1", "{file}"},
		sub:  `unknown sequentialization "greedy" (available: auto, eager, lazy, direct, contexts, product)`,
	},
	{
		name: "the context encoding on the bmc engine",
		prog: threadProg,
		args: []string{"check", "--engine", "bmc", "--seq", "contexts", "-k", "1", "{file}"},
		sub:  "--seq contexts is the summary engine's encoding, not the bmc engine's",
	},
	{
		name: "the context encoding proved by PDR",
		prog: threadProg,
		args: []string{"prove", "--method", "pdr", "--seq", "contexts", "-k", "1", "{file}"},
		sub:  "--seq contexts is the summary engine's encoding (--method summaries), not pdr's",
	},
	{
		name: "the context encoding as a transition system",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"export", "--aiger", "--seq", "contexts", "-k", "1", "{file}"},
		sub:  "--seq contexts is the summary engine's encoding: it is written by --chc",
	},
	{
		name: "the product encoding of a program with calls",
		prog: "decl g; void f() begin g := T; end thread void a() begin f(); end thread void b() begin skip; end",
		args: []string{"check", "--seq", "product", "-k", "1", "{file}"},
		sub:  "the product encoding needs a program without calls",
	},
	{
		name: "sequentialization without a bound",
		prog: "thread void a() begin skip; end thread void b() begin skip; end",
		args: []string{"check", "--seq", "lazy", "{file}"},
		sub:  "the bmc engine needs a bound for a concurrent program: -k K or --switches N",
	},
	{
		name: "seq without a method",
		prog: threadProg,
		args: []string{"seq", "-k", "1", "{file}"},
		sub:  "bmc seq: give exactly one of --eager, --lazy and --amplify",
	},
	{
		name: "seq without a bound",
		prog: threadProg,
		args: []string{"seq", "--lazy", "{file}"},
		sub:  "bmc seq: give exactly one of -k (rounds) and --switches",
	},
	{
		name: "seq -k 0",
		prog: threadProg,
		args: []string{"seq", "--eager", "-k", "0", "{file}"},
		sub:  "bmc seq: -k must be between 1 and 32, got 0",
	},
	{
		name: "seq --threads naming no function",
		prog: threadProg,
		args: []string{"seq", "--lazy", "-k", "1", "--threads", "nope=1", "{file}"},
		sub:  "prog.bpl: --threads: no function named nope",
	},
	{
		name: "--lasso 0,0",
		prog: threadProg,
		args: []string{"check", "--lasso", "0,0", "{file}"},
		sub:  "--lasso 0,0: the stem needs at least 0 rounds and the loop at least 1",
	},
	{
		name: "--lasso negative stem",
		prog: threadProg,
		args: []string{"check", "--lasso", "-1,1", "{file}"},
		sub:  "--lasso -1,1: the stem needs at least 0 rounds and the loop at least 1",
	},
	{
		name: "--lasso one number",
		prog: threadProg,
		args: []string{"check", "--lasso", "2", "{file}"},
		sub:  "--lasso wants two numbers k1,k2 (stem rounds, loop rounds), got \"2\"",
	},
	{
		name: "--lasso missing loop",
		prog: threadProg,
		args: []string{"check", "--lasso", "2,", "{file}"},
		sub:  "--lasso wants two numbers k1,k2",
	},
	{
		name: "--lasso not numbers",
		prog: threadProg,
		args: []string{"check", "--lasso", "a,b", "{file}"},
		sub:  "--lasso wants two numbers k1,k2",
	},
	{
		name: "--lasso over the maximum",
		prog: threadProg,
		args: []string{"check", "--lasso", "20,13", "{file}"},
		sub:  "stem and loop must be at most 32 rounds together",
	},
	{
		name: "--fairness foo",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--fairness", "foo", "{file}"},
		sub:  "unknown fairness \"foo\" (available: strong, weak, none)",
	},
	{
		name: "--fairness without --lasso",
		prog: threadProg,
		args: []string{"check", "--fairness", "weak", "{file}"},
		sub:  "--fairness goes with --lasso k1,k2",
	},
	{
		name: "--lasso with -k",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "-k", "2", "{file}"},
		sub:  "--rounds does not go with --lasso: the lasso's rounds are its stem and loop",
	},
	{
		name: "--lasso with --switches",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--switches", "2", "{file}"},
		sub:  "--switches does not go with --lasso",
	},
	{
		name: "--lasso with --seq lazy",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--seq", "lazy", "{file}"},
		sub:  "--seq lazy does not go with --lasso",
	},
	{
		name: "--lasso with --no-reduction",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--no-reduction", "{file}"},
		sub:  "--no-reduction does not go with --lasso",
	},
	{
		name: "--lasso with --no-symmetry",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--no-symmetry", "{file}"},
		sub:  "--no-symmetry does not go with --lasso",
	},
	{
		name: "--switch-points unknown",
		prog: threadProg,
		args: []string{"check", "-k", "2", "--switch-points", "spin", "{file}"},
		sub:  `unknown switch-point rule "spin" (available: any, getafix)`,
	},
	{
		name: "--switch-points getafix without a bound",
		prog: threadProg,
		args: []string{"check", "--switch-points", "getafix", "{file}"},
		sub:  "--switch-points getafix needs a context bound",
	},
	{
		name: "--switch-points getafix with --lasso",
		prog: threadProg,
		args: []string{"check", "--lasso", "1,1", "--switch-points", "getafix", "{file}"},
		sub:  "--switch-points does not go with --lasso",
	},
	{
		name: "--switch-points getafix with --seq eager",
		prog: threadProg,
		args: []string{"check", "-k", "2", "--switch-points", "getafix", "--seq", "eager", "{file}"},
		sub:  "--switch-points getafix goes with the explicit engine and the summary engine's product encoding (--seq product), not --seq eager",
	},
	{
		name: "--switch-points getafix with --no-reduction",
		prog: threadProg,
		args: []string{"check", "-k", "2", "--switch-points", "getafix", "--no-reduction", "{file}"},
		sub:  "--no-reduction does not go with --switch-points getafix",
	},
	{
		name: "--switch-points getafix on a program with calls",
		prog: "decl g;\nvoid f() begin g := T; end\nthread void adder() begin f(); end\n",
		args: []string{"check", "-k", "2", "--switch-points", "getafix", "{file}"},
		sub:  "--switch-points getafix takes what Getafix's cross-product formulas take",
	},
	{
		name: "-k not a number",
		prog: threadProg,
		args: []string{"check", "-k", "abc", "{file}"},
		sub:  `invalid argument "abc" for "-k, --rounds" flag`,
	},
	{
		name: "negative --switches",
		prog: threadProg,
		args: []string{"check", "--switches", "-1", "{file}"},
		sub:  "--switches must be between 0 and 64, got -1",
	},
	{
		name: "--depth 0",
		prog: threadProg,
		args: []string{"check", "--depth", "0", "{file}"},
		sub:  "--depth must be at least 1, got 0",
	},
	{
		name: "unknown engine",
		prog: threadProg,
		args: []string{"check", "--engine", "foo", "{file}"},
		sub:  `unknown engine "foo"`,
	},
	{
		name: "missing file argument",
		args: []string{"check"},
		sub:  "expected one program file, got 0 arguments",
	},
	{
		name: "two file arguments",
		prog: threadProg,
		args: []string{"check", "{file}", "{file}"},
		sub:  "expected one program file, got 2 arguments",
	},
	{
		name: "nonexistent file",
		args: []string{"check", "{dir}/nonexistent.bpl"},
		sub:  "nonexistent.bpl: no such file or directory",
	},
	{
		name: "fmt without file",
		args: []string{"fmt"},
		sub:  "bmc fmt: expected one program file, got 0 arguments",
	},
	{
		name: "fmt of a nonexistent file",
		args: []string{"fmt", "{dir}/nonexistent.bpl"},
		sub:  "nonexistent.bpl: no such file or directory",
	},
	{
		name: "unknown command",
		args: []string{"frobnicate"},
		sub:  `unknown command "frobnicate"`,
	},
}

// runBad runs bmc with args and checks what every bad input shares: exit
// status 2, nothing on stdout, no panic. It returns stderr with dir
// removed from paths.
func runBad(t *testing.T, dir string, args []string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	errText := strings.ReplaceAll(stderr.String(), dir+string(filepath.Separator), "")
	if code != exitBadInput {
		t.Errorf("bmc %s: exit status %d, want %d\nstderr:\n%s", strings.Join(args, " "), code, exitBadInput, errText)
	}
	if stdout.Len() != 0 {
		t.Errorf("bmc %s: stdout not empty:\n%s", strings.Join(args, " "), stdout.String())
	}
	if strings.Contains(errText, "panic") || strings.Contains(errText, "goroutine") {
		t.Errorf("bmc %s: stderr shows a panic:\n%s", strings.Join(args, " "), errText)
	}
	if strings.TrimSpace(errText) == "" {
		t.Errorf("bmc %s: no message on stderr", strings.Join(args, " "))
	}
	return errText
}

func TestBadInput(t *testing.T) {
	if len(badInputCases) < 30 {
		t.Fatalf("only %d cases", len(badInputCases))
	}
	for _, tc := range badInputCases {
		t.Run(tc.name, func(t *testing.T) {
			if (tc.want == "") == (tc.sub == "") {
				t.Fatal("set exactly one of want and sub")
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "prog.bpl")
			if tc.prog != "" {
				if err := os.WriteFile(file, []byte(tc.prog), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := tc.args
			if args == nil {
				args = []string{"check", "{file}"}
			}
			args = append([]string(nil), args...)
			for i, a := range args {
				a = strings.ReplaceAll(a, "{file}", file)
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			errText := runBad(t, dir, args)
			if tc.sub != "" {
				if !strings.Contains(errText, tc.sub) {
					t.Errorf("stderr does not contain %q:\n%s", tc.sub, errText)
				}
				return
			}
			first, _, _ := strings.Cut(errText, "\n")
			if first != tc.want {
				t.Errorf("first line of stderr:\n got  %s\n want %s\nfull stderr:\n%s", first, tc.want, errText)
			}
			// fmt parses and checks the same way, so it reports the same
			// first error.
			errText = runBad(t, dir, []string{"fmt", file})
			if first, _, _ := strings.Cut(errText, "\n"); first != tc.want {
				t.Errorf("bmc fmt: first line of stderr:\n got  %s\n want %s", first, tc.want)
			}
		})
	}
}

// TestBadInputEveryLineHasPosition checks that every line a source error
// prints is a `prog.bpl:LINE:COL: message` diagnostic, including the
// follow-up errors after the first.
func TestBadInputEveryLineHasPosition(t *testing.T) {
	for _, tc := range badInputCases {
		if tc.want == "" {
			continue
		}
		dir := t.TempDir()
		file := filepath.Join(dir, "prog.bpl")
		if err := os.WriteFile(file, []byte(tc.prog), 0o644); err != nil {
			t.Fatal(err)
		}
		errText := runBad(t, dir, []string{"check", file})
		for _, line := range strings.Split(strings.TrimRight(errText, "\n"), "\n") {
			if !diagnosticLine(line) {
				t.Errorf("%s: stderr line %q is not prog.bpl:LINE:COL: message", tc.name, line)
			}
		}
	}
}

// diagnosticLine reports whether line has the form prog.bpl:L:C: msg with
// positive L and C.
func diagnosticLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "prog.bpl:")
	if !ok {
		return false
	}
	for i := 0; i < 2; i++ {
		num, after, ok := strings.Cut(rest, ":")
		if !ok || num == "" || num[0] == '0' || strings.Trim(num, "0123456789") != "" {
			return false
		}
		rest = after
	}
	return strings.HasPrefix(rest, " ") && len(rest) > 1
}
