package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"bmc/driver"
	"bmc/encode"
	"bmc/explicit"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// Limits of TestSeqVerdicts, measured on the examples: the states the
// explicit search of one sequential program may store (about 40,000 a
// second; a thread's thread-local steps are taken within one move and
// stored as one state, so one state stands for three to four of the
// search before issue 10, which stored 200,000), and the guessed globals beyond
// which an eager program is not searched at all (up to 12 every eager
// example finishes within 0.2 s; from 14 on most exceed 400,000 states,
// and at 30 and more the search splits on so many guessed bits that it
// ran out of 3 GB of memory).
const (
	seqStates       = 100_000 // a safe or depth-bound line, at each bound
	seqStatesUnsafe = 300_000 // an unsafe line, checked at its own bound only
	seqShortStates  = 50_000  // either, with -short
	eagerMaxGuessed = 12      // uninitialised globals of the eager program
	mainFrame       = 1       // the sequential main, which calls the thread clones
	seqBMCSteps     = 60      // unrolling of a sequential program with loops
)

// seqBMCTimeout is how long BMC may take on a sequential program the
// explicit search finds too large: in make test a few seconds, which
// decide all but the largest Bluetooth bounds (those then end the climb
// below the line's bound, logged); under make soak a minute.
var seqBMCTimeout = map[bool]time.Duration{false: 4 * time.Second, true: time.Minute}[soak.On()]

// seqBound is a context bound as the command line spells it.
type seqBound struct {
	flag string // -k or --switches
	n    int
}

func (b seqBound) String() string { return b.flag + " " + strconv.Itoa(b.n) }

// upTo lists the bounds from the smallest (1 round, 0 switches) to b.
func (b seqBound) upTo() []seqBound {
	lo := 0
	if b.flag == "-k" {
		lo = 1
	}
	var out []seqBound
	for n := lo; n <= b.n; n++ {
		out = append(out, seqBound{b.flag, n})
	}
	return out
}

// seqCase is one `// expect:` line checked through the sequentializations.
type seqCase struct {
	path    string
	line    int
	want    string     // safe, unsafe or depth-bound
	bounds  []seqBound // the line's bound; a one-thread program without one gets -k 1 and --switches 0
	threads string
	target  string
	depth   int
	note    string // where want comes from, when not from the line itself
}

func (c seqCase) String() string {
	return fmt.Sprintf("%s:%d (%s)", filepath.Base(c.path), c.line, c.want)
}

// seqCases reads the expect lines of the examples that the
// sequentializations can check: safety verdicts with a context bound, and
// for a one-thread program any safety verdict. The flags are parsed by the
// check command's own flag set.
func seqCases(t *testing.T) []seqCase {
	files, err := filepath.Glob("../../examples/*.bpl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples (%v)", err)
	}
	var out []seqCase
	for _, path := range files {
		for _, exp := range readExpectations(t, path) {
			switch exp.Verdict {
			case "safe", "unsafe", "depth-bound":
			default:
				continue // fair non-termination (--lasso) is not a safety check
			}
			cmd := newCheck(io.Discard, io.Discard)
			if err := cmd.ParseFlags(exp.Flags); err != nil {
				t.Fatalf("%s:%d: %v", path, exp.Line, err)
			}
			fl := cmd.Flags()
			if rule, _ := fl.GetString("switch-points"); rule != "any" {
				continue // Getafix's narrower question: no sequentialization asks it
			}
			c := seqCase{path: path, line: exp.Line, want: exp.Verdict}
			c.threads, _ = fl.GetString("threads")
			c.target, _ = fl.GetString("target")
			if strings.Contains(c.threads, "=*") || loadWith(t, path, c.threads, c.target).ThreadsUnbounded() {
				continue // every number of threads: no sequentialization
			}
			c.depth, _ = fl.GetInt("depth")
			if !fl.Changed("depth") && c.want == "unsafe" && loadWith(t, path, c.threads, c.target).Recursive() {
				// An unsafe line without --depth holds at some depth: the
				// sequential program is searched with the depth the
				// original's trace needs.
				c.depth = traceDepth(t, path, exp.Flags)
			}
			switch {
			case fl.Changed("rounds"):
				k, _ := fl.GetInt("rounds")
				c.bounds = []seqBound{{"-k", k}}
			case fl.Changed("switches"):
				n, _ := fl.GetInt("switches")
				c.bounds = []seqBound{{"--switches", n}}
			}
			concurrent := threadCount(t, path, c.threads, c.target) > 1
			if c.bounds == nil {
				if concurrent {
					continue // every interleaving: no sequentialization
				}
				// One thread, one context: both bounds cover every execution.
				c.bounds = []seqBound{{"-k", 1}, {"--switches", 0}}
			}
			if fl.Changed("max-steps") {
				// The verdict holds for BMC steps of the original; the
				// sequential program takes other steps and the explicit
				// search none, so compare with the explicit engine.
				c.want = explicitVerdict(t, path, exp.Flags)
				c.note = fmt.Sprintf(" (the line says %s with --max-steps; the explicit engine on the original says %s)", exp.Verdict, c.want)
			}
			out = append(out, c)
		}
	}
	return out
}

// threadCount loads the example as `bmc check` does and counts its thread
// instances.
func threadCount(t *testing.T, path, threads, target string) int {
	t.Helper()
	n := 0
	for _, th := range loadWith(t, path, threads, target).Threads {
		n += th.Count
	}
	return n
}

// loadWith loads a program as `bmc check --threads threads --target
// target` does.
// traceDepth is the call depth that the trace of `bmc check --json
// FLAGS path` needs (a recursive program's violation found at every call
// depth).
func traceDepth(t *testing.T, path string, flags []string) int {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append(append([]string{"check", "--quiet", "--json"}, flags...), path)
	if code := run(args, &stdout, &stderr); code != exitViolation {
		t.Fatalf("bmc %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitViolation, stdout.String(), stderr.String())
	}
	var out struct {
		Violation struct {
			Depth int `json:"call_depth"`
		} `json:"violation"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Violation.Depth < 1 {
		t.Fatalf("bmc %s: no call_depth in the violation (%v):\n%s", strings.Join(args, " "), err, stdout.String())
	}
	return out.Violation.Depth
}

func loadWith(t *testing.T, path, threads, target string) *ir.Program {
	t.Helper()
	opts := ir.Options{Target: target}
	if threads != "" {
		tc, err := ir.ParseThreads(threads)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		opts.Threads = tc
	}
	p, err := load(path, opts, io.Discard)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// explicitVerdict runs `bmc check --engine explicit` with the flags but
// --max-steps (a bound of the bmc engine only).
func explicitVerdict(t *testing.T, path string, flags []string) string {
	t.Helper()
	args := []string{"check", "--engine", "explicit", "--json", "--quiet"}
	for i := 0; i < len(flags); i++ {
		switch {
		case flags[i] == "--max-steps":
			i++
		case strings.HasPrefix(flags[i], "--max-steps="):
		default:
			args = append(args, flags[i])
		}
	}
	var stdout, stderr bytes.Buffer
	run(append(args, path), &stdout, &stderr)
	var r struct {
		Verdict string
		Limits  []string
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("bmc %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	if r.Verdict == "unknown" && len(r.Limits) == 1 && strings.HasPrefix(r.Limits[0], "depth bound") {
		return "depth-bound"
	}
	return r.Verdict
}

// seqRun is the outcome of one sequentialization at one bound.
type seqRun struct {
	verdict string // safe, unsafe, depth-bound; "too large" when the state limit stopped the search
	guessed int    // uninitialised globals of the sequential program
	states  int
	elapsed time.Duration
	skipped bool   // eager with too many guesses and not unwindable: not searched
	engine  string // explicit, or bmc where the explicit search was too large
}

// checkSeq prints the sequentialization with `bmc seq` and decides it
// as a sequential program (decideSeq); the eager translation is not
// searched explicitly beyond eagerMaxGuessed guessed globals.
func checkSeq(t *testing.T, c seqCase, method string, b seqBound, maxStates int) seqRun {
	t.Helper()
	_, p := printSeq(t, c, method, b, "bmc")
	guessed := 0
	for _, g := range p.Globals {
		if g.Init == ir.Unknown {
			guessed++
		}
	}
	r := decideSeq(t, c, p, c.depth+mainFrame, maxStates, method != "eager" || guessed <= eagerMaxGuessed)
	r.guessed = guessed
	return r
}

// printSeq prints the sequentialization with `bmc seq --for forTool`
// and parses it back as bmc's own language; it must be a one-thread
// program starting in main.
func printSeq(t *testing.T, c seqCase, method string, b seqBound, forTool string) (string, *ir.Program) {
	t.Helper()
	args := []string{"seq", "--" + method, b.flag, strconv.Itoa(b.n), "--for", forTool}
	if c.threads != "" {
		args = append(args, "--threads", c.threads)
	}
	if c.target != "" {
		args = append(args, "--target", c.target)
	}
	args = append(args, c.path)
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != exitSafe {
		t.Fatalf("%v: bmc %s: exit %d\n%s", c, strings.Join(args, " "), code, stderr.String())
	}
	name := fmt.Sprintf("%s.%s.bpl", strings.TrimSuffix(filepath.Base(c.path), ".bpl"), method)
	p, warnings, err := ir.Load(context.Background(), name, stdout.Bytes(), ir.Options{})
	if err != nil {
		t.Fatalf("%v: the output of bmc %s does not parse back: %v\n%s", c, strings.Join(args, " "), err, stdout.String())
	}
	if len(warnings) > 0 {
		t.Logf("%v: bmc %s: %d warnings on the output, first: %v", c, strings.Join(args, " "), len(warnings), warnings[0])
	}
	if len(p.Threads) != 1 || p.Threads[0].Count != 1 || p.Threads[0].Unbounded || p.Threads[0].Proc.Name != "main" {
		t.Fatalf("%v: the output of bmc %s is not a one-thread program starting in main: %d thread specs", c, strings.Join(args, " "), len(p.Threads))
	}
	return stdout.String(), p
}

// decideSeq searches a printed sequential program with the explicit
// engine (when explicitly is set) up to maxStates states; where that
// search is too large and the program is loop-free and non-recursive,
// BMC on the unwound program (encode.Whole, which covers every
// execution) decides it instead, and for an unsafe line BMC unrolled
// seqBMCSteps steps may find the violation.
func decideSeq(t *testing.T, c seqCase, p *ir.Program, depth, maxStates int, explicitly bool) seqRun {
	t.Helper()
	r := seqRun{engine: "explicit"}
	if explicitly {
		o := explicit.DefaultOptions()
		o.Depth = depth
		o.MaxStates = maxStates
		o.Timeout = seqBMCTimeout
		ck, err := explicit.New(p, o)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		res := ck.Run(context.Background())
		r.states, r.elapsed = res.States, res.Elapsed
		switch {
		case res.Verdict != result.Unknown:
			r.verdict = res.Verdict.String()
		case res.Has(result.LimitStates), res.Has(result.LimitTimeout):
			r.verdict = "too large"
		case len(res.Limits) == 1 && res.DepthHit():
			r.verdict = "depth-bound"
		default:
			r.verdict = "unknown: " + res.LimitText()
		}
		if r.verdict != "too large" {
			return r
		}
	}
	// With loops, BMC can still find the violation of an unsafe line
	// within seqBMCSteps steps, but not prove a safe one.
	whole := encode.Supported(p, encode.KindWhole, depth) == nil
	if !whole && c.want != "unsafe" {
		r.skipped = r.verdict == ""
		return r
	}
	// The step bound stated: BMC alone, without the proof engine behind
	// it (a loop-free program is encoded whole, every execution).
	o := method.Options{Engine: "bmc", Solver: "gini", MaxSteps: seqBMCSteps, StepsStated: true, Timeout: seqBMCTimeout,
		Bounds: method.DefaultBounds()}
	o.Bounds.Depth = depth
	res, err := driver.Check(context.Background(), p, o)
	if err != nil {
		t.Fatalf("%v: bmc on the unwound program: %v", c, err)
	}
	r.engine, r.states, r.elapsed = "bmc", 0, res.Elapsed
	switch {
	case res.Verdict == result.Unknown, res.StepsCut, !whole && res.Verdict != result.Unsafe:
		r.verdict = "too large"
	case res.Verdict == result.Safe && !strings.HasPrefix(res.Bounds, "all executions"):
		r.verdict = "unknown: safe only within " + res.Bounds
	default:
		r.verdict = res.Verdict.String()
	}
	return r
}

// TestSeqVerdicts checks that `bmc seq` output parses back and that
// searching it as a sequential program gives the verdict of `bmc check` on
// the original: for every safety `// expect:` line of examples/*.bpl with
// a context bound (a one-thread example without a bound is printed with
// -k 1 and --switches 0, each covering all its executions), the lazy and
// the eager sequentialization at that bound and thread counts are printed
// by the seq command, read back by the front end and searched by the
// explicit engine (call depth one more than the line's, for main).
//
// The sequential programs keep a copy of the shared state per context, so
// their state spaces grow much faster with the bound than the original's.
// An unsafe line is searched at its bound, up to seqStatesUnsafe states;
// a safe or depth-bound line bound by bound from the smallest: below the
// line's bound a safe line must stay safe and a depth-bound line must not
// become unsafe. The eager translation guesses the shared state of every
// context, and the explicit search splits on each guessed bit it reads:
// beyond eagerMaxGuessed guessed globals it is not tried. Where the
// explicit search is too large (or not tried) and the sequential program
// is loop-free and non-recursive, BMC on the unwound program decides it
// (within seqBMCTimeout); an unsafe line with loops may be confirmed by
// BMC within seqBMCSteps steps; otherwise the climb ends and the test logs the
// largest bound it reached (the programs with loops, such as dekker and
// peterson with --switches, have millions of states at their bound).
// With -short only the lazy translation runs, with a smaller state limit.
func TestSeqVerdicts(t *testing.T) {
	start := time.Now()
	cases := seqCases(t)
	methods := []string{"lazy", "eager"}
	limit, limitUnsafe := seqStates, seqStatesUnsafe
	if testing.Short() {
		methods = methods[:1]
		limit, limitUnsafe = seqShortStates, seqShortStates
	}
	var mu sync.Mutex
	tally := map[string]int{}
	t.Run("examples", func(t *testing.T) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(c.path), c.line), func(t *testing.T) {
				t.Parallel()
				if c.note != "" {
					t.Logf("%v%s", c, c.note)
				}
				for _, method := range methods {
					for _, b := range c.bounds {
						key := method + " " + checkSeqCase(t, c, method, b, limit, limitUnsafe)
						mu.Lock()
						tally[key]++
						mu.Unlock()
					}
				}
			})
		}
	})
	t.Logf("%d expect lines, %v in %v", len(cases), tally, time.Since(start).Round(time.Millisecond))
	if n := tally["lazy at the bound"]; n == 0 {
		t.Errorf("no lazy sequentialization was checked at its line's bound: %v", tally)
	}
}

// checkSeqCase checks one expect line with one translation at bound b and
// says how far it got: "at the bound", "below the bound", "too large"
// or "skipped".
func checkSeqCase(t *testing.T, c seqCase, method string, b seqBound, limit, limitUnsafe int) string {
	t.Helper()
	bounds := b.upTo()
	if c.want == "unsafe" {
		bounds, limit = bounds[len(bounds)-1:], limitUnsafe // nothing follows for smaller bounds
	}
	reached := ""
	for i, at := range bounds {
		r := checkSeq(t, c, method, at, limit)
		what := fmt.Sprintf("%v, %s %v", c, method, at)
		switch {
		case r.skipped && reached == "":
			t.Logf("%s: skipped, %d guessed globals (more than %d) and not loop-free", what, r.guessed, eagerMaxGuessed)
			return "skipped"
		case r.skipped:
			t.Logf("%s: %d guessed globals (more than %d) and not loop-free; checked up to %s only", what, r.guessed, eagerMaxGuessed, reached)
			return "below the bound"
		case r.verdict == "too large":
			why := fmt.Sprintf("more than %d states", limit)
			if r.engine == "bmc" {
				why += fmt.Sprintf(", and BMC found no answer within %v", seqBMCTimeout)
			}
			if reached == "" {
				t.Logf("%s: not checked, %s", what, why)
				return "too large"
			}
			t.Logf("%s: %s; checked up to %s only", what, why, reached)
			return "below the bound"
		}
		final := i == len(bounds)-1
		// The explicit engine searches a recursive program within the call
		// depth: where the original is safe at every depth (its
		// summaries), "no violation within the depth" agrees.
		ok := r.verdict == c.want || c.want == "safe" && r.verdict == "depth-bound"
		if !final {
			// Fewer contexts, fewer executions: no violation stays none.
			ok = r.verdict == "safe" || r.verdict == "depth-bound" && (c.want == "depth-bound" || c.want == "safe")
		}
		if !ok {
			t.Errorf("%s: the sequential program is %s (%s, %d states); `bmc check` on the original is %s at %v",
				what, r.verdict, r.engine, r.states, c.want, b)
			return "failed"
		}
		if testing.Verbose() {
			t.Logf("%s: %s (%s), %d states, %d guessed globals, %v", what, r.verdict, r.engine, r.states, r.guessed, r.elapsed.Round(time.Millisecond))
		}
		reached = at.String()
	}
	return "at the bound"
}
