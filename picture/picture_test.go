package picture

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/ir"
	"bmc/lang"
	"bmc/result"
)

// node is an XML element with everything in it, for reading a picture
// back.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []node     `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *node) attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// text is all the character data in n and below it.
func (n *node) text() string {
	var b strings.Builder
	b.WriteString(n.Text)
	for i := range n.Nodes {
		b.WriteString(n.Nodes[i].text())
	}
	return b.String()
}

// all lists n and the elements below it, in document order.
func (n *node) all() []*node {
	out := []*node{n}
	for i := range n.Nodes {
		out = append(out, n.Nodes[i].all()...)
	}
	return out
}

// hasClass reports whether n's class attribute names c.
func (n *node) hasClass(c string) bool {
	v, _ := n.attr("class")
	return slices.Contains(strings.Fields(v), c)
}

// parseXML reads data as XML, strictly: a picture that does not parse
// fails the test.
func parseXML(t *testing.T, data []byte) *node {
	t.Helper()
	var n node
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	if err := dec.Decode(&n); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, data)
	}
	return &n
}

func svgOf(t *testing.T, tr *result.Trace, o Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := TraceSVG(&b, tr, o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkPicture lists what the picture svg misses of trace tr: every
// statement drawn once (as a step showing its line:col, or in a folded
// run whose hover text shows it), every change of the running thread as
// a switch arrow between the right lanes, in order, and every lock hold
// as a bar beside its holder from the step that takes the lock.
func checkPicture(tr *result.Trace, svg *node) []string {
	var problems []string
	drawn := map[int]int{}
	var switches [][2]string
	var bars []string
	for _, n := range svg.all() {
		if v, ok := n.attr("data-step"); ok {
			i, err := strconv.Atoi(v)
			if err != nil || i < 0 || i >= len(tr.Steps) {
				problems = append(problems, fmt.Sprintf("data-step %q is no step", v))
				continue
			}
			drawn[i]++
			if want := tr.Steps[i].Pos.String() + " "; !strings.Contains(n.text(), want) {
				problems = append(problems, fmt.Sprintf("step %d: the mark does not show %q: %q", i, want, n.text()))
			}
		}
		if v, ok := n.attr("data-steps"); ok {
			for _, f := range strings.Fields(v) {
				i, err := strconv.Atoi(f)
				if err != nil || i < 0 || i >= len(tr.Steps) {
					problems = append(problems, fmt.Sprintf("data-steps %q: %q is no step", v, f))
					continue
				}
				drawn[i]++
				s := tr.Steps[i]
				if want := s.Pos.String() + "  " + s.Stmt; !strings.Contains(n.text(), want) {
					problems = append(problems, fmt.Sprintf("step %d: the folded run does not show %q", i, want))
				}
			}
		}
		if n.hasClass("switch") {
			from, _ := n.attr("data-from")
			to, _ := n.attr("data-to")
			switches = append(switches, [2]string{from, to})
		}
		if n.hasClass("lock") {
			lock, _ := n.attr("data-lock")
			holder, _ := n.attr("data-holder")
			taken, _ := n.attr("data-taken")
			bars = append(bars, lock+" "+holder+" "+taken)
		}
	}
	var wantSwitches [][2]string
	var wantBars []string
	running := ""
	for i, s := range tr.Steps {
		if s.Sched == result.SchedStart {
			running = "" // init ends: the first thread starts without a switch
		}
		if s.Event != "" {
			continue
		}
		if drawn[i] != 1 {
			problems = append(problems, fmt.Sprintf("step %d (%s %s) drawn %d times", i, s.Pos, s.Stmt, drawn[i]))
		}
		if running != "" && s.Thread != running {
			wantSwitches = append(wantSwitches, [2]string{running, s.Thread})
		}
		running = s.Thread
		for _, c := range s.Changes {
			if lock, holder, ok := result.ParseLockChange(c); ok && holder != "" {
				wantBars = append(wantBars, fmt.Sprintf("%s %s %d", lock, holder, i))
			}
		}
	}
	for i := range drawn {
		if tr.Steps[i].Event != "" {
			problems = append(problems, fmt.Sprintf("event %d drawn as a step", i))
		}
	}
	if !slices.Equal(switches, wantSwitches) {
		problems = append(problems, fmt.Sprintf("switch arrows %v, want %v", switches, wantSwitches))
	}
	if !slices.Equal(bars, wantBars) {
		problems = append(problems, fmt.Sprintf("lock bars %v, want %v", bars, wantBars))
	}
	return problems
}

// load reads an example program with the given thread counts.
func load(t *testing.T, name, threads string) (*ir.Program, Options) {
	t.Helper()
	path := "../examples/" + name
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var opts ir.Options
	if threads != "" {
		if opts.Threads, err = ir.ParseThreads(threads); err != nil {
			t.Fatal(err)
		}
	}
	p, _, err := ir.Load(context.Background(), path, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Globals: map[string]bool{}, Sources: map[string][]string{path: strings.Split(string(src), "\n")}}
	for _, g := range p.Globals {
		o.Globals[g.Name] = true
	}
	return p, o
}

// exampleTrace is the explicit engine's trace of an example: a
// violation within switches context switches, or with lasso a
// livelock within a stem and loop of one round each.
func exampleTrace(t *testing.T, name, threads string, switches int, lasso bool) (*result.Trace, Options) {
	t.Helper()
	p, o := load(t, name, threads)
	opts := explicit.DefaultOptions()
	var res *result.Result
	if lasso {
		res = explicit.LassoSearch(context.Background(), p, result.LassoBound{Stem: 1, Loop: 1, Fairness: result.StrongFairness}, opts)
	} else {
		opts.Switches = switches
		c, err := explicit.New(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		res = c.Run(context.Background())
	}
	if res.Verdict != result.Unsafe || res.Trace == nil {
		t.Fatalf("%s: verdict %v, want a trace", name, res.Verdict)
	}
	return res.Trace, o
}

// TestPictureShowsTheTrace draws real traces and checks that every
// statement, every context switch and every lock hold is in the
// picture: Bluetooth with two adders (switches, folding), the TryLock
// philosophers' livelock (locks, the loop) and the recursive MUTANT
// example (a keyframe lasso, whose loop leaves a frame behind).
func TestPictureShowsTheTrace(t *testing.T) {
	for _, c := range []struct {
		name, file, threads string
		switches            int
		lasso               bool
		fold                int
		want                []string // in the picture's text
		bars, folds         int      // at least this many
	}{
		{"bluetooth", "bluetooth.bpl", "adder=2,stopper=1", 6, false, 0,
			[]string{"assertion failed: assert(!stopped);", "switch 4", "p1=T p0=F", "stoppingEvent=T", "runs first"}, 0, 1},
		{"bluetooth unfolded", "bluetooth.bpl", "adder=2,stopper=1", 6, false, -1, []string{"switch 1"}, 0, 0},
		{"philosophers", "philosophers_trylock.bpl", "", 0, true, 0,
			[]string{"repeats forever", "loop round 1", "stem round 1", "lock f0 held", "lock f2 free"}, 6, 0},
		{"keyframe lasso", "mutant_fig1b_recursive.bpl", "", 0, true, 0,
			[]string{"repeats forever", "leaves retry (in its call at 57:5) behind", "initial values: g=T"}, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, o := exampleTrace(t, c.file, c.threads, c.switches, c.lasso)
			o.Fold = c.fold
			data := svgOf(t, tr, o)
			svg := parseXML(t, data)
			for _, p := range checkPicture(tr, svg) {
				t.Error(p)
			}
			text := svg.text()
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the picture does not show %q", w)
				}
			}
			bars, folds := 0, 0
			for _, n := range svg.all() {
				if n.hasClass("lock") {
					bars++
				}
				if n.hasClass("fold-run") {
					folds++
				}
			}
			if bars < c.bars || folds < c.folds || (c.fold < 0 && folds > 0) {
				t.Errorf("%d lock bars, %d folded runs; want at least %d and %d", bars, folds, c.bars, c.folds)
			}
			if !bytes.Equal(data, svgOf(t, tr, o)) {
				t.Error("drawn twice, the pictures differ")
			}
		})
	}
}

// TestCheckPictureFails makes sure that checkPicture notices a step, a
// switch or a lock bar missing from a picture.
func TestCheckPictureFails(t *testing.T) {
	tr, o := exampleTrace(t, "philosophers_trylock.bpl", "", 0, true)
	data := string(svgOf(t, tr, o))
	for _, c := range []struct{ what, start, end string }{
		{"a step", `<g class="step `, "</g>\n"},
		{"a switch", `<g class="switch"`, "</g>\n"},
		{"a lock bar", `<g class="lock"`, "</g>\n"},
	} {
		i := strings.Index(data, c.start)
		if i < 0 {
			t.Fatalf("no %s in the picture", c.what)
		}
		j := i + strings.Index(data[i:], c.end) + len(c.end)
		cut := data[:i] + data[j:]
		if len(checkPicture(tr, parseXML(t, []byte(cut)))) == 0 {
			t.Errorf("the picture without %s passes the check", c.what)
		}
	}
}

// step makes a statement of thread th at line n.
func step(th string, n int, stmt string, changes ...string) result.Step {
	return result.Step{Thread: th, File: "p.bpl", Pos: lang.Pos{Line: n, Col: 3}, Proc: "f", Stmt: stmt, Changes: changes}
}

// TestFolding checks which runs of thread-local steps fold.
func TestFolding(t *testing.T) {
	locals := func(th string, from, n int) []result.Step {
		var out []result.Step
		for i := range n {
			out = append(out, step(th, from+i, "skip;", "l=T"))
		}
		return out
	}
	cat := func(parts ...[]result.Step) []result.Step { return slices.Concat(parts...) }
	sw := func(th string, k int) []result.Step {
		return []result.Step{{Thread: th, Event: fmt.Sprintf("context switch %d of 9: %s runs", k, th), Sched: result.SchedSwitch, Switch: k}}
	}
	one := func(s result.Step) []result.Step { return []result.Step{s} }
	for _, c := range []struct {
		name     string
		steps    []result.Step
		livelock bool
		loop     int
		fold     int
		want     []int // the length of each folded run
	}{
		{"a run of 5 folds", cat(locals("a", 10, 5), one(step("a", 20, "assert(g);"))), false, 0, 0, []int{5}},
		{"a run of 4 does not", cat(locals("a", 10, 4), one(step("a", 20, "assert(g);"))), false, 0, 0, nil},
		{"threshold 2", cat(locals("a", 10, 3), one(step("a", 20, "assert(g);"))), false, 0, 2, []int{3}},
		{"never", cat(locals("a", 10, 9), one(step("a", 20, "assert(g);"))), false, 0, -1, nil},
		{"the violation does not fold", locals("a", 10, 6), false, 0, 0, []int{5}},
		{"a shared change splits a run",
			cat(locals("a", 10, 5), one(step("a", 15, "g := T;", "g=T")), locals("a", 16, 4), one(step("a", 20, "assert(g);"))), false, 0, 0, []int{5}},
		{"a lock step splits a run",
			cat(locals("a", 10, 3), one(step("a", 13, "acquire(m);", "lock m held by a")), locals("a", 14, 3), one(step("a", 20, "assert(g);"))), false, 0, 0, nil},
		{"a switch splits a run",
			cat(locals("a", 10, 3), sw("b", 1), locals("b", 30, 3), one(step("b", 20, "assert(g);"))), false, 0, 0, nil},
		{"two threads", cat(locals("a", 10, 6), sw("b", 1), locals("b", 30, 7), one(step("b", 20, "assert(g);"))), false, 0, 0, []int{6, 7}},
		{"the loop's first and last do not fold",
			cat(locals("a", 10, 6), []result.Step{{Event: "loop: the steps below repeat forever", Sched: result.SchedLoop}}, locals("a", 30, 7)),
			true, 6, 0, []int{6, 5}},
		{"a thread's new thread does not fold",
			cat(locals("a", 10, 2), one(step("a", 12, "spawn b;", "new thread b")), locals("a", 13, 2), one(step("a", 20, "assert(g);"))), false, 0, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &result.Trace{Violation: "assertion failed", File: "p.bpl", Steps: c.steps, Livelock: c.livelock, Loop: c.loop}
			data := svgOf(t, tr, Options{Globals: map[string]bool{"g": true}, Fold: c.fold})
			svg := parseXML(t, data)
			var got []int
			for _, n := range svg.all() {
				if v, ok := n.attr("data-steps"); ok {
					got = append(got, len(strings.Fields(v)))
					if !strings.Contains(n.text(), fmt.Sprintf("%d local steps", len(strings.Fields(v)))) {
						t.Errorf("the folded run does not say how many steps it holds: %q", n.text())
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("folded runs %v, want %v", got, c.want)
			}
			for _, p := range checkPicture(tr, svg) {
				t.Error(p)
			}
		})
	}
}

// TestHTML checks the page: well-formed, the same picture inside, the
// source lines of the executed statements, and a hover rule for each.
func TestHTML(t *testing.T) {
	tr, o := exampleTrace(t, "bluetooth.bpl", "adder=2,stopper=1", 4, false)
	var b bytes.Buffer
	if err := TraceHTML(&b, tr, o); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	html := parseXML(t, b.Bytes())
	if html.XMLName.Local != "html" {
		t.Fatalf("the page's root is %q", html.XMLName.Local)
	}
	if !strings.Contains(page, string(svgOf(t, tr, o))) {
		t.Error("the page does not hold the SVG picture")
	}
	for _, bad := range []string{"<script", "src=\"http", "href=\"http", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %q: it must stand alone", bad)
		}
	}
	lines := o.Sources["../examples/bluetooth.bpl"]
	for _, s := range tr.Steps {
		if s.Event != "" {
			continue
		}
		src := esc(strings.TrimRight(lines[s.Pos.Line-1], " \t\r"))
		if !strings.Contains(page, src) {
			t.Errorf("the page does not show line %d: %q", s.Pos.Line, src)
		}
		rule := fmt.Sprintf("body:has(.L0-%d:hover) #snip0-%d{display:block}", s.Pos.Line, s.Pos.Line)
		if !strings.Contains(page, rule) {
			t.Errorf("no hover rule for line %d", s.Pos.Line)
		}
		if !strings.Contains(page, fmt.Sprintf(`id="snip0-%d"`, s.Pos.Line)) {
			t.Errorf("no snippet for line %d", s.Pos.Line)
		}
	}
}

// TestEscaping draws text that XML must escape, and bytes it cannot
// hold.
func TestEscaping(t *testing.T) {
	odd := "a < b && c > \"d\" 'e' \x01 \xff ]]>"
	tr := &result.Trace{Violation: odd, File: "p&q.bpl", Threads: []string{"t<1>"}, Steps: []result.Step{
		{Thread: "t<1>", File: "p&q.bpl", Pos: lang.Pos{Line: 1, Col: 1}, Stmt: odd, Changes: []string{"x&y=T", result.LockChange("m<", "t<1>")}},
	}}
	o := Options{Sources: map[string][]string{"p&q.bpl": {odd}}, Title: odd}
	svg := parseXML(t, svgOf(t, tr, o))
	if !strings.Contains(svg.text(), "a < b && c > \"d\" 'e'") {
		t.Errorf("the text does not come back: %q", svg.text())
	}
	var b bytes.Buffer
	if err := TraceHTML(&b, tr, o); err != nil {
		t.Fatal(err)
	}
	parseXML(t, b.Bytes())
	if err := TraceSVG(&b, nil, o); err == nil {
		t.Error("no error for a nil trace")
	}
}

// TestEmptyTrace draws a trace without steps (a violation in the first
// state) without failing.
func TestEmptyTrace(t *testing.T) {
	tr := &result.Trace{Violation: "assertion failed", File: "p.bpl"}
	parseXML(t, svgOf(t, tr, Options{}))
	tr = &result.Trace{Livelock: true, Violation: "livelock", Steps: []result.Step{{Event: "loop: the steps below repeat forever", Sched: result.SchedLoop}}}
	parseXML(t, svgOf(t, tr, Options{}))
	// Odd traces: a step without a thread, a loop index out of range,
	// a lock freed that was never taken, an event without a kind.
	for _, loop := range []int{7, -3} {
		tr = &result.Trace{Livelock: true, Loop: loop, Steps: []result.Step{
			{Event: "something happened"},
			step("", 1, "skip;", result.LockChange("m", "")),
			step("b", 2, "skip;", result.LockChange("m", "nobody")),
		}}
		parseXML(t, svgOf(t, tr, Options{}))
		var b bytes.Buffer
		if err := TraceHTML(&b, tr, Options{Sources: map[string][]string{"p.bpl": {"skip;"}}}); err != nil {
			t.Fatal(err)
		}
		parseXML(t, b.Bytes())
	}
}
