package moped

import (
	"strings"
	"testing"
)

// TestCheckText: programs Moped reads as bmc means them pass; each other
// one fails with a message naming the problem.
const violationProc = "void violation()\nbegin\n  error: skip;\nend\n"

// readable are texts that CheckText accepts, with whether Label is
// reachable (TestMopedReadsCheckedText asks Moped).
var readable = []struct {
	text      string
	reachable bool
}{
	{"decl g;\nvoid main()\nbegin\n  if (*) then violation(); fi\nend\n" + violationProc, true},
	{"decl a, b;\ndecl c;\nvoid main()\nbegin\n  decl l;\n  a, b := schoose[F, F], !(a & b) = c;\n  l := (a => b) ^ 0 | 1 & T && F || ~c != l;\n  if (a) then violation(); elsif (?) then skip; else L: goto L; fi\n  while (*) do assume(!(!a)); od\nend\n" + violationProc, true},
	{"bool<2> f(x, y)\nbegin\n  return y, x;\nend\nbool g()\nbegin\n  return;\nend\nvoid main()\nbegin\n  decl p, q;\n  p, q := f(T, schoose[p, q]);\n  f(p, q);\n  p := g();\n  assume(!p);\n  violation();\nend\n// a comment\n" + violationProc, true},
	{"decl g;\nvoid main()\nbegin\n  g := F;\n  if (g) then violation(); fi\nend\n" + violationProc, false},
}

// TestCheckText: programs Moped reads as bmc means them pass; each other
// one fails with a message naming the problem.
func TestCheckText(t *testing.T) {
	const violation = violationProc
	for i, src := range readable {
		if err := CheckText([]byte(src.text), "error"); err != nil {
			t.Errorf("readable %d: %v\n%s", i, err, src.text)
		}
	}
	main := func(body string) string {
		return "decl g;\nvoid main()\nbegin\n  decl l;\n" + body + "\n  violation();\nend\n" + violation
	}
	bad := []struct{ src, want string }{
		{main("g := *;"), "* inside an expression"},
		{main("g := g & schoose[F, F];"), "schoose inside an expression"},
		{main("assume(g & *);"), "* inside an expression"},
		{main("g := !!g;"), "! before !"},
		{main("assert(g);"), "assert: Moped reads it as assume"},
		{main("constrain(g);"), "constrain"},
		{main("g := T constrain g;"), `expected ";"`},
		{main("print(g);"), "print"},
		{main("g := 'g;"), "'x"},
		{main("goto L, M;\n  L: skip;\n  M: skip;"), "goto with several targets"},
		{main("L: M: skip;"), "a second label"},
		{main("L: skip;\n  L: skip;"), "label L defined twice"},
		{main("goto Nowhere;"), "no such label"},
		{main("10: skip;"), "expected a name"},
		{main("h := T;"), "h is not declared"},
		{main("g := h;"), "h is not declared"},
		{main("g, g := T, F;"), "g assigned twice"},
		{main("g := T, F;"), "1 targets and 2 values"},
		{main("if (g) then fi"), "empty statement list"},
		{main("while (g) do od"), "empty statement list"},
		{main("g := x.y;"), "character '.'"},
		{main("/* c */ skip;"), "character '/'"},
		{main("g := 2;"), "expected an expression"},
		{main("nofunc();"), "not a function"},
		{main("violation(g);"), "with 1 arguments; it takes 0"},
		{main("g := violation();"), "assigns 1 results; it returns 0"},
		{main("return g;"), "return of 1 values in main, which returns 0"},
		{"decl g := T;\nvoid main()\nbegin\n  violation();\nend\n" + violation, `expected ";"`},
		{"decl g;\nvoid main()\nbegin\n  decl g;\n  violation();\nend\n" + violation, "local g has the name of a global"},
		{"decl T;\nvoid main()\nbegin\n  violation();\nend\n" + violation, "expected a name"},
		{"decl if;\nvoid main()\nbegin\n  violation();\nend\n" + violation, "expected a name"},
		{"void main()\nbegin\nend\n" + violation, "empty statement list"},
		{"void main()\nbegin\n  enforce T;\n  violation();\nend\n" + violation, "enforce"},
		{"void main()\nbegin\n  violation();\nend\n" + violation + "void main()\nbegin\n  skip;\nend\n", "function main declared twice"},
		{"void f()\nbegin\n  violation();\nend\n" + violation, "no function main"},
		{"void main()\nbegin\n  skip;\nend\n" + violation, "main never calls"},
		{"void main()\nbegin\n  error: violation();\nend\n" + violation, "defined in 2 functions"},
		{"void main()\nbegin\n  skip;\nend\n", "defined in 0 functions"},
		{"void main()\nbegin\n  violation();\nend\n" + violation + "// no newline", "needs a newline"},
		{"void main()\nbegin\n  violation();\nend\ndecl late;\n" + violation, "expected void or bool"},
		{"thread void main()\nbegin\n  violation();\nend\n" + violation, "expected void or bool"},
	}
	for _, c := range bad {
		err := CheckText([]byte(c.src), "error")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q\n%s", err, c.want, c.src)
		}
	}
}
