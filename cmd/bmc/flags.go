package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"bmc/driver"
	"bmc/internal/budget"
	"bmc/method"
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

func (b *byteSize) String() string { return budget.FormatBytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	n, err := budget.ParseBytes(s)
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
	fl.Lookup("max-memory").DefValue = fmt.Sprintf("half of this machine's memory (%s)", budget.FormatBytes(int64(l.maxMemory)))
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

// validate checks every value of `bmc check`, whether or not the chosen
// engine would read it, and refuses flags that contradict each other, so
// that no flag is silently ignored.
func (f *checkFlags) validate(fl *pflag.FlagSet) error {
	const cmd = "bmc check"
	if err := checkChoices("check", fl); err != nil {
		return err
	}
	if err := f.boundFlags.validate(cmd, fl); err != nil {
		return err
	}
	switch {
	case f.cores < 0:
		return usageErr("%s: --cores must not be negative, got %d", cmd, f.cores)
	case f.maxSteps < 0:
		return usageErr("%s: --max-steps must not be negative, got %d", cmd, f.maxSteps)
	case f.maxStates < 1:
		return usageErr("%s: --max-states must be at least 1, got %d", cmd, f.maxStates)
	}
	if err := f.limits.validate(cmd); err != nil {
		return err
	}
	if err := checkApart("check", fl); err != nil {
		return err
	}
	return f.validateLasso(fl)
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

// validateLasso parses --lasso and --fairness (the flags that do not go
// with --lasso are the table's, driver.Aparts).
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
	case stem+loop > method.MaxLassoRounds:
		return result.LassoBound{}, usageErr("%s: --lasso %s: stem and loop must be at most %d rounds together", cmd, lasso, method.MaxLassoRounds)
	}
	fair, err := result.ParseFairness(fairness)
	if err != nil {
		return result.LassoBound{}, usageErr("%s: --fairness: %v", cmd, err)
	}
	return result.LassoBound{Stem: stem, Loop: loop, Fairness: fair}, nil
}
