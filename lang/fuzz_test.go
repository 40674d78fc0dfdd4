// The fuzz test lives in the external package lang_test because it also
// lowers checked programs with bmc/ir, which imports lang. It compares
// ASTs with lang.DiffAST, which parser_test.go exports from diffAST.

package lang_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bmc/internal/corpus"
	"bmc/ir"
	"bmc/lang"
)

// fuzzSnippets are small hand-written inputs, valid and invalid, that
// steer the fuzzer towards every construct of the language.
var fuzzSnippets = []string{
	// Valid.
	"void main() begin skip; end\n",
	"decl g := T, h := *;\nlock m;\nthread void t() begin acquire(m); g := !g; release(m); end\nthread void u() begin decl b; b := tryacquire(m); if b then release(m); fi end\n",
	"decl x, y;\nbool<2> f(a, b) begin enforce a | b; return b, a; end\nvoid main() begin x, y := f(x, y); x, y := y, x constrain !('x & y); x := schoose[x, !y]; end\n",
	"void main() begin decl l; L1: 10: if (l) then goto L1, 10; elsif l = l then skip; else l := ?; fi while l && !l || l do dead l; od assume(l != l); assert(!(*)); end\n",
	"void main() begin decl l; l, l$ := T, F; start_thread goto L; end_thread; L: ASYNC_1: f(); start_thread f(); atomic_begin; atomic_end; end\nvoid f() begin print(T, F); end\n",
	"decl atomic;\r\nvoid init() begin atomic := F; endinit: skip; end\r\nvoid thread1() begin atomic := T; constrain('atomic = atomic); atomic := F; end\r\nvoid main() begin skip end\r\n",
	"decl {a.b};\nbool <3> {f g}() begin return {a.b}, 1, 0; end\nvoid main() begin decl _x; _, {a.b}, _x := {f g}(); if T then assert F; fi; end\n",
	"void main() begin decl a, b; a := a => b => a ^ b & (a | b) = !a; /* c */ // d\nend\n",
	"void main() begin decl {x y}, {T}; {1}: {x y} := {T}; goto 1, {a:b}; {a:b}: if {T} then L: elsif F then else fi end\n",
	"bool<2> f(a) begin return a, a; end\nvoid main() begin decl l, m; l, l$, m := l$ ^ m, l, * constrain 'l$ = 'm; _, l := f(l); while * do if l then ; fi od; end\n",
	// Invalid.
	"void main() begin skip skip; end\n",
	"void main() begin if (T) then skip; end\n",
	"void f(a,,b) begin skip; end\nbool<0> g() begin /* open",
	"decl x := !y;\nvoid init(p) begin skip; end\nthread void main() begin x := tryacquire(x); l$ := T; ASYNC_1: x := main(); end\n",
	"decl x; lock m;\nvoid main() begin m := 'x; acquire(x); x := m; goto L; L: skip; L: skip; y := f(x); end\n",
}

// maxFuzzSeed bounds the size of the benchmark files used as seeds while
// fuzzing: one run on the largest (400 KB) takes about 0.1 s, and the
// fuzzer spends minutes minimizing every new input found from one. Plain
// `go test` still runs every file.
const maxFuzzSeed = 32 << 10

func FuzzFrontEnd(f *testing.F) {
	fuzzing := false
	if fl := flag.Lookup("test.fuzz"); fl != nil && fl.Value.String() != "" {
		fuzzing = true
	}
	// Seed with the benchmark corpus (when present) and the example
	// programs.
	_ = filepath.WalkDir(corpus.Optional(f), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".bp") || strings.HasSuffix(path, ".nbp")) {
			return nil
		}
		if src, err := os.ReadFile(path); err == nil && (!fuzzing || len(src) <= maxFuzzSeed) {
			f.Add(src)
		}
		return nil
	})
	examples, _ := filepath.Glob("../examples/*.bpl")
	for _, path := range examples {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	for _, s := range fuzzSnippets {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFrontEnd(t, src)
	})
}

// checkFrontEnd runs the whole front end on src: no stage may panic,
// every diagnostic must be well formed, and a checked program must
// survive Format unchanged.
func checkFrontEnd(t *testing.T, src []byte) {
	const name = "fuzz.bpl"
	file, err := lang.ParseFile(context.Background(), name, src)
	if file == nil {
		t.Fatalf("ParseFile returned a nil File (err %v)", err)
	}
	if err != nil {
		checkDiagnostics(t, "ParseFile", name, src, err)
		return
	}
	info, err := lang.Check(context.Background(), file)
	if info == nil {
		t.Fatalf("Check returned nil Info (err %v)", err)
	}
	if err != nil {
		checkDiagnostics(t, "Check", name, src, err)
		return
	}
	checkDiagnostics(t, "Check warnings", name, src, info.Warnings)

	// Lowering must not panic; its errors concern options only.
	_, _ = ir.Build(context.Background(), info, ir.Options{})

	out := lang.Format(file)
	file2, err := lang.ParseFile(context.Background(), name, out)
	if err != nil {
		t.Fatalf("formatted program does not parse: %v\n--- input:\n%s\n--- formatted:\n%s", err, src, out)
	}
	if _, err := lang.Check(context.Background(), file2); err != nil {
		t.Fatalf("formatted program does not check: %v\n--- input:\n%s\n--- formatted:\n%s", err, src, out)
	}
	if d := lang.DiffAST(file, file2); d != "" {
		t.Fatalf("formatted program differs: %s\n--- input:\n%s\n--- formatted:\n%s", d, src, out)
	}
	if out2 := lang.Format(file2); !bytes.Equal(out, out2) {
		t.Fatalf("Format is not idempotent\n--- first:\n%s\n--- second:\n%s", out, out2)
	}
}

// checkDiagnostics checks that err is a lang.ErrorList (possibly empty)
// whose entries name the file and point inside the source.
func checkDiagnostics(t *testing.T, stage, name string, src []byte, err error) {
	t.Helper()
	var list lang.ErrorList
	if !errors.As(err, &list) {
		if err == nil {
			return
		}
		t.Fatalf("%s: error is %T, not lang.ErrorList: %v", stage, err, err)
	}
	lines := bytes.Split(src, []byte("\n"))
	for _, e := range list {
		if e.File != name {
			t.Errorf("%s: diagnostic %q names file %q, want %q", stage, e.Error(), e.File, name)
		}
		// A position is at most one past the end of its line (end of file).
		if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > len(lines) || e.Pos.Col > len(lines[e.Pos.Line-1])+1 {
			t.Errorf("%s: diagnostic %q has position %v outside the source", stage, e.Error(), e.Pos)
		}
		if e.Msg == "" || strings.Contains(e.Msg, "token(") {
			t.Errorf("%s: diagnostic %q has a malformed message", stage, e.Error())
		}
	}
}
