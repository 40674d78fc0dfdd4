package result

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"bmc/internal/halt"
)

// LimitKind is what cut a search short (or, for a note, what a verdict
// left open rests on); its row of limitTable says how a report words it,
// whether the search said nothing about the bounds (Incomplete) and what
// would decide the question.
type LimitKind int

const (
	// LimitTimeout: the run's time limit (--timeout) ended the search.
	LimitTimeout LimitKind = iota + 1
	// LimitMemory: the process outgrew the memory limit (--max-memory).
	LimitMemory
	// LimitStates: the explicit engine stored its most states
	// (--max-states).
	LimitStates
	// LimitSolver: a solver gave up while the run went on.
	LimitSolver
	// LimitDepth: an execution within the bounds makes a call beyond the
	// call depth (--depth).
	LimitDepth
	// LimitRecursion: a translation cut recursion at the call depth, so
	// that it says nothing of executions that go deeper, whether or not
	// any does.
	LimitRecursion
	// LimitThreads: an execution starts more threads than --max-threads.
	LimitThreads
	// LimitSteps: the bmc engine's step bound (--max-steps), not stated
	// by the user, cut executions short.
	LimitSteps
	// LimitProofBound: k-induction's largest k or PDR's most frames
	// (--max-k) came before a proof.
	LimitProofBound
	// LimitProved: not a limit but what was proved of the executions the
	// other limits leave: with a reachable limit, a proof engine's answer
	// for the rest.
	LimitProved
	// LimitStopped: the run stopped the engine, as another one had
	// answered.
	LimitStopped
	// LimitDeeper: the violation a summary engine found needs more
	// frames than the call depth the user stated (a shallower one may
	// exist).
	LimitDeeper
	// LimitLongerStem: the livelock an engine found needs a longer stem
	// than the one stated (a livelock within it may still exist).
	LimitLongerStem
	// LimitUnmatched: the violations the linear interfaces found start
	// threads more often, or in another order, than the program does
	// (the interfaces do not count starts).
	LimitUnmatched
	// LimitBeyondBound: the violation or fair cycle an engine of every
	// interleaving found may need more context switches or rounds than
	// the bound (one within it may still exist).
	LimitBeyondBound
	// LimitAbstraction: an over-approximation (the views of pairs of
	// threads) admits a violation it cannot confirm, or does not take
	// the program.
	LimitAbstraction
)

// limitRow is how a kind of limit is reported.
type limitRow struct {
	name       string // for JSON
	words      string // how the text report starts it
	incomplete bool   // the search said nothing about the bounds
	// advice says what would decide the question (check; prove words
	// its own where proveAdvice is set).
	advice, proveAdvice string
}

var limitTable = map[LimitKind]limitRow{
	LimitTimeout: {"timeout", "timeout", true, "a longer --timeout", "a longer --timeout, or another --method"},
	LimitMemory:  {"memory", "memory limit", true, "a larger --max-memory", ""},
	LimitStates:  {"states", "state limit", true, "a larger --max-states", ""},
	LimitSolver:  {"solver", "the solver gave up", true, "another --solver", ""},
	LimitDepth: {"depth", "depth bound reached", false, "a larger --depth (a program that recurses without bound needs a proof)",
		"a larger --depth (a program that recurses without bound cannot be proved within one)"},
	LimitRecursion: {"recursion", "depth bound reached", false,
		"a larger --depth, or --engine explicit with a larger --max-states or --timeout, which says whether the depth is ever exceeded", ""},
	LimitThreads:    {"threads", "thread bound reached", false, "a larger --max-threads", ""},
	LimitSteps:      {"steps", "step bound reached", false, "", ""}, // worded with the bound: Result.Advise
	LimitProofBound: {"proof-bound", "", true, "a larger --max-k, or another --method", ""},
	LimitProved:     {"proved", "", false, "", ""},
	LimitStopped:    {"stopped", "stopped", true, "", ""},
	LimitDeeper:     {"deeper", "violation deeper than the depth bound", true, "", ""},
	LimitLongerStem: {"longer-stem", "livelock with a longer stem", true, "--engine explicit (or the default plan), which searches within the stated stem", ""},
	LimitUnmatched: {"unmatched", "violations that start threads the program does not", true,
		"--engine coverability, or the default plan, which count the threads a program starts", ""},
	LimitBeyondBound: {"beyond-bound", "a violation or fair cycle beyond the bound", true,
		"--engine explicit (or the default plan), which searches within the bound", ""},
	LimitAbstraction: {"abstraction", "the abstraction does not decide it", true, "", "another --method, or the default plan"},
}

// Limit is one limit of a result: its kind and what the report says of it
// after the kind's words ("(call depth 16)", "at bound 12", "while
// encoding").
type Limit struct {
	Kind   LimitKind
	Detail string
}

// NewLimit is a limit of kind k with the detail given by format.
func NewLimit(k LimitKind, format string, args ...any) Limit {
	return Limit{Kind: k, Detail: fmt.Sprintf(format, args...)}
}

func (l Limit) String() string {
	words := limitTable[l.Kind].words
	switch {
	case words == "":
		return l.Detail
	case l.Detail == "":
		return words
	case strings.HasPrefix(l.Detail, ":") || strings.HasPrefix(l.Detail, ","):
		return words + l.Detail
	}
	return words + " " + l.Detail
}

// MarshalJSON writes a limit as its kind's name and its words.
func (l Limit) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	}{limitTable[l.Kind].name, l.String()})
}

// Incomplete reports whether a limit of kind k ends a search before it
// says anything about the bounds (a timeout, the memory or state limit,
// a solver or proof engine that stopped).
func (k LimitKind) Incomplete() bool { return limitTable[k].incomplete }

// Has reports whether r has a limit of kind k.
func (r *Result) Has(k LimitKind) bool {
	return slices.ContainsFunc(r.Limits, func(l Limit) bool { return l.Kind == k })
}

// LimitText is the result's limits in words, "; " apart.
func (r *Result) LimitText() string {
	var out []string
	for _, l := range r.Limits {
		out = append(out, l.String())
	}
	return strings.Join(out, "; ")
}

// Advise says what would decide a question that limits left open, a
// phrase per limit (prove: for bmc prove, whose advice differs where
// another --method may decide): for each limit, the option that moves
// it, and for the step bound of the bmc engine, the engine that needs
// none (within names the context bound of a concurrent program, "" for
// a sequential one).
func (r *Result) Advise(within string, prove bool) string {
	var out []string
	for _, l := range r.Limits {
		row := limitTable[l.Kind]
		a := row.advice
		if prove && row.proveAdvice != "" {
			a = row.proveAdvice
		}
		if l.Kind == LimitSteps {
			a = fmt.Sprintf("--max-steps N above %d searches longer executions (a bounded answer); --engine explicit explores every execution", r.Bound)
			if within != "" {
				a += " within " + within
			}
		}
		if a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return strings.Join(out, "; ")
}

// Stopped is the limit that ended ctx, for an engine that stopped with
// it: its deadline (a timeout), the memory limit, or a cancel by the run,
// which stops the engines that lost a race; detail follows the words
// ("at bound 3").
func Stopped(ctx context.Context, detail string) Limit {
	cause := context.Cause(ctx)
	var mem *halt.MemoryLimitError
	switch {
	case cause == nil || errors.Is(cause, context.DeadlineExceeded):
		return Limit{Kind: LimitTimeout, Detail: detail}
	case errors.As(cause, &mem):
		if detail != "" {
			detail = " " + detail
		}
		return NewLimit(LimitMemory, "(%s)%s", mem.Limit, detail)
	}
	if detail != "" {
		detail = " " + detail
	}
	return Limit{Kind: LimitStopped, Detail: "(" + cause.Error() + ")" + detail}
}
