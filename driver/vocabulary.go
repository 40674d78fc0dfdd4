package driver

import (
	"fmt"
	"slices"
	"strings"

	"bmc/result"
)

// The command-line vocabulary in one table: the flags whose value names
// one of a list (engines, encodings, proof methods, solvers, fairness,
// ...), with what each value means, and the flags that do not go
// together. The commands' help and usage errors come from it (cmd/bmc),
// and so do the lists in README.md and docs/USAGE.md, which a test of
// cmd/bmc compares with it (and rewrites with -update).

// Choice is a flag whose value names one of a list.
type Choice struct {
	Flag     string   // without dashes: "engine"
	Noun     string   // what a value is, in errors: `unknown engine "x"`
	Default  string   // the value when the flag is not given
	Commands []string // the commands that take the flag
	Values   []Value  // in the order help and docs list them
}

// Value is one value of a Choice.
type Value struct {
	Name    string
	Meaning string // a phrase: help and docs print "name: meaning"
}

// The choices of the commands.
var (
	EngineChoice = Choice{Flag: "engine", Noun: "engine", Default: "auto", Commands: []string{"check"}, Values: []Value{
		{"auto", "the plan races the engines that fit the question (--verbose prints it)"},
		{"bmc", "bounded model checking; a concurrent program through a sequentialization (with -k or --switches) or the interleaving product"},
		{"explicit", "explicit-state search"},
		{"summaries", "procedure summaries as Horn clauses, at every call depth; livelocks (--lasso) through the keyframe translation"},
		{"coverability", "every number of threads, every interleaving: backward coverability"},
		{"interfaces", "every number of threads within -k rounds: linear interfaces"},
	}}
	SeqChoice = Choice{Flag: "seq", Noun: "sequentialization", Default: "auto", Commands: []string{"check", "prove", "export"}, Values: []Value{
		{"auto", "the plan's choice"},
		{"eager", "the eager sequentialization (Lal-Reps: every context's shared state guessed up front)"},
		{"lazy", "the lazy sequentialization (contexts re-run from the start: only reachable states)"},
		{"direct", "the interleaving product, no sequential program"},
		{"contexts", "the summary engine's context encoding (Getafix's summary relation, locks included)"},
		{"product", "the summary engine's product encoding: the threads' states side by side (threads without calls or locks)"},
	}}
	SolverChoice = Choice{Flag: "solver", Noun: "solver", Default: "gini", Commands: []string{"check", "prove"}, Values: []Value{
		{"gini", "the pure-Go SAT solver"},
		{"z3", "Z3, through its C library (not in a build with TAGS=noz3)"},
		{"bdd", "decision diagrams, pure Go: the summary engine, reach and amplify only"},
	}}
	MethodChoice = Choice{Flag: "method", Noun: "proof method", Default: "auto", Commands: []string{"prove"}, Values: []Value{
		{"auto", "PDR, raced with the exhaustive search and, for every interleaving, reach and amplify; the summaries for a recursive program"},
		{"kind", "Claessen's improved k-induction"},
		{"kind-simple", "k-induction with simple-path constraints"},
		{"pdr", "IC3/PDR"},
		{"reach", "forward reachability on decision diagrams, each thread's steps apart"},
		{"summaries", "procedure summaries, at every call depth"},
		{"amplify", "K-induction with amplification: every number of rounds"},
	}}
	FairnessChoice = Choice{Flag: "fairness", Noun: "fairness", Default: result.StrongFairness.String(), Commands: []string{"check", "seq", "export"}, Values: []Value{
		{result.StrongFairness.String(), "a thread that takes no step in the loop has ended or waits for a lock held throughout the loop"},
		{result.WeakFairness.String(), "... has ended or waits for a lock held at some point of the loop"},
		{result.NoFairness.String(), "any loop"},
	}}
	SwitchPointChoice = Choice{Flag: "switch-points", Noun: "switch-point rule", Default: "any", Commands: []string{"check"}, Values: []Value{
		{"any", "a thread may be switched out before any step outside an atomic section"},
		{"getafix", "only where Getafix switches (before shared accesses, while its flag, the first global, is false): its narrower question"},
	}}
	ForChoice = Choice{Flag: "for", Noun: "tool for --for", Default: "bmc", Commands: []string{"seq"}, Values: []Value{
		{"bmc", "bmc's own syntax, for bmc check"},
		{"moped", "only what Moped 1.0.15 reads, with our meaning: violations reach the label error"},
	}}
	PropertyChoice = Choice{Flag: "property", Noun: "property", Default: "violation", Commands: []string{"export"}, Values: []Value{
		{"violation", "a failed assertion, a reached error label or a bad release"},
		{"overflow", "a call beyond --depth"},
	}}
)

// Vocabulary is every Choice, in the order the docs list them.
var Vocabulary = []Choice{EngineChoice, SeqChoice, SolverChoice, MethodChoice, FairnessChoice, SwitchPointChoice, ForChoice, PropertyChoice}

// Names are the names of c's values, in order.
func (c Choice) Names() []string {
	names := make([]string, len(c.Values))
	for i, v := range c.Values {
		names[i] = v.Name
	}
	return names
}

// Check refuses a value that is none of c's.
func (c Choice) Check(value string) error {
	if slices.Contains(c.Names(), value) {
		return nil
	}
	return &UsageError{fmt.Sprintf("unknown %s %q (available: %s)", c.Noun, value, strings.Join(c.Names(), ", "))}
}

// Help words c's values for a flag's help: "auto: the plan's choice;
// eager: ...".
func (c Choice) Help() string {
	parts := make([]string, len(c.Values))
	for i, v := range c.Values {
		parts[i] = v.Name + ": " + v.Meaning
	}
	return strings.Join(parts, "; ")
}

// Takes says whether command takes c's flag.
func (c Choice) Takes(command string) bool { return slices.Contains(c.Commands, command) }

// Given is a condition on a command line: a flag given, with one of
// Values when there are any.
type Given struct {
	Flag   string
	Values []string
	Words  string // how errors name it: "--engine explicit", "--lasso"
}

// Apart is a pair of flags that do not go together: on Command, Flag
// (with one of its Values, when it has any) is refused when When holds
// and Unless does not, for the reason Why.
type Apart struct {
	Command string
	Flag    Given
	When    Given
	Unless  *Given
	Why     string
}

// Message is the usage error of the pair, after the command's name,
// for the flag's value given.
func (a Apart) Message(value string) string {
	flag := "--" + a.Flag.Flag
	if len(a.Flag.Values) > 0 {
		flag += " " + value
	}
	return fmt.Sprintf("%s does not go with %s: %s", flag, a.When.Words, a.Why)
}

// The flags of bmc check that one engine reads and the other does not,
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

// Aparts are the pairs of flags that do not go together, command by
// command, in the order they are checked.
var Aparts = aparts()

func aparts() []Apart {
	var out []Apart
	add := func(command, flag string, when Given, why string) {
		out = append(out, Apart{Command: command, Flag: Given{Flag: flag}, When: when, Why: why})
	}
	addValues := func(command, flag string, values []string, when Given, why string) {
		out = append(out, Apart{Command: command, Flag: Given{Flag: flag, Values: values}, When: when, Why: why})
	}
	explicit := Given{Flag: "engine", Values: []string{"explicit"}, Words: "--engine explicit"}
	for _, o := range bmcOnly {
		add("check", o.flag, explicit, o.why)
	}
	bmcPins := []Given{{Flag: "engine", Values: []string{"bmc"}, Words: "--engine bmc"}}
	for _, s := range []string{"eager", "lazy", "direct"} {
		bmcPins = append(bmcPins, Given{Flag: "seq", Values: []string{s}, Words: "--seq " + s + ", which selects the bmc engine"})
	}
	// The interleaving product breaks the symmetry of thread groups too
	// (--no-symmetry goes with --seq direct).
	direct := &Given{Flag: "seq", Values: []string{"direct"}, Words: "--seq direct"}
	for _, pin := range bmcPins {
		for _, o := range explicitOnly {
			a := Apart{Command: "check", Flag: Given{Flag: o.flag}, When: pin, Why: o.why}
			switch {
			case o.flag == "no-symmetry" && pin.Flag == "seq" && pin.Values[0] == "direct":
				continue
			case o.flag == "no-symmetry":
				a.Unless = direct
			}
			out = append(out, a)
		}
	}
	for _, s := range []string{"eager", "lazy"} {
		add("check", "max-threads", Given{Flag: "seq", Values: []string{s}, Words: "--seq " + s + ", which selects the bmc engine"},
			"the eager and lazy sequentializations take no program that starts threads")
	}
	add("check", "frames", Given{Flag: "seq", Values: []string{"direct"}, Words: "--seq direct"},
		"the interleaving product is always unrolled frame by frame")
	lasso := Given{Flag: "lasso", Words: "--lasso"}
	for _, o := range []struct{ flag, why string }{
		{"rounds", "the lasso's rounds are its stem and loop"},
		{"switches", "the lasso is bounded by rounds, its stem and loop"},
		{"no-reduction", "the livelock search considers a context switch before every step"},
		{"no-symmetry", "the livelock search runs round-robin rounds, which order the thread instances"},
		{"switch-points", "Getafix's switch points are asked for safety only"},
		{"max-threads", "the livelock search takes programs with a fixed set of threads"},
	} {
		add("check", o.flag, lasso, o.why)
	}
	addValues("check", "seq", []string{"lazy", "contexts", "product"}, lasso,
		"the livelock search has its own translation (eager, with the loop closed) or runs on the interleaving product (direct)")
	getafix := Given{Flag: "switch-points", Values: []string{"getafix"}, Words: "--switch-points getafix"}
	add("check", "no-reduction", getafix, "that search takes one step at a time already")
	symmetryWhy := "they order the thread instances, so the search does not reduce by symmetry there"
	add("check", "no-symmetry", Given{Flag: "rounds", Words: "-k"}, symmetryWhy)
	add("check", "no-symmetry", getafix, symmetryWhy)

	proofPinned := "it limits the exhaustive search, which runs only when no flag chooses the proof engine"
	add("prove", "max-states", Given{Flag: "method", Words: "--method"}, proofPinned)
	add("prove", "max-states", Given{Flag: "seq", Words: "--seq"}, proofPinned)
	add("prove", "max-states", Given{Flag: "certificate", Words: "--certificate"}, proofPinned)
	add("prove", "certificate", Given{Flag: "method", Values: []string{"reach"}, Words: "--method reach"},
		"reach's invariant is a decision diagram over the state bits, re-checked but not written")
	add("prove", "certificate", Given{Flag: "method", Values: []string{"kind", "kind-simple"}, Words: "--method kind or kind-simple"},
		"k-induction proves no invariant over single states")

	for _, o := range []struct{ flag, why string }{
		{"rounds", "the livelock question is bounded by its stem and loop rounds"},
		{"switches", "the livelock question is bounded by its stem and loop rounds"},
		{"max-threads", "the livelock question is asked of a fixed set of threads"},
		{"chc", "--chc asks the safety question"},
	} {
		add("export", o.flag, lasso, o.why)
	}
	addValues("export", "seq", []string{"eager", "lazy", "contexts", "product"}, lasso,
		"the livelock question is written on the interleaving product (direct); bmc seq --lasso prints the lasso translation")
	for _, f := range []string{"aiger", "chc"} {
		add("export", "property", Given{Flag: f, Words: "--" + f}, "--property chooses the bad state of --dimacs or --smt2; the AIGER file has both properties as outputs, the Horn clauses the violation")
	}
	for _, f := range []string{"eager", "lazy"} {
		add("seq", "amplify", Given{Flag: f, Words: "--" + f}, "give one translation")
	}
	for _, f := range []string{"eager", "lazy", "rounds", "switches"} {
		add("seq", f, lasso, "the livelock translation has its own rounds, the stem and the loop")
	}
	add("seq", "depth", Given{Flag: "keyframes", Words: "--keyframes"}, "the translation keeps recursion")
	return out
}

// holds says whether g holds on a command line: given says whether a
// flag was given, value is its value.
func (g Given) holds(given func(string) bool, value func(string) string) bool {
	if !given(g.Flag) {
		return false
	}
	return len(g.Values) == 0 || slices.Contains(g.Values, value(g.Flag))
}

// ApartOn is the first pair of flags on command's line that do not go
// together, or nil: given says whether a flag was given, value is its
// value.
func ApartOn(command string, given func(string) bool, value func(string) string) *Apart {
	for i, a := range Aparts {
		if a.Command != command || !a.Flag.holds(given, value) || !a.When.holds(given, value) {
			continue
		}
		if a.Unless != nil && a.Unless.holds(given, value) {
			continue
		}
		return &Aparts[i]
	}
	return nil
}
