package driver

import (
	"bmc/method"
	"fmt"
	"slices"
)

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
	var out apartList
	out.check()
	out.prove()
	out.export()
	out.seq()
	return out
}

// apartList collects the pairs of flags that do not go together.
type apartList []Apart

func (l *apartList) add(command, flag string, when Given, why string) {
	*l = append(*l, Apart{Command: command, Flag: Given{Flag: flag}, When: when, Why: why})
}

func (l *apartList) addValues(command, flag string, values []string, when Given, why string) {
	*l = append(*l, Apart{Command: command, Flag: Given{Flag: flag, Values: values}, When: when, Why: why})
}

// names are the values of typed names, as flags give them.
func names[T ~string](values ...T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// lasso is the flag of the livelock question.
var lasso = Given{Flag: "lasso", Words: "--lasso"}

// check adds bmc check's pairs: the flags one engine reads and the
// other does not, and those the livelock question and Getafix's switch
// points do not take.
func (l *apartList) check() {
	explicit := Given{Flag: "engine", Values: names(method.EngineExplicit), Words: "--engine explicit"}
	for _, o := range bmcOnly {
		l.add("check", o.flag, explicit, o.why)
	}
	bmcPins := []Given{{Flag: "engine", Values: names(method.EngineBMC), Words: "--engine bmc"}}
	for _, s := range []method.Seq{method.SeqEager, method.SeqLazy, method.SeqDirect} {
		bmcPins = append(bmcPins, Given{Flag: "seq", Values: names(s), Words: "--seq " + string(s) + ", which selects the bmc engine"})
	}
	// The interleaving product breaks the symmetry of thread groups too
	// (--no-symmetry goes with --seq direct).
	direct := &Given{Flag: "seq", Values: names(method.SeqDirect), Words: "--seq direct"}
	for _, pin := range bmcPins {
		for _, o := range explicitOnly {
			a := Apart{Command: "check", Flag: Given{Flag: o.flag}, When: pin, Why: o.why}
			switch {
			case o.flag == "no-symmetry" && pin.Flag == "seq" && pin.Values[0] == string(method.SeqDirect):
				continue
			case o.flag == "no-symmetry":
				a.Unless = direct
			}
			*l = append(*l, a)
		}
	}
	for _, s := range []method.Seq{method.SeqEager, method.SeqLazy} {
		l.add("check", "max-threads", Given{Flag: "seq", Values: names(s), Words: "--seq " + string(s) + ", which selects the bmc engine"},
			"the eager and lazy sequentializations take no program that starts threads")
	}
	l.add("check", "frames", *direct, "the interleaving product is always unrolled frame by frame")
	for _, o := range []struct{ flag, why string }{
		{"rounds", "the lasso's rounds are its stem and loop"},
		{"switches", "the lasso is bounded by rounds, its stem and loop"},
		{"no-reduction", "the livelock search considers a context switch before every step"},
		{"no-symmetry", "the livelock search runs round-robin rounds, which order the thread instances"},
		{"switch-points", "Getafix's switch points are asked for safety only"},
		{"max-threads", "the livelock search takes programs with a fixed set of threads"},
	} {
		l.add("check", o.flag, lasso, o.why)
	}
	l.addValues("check", "seq", names(method.SeqLazy, method.SeqContexts, method.SeqProduct), lasso,
		"the livelock search has its own translation (eager, with the loop closed) or runs on the interleaving product (direct)")
	getafix := Given{Flag: "switch-points", Values: []string{"getafix"}, Words: "--switch-points getafix"}
	l.add("check", "no-reduction", getafix, "that search takes one step at a time already")
	symmetryWhy := "they order the thread instances, so the search does not reduce by symmetry there"
	l.add("check", "no-symmetry", Given{Flag: "rounds", Words: "-k"}, symmetryWhy)
	l.add("check", "no-symmetry", getafix, symmetryWhy)
}

// prove adds bmc prove's pairs: the exhaustive search's limit where it
// does not run, and certificates no invariant gives.
func (l *apartList) prove() {
	proofPinned := "it limits the exhaustive search, which runs only when no flag chooses the proof engine"
	l.add("prove", "max-states", Given{Flag: "method", Words: "--method"}, proofPinned)
	l.add("prove", "max-states", Given{Flag: "seq", Words: "--seq"}, proofPinned)
	l.add("prove", "max-states", Given{Flag: "certificate", Words: "--certificate"}, proofPinned)
	l.add("prove", "certificate", Given{Flag: "method", Values: names(method.ProofReach), Words: "--method reach"},
		"reach's invariant is a decision diagram over the state bits, re-checked but not written")
	l.add("prove", "certificate", Given{Flag: "method", Values: names(method.ProofKind, method.ProofKindSimple), Words: "--method kind or kind-simple"},
		"k-induction proves no invariant over single states")
}

// export adds bmc export's pairs.
func (l *apartList) export() {
	for _, o := range []struct{ flag, why string }{
		{"rounds", "the livelock question is bounded by its stem and loop rounds"},
		{"switches", "the livelock question is bounded by its stem and loop rounds"},
		{"max-threads", "the livelock question is asked of a fixed set of threads"},
		{"chc", "--chc asks the safety question"},
	} {
		l.add("export", o.flag, lasso, o.why)
	}
	l.addValues("export", "seq", names(method.SeqEager, method.SeqLazy, method.SeqContexts, method.SeqProduct), lasso,
		"the livelock question is written on the interleaving product (direct); bmc seq --lasso prints the lasso translation")
	for _, f := range []string{"aiger", "chc"} {
		l.add("export", "property", Given{Flag: f, Words: "--" + f}, "--property chooses the bad state of --dimacs or --smt2; the AIGER file has both properties as outputs, the Horn clauses the violation")
	}
}

// seq adds bmc seq's pairs.
func (l *apartList) seq() {
	for _, f := range []string{"eager", "lazy"} {
		l.add("seq", "amplify", Given{Flag: f, Words: "--" + f}, "give one translation")
	}
	for _, f := range []string{"eager", "lazy", "rounds", "switches"} {
		l.add("seq", f, lasso, "the livelock translation has its own rounds, the stem and the loop")
	}
	l.add("seq", "depth", Given{Flag: "keyframes", Words: "--keyframes"}, "the translation keeps recursion")
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
