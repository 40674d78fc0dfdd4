package progen

import (
	"context"
	"fmt"
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
		progs = append(progs, struct{ name, src string }{fmt.Sprintf("burns%d", n), Burns(n)})
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
			o := explicit.DefaultOptions()
			bound, _ := strconv.Atoi(m[3])
			if m[2] == "-k" {
				o.Switches, o.Rounds = -1, bound
			} else {
				o.Switches = bound
			}
			c, err := explicit.New(p, o)
			if err != nil {
				t.Fatal(err)
			}
			res := c.Run(context.Background())
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
