package driver

import (
	"fmt"
	"slices"

	"bmc/method"
	"bmc/result"
)

// optionCheck refuses options that do not go together in a question, or
// that the program does not take: when holds, the run is refused with
// the usage error msg. The command line refuses the pairs of flags
// that never go together (Aparts); these depend on the question, the
// program or a value.
type optionCheck struct {
	questions []method.Question // nil: every question
	when      func(t *task) bool
	msg       func(t *task) string
}

// checkOptions refuses t by the first check of checks that holds.
func checkOptions(t *task, checks []optionCheck) error {
	for _, c := range checks {
		if (c.questions == nil || slices.Contains(c.questions, t.q)) && c.when(t) {
			return &result.UsageError{Msg: c.msg(t)}
		}
	}
	return nil
}

// says is a check's message that does not depend on the task.
func says(msg string) func(*task) string { return func(*task) string { return msg } }

var (
	safety   = []method.Question{method.Safety}
	proof    = []method.Question{method.Proof}
	livelock = []method.Question{method.Livelock}
)

// optionChecks are checked before a plan is chosen, in order.
var optionChecks = []optionCheck{
	{safety, func(t *task) bool { return t.o.Bounds.Rounds > method.MaxRounds },
		func(t *task) string {
			return fmt.Sprintf("-k must be at most %d, got %d", method.MaxRounds, t.o.Bounds.Rounds)
		}},
	{safety, func(t *task) bool { return t.o.Bounds.Switches > method.MaxSwitches },
		func(t *task) string {
			return fmt.Sprintf("--switches must be at most %d, got %d", method.MaxSwitches, t.o.Bounds.Switches)
		}},
	{livelock, func(t *task) bool { return t.lb.Stem < 0 || t.lb.Loop < 1 },
		func(t *task) string {
			return fmt.Sprintf("--lasso needs a stem of at least 0 rounds and a loop of at least 1, got %d,%d", t.lb.Stem, t.lb.Loop)
		}},
	{livelock, func(t *task) bool { return t.lb.Stem+t.lb.Loop > method.MaxLassoRounds },
		func(t *task) string {
			return fmt.Sprintf("--lasso: stem and loop must be at most %d rounds together, got %d", method.MaxLassoRounds, t.lb.Stem+t.lb.Loop)
		}},
	{livelock, func(t *task) bool {
		return t.pin.seq != "" && t.pin.seq != method.SeqEager && t.pin.seq != method.SeqDirect
	}, func(t *task) string {
		return fmt.Sprintf("--lasso takes its own translation or the direct product; --seq %s does not apply", t.pin.seq)
	}},
	{[]method.Question{method.Safety, method.Livelock}, func(t *task) bool { return t.pin.engine == method.EngineExplicit && t.pin.seq != "" },
		func(t *task) string {
			return fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", t.pin.seq)
		}},
	{livelock, func(t *task) bool {
		return t.pin.engine == method.EngineCoverability || t.pin.engine == method.EngineInterfaces || t.pin.engine == method.EngineCounters
	}, func(t *task) string {
		return fmt.Sprintf("--lasso: --engine %s answers safety questions only; livelocks are for --engine explicit, bmc or summaries", t.pin.engine)
	}},
	{livelock, func(t *task) bool { return t.instancesErr != nil },
		func(t *task) string { return fmt.Sprintf("--lasso: %v", t.instancesErr) }},
	{livelock, func(t *task) bool {
		return t.pin.engine == method.EngineSummaries && t.pin.seq != "" && t.pin.seq != method.SeqEager
	}, func(t *task) string {
		return fmt.Sprintf("--lasso: the summary engine decides the lasso translation with keyframes (--seq eager), not --seq %s", t.pin.seq)
	}},
	{proof, func(t *task) bool {
		return t.o.Bounds.AnyThreads && !t.race() && !summariesProof(t) && t.pin.method != method.ProofAmplify
	},
		says("--max-threads '*' asks about every number of threads, which bmc prove answers without --method, --seq and --certificate (by coverability and the linear interfaces)")},
}

// getafixFlag names Getafix's switch points in errors.
const getafixFlag = "--switch-points getafix"

// getafixChecks: Getafix's narrower question goes with the engines that
// implement its switch points, within a context bound.
var getafixChecks = []optionCheck{
	{nil, func(t *task) bool { return !t.bounded }, says(getafixFlag + " needs a context bound: -k K or --switches N")},
	{nil, func(t *task) bool {
		return t.pin.engine == method.EngineBMC || t.pin.seq != "" && t.pin.seq != method.SeqProduct
	}, func(t *task) string {
		return getafixFlag + " goes with the explicit engine and the summary engine's product encoding (--seq product), not " + pinnedBy(t.pin)
	}},
	{nil, func(t *task) bool { return t.o.StepsStated }, says(getafixFlag + " does not go with --max-steps: its engines have no step bound")},
	{nil, func(t *task) bool { return t.productErr != nil }, func(t *task) string {
		return fmt.Sprintf("%s takes what Getafix's cross-product formulas take, and %v", getafixFlag, t.productErr)
	}},
}

// pinnedBy is the flag that pins the engine of bmc check (--engine, or
// --seq, which selects the bmc or the summary engine).
func pinnedBy(pin pins) string {
	switch {
	case pin.engine != "":
		return "--engine " + string(pin.engine)
	case pin.seq.Horn():
		return "--seq " + string(pin.seq) + ", which selects the summary engine"
	}
	return fmt.Sprintf("--seq %s, which selects the bmc engine", pin.seq)
}

// everyThreadsChecks: every number of threads is answered by
// coverability and the linear interfaces only.
var everyThreadsChecks = []optionCheck{
	{nil, func(t *task) bool {
		other := t.pin.engine != "" && t.pin.engine != method.EngineCoverability && t.pin.engine != method.EngineInterfaces
		return t.o.Bounds.AnyThreads && (t.pin.seq != "" || other)
	}, says("--max-threads '*' asks about every number of threads, which only --engine coverability and --engine interfaces answer")},
	{nil, func(t *task) bool { return t.pin.engine == "" && t.o.Bounds.AnyThreads && t.coverErr != nil },
		func(t *task) string {
			return fmt.Sprintf("--max-threads '*' needs coverability, which does not take this program: %v", t.coverErr)
		}},
}

// summaryEncodingChecks: --seq contexts and product are the summary
// engine's.
var summaryEncodingChecks = []optionCheck{
	{safety, func(t *task) bool {
		return t.pin.seq.Horn() && t.pin.engine != "" && t.pin.engine != method.EngineSummaries
	}, func(t *task) string {
		return fmt.Sprintf("--seq %s is the summary engine's encoding, not the %s engine's", t.pin.seq, t.pin.engine)
	}},
	{proof, func(t *task) bool {
		return t.pin.seq.Horn() && t.pin.method != "" && t.pin.method != method.ProofSummaries
	}, func(t *task) string {
		return fmt.Sprintf("--seq %s is the summary engine's encoding (--method summaries), not %s's", t.pin.seq, t.pin.method)
	}},
}

// bmcPinnedChecks: the thread bound is read by the interleaving
// product only.
var bmcPinnedChecks = []optionCheck{
	{nil, func(t *task) bool { return t.o.ThreadsStated && bmcSeq(t) != method.SeqDirect }, func(t *task) string {
		return fmt.Sprintf("--max-threads does not go with --engine bmc here: for this program it runs BMC on the %s sequentialization, and the eager and lazy sequentializations take no program that starts threads", bmcSeq(t))
	}},
}

// amplifyChecks: K-induction with amplification proves a concurrent
// program for every number of rounds: no bound, no certificate, no
// sequentialization applies.
var amplifyChecks = []optionCheck{
	{nil, func(t *task) bool { return t.sequential }, says("--method amplify proves concurrent programs; this one has one thread (use --method auto)")},
	{nil, func(t *task) bool { return t.bounded }, says("--method amplify proves the program for every number of rounds: drop -k/--switches")},
	{nil, func(t *task) bool { return t.o.Proof.Certificate != nil }, says("--certificate asks for PDR's invariant; --method amplify gives none")},
	{nil, func(t *task) bool { return t.pin.seq != "" }, says("--method amplify builds its own translation: drop --seq")},
}

// viewsChecks: the pairwise views prove a concurrent program on the
// interleaving product.
var viewsChecks = []optionCheck{
	{nil, func(t *task) bool { return t.sequential }, says("--method views proves concurrent programs; this one has one thread (use --method auto)")},
	{nil, func(t *task) bool { return t.pin.seq != "" && t.pin.seq != method.SeqDirect }, says("--method views runs on the interleaving product: drop --seq")},
}

// lassoRefusedChecks: the lasso translation, asked for by name, refuses
// what it does not translate.
var lassoRefusedChecks = []optionCheck{
	{nil, func(t *task) bool { return t.pin.seq == method.SeqEager }, func(t *task) string {
		return fmt.Sprintf("--lasso: %v; use --seq direct or --engine explicit", t.lassoErr)
	}},
}
