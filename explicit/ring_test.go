package explicit

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// ringProgram is a random ring of n threads: thread i's code is one
// template with x(i), x(i+1), x(i-1) and locks f(i), f(i+1) for its
// own, its right and its left neighbour's, s shared by all.
func ringProgram(seed int64, n int) string {
	rnd := rand.New(rand.NewSource(seed))
	expr := func(depth int) string {
		var e func(d int) string
		e = func(d int) string {
			atoms := []string{"x(i)", "x(i+1)", "x(i-1)", "s", "l", "T", "F", "*"}
			if d == 0 || rnd.Intn(3) == 0 {
				return atoms[rnd.Intn(len(atoms))]
			}
			switch rnd.Intn(3) {
			case 0:
				return "!" + e(d-1)
			case 1:
				return "(" + e(d-1) + " & " + e(d-1) + ")"
			}
			return "(" + e(d-1) + " | " + e(d-1) + ")"
		}
		return e(depth)
	}
	var stmt func(d int) string
	stmt = func(d int) string {
		switch k := rnd.Intn(12); {
		case k == 0 && d > 0:
			return fmt.Sprintf("if (%s) then %s else %s fi", expr(1), stmt(d-1), stmt(d-1))
		case k == 1 && d > 0:
			return fmt.Sprintf("while (%s) do %s od", expr(1), stmt(d-1))
		case k == 2:
			return fmt.Sprintf("x(i) := %s;", expr(2))
		case k == 3:
			return fmt.Sprintf("s, x(i) := %s, %s;", expr(1), expr(1))
		case k == 4:
			return fmt.Sprintf("acquire(f(i)); %s release(f(i));", stmt(0))
		case k == 5:
			return "l := tryacquire(f(i+1)); if (l) then " + []string{"release(f(i+1));", "release(f(i+1));", "release(f(i));"}[rnd.Intn(3)] + " fi"
		case k == 6:
			return fmt.Sprintf("assert(%s | s);", expr(2))
		case k == 7:
			return fmt.Sprintf("if (%s & x(i+1)) then goto ERROR; fi", expr(2))
		}
		return fmt.Sprintf("l := %s;", expr(2))
	}
	var body []string
	for range 3 + rnd.Intn(3) {
		body = append(body, "  "+stmt(1))
	}
	template := strings.Join(body, "\n")
	var b strings.Builder
	var xs, fs, fals []string
	for i := range n {
		xs, fs, fals = append(xs, fmt.Sprintf("x%d", i)), append(fs, fmt.Sprintf("f%d", i)), append(fals, "F")
	}
	fmt.Fprintf(&b, "decl s, %s;\nlock %s;\n", strings.Join(xs, ", "), strings.Join(fs, ", "))
	fmt.Fprintf(&b, "void init() begin s, %s := F, %s; end\n", strings.Join(xs, ", "), strings.Join(fals, ", "))
	for i := range n {
		code := template
		for _, d := range []struct {
			from string
			k    int
		}{{"(i+1)", 1}, {"(i-1)", n - 1}, {"(i)", 0}} {
			code = strings.ReplaceAll(code, d.from, fmt.Sprint((i+d.k)%n))
		}
		fmt.Fprintf(&b, "thread void t%d() begin\n  decl l;\n%s\n  goto DONE;\nERROR:\n  skip;\nDONE:\n  skip;\nend\n", i, code)
	}
	return b.String()
}

// TestRingAgreesOnRandomPrograms compares the search reduced by a
// ring's rotations with the plain one on random rings of three and four
// threads, without a bound and within switches (rounds order the
// threads: the reduction stays off there): the ring must be found; a
// violation must be found by both or by neither, with a trace of as
// many statements; the reduced search's trace must replay on the program as
// written, to the violation it names; and the reduction must store
// fewer states somewhere.
func TestRingAgreesOnRandomPrograms(t *testing.T) {
	t.Parallel()
	seeds := soak.Seeds(30, 200)
	var tally reductionTally
	for seed := int64(1); seed <= int64(seeds); seed++ {
		n := 3 + int(seed%2)
		src := ringProgram(seed, n)
		p := loadText(t, fmt.Sprintf("ring%d.bpl", seed), src, ir.Options{})
		if ir.FindRing(p) == nil {
			t.Fatalf("seed %d: no ring found in\n%s", seed, src)
		}
		for _, sc := range schedules {
			if sc.rounds > 0 {
				continue
			}
			opts := DefaultOptions()
			opts.Switches, opts.Rounds, opts.Depth, opts.MaxStates = sc.switches, sc.rounds, 4, 50_000
			c, a, b := reducedAndPlain(t, p, opts)
			if !tally.count(a, b) {
				continue
			}
			if a.Verdict != b.Verdict {
				t.Fatalf("seed %d, %s: with the ring %s, without %s\n%s", seed, sc.name, a.Verdict, b.Verdict, src)
			}
			if a.Verdict != result.Unsafe {
				continue
			}
			// The fewest statements to a violation are the same in every
			// rotation (the switches of a search without a bound are
			// only its preference among paths of as many).
			if a.Trace.Statements() != b.Trace.Statements() {
				t.Errorf("seed %d, %s: a trace of %d statements with the ring, %d without", seed, sc.name, a.Trace.Statements(), b.Trace.Statements())
			}
			tr, err := Replay(p, opts, modelSteps(c))
			if err != nil {
				t.Fatalf("seed %d, %s: the trace found with the ring does not replay: %v\n%s", seed, sc.name, err, src)
			}
			if tr.Violation != a.Trace.Violation || tr.Pos != a.Trace.Pos {
				t.Errorf("seed %d, %s: the trace names %q at %v, its replay %q at %v\n%s", seed, sc.name, a.Trace.Violation, a.Trace.Pos, tr.Violation, tr.Pos, src)
			}
		}
	}
	tally.check(t)
}
