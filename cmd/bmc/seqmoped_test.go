package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/corpus"
	"bmc/internal/peer"
	"bmc/moped"
	"bmc/result"
)

// Limits of TestSeqForMoped: the states the explicit search of one
// printed program may store (permutation16's eager program at one switch
// guesses 2^16 shared states for its second context and needs 4.2
// million states, 50 s; the next largest, philosophers_trylock's, 725,000;
// a search that the limit or seqBMCTimeout ends is logged as undecided),
// for a corpus program fewer, since BMC decides those that the search
// cannot within them (the fib programs' eager ones at one switch: the
// search stops at seqBMCTimeout, BMC takes 0.1 s), and the extra frames
// of the printed program (main, which runs the threads, and violation,
// which holds the error label).
const (
	mopedStates       = 5_000_000
	mopedCorpusStates = 200_000
	mopedExtraFrames  = 2
)

// mopedCase is a program and the options of one check of it: both
// sequentializations at bounds, the lazy one also at lazyBounds.
type mopedCase struct {
	seqCase
	bounds, lazyBounds []seqBound
	states             int // mopedStates or mopedCorpusStates
}

// mopedCases are every example, with each thread count, target and depth
// its safety expect lines use, and every concurrent corpus program whose
// manifest names a round bound; each at two bounds, one of each kind:
// -k 1 and --switches 1 (a one-thread program at -k 1 and --switches 0,
// which both cover every execution). The eager programs grow fast: at
// --switches 2 the explicit search of the Bluetooth ones needs 3 million
// states, and the SafeStack programs print to tens of megabytes at 2
// rounds; so only the lazy translation of an example also runs at -k 2,
// where three of them have their violations. The 13 SafeStack programs
// (28 to 430 KB) run only with BMC_CORPUS_ALL=1 (`make corpus`): they
// take 30 s to 3 minutes each, 7 minutes together on two cores, and 14
// of their 52 checks end undecided; the other 18 corpus programs (SatAbs
// iterations, Getafix's tests and fib programs) take 30 s together.
func mopedCases(t *testing.T) []mopedCase {
	var out []mopedCase
	seen := map[string]bool{}
	for _, c := range seqCases(t) {
		key := fmt.Sprintf("%s|%s|%s|%d", c.path, c.threads, c.target, c.depth)
		if seen[key] {
			continue
		}
		seen[key] = true
		mc := mopedCase{seqCase: c, bounds: []seqBound{{"-k", 1}, {"--switches", 1}}, lazyBounds: []seqBound{{"-k", 2}}, states: mopedStates}
		if threadCount(t, c.path, c.threads, c.target) == 1 {
			mc.bounds, mc.lazyBounds = []seqBound{{"-k", 1}, {"--switches", 0}}, nil
		}
		mc.want, mc.note = "", ""
		out = append(out, mc)
	}
	cases, err := corpus.Load(corpus.Optional(t))
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv("BMC_CORPUS_ALL") != ""
	for _, k := range cases {
		b := k.Bounds()
		if k.Kind != "concurrent" || b.Rounds == 0 || !all && strings.HasPrefix(k.File, "SafeStack/") {
			continue
		}
		out = append(out, mopedCase{seqCase: seqCase{path: k.Path(), target: b.Target, depth: 16}, bounds: []seqBound{{"-k", 1}, {"--switches", 1}}, states: mopedCorpusStates})
	}
	return out
}

// originalVerdict is the explicit engine's verdict on the original
// program within b: safe, unsafe, depth-bound or unknown.
func originalVerdict(t *testing.T, c seqCase, b seqBound) string {
	t.Helper()
	p := loadWith(t, c.path, c.threads, c.target)
	o := explicit.DefaultOptions()
	o.Depth, o.MaxStates = c.depth, 2_000_000
	if b.flag == "-k" {
		o.Rounds = b.n
	} else {
		o.Switches = b.n
	}
	ck, err := explicit.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	res := ck.Run(context.Background())
	switch {
	case res.Verdict != result.Unknown:
		return res.Verdict.String()
	case len(res.Limits) == 1 && res.DepthHit():
		return "depth-bound"
	}
	return "unknown"
}

// TestSeqForMoped checks `bmc seq --for moped` on every example and every
// concurrent corpus program with a round bound (the SafeStack ones only
// with BMC_CORPUS_ALL=1: mopedCases), each at two bounds, with
// both sequentializations: the text is only what Moped reads with our
// meaning (moped.CheckText, our own recogniser of its grammar, run here
// on the output once more), and our own checker on the printed program,
// read back with its error label, gives the original's verdict: the
// explicit engine on the original against the explicit engine (or BMC on
// the unwound program, where that search is too large) on the printed
// one, with two more frames (so that where the original meets the depth
// bound, the printed program may find a violation the original has
// with two more frames). When Moped is installed, it reads every file
// and its verdict agrees too (it has no call depth bound, so a
// depth-bound original is not compared); otherwise that part is skipped
// with a message.
func TestSeqForMoped(t *testing.T) {
	exe := peer.Optional(t, peer.Moped)
	start := time.Now()
	var mu sync.Mutex
	tally := map[string]int{}
	count := func(key string) {
		mu.Lock()
		tally[key]++
		mu.Unlock()
	}
	for _, mc := range mopedCases(t) {
		name := filepath.Base(mc.path)
		if mc.threads != "" {
			name += " " + mc.threads
		}
		if mc.depth != 16 {
			name += fmt.Sprintf(" depth %d", mc.depth)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, b := range mc.bounds {
				count(checkForMoped(t, mc, "lazy", b, exe))
				count(checkForMoped(t, mc, "eager", b, exe))
			}
			for _, b := range mc.lazyBounds {
				count(checkForMoped(t, mc, "lazy", b, exe))
			}
		})
	}
	t.Cleanup(func() {
		var keys []string
		for k, n := range tally {
			keys = append(keys, fmt.Sprintf("%s: %d", k, n))
		}
		sort.Strings(keys)
		t.Logf("%s, in %v", strings.Join(keys, ", "), time.Since(start).Round(time.Millisecond))
		if tally["ours agree"] == 0 {
			t.Error("no printed program was decided")
		}
	})
}

// checkForMoped checks the method's program printed for Moped at bound b
// (TestSeqForMoped) and says how it went.
func checkForMoped(t *testing.T, mc mopedCase, method string, b seqBound, exe string) string {
	t.Helper()
	c := mc.seqCase
	what := fmt.Sprintf("%s %v", method, b)
	c.want = originalVerdict(t, c, b)
	text, p := printSeq(t, c, method, b, "moped")
	if err := moped.CheckText([]byte(text), moped.Label); err != nil {
		t.Fatalf("%s: the output is not what Moped reads: %v", what, err)
	}
	if len(p.Targets) == 0 || p.Targets[0] != moped.Label {
		t.Fatalf("%s: the printed program's error label is %v, not %s", what, p.Targets, moped.Label)
	}
	outcome := "ours agree"
	r := decideSeq(t, c, p, c.depth+mopedExtraFrames, mc.states, true)
	deeper := c.want
	if c.want == "depth-bound" && r.verdict != c.want {
		// The printed program's frames hold up to two more of the
		// original's (the eager one records a violation in the thread
		// and calls violation from main): a violation there is the
		// original's with as many more.
		d := c
		d.depth += mopedExtraFrames
		deeper = originalVerdict(t, d, b)
	}
	switch {
	case c.want == "unknown":
		outcome = "original unknown"
	case r.verdict == c.want || r.verdict == deeper:
	case r.verdict == "too large" || strings.HasPrefix(r.verdict, "unknown") || r.skipped:
		outcome = "ours undecided"
		t.Logf("%s: original %s; the printed program is not decided (%s, %s)", what, c.want, r.verdict, r.engine)
	default:
		t.Errorf("%s: the printed program is %s (%s, %d states), the original %s", what, r.verdict, r.engine, r.states, c.want)
	}
	if exe == "" || c.want != "safe" && c.want != "unsafe" {
		return outcome
	}
	file := filepath.Join(t.TempDir(), "prog.bp")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	switch reachable, err := moped.Run(ctx, exe, file); {
	case err != nil:
		t.Errorf("%s: %v", what, err)
	case reachable != (c.want == "unsafe"):
		t.Errorf("%s: Moped says reachable=%v, the original is %s", what, reachable, c.want)
	default:
		outcome += ", moped agrees"
		peer.Case(t, peer.Moped, what)
	}
	return outcome
}

// TestSeqForMopedCommandLine: with -o the program goes to the file, whose
// header and standard error give the exact Moped command line for it.
func TestSeqForMopedCommandLine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "peterson.bp")
	var stdout, stderr bytes.Buffer
	code := run([]string{"seq", "--lazy", "-k", "1", "--for", "moped", "-o", out, "../../examples/peterson.bpl"}, &stdout, &stderr)
	if code != exitSafe || stdout.Len() != 0 {
		t.Fatalf("exit %d, %d bytes on stdout\n%s", code, stdout.Len(), stderr.String())
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	command := "moped -b -r -s0 " + out + " " + moped.Label
	if !strings.Contains(string(text), "// run: "+command) || !strings.Contains(stderr.String(), command) {
		t.Errorf("no %q in the header or on stderr\n%s\n%s", command, excerptLines(string(text), 5), stderr.String())
	}
	if err := moped.CheckText(text, moped.Label); err != nil {
		t.Error(err)
	}
}

func excerptLines(text string, n int) string {
	lines := strings.SplitN(text, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
