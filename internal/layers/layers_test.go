package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rank is each package's layer: a package imports only packages of a
// lower rank. Read upwards it is the pipeline: the language and its
// programs, results, the transformations and the oracle, the
// encodings, the engines on transition systems and solvers, the
// methods, the driver that plans them, and the command line.
var rank = map[string]int{
	"internal/halt": 0, "internal/cpus": 0, "internal/tail": 0, "internal/corpus": 0,
	"internal/soak": 0, "internal/progen": 0, "internal/peer": 0, "internal/layers": 0,
	"internal/budget": 1, "internal/testsolvers": 3,
	"lang": 1, "ts": 1, "solver": 1, "bdd": 1,
	"ir": 2, "sat": 2, "smt": 2,
	"result": 3, "chc": 3, "decompile": 3,
	"seq": 4, "cover": 4, "explicit": 4, "picture": 4, "engine": 4,
	"fairness": 5, "moped": 5, "encode": 5,
	"method": 6,
	"driver": 7, "batch": 7,
	"cmd/bmc": 8, "scripts/behaviour": 8, "scripts/loopprogs": 8, "scripts/testreport": 8,
}

// oracleImporters may import the oracle: the methods replay every
// witness on it before it is shown.
var oracleImporters = map[string]bool{"method": true, "driver": true}

// TestLayers: no package imports one of its own layer or a higher one,
// and only the methods and the driver import the oracle (tests aside).
func TestLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	imports := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(dir)
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, "bmc/"); ok {
				imports[pkg][rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < 20 {
		t.Fatalf("only %d packages found under %s", len(imports), root)
	}
	for pkg, imps := range imports {
		r, ok := rank[pkg]
		if !ok {
			t.Errorf("package %s has no layer: give it one in rank", pkg)
			continue
		}
		for imp := range imps {
			switch {
			case imp == "explicit" && !oracleImporters[pkg]:
				t.Errorf("%s imports the oracle (explicit): only %v may", pkg, oracleImporters)
			case rank[imp] >= r:
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports lower layers only", pkg, r, imp, rank[imp])
			}
		}
	}
}
