package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"bmc/driver"
	"bmc/result"
	"bmc/seq"
)

// byteSize is a flag holding a number of bytes, written 512M, 4G or 0.
// threadBound is --max-threads: a number, or * for every number of
// threads (the parameterized question).
type threadBound struct {
	n   int
	any bool
}

func (t *threadBound) String() string {
	if t.any {
		return "*"
	}
	return strconv.Itoa(t.n)
}

func (t *threadBound) Set(s string) error {
	if s == "*" {
		t.any = true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a number of threads or '*' (every number), got %q", s)
	}
	t.n, t.any = n, false
	return nil
}

func (t *threadBound) Type() string { return "N|*" }

type byteSize int64

func (b *byteSize) String() string { return driver.FormatBytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	n, err := driver.ParseBytes(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

func (b *byteSize) Type() string { return "size" }

// limitFlags are the time and memory limits of a run (check, seq, export).
type limitFlags struct {
	timeout   time.Duration
	maxMemory byteSize
}

// register adds --timeout and --max-memory to fl; covers says what the
// limits apply to.
func (l *limitFlags) register(fl *pflag.FlagSet, covers string) {
	fl.DurationVar(&l.timeout, "timeout", 0, "give up (exit 3) after this long, e.g. 30s, counting "+covers+"; 0 means no limit")
	l.maxMemory = byteSize(driver.DefaultMaxMemory())
	fl.Var(&l.maxMemory, "max-memory", "give up (exit 3) when the process grows beyond `SIZE`, e.g. 512M or 4G, and refuse (exit 2) what cannot fit; 0 means no limit")
	fl.Lookup("max-memory").DefValue = fmt.Sprintf("half of this machine's memory (%s)", driver.FormatBytes(int64(l.maxMemory)))
}

func (l *limitFlags) validate(cmd string) error {
	if l.timeout < 0 {
		return usageErr("%s: --timeout must not be negative, got %s", cmd, l.timeout)
	}
	return nil
}

// registerCores adds --cores, the plan's count of engines busy at once.
func registerCores(fl *pflag.FlagSet, cores *int) {
	fl.IntVar(cores, "cores", 0, "engines the plan keeps busy at once, each on a core of the processors this process may use, shared when there are fewer (default: as many as those processors)")
}

// checkName checks the value of a flag that names one of a list; what
// says what the names are.
func checkName(cmd, what, value string, names []string) error {
	if !slices.Contains(names, value) {
		return usageErr("%s: unknown %s %q (available: %s)", cmd, what, value, strings.Join(names, ", "))
	}
	return nil
}

// engineOnly are the flags that one engine reads and the other does not,
// with what makes them that engine's.
var (
	bmcOnly = []struct{ flag, why string }{
		{"seq", "a sequentialization is how the bmc engine checks a concurrent program"},
		{"solver", "the explicit engine uses no solver"},
		{"max-steps", "the explicit engine has no step bound: it explores every execution within the bounds"},
		{"frames", "it chooses how the bmc engine encodes the program"},
	}
	explicitOnly = []struct{ flag, why string }{
		{"max-states", "it limits the states of the explicit engine, and the bmc engine stores none"},
		{"no-reduction", "the partial-order reduction is the explicit engine's"},
		{"no-symmetry", "the symmetry reduction is the explicit engine's and the interleaving product's (--seq direct)"},
	}
)

// validate checks every value of `bmc check`, whether or not the chosen
// engine would read it, and refuses flags that contradict each other, so
// that no flag is silently ignored.
func (f *checkFlags) validate(fl *pflag.FlagSet) error {
	const cmd = "bmc check"
	for _, c := range []struct {
		what, value string
		names       []string
	}{{"engine", f.engine, driver.Engines}, {"solver", f.solver, driver.Solvers}, {"sequentialization", f.seq, driver.Seqs},
		{"switch-point rule", f.switchAt, []string{"any", "getafix"}}} {
		if err := checkName(cmd, c.what, c.value, c.names); err != nil {
			return err
		}
	}
	switch {
	case f.cores < 0:
		return usageErr("%s: --cores must not be negative, got %d", cmd, f.cores)
	case f.maxSteps < 0:
		return usageErr("%s: --max-steps must not be negative, got %d", cmd, f.maxSteps)
	case fl.Changed("rounds") && fl.Changed("switches"):
		return usageErr("%s: give either -k (rounds) or --switches, not both: each is a bound on the contexts", cmd)
	case fl.Changed("rounds") && f.rounds < 1:
		return usageErr("%s: -k must be at least 1, got %d", cmd, f.rounds)
	case fl.Changed("switches") && f.switches < 0:
		return usageErr("%s: --switches must be at least 0, got %d", cmd, f.switches)
	case f.depth < 1:
		return usageErr("%s: --depth must be at least 1, got %d", cmd, f.depth)
	case !f.maxThreads.any && (f.maxThreads.n < 1 || f.maxThreads.n > 1000):
		return usageErr("%s: --max-threads must be between 1 and 1000, or '*', got %d", cmd, f.maxThreads.n)
	case f.maxStates < 1:
		return usageErr("%s: --max-states must be at least 1, got %d", cmd, f.maxStates)
	case f.switchAt == "getafix" && fl.Changed("no-reduction"):
		return usageErr("%s: --no-reduction does not go with --switch-points getafix: that search takes one step at a time already", cmd)
	case fl.Changed("no-symmetry") && (fl.Changed("rounds") || f.switchAt == "getafix"):
		return usageErr("%s: --no-symmetry does not go with -k or --switch-points getafix: they order the thread instances, so the search does not reduce by symmetry there", cmd)
	}
	if err := f.limits.validate(cmd); err != nil {
		return err
	}
	if err := f.validateLasso(fl); err != nil {
		return err
	}
	// The engine the flags choose, and the flags that choose it; where
	// the plan chooses by the program, no flag contradicts it.
	engine, chosenBy := driver.PinnedEngine(f.engine, f.seq)
	switch engine {
	case "explicit":
		for _, o := range bmcOnly {
			if fl.Changed(o.flag) {
				return usageErr("%s: --%s does not go with %s: %s", cmd, o.flag, chosenBy, o.why)
			}
		}
	case "bmc":
		for _, o := range explicitOnly {
			if fl.Changed(o.flag) && !(o.flag == "no-symmetry" && f.seq == "direct") {
				return usageErr("%s: --%s does not go with %s: %s", cmd, o.flag, chosenBy, o.why)
			}
		}
	}
	switch {
	case f.seq == "direct" && fl.Changed("frames"):
		return usageErr("%s: --frames does not go with --seq direct: the interleaving product is always unrolled frame by frame", cmd)
	case (f.seq == "eager" || f.seq == "lazy") && fl.Changed("max-threads"):
		return usageErr("%s: --max-threads does not go with %s: the eager and lazy sequentializations take no program that starts threads", cmd, chosenBy)
	}
	return nil
}

// checkContextBound refuses -k and --switches together and values out
// of range, for the commands that take either (prove, compare).
func checkContextBound(cmd string, fl *pflag.FlagSet, rounds, switches int) error {
	switch {
	case fl.Changed("rounds") && fl.Changed("switches"):
		return usageErr("%s: give either -k (rounds) or --switches, not both: each is a bound on the contexts", cmd)
	case fl.Changed("rounds") && (rounds < 1 || rounds > driver.MaxRounds):
		return usageErr("%s: -k must be between 1 and %d, got %d", cmd, driver.MaxRounds, rounds)
	case fl.Changed("switches") && (switches < 0 || switches > driver.MaxSwitches):
		return usageErr("%s: --switches must be between 0 and %d, got %d", cmd, driver.MaxSwitches, switches)
	}
	return nil
}

// requestedBounds words the context bound the flags ask for ("" for
// none), and the call depth where the user stated it.
func (f *checkFlags) requestedBounds(fl *pflag.FlagSet) (string, int) {
	bounds, depth := "", 0
	if f.rounds > 0 || f.switches >= 0 {
		bounds = seq.Bound{Rounds: f.rounds, Switches: f.switches}.String()
	}
	if fl.Changed("depth") {
		depth = f.depth
	}
	return bounds, depth
}

// validateLasso parses --lasso and --fairness and refuses the flags that
// make no sense with them.
func (f *checkFlags) validateLasso(fl *pflag.FlagSet) error {
	const cmd = "bmc check"
	if !fl.Changed("lasso") {
		if fl.Changed("fairness") {
			return usageErr("%s: --fairness goes with --lasso k1,k2 (the livelock search)", cmd)
		}
		return nil
	}
	lb, err := parseLasso(cmd, f.lasso, f.fairness)
	if err != nil {
		return err
	}
	f.lassoBound = lb
	for _, o := range []struct{ flag, why string }{
		{"rounds", "the lasso's rounds are its stem and loop"},
		{"switches", "the lasso is bounded by rounds, its stem and loop"},
		{"no-reduction", "the livelock search considers a context switch before every step"},
		{"no-symmetry", "the livelock search runs round-robin rounds, which order the thread instances"},
		{"switch-points", "Getafix's switch points are asked for safety only"},
		{"max-threads", "the livelock search takes programs with a fixed set of threads"},
	} {
		if fl.Changed(o.flag) {
			return usageErr("%s: --%s does not go with --lasso: %s", cmd, o.flag, o.why)
		}
	}
	if fl.Changed("seq") && !driver.LassoSeq(f.seq) {
		return usageErr("%s: --seq %s does not go with --lasso: the livelock search has its own translation (eager, with the loop closed) or runs on the interleaving product (direct)", cmd, f.seq)
	}
	return nil
}

// parseLasso reads the values of --lasso k1,k2 and --fairness.
func parseLasso(cmd, lasso, fairness string) (result.LassoBound, error) {
	k1, k2, ok := strings.Cut(lasso, ",")
	stem, err1 := strconv.Atoi(strings.TrimSpace(k1))
	loop, err2 := strconv.Atoi(strings.TrimSpace(k2))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return result.LassoBound{}, usageErr("%s: --lasso wants two numbers k1,k2 (stem rounds, loop rounds), got %q", cmd, lasso)
	case stem < 0 || loop < 1:
		return result.LassoBound{}, usageErr("%s: --lasso %s: the stem needs at least 0 rounds and the loop at least 1", cmd, lasso)
	case stem+loop > driver.MaxLassoRounds:
		return result.LassoBound{}, usageErr("%s: --lasso %s: stem and loop must be at most %d rounds together", cmd, lasso, driver.MaxLassoRounds)
	}
	fair, err := result.ParseFairness(fairness)
	if err != nil {
		return result.LassoBound{}, usageErr("%s: --fairness: %v", cmd, err)
	}
	return result.LassoBound{Stem: stem, Loop: loop, Fairness: fair}, nil
}
