package driver

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/smt"
)

var updatePlans = flag.Bool("update", false, "rewrite testdata/plans.golden")

// planKinds are the program kinds the plans are printed for: one example
// of each, with the thread counts the user would give.
var planKinds = []struct {
	kind, file, threads string
}{
	{"sequential, loop-free", "seq_swap.bpl", ""},
	{"sequential, looping", "seq_counter.bpl", ""},
	{"sequential, recursive", "seq_recursion.bpl", ""},
	{"concurrent, loop-free", "peterson_once.bpl", ""},
	{"concurrent, looping", "peterson.bpl", ""},
	{"concurrent, recursive", "kind_fig1.bpl", ""},
	{"parameterized", "drivers_exclusive.bpl", "kernel=1,driver=*"},
	{"replicated", "bluetooth_fixed.bpl", "adder=2,stopper=2"},
	{"spawning", "worker_pool.bpl", ""},
	{"no violation once folded", "stale_value.bpl", ""},
	{"threads that write globals of their own", "burns_views.bpl", ""},
}

// planQuestion is one question as a command asks it: its bounds.
type planQuestion struct {
	words    string // the command line's words for it
	q        method.Question
	rounds   int
	switches int
	lasso    result.LassoBound
}

var planQuestions = []planQuestion{
	{words: "check", q: method.Safety, switches: -1},
	{words: "check -k 2", q: method.Safety, rounds: 2, switches: -1},
	{words: "check --switches 2", q: method.Safety, switches: 2},
	{words: "check --lasso 1,1", q: method.Livelock, switches: -1, lasso: result.LassoBound{Stem: 1, Loop: 1}},
	{words: "prove", q: method.Proof, switches: -1},
	{words: "prove -k 2", q: method.Proof, rounds: 2, switches: -1},
}

// planPins are the flags that pin a part of the plan, one at a time,
// from the vocabulary table: every value of --engine (check), --method
// (prove), --seq and --solver.
func planPins(q method.Question) [][2]string {
	pins := [][2]string{{}}
	add := func(c method.Choice) {
		for _, v := range c.Values {
			if v.Name != c.Default || c.Flag == "solver" && v.Name != "gini" {
				pins = append(pins, [2]string{c.Flag, v.Name})
			}
		}
	}
	if q == method.Proof {
		add(method.MethodChoice)
	} else {
		add(method.EngineChoice)
	}
	add(method.SeqChoice)
	add(method.SolverChoice)
	return pins
}

// TestPlansGolden prints the plan (as --verbose does) of every program
// kind x question x pin into testdata/plans.golden, so that a change of
// any plan shows in review; `go test ./driver -run TestPlansGolden
// -update` rewrites it. A pin the program or question does not take
// prints the usage error. Plans are made, not run, on 2 cores, in
// this process. Without Z3 (TAGS=noz3) the rows that pin it are left
// out of the comparison.
func TestPlansGolden(t *testing.T) {
	var out strings.Builder
	for _, k := range planKinds {
		src, err := os.ReadFile(filepath.Join("..", "examples", k.file))
		if err != nil {
			t.Fatal(err)
		}
		opts := ir.Options{}
		if k.threads != "" {
			if opts.Threads, err = ir.ParseThreads(k.threads); err != nil {
				t.Fatal(err)
			}
		}
		p := load(t, k.file, string(src), opts)
		for _, pq := range planQuestions {
			for _, pin := range planPins(pq.q) {
				words := k.file + " (" + k.kind + "): bmc " + pq.words
				if k.threads != "" {
					words += " --threads " + k.threads
				}
				if pin[0] != "" {
					words += " --" + pin[0] + " " + pin[1]
				}
				fmt.Fprintf(&out, "== %s\n%s\n", words, planText(p, pq, pin))
			}
		}
	}
	path := filepath.Join("testdata", "plans.golden")
	if *updatePlans {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./driver -run TestPlansGolden -update writes it)", err)
	}
	got, wantRows := goldenRows(out.String()), goldenRows(string(want))
	if len(got) != len(wantRows) {
		t.Fatalf("%d plans printed, %d in %s: the matrix changed (-update rewrites it)", len(got), len(wantRows), path)
	}
	compared := 0
	for i := range got {
		if !smt.Available && strings.Contains(got[i].words, "--solver z3") {
			continue
		}
		compared++
		if got[i] != wantRows[i] {
			t.Errorf("the plan changed (-update rewrites %s):\n== %s\nwant:\n%s\ngot:\n%s", path, wantRows[i].words, wantRows[i].plan, got[i].plan)
		}
	}
	if compared < len(got)/2 {
		t.Fatalf("only %d of %d plans compared", compared, len(got))
	}
}

// planText makes the plan for one row and prints it, or the usage error.
func planText(p *ir.Program, pq planQuestion, pin [2]string) string {
	b := method.DefaultBounds()
	b.Rounds, b.Switches = pq.rounds, pq.switches
	o := method.Options{Solver: "gini", MaxSteps: 50, Bounds: b, Cores: 2,
		Proof: method.ProofOptions{MaxK: method.DefaultMaxK, MaxRounds: method.DefaultMaxRounds}}
	switch pin[0] {
	case "engine":
		o.Engine = method.Engine(pin[1])
	case "method":
		o.Proof.Method = method.ProofMethod(pin[1])
	case "seq":
		o.Seq = method.Seq(pin[1])
	case "solver":
		o.Solver, o.SolverStated = method.SolverName(pin[1]), true
	}
	pl, err := makePlan(context.Background(), p, o, pq.q, pq.lasso)
	if err != nil {
		return "refused: " + err.Error()
	}
	var text strings.Builder
	pl.WriteTo(&text)
	return strings.TrimSuffix(text.String(), "\n")
}

// goldenRow is one row of the golden file.
type goldenRow struct{ words, plan string }

func goldenRows(s string) []goldenRow {
	var rows []goldenRow
	for _, part := range strings.Split(s, "== ")[1:] {
		words, plan, _ := strings.Cut(strings.TrimSuffix(part, "\n"), "\n")
		rows = append(rows, goldenRow{words, plan})
	}
	return rows
}
