package driver

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"bmc/cover"
	"bmc/method"
	"bmc/result"
)

// The plan as a table: for each question, its cases in order; the first
// case that holds for the program and the options gives the question's
// words and the methods that race, in the order they start, each with
// its head start and the measured reason for its place (the tables of
// docs/BENCHMARKS.md named in it). makePlan checks the options
// (checks.go) and fills the plan from here; TestPlansGolden prints
// every plan of a matrix of programs, questions and flags.

// planCase is one case of a question's plan.
type planCase struct {
	name     string             // what it is for, in a word or two
	when     func(t *task) bool // nil: always
	checks   []optionCheck      // refusals once the case is chosen
	question func(t *task) string
	rows     []planRow
	// pinned says the flags chose the case: a method that does not take
	// the program is refused with its reason, not left out.
	pinned bool
	// anyThreads: the case asks about every number of threads.
	anyThreads bool
	// progress, when not nil, is said as the case is chosen.
	progress func(t *task) string
}

// planRow is a method of a case: made for the task when its condition
// holds, left out (or refused: must) when it does not take the program.
type planRow struct {
	method   func(t *task) method.Method
	when     func(t *task) bool // nil: always
	after    time.Duration      // head start of the methods before it
	must     bool
	anyDepth bool // it answers at every call depth: depth-bound answers wait for it
	why      string
}

// Head starts.
const (
	// proofHeadStart is how long the exhaustive search of bmc prove runs
	// alone before the proof engines join it.
	proofHeadStart = 2 * time.Second
)

// planTables are the plan's cases, per question.
var planTables = map[method.Question][]planCase{
	method.Safety:   safetyTable,
	method.Proof:    proofTable,
	method.Livelock: livelockTable,
}

// safetyTable plans bmc check.
var safetyTable = []planCase{
	{name: "Getafix's switch points", when: func(t *task) bool { return t.o.Bounds.GetafixSwitches },
		checks: getafixChecks, question: violationWithin,
		rows: []planRow{
			{method: explicitMethod, when: func(t *task) bool { return t.pin.engine != method.EngineSummaries && t.pin.seq == "" },
				why: "one of the two engines that implement Getafix's switch points"},
			{method: productBDD(true), when: func(t *task) bool { return t.pin.engine != method.EngineExplicit },
				why: "the other: reachability over the threads' states side by side, as Getafix computes it"},
		}},
	{name: "every number of threads", when: everyThreads, checks: everyThreadsChecks, pinned: true, anyThreads: true,
		question: func(t *task) string { return violationWithin(t) + ", every number of threads" },
		rows:     everyThreadsRows},
	{name: "summaries, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineSummaries || t.pin.seq.Horn() },
		checks: summaryEncodingChecks, question: summariesQuestion, pinned: true,
		rows: summariesRows(nil, false)},
	{name: "counters, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineCounters },
		question: violationWithin, pinned: true, rows: []planRow{{method: countedMethod, must: true, why: "asked for"}}},
	{name: "one thread", when: func(t *task) bool { return t.sequential }, question: oneThreadQuestion,
		rows: append(summariesRows(recursiveFree, false), []planRow{
			{method: func(t *task) method.Method { return method.SequentialBMC(t.p, t.o) },
				when: func(t *task) bool { return t.pin.engine != method.EngineExplicit },
				why:  "decides loops exactly: unwound until no further iteration starts in a new state, raced with PDR on a borrowed core (BENCHMARKS.md, \"Bounded safety\")"},
			{method: explicitMethod, when: func(t *task) bool {
				return t.pin.engine == method.EngineExplicit || t.pin.engine == "" && !t.o.StepsStated
			}, why: "small programs before the others have encoded them; not with a stated step bound, which it does not read"},
		}...)},
	{name: "explicit, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineExplicit },
		question: violationWithin, rows: []planRow{{method: explicitMethod, why: "asked for"}}},
	{name: "bmc, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineBMC || t.pin.seq != "" },
		checks: bmcPinnedChecks, question: violationWithin, pinned: true,
		rows: []planRow{{method: func(t *task) method.Method { return method.ConcurrentBMC(t.p, t.o, bmcSeq(t)) },
			why: "asked for; without --seq, the interleaving product where threads loop or recurse (the answer rests on a proof, and PDR on dekker's eager program took about 130 s at 2 switches: BENCHMARKS.md, \"Bounded safety\"), else the eager sequentialization"}}},
	{name: "every interleaving", when: func(t *task) bool { return !t.bounded }, question: violationWithin,
		rows: append([]planRow{
			{method: explicitMethod, when: func(t *task) bool { return t.directErr != nil },
				why: "the only engine for a program the interleaving product does not take"},
		}, everyInterleavingRows...)},
	{name: "within a context bound", question: boundedQuestion,
		rows: append(summariesRows(recursiveFree, false), []planRow{
			{method: productBDD(false), when: func(t *task) bool { return diagramsAllowed(t) && t.productErr == nil && t.foldedSafe },
				why: "first where no violation is left in the control flow once the globals that keep one value are folded: the product's clauses then have no query (SafeStack's underapprox_safe at 4 rounds: 0.17 s, where the explicit search stops at its 5 million states after 17 s; BENCHMARKS.md, \"Twice the threads\")"},
			{method: func(t *task) method.Method { return method.EveryInterleaving(t.p, t.o, method.ProofViews) },
				when: func(t *task) bool { return diagramsAllowed(t) && t.ownWrites && t.baseErr == nil },
				why:  viewsWhy},
			{method: explicitMethod, why: "fastest on narrow programs (BENCHMARKS.md, \"Bounded safety\")"},
			countedRow,
			{method: func(t *task) method.Method { return method.EveryInterleaving(t.p, t.o, method.ProofReach) },
				when: func(t *task) bool { return reachFirst(t) && diagramsAllowed(t) },
				why:  "within rounds before the product where threads write globals of their own, should the views not decide: safe on every interleaving is safe within the bound (BENCHMARKS.md, \"Bounded safety\": the portfolio's Burns rows)"},
			{method: productBDD(false), when: func(t *task) bool { return diagramsAllowed(t) && !(t.productErr == nil && t.foldedSafe) },
				why: "the threads' states side by side on decision diagrams, as Getafix: decides what the sequentializations leave open (flags6 at 3 rounds: 0.40 s, the sequentializations undecided in 20 s; BENCHMARKS.md, \"Bounded safety\")"},
			{method: func(t *task) method.Method { return method.EveryInterleaving(t.p, t.o, method.ProofReach) },
				when: func(t *task) bool { return !reachFirst(t) && diagramsAllowed(t) },
				why:  "after the product, which decides the wide programs sooner (BENCHMARKS.md, \"Bounded safety\"; SafeStack's unsafe rows at 4 rounds, where reachability over every interleaving grows past 8 GB: BENCHMARKS.md, \"Twice the threads\")"},
			{method: bmcOn(method.SeqEager), why: "the sequentializations are fastest on wide unsafe programs (BENCHMARKS.md, \"Bounded safety\")"},
			{method: bmcOn(method.SeqLazy), why: "as eager, with only reachable states in each context"},
		}...)},
}

// everyInterleavingRows prove a concurrent program for every
// interleaving: bmc prove without a bound, and bmc check without one.
var everyInterleavingRows = []planRow{
	{method: exhaustiveMethod, when: func(t *task) bool { return raceEvery(t) && !t.counted },
		why: "alone for the head start: it answers most programs sooner, most within 2 s (BENCHMARKS.md, \"Proofs\")"},
	{method: countedMethod, when: func(t *task) bool { return raceEvery(t) && t.counted },
		why: "the exhaustive search over counted configurations, for the head start: instances of a group in the same state are counted, not told apart (BENCHMARKS.md, \"Twice the threads\")"},
	{method: viewsProduct, when: func(t *task) bool { return raceEvery(t) && t.baseErr == nil && t.ownWrites },
		why: viewsWhy},
	{method: reachProduct, when: func(t *task) bool { return raceEvery(t) && t.baseErr == nil },
		why: "proves the interleaving product of every example faster than PDR (BENCHMARKS.md, \"Proofs\")"},
	{method: func(t *task) method.Method { return method.ProveProduct(t.p, t.o) }, after: proofHeadStart, must: true,
		when: raceEvery,
		why:  "PDR on the interleaving product, once the exhaustive search has had its head start"},
	{method: func(t *task) method.Method { return method.ProveProduct(t.p, t.o) }, must: true,
		when: func(t *task) bool { return t.q == method.Proof && !t.race() }, why: "asked for"},
	{method: amplifyBDD, after: proofHeadStart, when: func(t *task) bool { return raceEvery(t) && t.baseErr == nil },
		why: "proves every number of rounds; re-checks beside its base case on a second core (BENCHMARKS.md, \"Proofs\")"},
}

// everyThreadsRows answer for every number of threads.
var everyThreadsRows = []planRow{
	{method: func(t *task) method.Method { return method.Interfaces(t.p, t.o) },
		when: func(t *task) bool { return t.pin.engine == method.EngineInterfaces }, why: "asked for"},
	{method: func(t *task) method.Method { return method.Coverability(t.p, t.o) },
		when: func(t *task) bool { return t.pin.engine == "" || t.pin.engine == method.EngineCoverability },
		why:  "decides every interleaving of every number of threads (BENCHMARKS.md, \"Any number of threads\")"},
	{method: func(t *task) method.Method { return method.ExplicitSomeThreads(t.p, t.o) },
		when: func(t *task) bool { return t.pin.engine == "" },
		why:  "a violation within --max-threads is one for some number of threads"},
	{method: func(t *task) method.Method { return method.Interfaces(t.p, t.o) },
		when: func(t *task) bool { return t.pin.engine == "" && (t.o.Bounds.Rounds > 0 || !t.bounded) },
		why:  "third: the explicit search within --max-threads usually ends soon, where the adequacy game may not"},
}

// proofTable plans bmc prove.
var proofTable = []planCase{
	{name: "summaries", when: summariesProof, checks: summaryEncodingChecks, pinned: true,
		question: func(t *task) string { return aProof(summariesQuestion(t)) },
		rows:     summariesRows(nil, false)},
	{name: "counters, asked for", when: func(t *task) bool { return t.pin.method == method.ProofCounters },
		question: func(t *task) string { return "a proof for executions of any length within " + t.o.Bounds.Words() },
		pinned:   true, rows: []planRow{{method: countedMethod, must: true, why: "asked for"}}},
	{name: "pairwise views, asked for", when: func(t *task) bool { return t.pin.method == method.ProofViews },
		checks: viewsChecks, pinned: true,
		question: func(t *task) string {
			if t.bounded {
				return "a proof for executions of any length within every interleaving, which covers " + t.o.Bounds.Words()
			}
			return "a proof for executions of any length within every interleaving"
		},
		rows: []planRow{{method: viewsProduct, must: true, why: "asked for"}}},
	{name: "K-induction with amplification, asked for", when: func(t *task) bool { return t.pin.method == method.ProofAmplify },
		checks: amplifyChecks, pinned: true,
		question: func(t *task) string {
			return fmt.Sprintf("a proof for every number of rounds (hence every interleaving), K-inductive for some K = 1..%d, or a violation within K rounds", maxRounds(t))
		},
		rows: []planRow{{method: amplifyBDD,
			why: "decision diagrams unless --solver names one: the candidate and run solvers (gini) raced beside them answered no row of BENCHMARKS.md (\"Proofs\") first"}}},
	{name: "every number of threads", when: func(t *task) bool {
		return t.race() && parameterized(t) && (t.o.Bounds.AnyThreads || t.coverErr == nil)
	}, checks: everyThreadsChecks, pinned: true, anyThreads: true,
		question: func(t *task) string { return aProof(violationWithin(t) + ", every number of threads") },
		rows:     everyThreadsRows},
	{name: "one thread", when: func(t *task) bool { return t.sequential },
		question: func(t *task) string {
			return joinWords("a proof for executions of any length", t.o.Bounds.DepthWords())
		},
		rows: append(append([]planRow{exhaustiveFirst}, summariesRows(summariesBeside, true)...),
			proofRows(func(t *task) method.Method { return method.ProveSequential(t.p, t.o) })...)},
	{name: "within a context bound", when: func(t *task) bool { return t.bounded },
		question: func(t *task) string { return "a proof for executions of any length within " + t.o.Bounds.Words() },
		rows: append(append([]planRow{exhaustiveFirst, countedRow,
			{method: viewsProduct, when: func(t *task) bool { return t.race() && t.baseErr == nil && t.ownWrites },
				why: viewsWhy + "; safe on every interleaving is safe within the bound"}},
			summariesRows(summariesBeside, true)...),
			proofRows(func(t *task) method.Method { return method.ProveBounded(t.p, t.o, proofSeq(t)) })...)},
	{name: "every interleaving",
		question: func(t *task) string { return "a proof for executions of any length within " + t.o.Bounds.Words() },
		rows:     everyInterleavingRows},
}

// exhaustiveFirst is the explicit search of bmc prove, first and alone
// for the head start.
var exhaustiveFirst = planRow{method: exhaustiveMethod, when: (*task).race,
	why: "alone for the head start: it answers most programs sooner, most within 2 s (BENCHMARKS.md, \"Proofs\")"}

// countedRow is the counter abstraction beside the explicit search of a
// program with a replicated thread group: safe on every interleaving is
// safe within any bound.
var countedRow = planRow{method: countedMethod, when: func(t *task) bool { return t.counted && t.race() },
	why: "every interleaving over counted configurations, for programs with instances of one thread: their number grows polynomially in the instances (BENCHMARKS.md, \"Twice the threads\")"}

// proofRows are the proof engine made by m: after the head start when
// the plan races, alone when a flag pinned it.
func proofRows(m func(t *task) method.Method) []planRow {
	return []planRow{
		{method: m, when: (*task).race, after: proofHeadStart, must: true, why: "--method auto: PDR, once the exhaustive search has had its head start"},
		{method: m, when: func(t *task) bool { return !t.race() }, must: true, why: "asked for"},
	}
}

// livelockTable plans bmc check --lasso.
var livelockTable = []planCase{
	{name: "summaries, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineSummaries },
		question: keyframesQuestion, rows: keyframesRows(nil)},
	{name: "explicit, asked for", when: func(t *task) bool { return t.pin.engine == method.EngineExplicit },
		question: livelockQuestion, rows: []planRow{{method: lassoExplicit, why: "asked for"}}},
	{name: "the interleaving product, asked for", when: func(t *task) bool { return t.pin.seq == method.SeqDirect },
		question: livelockQuestion, rows: []planRow{{method: directLasso, why: "asked for"}}},
	{name: "not translated", when: func(t *task) bool { return t.lassoErr != nil },
		checks: lassoRefusedChecks, question: livelockQuestion,
		progress: func(t *task) string {
			return fmt.Sprintf("%v; deciding the lasso on the interleaving product instead", t.lassoErr)
		},
		rows: []planRow{
			{method: lassoExplicit, when: func(t *task) bool { return t.pin.engine == "" }, why: "small programs first"},
			{method: directLasso, why: "the lasso on the interleaving product takes what the translation does not"},
		}},
	{name: "the translation, asked for", when: func(t *task) bool { return !t.free() }, question: livelockQuestion,
		rows: []planRow{{method: func(t *task) method.Method { return method.LassoTranslation(t.p, t.o, t.lb, true) }, why: "asked for"}}},
	{name: "the race", question: func(t *task) string {
		if t.recursive {
			return keyframesQuestion(t)
		}
		return livelockQuestion(t)
	}, rows: append(append([]planRow{
		{method: lassoExplicit, when: explicitLassoFirst,
			why: "decides small programs before the others have translated them (BENCHMARKS.md, \"Livelocks\")"},
		{method: directLasso, when: func(t *task) bool { return t.lb.Fairness == result.NoFairness },
			why: "without fairness the lasso on the interleaving product finds a livelock sooner than the translation"},
		{method: func(t *task) method.Method { return method.FairCycles(t.p, t.o, t.lb) }, when: fairnessAsked,
			why: "no fair cycle on any interleaving is no livelock within any bound: it proves that where the searches within the bound do not end (ordered philosophers from N = 6 at --lasso 2,2)"},
	}, keyframesRows(func(t *task) bool { return t.recursive })...),
		planRow{method: func(t *task) method.Method { return method.LassoTranslation(t.p, t.o, t.lb, false) },
			why: "MUTANT's translation, shorter lassos first: its unwinding answered every livelock test first within 3 s, PDR joins it after 2 s and proves the absence where the others run out of time"},
		planRow{method: func(t *task) method.Method { return method.FairCycles(t.p, t.o, t.lb) }, when: func(t *task) bool { return !fairnessAsked(t) },
			why: "without fairness after the translation: a cycle of any kind is no livelock's proof, only its absence is"},
		planRow{method: lassoExplicit, when: func(t *task) bool { return !explicitLassoFirst(t) },
			why: "after the fair cycles or the product's lasso and the translation, which decide the philosophers from N = 4 on where it runs out of states (BENCHMARKS.md, \"Twice the threads\")"})},
}

// explicitLassoFirst says whether the explicit livelock search leads the
// race: on recursive programs, and on two threads, whose lassos it
// decides before the others have translated them (the portfolio's
// philosophers at N = 2: 0.01 to 0.03 s; ordered without fairness,
// behind the translation, 0.55 s); elsewhere the fair cycles (the
// absence, under fairness) or the lasso on the interleaving product
// (without) and the translation, which tries shorter lassos first,
// start first (phil3: the translation 0.04 s, the explicit search 0.25
// s; BENCHMARKS.md, "Twice the threads").
func explicitLassoFirst(t *task) bool {
	n, err := t.p.Instances()
	return t.recursive || err == nil && n <= 2
}

// fairnessAsked says that the livelock must be weakly or strongly fair.
func fairnessAsked(t *task) bool { return t.lb.Fairness != result.NoFairness }

// keyframesRows are the keyframe translation decided by the summary
// engine, both pure-Go solvers unless one is named, Spacer first: it
// proves the absence where the diagrams grow (dive_stopped at 2,2:
// 0.8 s against 6.2 s), the diagrams find deep livelocks sooner
// (keyframe_deep_stem at 1,1: 0.3 s against 31 s).
func keyframesRows(when func(t *task) bool) []planRow {
	return []planRow{
		{method: func(t *task) method.Method { return method.Keyframes(t.p, t.o, t.lb) }, when: when,
			why: "no livelock at any call depth: the keyframe translation's summaries (BENCHMARKS.md, \"Livelocks\")"},
		{method: func(t *task) method.Method {
			o := t.o
			o.Solver = method.SolverBDD
			return method.Keyframes(t.p, o, t.lb)
		},
			when: func(t *task) bool {
				return (when == nil || when(t)) && t.o.Solver == method.SolverGini && !t.o.SolverStated
			},
			why: "decision diagrams beside Spacer: they find deep livelocks sooner"},
	}
}

// summariesRows are the summary engine with the run's solver and, unless
// one is named, decision diagrams beside it: Spacer's lemmas win where
// few cubes separate the reachable atoms, decision diagrams where the
// relations are large but regular. Not on the eager or lazy program,
// whose guessed copies make the diagrams large.
func summariesRows(when func(t *task) bool, must bool) []planRow {
	both := func(t *task) bool {
		s := summarySeq(t)
		return (when == nil || when(t)) && t.o.Solver == method.SolverGini && !t.o.SolverStated && (s == "" || s.Horn())
	}
	return []planRow{
		{method: func(t *task) method.Method { return method.Summaries(t.p, t.o, summarySeq(t)) }, when: when, must: must, anyDepth: true,
			why: "decides a recursive program at every call depth, where the others search within one (BENCHMARKS.md, \"Recursion\")"},
		{method: func(t *task) method.Method {
			o := t.o
			o.Solver = method.SolverBDD
			return method.Summaries(t.p, o, summarySeq(t))
		},
			when: both, must: must, anyDepth: true,
			why: "decision diagrams beside Spacer: they win where the relations are large but regular (BENCHMARKS.md, \"Recursion\")"},
	}
}

// The methods of several rows.
var (
	explicitMethod   = func(t *task) method.Method { return method.Explicit(t.p, t.o) }
	exhaustiveMethod = func(t *task) method.Method { return method.Exhaustive(t.p, t.o) }
	countedMethod    = func(t *task) method.Method { return method.Counted(t.p, t.o) }
	lassoExplicit    = func(t *task) method.Method { return method.LassoExplicit(t.p, t.o, t.lb) }
	directLasso      = func(t *task) method.Method { return method.DirectLasso(t.p, t.o, t.lb) }
)

// reachProduct is forward reachability on decision diagrams over the
// interleaving product.
func reachProduct(t *task) method.Method {
	o := t.o
	o.Proof.Method = method.ProofReach
	return method.ProveProduct(t.p, o)
}

// viewsProduct is the views of each pair of threads of the
// interleaving product.
func viewsProduct(t *task) method.Method {
	o := t.o
	o.Proof.Method = method.ProofViews
	return method.ProveProduct(t.p, o)
}

// viewsWhy is the place of the pairwise views in the plans.
const viewsWhy = "first where each of three threads or more writes globals of its own: the views of each pair of threads grow polynomially in the threads, the reachable states exponentially (Burns' mutual exclusion with 10 threads: 2.5 s, where reachability takes more than 60 s; BENCHMARKS.md, \"Twice the threads\")"

// bmcOn is BMC on the sequentialization s.
func bmcOn(s method.Seq) func(t *task) method.Method {
	return func(t *task) method.Method { return method.ConcurrentBMC(t.p, t.o, s) }
}

// productBDD is the summary engine's product encoding on decision
// diagrams, or (stated: where the user may name it) on the solver named.
func productBDD(stated bool) func(t *task) method.Method {
	return func(t *task) method.Method {
		o := t.o
		if !stated || !o.SolverStated {
			o.Solver = method.SolverBDD
		}
		return method.Summaries(t.p, o, method.SeqProduct)
	}
}

// amplifyBDD is K-induction with amplification, the paper's way (on
// decision diagrams) unless bmc prove --method amplify names a solver.
func amplifyBDD(t *task) method.Method {
	o := t.o
	if !o.SolverStated || t.pin.method != method.ProofAmplify {
		o.Solver = method.SolverBDD
	}
	return method.Amplify(t.p, o)
}

// maxRounds bounds K of K-induction with amplification.
func maxRounds(t *task) int {
	if t.o.Proof.MaxRounds > 0 {
		return t.o.Proof.MaxRounds
	}
	return method.DefaultMaxRounds
}

// reachFirst says that reachability over every interleaving starts
// before the product within a context bound: within rounds, where
// threads write globals of their own (Burns' protocol, when the views
// do not decide it).
func reachFirst(t *task) bool { return t.o.Bounds.Rounds > 0 && t.ownWrites }

// diagramsAllowed says whether the decision-diagram engines may join a
// bounded check: no solver named, no step bound stated (they have none).
func diagramsAllowed(t *task) bool { return !t.o.SolverStated && !t.o.StepsStated }

// raceEvery says whether every interleaving is asked by a race: bmc
// check without a bound on a program the interleaving product takes (it
// refuses the others, which the explicit search alone answers), or bmc
// prove with no engine pinned.
func raceEvery(t *task) bool {
	if t.q == method.Safety {
		return t.directErr == nil
	}
	return t.race()
}

// recursiveFree: a recursive program, and no flag pins the engine.
func recursiveFree(t *task) bool { return t.free() && t.recursive }

// summariesProof says whether bmc prove asks the summaries alone: by
// --method summaries or a summary encoding, or for a recursive program
// with a certificate, which the engines within a depth could not give
// for every depth.
func summariesProof(t *task) bool {
	return t.pin.method == method.ProofSummaries || t.pin.seq.Horn() || summariesBeside(t) && t.o.Proof.Certificate != nil
}

// summariesBeside says whether bmc prove races the summaries with its
// other engines: a recursive program, one thread or within a bound.
func summariesBeside(t *task) bool {
	return t.pin.method == "" && t.pin.seq != method.SeqDirect && t.recursive && (t.sequential || t.bounded)
}

// summarySeq is the summary engine's encoding: none for one thread,
// else --seq's or the context encoding (BENCHMARKS.md, "Recursion": up
// to 20 times faster than the eager program's clauses).
func summarySeq(t *task) method.Seq {
	switch {
	case t.sequential:
		return ""
	case t.pin.seq != "":
		return t.pin.seq
	}
	return method.SummarySeq
}

// bmcSeq is what the bmc engine runs on for a concurrent program: --seq,
// or the interleaving product where the threads loop or recurse (the
// answer then rests on a proof, and PDR proves the product far faster
// than the eager program), else the eager sequentialization.
func bmcSeq(t *task) method.Seq {
	switch {
	case t.pin.seq != "":
		return t.pin.seq
	case !t.o.StepsStated && method.Loops(t.p) && t.directErr == nil:
		return method.SeqDirect
	}
	return method.SeqEager
}

// proofSeq is what bmc prove runs on within a bound: --seq, or the
// interleaving product where it takes the program (PDR on dekker's
// eager program took about 130 s at 2 switches: BENCHMARKS.md,
// "Bounded safety").
func proofSeq(t *task) method.Seq {
	switch {
	case t.pin.seq != "":
		return t.pin.seq
	case t.directErr == nil:
		return method.SeqDirect
	}
	return method.SeqEager
}

// parameterized says whether the question is about every number of
// threads: the user asked (--max-threads '*'), or the program can start
// unboundedly many and the user stated no thread bound and pinned no
// engine that needs one.
func parameterized(t *task) bool {
	return t.o.Bounds.AnyThreads || !t.o.ThreadsStated && t.free() && t.threadsUnbounded
}

// everyThreads says whether bmc check asks about every number of
// threads: a parameterized program that coverability takes, or the
// engines of that question asked for.
func everyThreads(t *task) bool {
	pinned := t.pin.engine == method.EngineCoverability || t.pin.engine == method.EngineInterfaces
	return pinned || parameterized(t) && (t.coverErr == nil || t.o.Bounds.AnyThreads)
}

// note is said with an open answer of bmc check on a parameterized
// program that coverability does not take: why the answer is not for
// every number of threads.
func (t *task) note() string {
	var un *cover.Unsupported
	if t.q != method.Safety || t.o.Bounds.GetafixSwitches || everyThreads(t) || !parameterized(t) || !errors.As(t.coverErr, &un) {
		return ""
	}
	return fmt.Sprintf("coverability, which asks about every number of threads, does not take this program (%s)", method.Placed(t.p, t.coverErr))
}

// The questions' words.

func violationWithin(t *task) string { return "a violation within " + t.o.Bounds.Words() }

func aProof(question string) string {
	return strings.Replace(question, "a violation", "a proof, or a violation,", 1)
}

func joinWords(first string, more ...string) string {
	for _, m := range more {
		if m != "" {
			first += ", " + m
		}
	}
	return first
}

// summariesQuestion is the question at any call depth: within a stated
// one, safe at any depth if so.
func summariesQuestion(t *task) string {
	if t.o.DepthStated {
		within := t.o.Bounds.Words()
		if t.sequential {
			within = t.o.Bounds.DepthWords() // one thread: no interleaving to name
		}
		return "a violation within " + within + " (safe at any call depth, if so)"
	}
	if t.sequential {
		return "a violation at any call depth"
	}
	return fmt.Sprintf("a violation within %s, any call depth", t.bd)
}

// oneThreadQuestion is bmc check's on one thread: within the call depth
// and the step bound where they bound it.
func oneThreadQuestion(t *task) string {
	if recursiveFree(t) {
		return summariesQuestion(t)
	}
	var within []string
	if d := t.o.Bounds.DepthWords(); d != "" {
		within = append(within, d)
	}
	if t.o.StepsStated {
		within = append(within, fmt.Sprintf("%d steps", t.o.MaxSteps))
	}
	if len(within) == 0 {
		return "a violation"
	}
	return "a violation within " + strings.Join(within, " and ")
}

func boundedQuestion(t *task) string {
	if recursiveFree(t) {
		return summariesQuestion(t)
	}
	return violationWithin(t)
}

func livelockQuestion(t *task) string {
	return joinWords("a livelock within "+t.lb.String(), t.o.Bounds.DepthWords())
}

// keyframesQuestion: the keyframe translation's summaries answer at
// every call depth unless the user stated one.
func keyframesQuestion(t *task) string {
	if !t.o.DepthStated {
		return fmt.Sprintf("a livelock within %s, any call depth", t.lb)
	}
	return fmt.Sprintf("a livelock within %s, %s (none at any call depth, if so)", t.lb, t.o.Bounds.DepthWords())
}
