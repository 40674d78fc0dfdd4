package main

import (
	"github.com/spf13/pflag"

	"bmc/driver"
	"bmc/method"
)

// registerChoice adds the flag of choice c to fl, its help the values
// of the vocabulary's table (method.Vocabulary) after intro.
func registerChoice(fl *pflag.FlagSet, value *string, c method.Choice, intro string) {
	fl.StringVar(value, c.Flag, c.Default, intro+". "+c.Help())
}

// flagValue is the value of fl's flag name, "" when it has none.
func flagValue(fl *pflag.FlagSet, name string) string {
	if f := fl.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// checkChoices refuses, on the command line of command (check, prove,
// ...), a value that is none of its choice's (method.Vocabulary).
func checkChoices(command string, fl *pflag.FlagSet) error {
	for _, c := range method.Vocabulary {
		if !c.Takes(command) {
			continue
		}
		if err := c.Check(flagValue(fl, c.Flag)); err != nil {
			return usageErr("bmc %s: %v", command, err)
		}
	}
	return nil
}

// checkApart refuses a pair of flags on the command line of command
// that do not go together (driver.Aparts).
func checkApart(command string, fl *pflag.FlagSet) error {
	value := func(name string) string { return flagValue(fl, name) }
	if a := driver.ApartOn(command, fl.Changed, value); a != nil {
		return usageErr("bmc %s: %s", command, a.Message(value(a.Flag.Flag)))
	}
	return nil
}

// boundFlags are the bounds of the question, which the commands that
// take them register alike: the context bound (-k or --switches), the
// call depth, the thread instances and the error label, and the thread
// bound of spawning programs.
type boundFlags struct {
	rounds     int
	switches   int
	depth      int
	threads    string
	target     string
	maxThreads threadBound
}

// boundFlag names the bound flags a command takes.
type boundFlag int

const (
	contextBound boundFlag = 1 << iota // -k, --rounds and --switches
	depthBound
	threadsBound // --threads
	targetBound
	maxThreadsBound
)

// defaultDepth is the call depth of a recursive program when none is
// given; a program without recursion is searched at its own deepest
// stack (driver).
const defaultDepth = 16

// depthHelp is the help of --depth for the commands that search.
const depthHelp = "call stack bound per thread (frames; the entry frame is 1); not given: a program without recursion is searched at its deepest stack, a recursive one within 16 frames (and at every depth by the summaries)"

// register adds the bound flags which names to fl; depth words what
// --depth bounds for the command.
func (b *boundFlags) register(fl *pflag.FlagSet, which boundFlag, depth string) {
	if which&contextBound != 0 {
		fl.IntVarP(&b.rounds, "rounds", "k", 0, "bound: K round-robin rounds")
		fl.IntVar(&b.switches, "switches", -1, "bound: at most N context switches")
		fl.Lookup("switches").DefValue = "none" // -1: not bounded by switches
	} else {
		b.switches = -1
	}
	if which&depthBound != 0 {
		fl.IntVar(&b.depth, "depth", defaultDepth, depth)
	}
	if which&threadsBound != 0 {
		fl.StringVar(&b.threads, "threads", "", "thread instances, e.g. adder=2,stopper=1 (name=* for unboundedly many)")
	}
	if which&targetBound != 0 {
		fl.StringVar(&b.target, "target", "", "error label to reach, replacing error, ERROR and SLIC_ERROR")
	}
	if which&maxThreadsBound != 0 {
		b.maxThreads = threadBound{n: 4}
		fl.Var(&b.maxThreads, "max-threads", "threads created by spawning or for name=* counts: at most `N` (default 4), or '*' for every number (coverability, linear interfaces; the default for programs that start unboundedly many threads)")
	}
}

// validate refuses bounds out of range on the command line of cmd.
func (b *boundFlags) validate(cmd string, fl *pflag.FlagSet) error {
	if err := checkContextBound(cmd, fl, b.rounds, b.switches); err != nil {
		return err
	}
	switch {
	case fl.Lookup("depth") != nil && b.depth < 1:
		return usageErr("%s: --depth must be at least 1, got %d", cmd, b.depth)
	case fl.Lookup("max-threads") != nil && !b.maxThreads.any && (b.maxThreads.n < 1 || b.maxThreads.n > 1000):
		return usageErr("%s: --max-threads must be between 1 and 1000, or '*', got %d", cmd, b.maxThreads.n)
	}
	return nil
}

// checkContextBound refuses -k and --switches together and values out
// of range.
func checkContextBound(cmd string, fl *pflag.FlagSet, rounds, switches int) error {
	switch {
	case fl.Changed("rounds") && fl.Changed("switches"):
		return usageErr("%s: give either -k (rounds) or --switches, not both: each is a bound on the contexts", cmd)
	case fl.Changed("rounds") && (rounds < 1 || rounds > method.MaxRounds):
		return usageErr("%s: -k must be between 1 and %d, got %d", cmd, method.MaxRounds, rounds)
	case fl.Changed("switches") && (switches < 0 || switches > method.MaxSwitches):
		return usageErr("%s: --switches must be between 0 and %d, got %d", cmd, method.MaxSwitches, switches)
	}
	return nil
}
