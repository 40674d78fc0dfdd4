package progen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

// TestFamilies checks every `// expect:` line of the benchmark families
// with the explicit engine: every pump the tables use, and Burns'
// algorithm up to 4 threads (5 threads take 2.5 million states, and the
// tables' 6 and 7 threads more than the explicit engine's default limit).
func TestFamilies(t *testing.T) {
	var progs []struct{ name, src string }
	for n := 2; n <= 4; n++ {
		progs = append(progs, struct{ name, src string }{fmt.Sprintf("burns%d", n), Burns(n)},
			struct{ name, src string }{fmt.Sprintf("burns%d_bug", n), BurnsBuggy(n)},
			struct{ name, src string }{fmt.Sprintf("flags%d", n), FlagMutex(n, false)},
			struct{ name, src string }{fmt.Sprintf("flags%d_bug", n), FlagMutex(n, true)})
	}
	for n := 3; n <= 12; n += 3 {
		progs = append(progs, struct{ name, src string }{fmt.Sprintf("permutation%d_late", n), PermutationLate(n)})
	}
	for k := 2; k <= 8; k++ {
		progs = append(progs, struct{ name, src string }{fmt.Sprintf("pump%d", k), Pump(k, false)},
			struct{ name, src string }{fmt.Sprintf("pump%d_safe", k), Pump(k, true)})
	}
	expect := regexp.MustCompile(`^// expect: (safe|unsafe) (-k|--switches) (\d+)$`)
	for _, pg := range progs {
		p, errs, err := ir.Load(context.Background(), pg.name+".bpl", []byte(pg.src), ir.Options{})
		if err != nil || len(errs) > 0 {
			t.Fatalf("%s: %v %v\n%s", pg.name, err, errs, pg.src)
		}
		lines := 0
		for _, line := range strings.Split(pg.src, "\n") {
			m := expect.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			lines++
			res := explicitWithin(t, p, m[2], m[3])
			if want := map[string]result.Verdict{"safe": result.Safe, "unsafe": result.Unsafe}[m[1]]; res.Verdict != want {
				t.Errorf("%s: %s: %v %v", pg.name, line, res.Verdict, res.Limits)
			}
			t.Logf("%s %s %s: %v, %d states", pg.name, m[2], m[3], res.Verdict, res.States)
		}
		if lines == 0 {
			t.Errorf("%s: no expectations", pg.name)
		}
	}
}

// TestPhilosophers loads both variants of the dining philosophers for 2
// to 8 philosophers and checks every `// expect:` line with the explicit
// engine up to 3 philosophers (4 already take seconds per livelock
// search, and the TryLock version with 5 more states than the default
// limit). With 3 philosophers the programs are the example files.
func TestPhilosophers(t *testing.T) {
	expect := regexp.MustCompile(`^// expect: (safe|unsafe|livelock|no-livelock) (?:(-k|--switches) (\d+)|--lasso (\d+),(\d+)(?: --fairness (strong|weak|none))?)$`)
	for _, ordered := range []bool{false, true} {
		for n := 2; n <= 8; n++ {
			name := fmt.Sprintf("philosophers%d_ordered=%v", n, ordered)
			src := Philosophers(n, ordered)
			p, errs, err := ir.Load(context.Background(), name+".bpl", []byte(src), ir.Options{})
			if err != nil || len(errs) > 0 {
				t.Fatalf("%s: %v %v\n%s", name, err, errs, src)
			}
			if got := len(p.Threads); got != n {
				t.Errorf("%s: %d threads", name, got)
			}
			if n == 3 {
				file := map[bool]string{false: "philosophers_trylock.bpl", true: "philosophers_ordered.bpl"}[ordered]
				ex, err := os.ReadFile(filepath.Join("..", "..", "examples", file))
				if err != nil {
					t.Fatal(err)
				}
				body := func(s string) string { return s[strings.Index(s, "\nlock "):] }
				if body(string(ex)) != body(src) {
					t.Errorf("%s: the program differs from examples/%s", name, file)
				}
			}
			lines := 0
			for _, line := range strings.Split(src, "\n") {
				if !strings.HasPrefix(line, "// expect:") {
					continue
				}
				m := expect.FindStringSubmatch(line)
				if m == nil {
					t.Fatalf("%s: unexpected %q", name, line)
				}
				lines++
				if n > 3 {
					continue
				}
				var res *result.Result
				if m[2] != "" {
					res = explicitWithin(t, p, m[2], m[3])
				} else {
					stem, _ := strconv.Atoi(m[4])
					loop, _ := strconv.Atoi(m[5])
					f := result.StrongFairness
					if m[6] != "" {
						if f, err = result.ParseFairness(m[6]); err != nil {
							t.Fatal(err)
						}
					}
					res = explicit.LassoSearch(context.Background(), p, result.LassoBound{Stem: stem, Loop: loop, Fairness: f}, explicit.DefaultOptions())
				}
				want := map[string]result.Verdict{"safe": result.Safe, "no-livelock": result.Safe, "unsafe": result.Unsafe, "livelock": result.Unsafe}[m[1]]
				if res.Verdict != want {
					t.Errorf("%s: %s: %v %v", name, line, res.Verdict, res.Limits)
				}
				t.Logf("%s %s: %v, %d states", name, line, res.Verdict, res.States)
			}
			if lines == 0 {
				t.Errorf("%s: no expectations", name)
			}
		}
	}
}

// explicitWithin runs the explicit engine on p within the bound of an
// expectation: flag -k or --switches, and its number.
func explicitWithin(t *testing.T, p *ir.Program, flag, number string) *result.Result {
	t.Helper()
	bound, _ := strconv.Atoi(number)
	o := explicit.DefaultOptions().Within(0, bound)
	if flag == "-k" {
		o = explicit.DefaultOptions().Within(bound, -1)
	}
	c, err := explicit.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run(context.Background())
}
