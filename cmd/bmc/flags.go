package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"bmc/driver"
	"bmc/seq"
)

// byteSize is a flag holding a number of bytes, written 512M, 4G or 0.
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
	}{{"engine", f.engine, driver.Engines}, {"solver", f.solver, driver.Solvers}, {"sequentialization", f.seq, driver.Seqs}} {
		if err := checkName(cmd, c.what, c.value, c.names); err != nil {
			return err
		}
	}
	switch {
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
	case f.maxThreads < 1 || f.maxThreads > 1000:
		return usageErr("%s: --max-threads must be between 1 and 1000, got %d", cmd, f.maxThreads)
	case f.maxStates < 1:
		return usageErr("%s: --max-states must be at least 1, got %d", cmd, f.maxStates)
	}
	if err := f.limits.validate(cmd); err != nil {
		return err
	}
	// The engine the flags choose, and the flags that choose it; auto
	// decides by the program, so no flag contradicts it.
	engine, chosenBy := f.engine, "--engine "+f.engine
	if engine == "auto" && f.seq != "auto" {
		engine, chosenBy = "bmc", fmt.Sprintf("--seq %s, which selects the bmc engine", f.seq)
	}
	switch engine {
	case "explicit":
		for _, o := range bmcOnly {
			if fl.Changed(o.flag) {
				return usageErr("%s: --%s does not go with %s: %s", cmd, o.flag, chosenBy, o.why)
			}
		}
	case "bmc":
		for _, o := range explicitOnly {
			if fl.Changed(o.flag) {
				return usageErr("%s: --%s does not go with %s: %s", cmd, o.flag, chosenBy, o.why)
			}
		}
	}
	switch {
	case f.seq == "direct" && fl.Changed("frames"):
		return usageErr("%s: --frames does not go with --seq direct: the interleaving product is always unrolled frame by frame", cmd)
	case engine == "bmc" && f.seq != "direct" && fl.Changed("max-threads"):
		if f.seq == "auto" {
			chosenBy += " (whose --seq auto is eager)"
		}
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

// requestedBounds words the context and call bounds the flags ask for.
func (f *checkFlags) requestedBounds() string {
	depth := fmt.Sprintf("call depth %d", f.depth)
	if f.rounds == 0 && f.switches < 0 {
		return depth
	}
	return seq.Bound{Rounds: f.rounds, Switches: f.switches}.String() + ", " + depth
}
