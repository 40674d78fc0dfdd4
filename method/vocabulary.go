package method

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

// Auto is the value of a choice that leaves it to the plan; the typed
// names below hold "" for it (Pin).
const Auto = "auto"

// Engine is an engine of bmc check (--engine).
type Engine string

// The engines, as EngineChoice lists them.
const (
	EngineBMC          Engine = "bmc"
	EngineExplicit     Engine = "explicit"
	EngineSummaries    Engine = "summaries"
	EngineCoverability Engine = "coverability"
	EngineInterfaces   Engine = "interfaces"
	EngineCounters     Engine = "counters"
)

// Seq is how a concurrent program is encoded (--seq): a
// sequentialization, the interleaving product, or one of the summary
// engine's encodings.
type Seq string

// The encodings, as SeqChoice lists them.
const (
	SeqEager    Seq = "eager"
	SeqLazy     Seq = "lazy"
	SeqDirect   Seq = "direct"
	SeqContexts Seq = "contexts"
	SeqProduct  Seq = "product"
)

// SolverName is a solver (--solver).
type SolverName string

// The solvers, as SolverChoice lists them.
const (
	SolverGini SolverName = "gini"
	SolverZ3   SolverName = "z3"
	SolverBDD  SolverName = "bdd"
)

// ProofMethod is a proof method of bmc prove (--method).
type ProofMethod string

// The proof methods, as MethodChoice lists them.
const (
	ProofKind       ProofMethod = "kind"
	ProofKindSimple ProofMethod = "kind-simple"
	ProofPDR        ProofMethod = "pdr"
	ProofReach      ProofMethod = "reach"
	ProofViews      ProofMethod = "views"
	ProofSummaries  ProofMethod = "summaries"
	ProofAmplify    ProofMethod = "amplify"
	ProofCounters   ProofMethod = "counters"
)

// Pin is the typed name of a flag's value: "" for Auto (the plan
// chooses).
func Pin[T ~string](value string) T {
	if value == Auto {
		return ""
	}
	return T(value)
}

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
	EngineChoice = Choice{Flag: "engine", Noun: "engine", Default: Auto, Commands: []string{"check"}, Values: []Value{
		{Auto, "the plan races the engines that fit the question (--verbose prints it)"},
		{string(EngineBMC), "bounded model checking; a concurrent program through a sequentialization (with -k or --switches) or the interleaving product"},
		{string(EngineExplicit), "explicit-state search"},
		{string(EngineSummaries), "procedure summaries as Horn clauses, at every call depth; livelocks (--lasso) through the keyframe translation"},
		{string(EngineCoverability), "every number of threads, every interleaving: backward coverability"},
		{string(EngineInterfaces), "every number of threads within -k rounds: linear interfaces"},
		{string(EngineCounters), "every interleaving of the stated thread counts, counting the instances in each thread state (counter abstraction)"},
	}}
	SeqChoice = Choice{Flag: "seq", Noun: "sequentialization", Default: Auto, Commands: []string{"check", "prove", "export"}, Values: []Value{
		{Auto, "the plan's choice"},
		{string(SeqEager), "the eager sequentialization (Lal-Reps: every context's shared state guessed up front)"},
		{string(SeqLazy), "the lazy sequentialization (contexts re-run from the start: only reachable states)"},
		{string(SeqDirect), "the interleaving product, no sequential program"},
		{string(SeqContexts), "the summary engine's context encoding (Getafix's summary relation, locks included)"},
		{string(SeqProduct), "the summary engine's product encoding: the threads' states side by side (threads without calls or locks)"},
	}}
	SolverChoice = Choice{Flag: "solver", Noun: "solver", Default: string(SolverGini), Commands: []string{"check", "prove"}, Values: []Value{
		{string(SolverGini), "the pure-Go SAT solver"},
		{string(SolverZ3), "Z3, through its C library (not in a build with TAGS=noz3)"},
		{string(SolverBDD), "decision diagrams, pure Go: the summary engine, the counter abstraction, reach and amplify only"},
	}}
	MethodChoice = Choice{Flag: "method", Noun: "proof method", Default: Auto, Commands: []string{"prove"}, Values: []Value{
		{Auto, "PDR, raced with the exhaustive search and, for every interleaving, reach, amplify and (threads that write globals of their own) views; the summaries for a recursive program"},
		{string(ProofKind), "Claessen's improved k-induction"},
		{string(ProofKindSimple), "k-induction with simple-path constraints"},
		{string(ProofPDR), "IC3/PDR"},
		{string(ProofReach), "forward reachability on decision diagrams, each thread's steps apart"},
		{string(ProofViews), "the reachable states seen through each pair of threads, on decision diagrams (threads that write only variables of their own)"},
		{string(ProofSummaries), "procedure summaries, at every call depth"},
		{string(ProofAmplify), "K-induction with amplification: every number of rounds"},
		{string(ProofCounters), "the exhaustive search over every interleaving of the stated thread counts, counting the instances in each thread state"},
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
	return &result.UsageError{Msg: fmt.Sprintf("unknown %s %q (available: %s)", c.Noun, value, strings.Join(c.Names(), ", "))}
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
