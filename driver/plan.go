package driver

import (
	"bmc/cover"
	"bmc/method"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"bmc/encode"
	"bmc/fairness"
	"bmc/ir"
	"bmc/result"
)

// Plan is what a run does, made in one place (makePlan) from the
// program and the options: the candidates that may answer the question,
// raced on the machine's cores (Plan.run). The options pin parts of it:
// --engine and --seq (check), --method and --certificate (prove).
type Plan struct {
	// Question says what is asked, within which bounds, for --verbose.
	Question string
	Cores    int
	// Candidates in the order they start in: each once the head start
	// After has passed and a core is free.
	Candidates []Candidate
	// command runs the candidates as processes (method.Options.Command).
	command []string
	// anyThreads says a candidate answers for every number of threads
	// (coverability): an answer cut by the thread bound does not end
	// the race.
	anyThreads bool
	// note is said with an open answer: why the plan could not ask the
	// question it would have asked.
	note string
}

// Candidate is a method of the plan, with its place in the race.
type Candidate struct {
	method.Method
	After time.Duration // its head start: how long the ones before it run alone
}

// WriteTo prints the plan for --verbose.
func (pl *Plan) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "plan: %s, on %s", pl.Question, result.Plural(pl.Cores, "core"))
	if len(pl.Candidates) > 1 {
		b.WriteString("; the candidates race, and the first decisive answer wins")
		if pl.processes() {
			b.WriteString(" (each in a process of its own, on a core of its own)")
		}
	}
	b.WriteString(":\n")
	for i, c := range pl.Candidates {
		fmt.Fprintf(&b, "  %d. %s (%s", i+1, c.Name, result.Plural(1, "core"))
		switch {
		case c.Cores > 1 && pl.processes():
			fmt.Fprintf(&b, ", and %d more for its own race when another candidate ends", c.Cores-1)
		case c.Cores > 1:
			fmt.Fprintf(&b, ", and %d more for its own race while no candidate waits", c.Cores-1)
		}
		if c.After > 0 {
			fmt.Fprintf(&b, "; starts after %s", c.After)
		}
		b.WriteString(")\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// question is what a run asks.
type question int

const (
	safety   question = iota // bmc check: a violation within the bounds?
	proof                    // bmc prove: a violation on executions of any length?
	livelock                 // bmc check --lasso: a fair lasso within lb?
)

// pins are the parts of the plan the options fix; "" leaves a part to
// the plan.
type pins struct {
	engine method.Engine
	seq    method.Seq
	method method.ProofMethod
}

func pinsOf(o method.Options) pins { return pins{o.Engine, o.Seq, o.Proof.Method} }

// pinnedBy is the flag that pins the engine of bmc check (--engine, or
// --seq, which selects the bmc or the summary engine); "" when the plan
// chooses by the program.
func pinnedBy(pin pins) string {
	switch {
	case pin.engine != "":
		return "--engine " + string(pin.engine)
	case pin.seq.Horn():
		return "--seq " + string(pin.seq) + ", which selects the summary engine"
	case pin.seq != "":
		return fmt.Sprintf("--seq %s, which selects the bmc engine", pin.seq)
	}
	return ""
}

// makePlan makes the plan for question q on p, with lb the livelock
// bound. Errors are *UsageError for options that do not fit the program.
func makePlan(ctx context.Context, p *ir.Program, o method.Options, q question, lb result.LassoBound) (*Plan, error) {
	if err := complete(&o, q != proof); err != nil {
		return nil, err
	}
	if err := method.SolverAvailable(o.Solver); err != nil {
		return nil, err
	}
	o.Bounds = boundsFor(p, o)
	pin := pinsOf(o)
	if o.Solver == method.SolverBDD {
		// Decision diagrams decide summaries only: the solver pins the
		// summary engine.
		switch {
		case q == proof && pin.method == method.ProofAmplify:
		case q == proof && pin.method == method.ProofReach:
			// Reachability runs on diagrams of its own whatever the
			// solver; the engines around it take the default one.
			o.Solver = method.SolverGini
		case q != proof && pin.engine != "" && pin.engine != method.EngineSummaries,
			q == proof && pin.method != "" && pin.method != method.ProofSummaries, pin.seq == method.SeqDirect,
			q == livelock && pin.seq != "":
			return nil, &result.UsageError{Msg: method.BDDOnly}
		case q != proof:
			pin.engine = method.EngineSummaries
		case pin.method != method.ProofAmplify && pin.method != method.ProofReach:
			pin.method = method.ProofSummaries
		}
	}
	pl := &Plan{Cores: o.Cores}
	if candidateProcesses && o.Proof.Certificate == nil {
		// A certificate is the invariant of the proof that wins: only a
		// candidate in this process can hand it over.
		pl.command = o.Command
	}
	if pl.Cores <= 0 {
		pl.Cores = runtime.NumCPU()
	}
	var err error
	switch q {
	case safety:
		err = pl.safety(ctx, p, o, pin)
	case proof:
		err = pl.proof(ctx, p, o, pin)
	default:
		err = pl.livelock(p, o, pin, lb)
	}
	if err != nil {
		return nil, err
	}
	return pl, nil
}

// boundsFor is o's bounds with the call depth the question has: the
// depth the user stated; without one, a program without recursion is
// searched at the depth of its deepest stack, where nothing is cut (a
// chain of calls 3,000 deep is searched whole), and a recursive one at
// the default depth, which its answers name.
func boundsFor(p *ir.Program, o method.Options) method.Bounds {
	b := o.Bounds
	deepest := p.Deepest()
	if !o.DepthStated && deepest > 0 {
		b.Depth = deepest
	}
	b.DepthBound = o.DepthStated || deepest < 0
	return b
}

// wordDepth words the call depth of res as the question has it: a
// violation names the depth only where the user stated one (it fits in
// that many frames; otherwise it is a violation at whatever depth its
// trace has); other answers name it where it bounds the question
// (Bounds.DepthBound); "any call depth" only where the program
// recurses.
func wordDepth(res *result.Result, p *ir.Program, o method.Options) {
	b := boundsFor(p, o)
	switch {
	case res.Verdict == result.Unsafe && o.DepthStated:
		res.AnyDepth, res.Depth = false, b.Depth
	case res.Verdict == result.Unsafe, !b.DepthBound:
		res.AnyDepth, res.Depth = false, 0
	}
	if !p.Recursive() {
		res.AnyDepth = false
	}
}

// add appends a method that starts as soon as a core is free.
func (pl *Plan) add(m method.Method) {
	pl.Candidates = append(pl.Candidates, Candidate{Method: m})
}

// safety plans bmc check. A one-thread program goes to BMC, which
// decides loops exactly (unwinding raced with PDR), and to the explicit
// engine beside it unless the user stated the step bound (which is then
// part of the question, and the explicit engine has none). A concurrent
// program goes to the explicit engine and to BMC on the
// sequentializations (docs/BENCHMARKS.md, "Portfolio": the explicit
// engine is fastest on narrow programs, the eager and lazy
// sequentializations on wide unsafe ones); without a bound, to the
// explicit engine and PDR on the interleaving product.
func (pl *Plan) safety(ctx context.Context, p *ir.Program, o method.Options, pin pins) error {
	b := o.Bounds
	switch {
	case b.Rounds > method.MaxRounds:
		return &result.UsageError{Msg: fmt.Sprintf("-k must be at most %d, got %d", method.MaxRounds, b.Rounds)}
	case b.Switches > method.MaxSwitches:
		return &result.UsageError{Msg: fmt.Sprintf("--switches must be at most %d, got %d", method.MaxSwitches, b.Switches)}
	case pin.engine == method.EngineExplicit && pin.seq != "":
		return &result.UsageError{Msg: fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", o.Seq)}
	}
	bd, bounded := b.Context()
	pl.Question = "a violation within " + b.Words()
	if b.GetafixSwitches {
		return pl.getafix(p, o, pin, bounded)
	}
	if parameterized(p, o, pin) || pin.engine == method.EngineCoverability || pin.engine == method.EngineInterfaces {
		if err := pl.parameterizedSafety(p, o, pin); err != nil || len(pl.Candidates) > 0 {
			return err
		}
	}
	explicitCandidate := func() { pl.add(method.Explicit(p, o)) }
	sequential := encode.Supported(p, encode.KindSequential, b.Depth) == nil
	// The summary engine decides a recursive program at every call
	// depth, where the others search within one: it comes first, and
	// their depth-bound answers do not end the race.
	if pin.seq.Horn() && pin.engine != "" && pin.engine != method.EngineSummaries {
		return &result.UsageError{Msg: fmt.Sprintf("--seq %s is the summary engine's encoding, not the %s engine's", pin.seq, pin.engine)}
	}
	if err := pl.summaries(p, o, pin, sequential, bounded); err != nil || pin.engine == method.EngineSummaries || pin.seq.Horn() {
		return err
	}
	if sequential {
		var within []string
		if d := b.DepthWords(); d != "" {
			within = append(within, d)
		}
		if o.StepsStated {
			within = append(within, fmt.Sprintf("%d steps", o.MaxSteps))
		}
		if len(pl.Candidates) == 0 { // the summaries' question is at any call depth
			pl.Question = "a violation"
			if len(within) > 0 {
				pl.Question += " within " + strings.Join(within, " and ")
			}
		}
		if pin.engine != method.EngineExplicit {
			pl.add(method.SequentialBMC(p, o))
		}
		if pin.engine == method.EngineExplicit || pin.engine == "" && !o.StepsStated {
			explicitCandidate()
		}
		return nil
	}
	if pin.engine == method.EngineExplicit {
		explicitCandidate()
		return nil
	}
	if pin.engine == method.EngineBMC || pin.seq != "" {
		if !bounded {
			return &result.UsageError{Msg: "the bmc engine needs a bound for a concurrent program: -k K or --switches N"}
		}
		seq := pin.seq
		if seq == "" {
			// Where the threads loop or recurse, the answer rests on a
			// proof (unless the user stated the step bound), and PDR
			// proves the interleaving product far faster than the eager
			// program: dekker.bpl at 2 switches in 6 s against 285 s.
			seq = method.SeqEager
			if !o.StepsStated && method.Loops(p) && encode.Supported(p, encode.KindDirect, b.Depth) == nil {
				seq = method.SeqDirect
			}
		}
		if err := method.ConcurrentFits(ctx, p, seq, bd, b.Depth); err != nil {
			return &result.UsageError{Msg: err.Error()}
		}
		if o.ThreadsStated && seq != method.SeqDirect {
			return &result.UsageError{Msg: fmt.Sprintf("--max-threads does not go with --engine bmc here: for this program it runs BMC on the %s sequentialization, and the eager and lazy sequentializations take no program that starts threads", seq)}
		}
		pl.add(method.ConcurrentBMC(p, o, seq))
		return nil
	}
	if !bounded {
		// Every interleaving is the question bmc prove asks without a
		// bound: one plan answers both (the exhaustive search,
		// reachability on decision diagrams, PDR on the interleaving
		// product and K-induction with amplification).
		if encode.Supported(p, encode.KindDirect, b.Depth) != nil {
			explicitCandidate()
			return nil
		}
		question := pl.Question
		err := pl.proof(ctx, p, o, pins{})
		pl.Question = question
		return err
	}
	explicitCandidate()
	every := func() {
		if !o.SolverStated && !o.StepsStated && encode.BaseSupported(p) == nil {
			// Every interleaving on decision diagrams: a program safe on
			// all of them is safe within the bound, and symbolic
			// reachability decides the wide ones that the searches
			// within the bound do not (docs/BENCHMARKS.md,
			// "Reachability on decision diagrams").
			pl.add(method.EveryInterleaving(p, o))
		}
	}
	product := func() {
		if !o.SolverStated && !o.StepsStated && encode.ProductTakes(p) == nil {
			// Reachability over the product of the threads' states on
			// decision diagrams, as Getafix computes it, within the
			// bound: where it decides what the sequentializations leave
			// open (docs/BENCHMARKS.md, "The product encoding": SafeStack
			// at 4 rounds, flags6 0.6 s against 8.3 s).
			so := o
			so.Solver = method.SolverBDD
			pl.add(method.Summaries(p, so, method.SeqProduct))
		}
	}
	// Within rounds every interleaving first (Burns with 6 threads at
	// 3 rounds: 1.4 s against the product's 7.9 s), within switches the
	// product (Burns with 7 threads at 3 switches: 1.9 s against 7.8 s).
	if b.Rounds > 0 {
		every()
		product()
	} else {
		product()
		every()
	}
	for _, seq := range []method.Seq{method.SeqEager, method.SeqLazy} {
		if method.ConcurrentFits(ctx, p, seq, bd, b.Depth) == nil {
			pl.add(method.ConcurrentBMC(p, o, seq))
		}
	}
	return nil
}

// getafix plans Getafix's narrower question (Bounds.GetafixSwitches)
// for the programs its cross-product formulas take: the explicit
// search, and the product's least model on decision diagrams (or the
// solver the user named), the two engines that implement the rule.
func (pl *Plan) getafix(p *ir.Program, o method.Options, pin pins, bounded bool) error {
	const flag = "--switch-points getafix"
	switch {
	case !bounded:
		return &result.UsageError{Msg: flag + " needs a context bound: -k K or --switches N"}
	case pin.engine == method.EngineBMC || pin.seq != "" && pin.seq != method.SeqProduct:
		return &result.UsageError{Msg: flag + " goes with the explicit engine and the summary engine's product encoding (--seq product), not " + pinnedBy(pin)}
	case o.StepsStated:
		return &result.UsageError{Msg: flag + " does not go with --max-steps: its engines have no step bound"}
	}
	if err := encode.ProductTakes(p); err != nil {
		return &result.UsageError{Msg: fmt.Sprintf("%s takes what Getafix's cross-product formulas take, and %v", flag, err)}
	}
	if pin.engine != method.EngineSummaries && pin.seq == "" {
		pl.add(method.Explicit(p, o))
	}
	if pin.engine != method.EngineExplicit {
		so := o
		if !o.SolverStated {
			so.Solver = method.SolverBDD
		}
		pl.add(method.Summaries(p, so, method.SeqProduct))
	}
	return nil
}

// summaries adds the summary engine where it answers the question of
// safety: for a recursive program (or any, with --engine summaries)
// that is one thread or, within a context bound, goes through the eager
// sequentialization (or the one --seq names).
func (pl *Plan) summaries(p *ir.Program, o method.Options, pin pins, sequential, bounded bool) error {
	pinned := pin.engine == method.EngineSummaries || pin.seq.Horn()
	if !pinned && (pin.engine != "" || pin.seq != "" || !p.Recursive()) {
		return nil
	}
	var seq method.Seq
	if !sequential {
		bd, _ := o.Bounds.Context()
		seq = pin.seq
		if seq == "" {
			seq = method.SummarySeq
		}
		switch {
		case !bounded && pinned:
			return &result.UsageError{Msg: "the summary engine needs a bound for a concurrent program: -k K or --switches N"}
		case seq == method.SeqDirect && pinned:
			return &result.UsageError{Msg: "the summary engine takes the eager or lazy sequentialization or the context encoding, not --seq direct"}
		case !bounded:
			return nil
		}
		if !seq.Horn() {
			if err := method.ConcurrentFits(context.Background(), p, seq, bd, o.Bounds.Depth); err != nil {
				if pinned {
					return &result.UsageError{Msg: err.Error()}
				}
				return nil
			}
		}
		pl.Question = fmt.Sprintf("a violation within %s, any call depth", bd)
	} else {
		pl.Question = "a violation at any call depth"
	}
	if o.DepthStated {
		within := o.Bounds.Words()
		if sequential {
			within = o.Bounds.DepthWords() // one thread: no interleaving to name
		}
		pl.Question = "a violation within " + within + " (safe at any call depth, if so)"
	}
	solvers := []method.SolverName{o.Solver}
	if o.Solver == method.SolverGini && !o.SolverStated && (seq == "" || seq.Horn()) {
		// Two pure-Go solvers of different strengths, raced: Spacer's
		// lemmas win where few cubes separate the reachable atoms,
		// decision diagrams where the relations are large but regular
		// (docs/BENCHMARKS.md, "The least model on decision diagrams").
		// Not on the eager or lazy program (--seq), whose guessed copies
		// make the diagrams large: they would only take a core from the
		// engines after them.
		solvers = append(solvers, method.SolverBDD)
	}
	for _, s := range solvers {
		so := o
		so.Solver = s
		m := method.Summaries(p, so, seq)
		m.AnyDepth = true
		pl.add(m)
	}
	return nil
}

// proof plans bmc prove. The proof engine the user asks for (auto: PDR)
// runs on the program's encoding: a one-thread program's own, a
// concurrent one's sequentialization within the bound (auto: the
// interleaving product where the program fits it, else eager) or,
// without a bound, the interleaving product. Unless the user pinned the
// method or the sequentialization, or asked for a certificate (which
// only PDR gives), the explicit engine's exhaustive search races it:
// within the call depth and the bound every program is finite-state, and
// a search that sees every state within them proves as much as a proof
// engine does.
func (pl *Plan) proof(ctx context.Context, p *ir.Program, o method.Options, pin pins) error {
	b := o.Bounds
	bd, bounded := b.Context()
	race := pin.method == "" && pin.seq == "" && o.Proof.Certificate == nil
	sequential := encode.Supported(p, encode.KindSequential, b.Depth) == nil
	// A recursive program is proved at every call depth by its summaries;
	// the other engines prove within the depth, so with a certificate,
	// which they could not give for every depth, the summaries alone.
	if pin.seq.Horn() && pin.method != "" && pin.method != method.ProofSummaries {
		return &result.UsageError{Msg: fmt.Sprintf("--seq %s is the summary engine's encoding (--method summaries), not %s's", pin.seq, pin.method)}
	}
	if pin.method == method.ProofSummaries || pin.seq.Horn() || pin.method == "" && pin.seq != method.SeqDirect && p.Recursive() && (sequential || bounded) {
		if err := pl.summaries(p, o, pins{engine: method.EngineSummaries, seq: pin.seq}, sequential, bounded); err != nil {
			return err
		}
		pl.Question = strings.Replace(pl.Question, "a violation", "a proof, or a violation,", 1)
		if pin.method == method.ProofSummaries || pin.seq.Horn() || o.Proof.Certificate != nil {
			return nil
		}
	}
	if pin.method == method.ProofAmplify {
		return pl.amplify(p, o, pin, sequential, bounded)
	}
	if o.Bounds.AnyThreads && !race {
		return &result.UsageError{Msg: "--max-threads '*' asks about every number of threads, which bmc prove answers without --method, --seq and --certificate (by coverability and the linear interfaces)"}
	}
	if race && parameterized(p, o, pins{}) && (o.Bounds.AnyThreads || cover.Supported(p) == nil) {
		// Every number of threads: coverability and the linear
		// interfaces prove, as for bmc check.
		err := pl.parameterizedSafety(p, o, pins{})
		pl.Question = strings.Replace(pl.Question, "a violation", "a proof, or a violation,", 1)
		return err
	}
	proofIdx := len(pl.Candidates)
	switch {
	case sequential:
		pl.Question = "a proof for executions of any length"
		if d := b.DepthWords(); d != "" {
			pl.Question += ", " + d
		}
		pl.add(method.ProveSequential(p, o))
	case bounded:
		pl.Question = "a proof for executions of any length within " + b.Words()
		sq := pin.seq
		if sq == "" {
			// PDR proves the interleaving product far faster than the
			// eager program (dekker.bpl at 2 switches: 6 s against 285 s).
			sq = method.SeqEager
			if encode.Supported(p, encode.KindDirect, b.Depth) == nil {
				sq = method.SeqDirect
			}
		}
		if err := method.ConcurrentFits(ctx, p, sq, bd, b.Depth); err != nil {
			return &result.UsageError{Msg: strings.Replace(err.Error(), "use --engine explicit", "use --seq direct", 1)}
		}
		pl.add(method.ProveBounded(p, o, sq, bd))
	default:
		pl.Question = "a proof for executions of any length within " + b.Words()
		if err := encode.Supported(p, encode.KindDirect, b.Depth); err != nil {
			return &result.UsageError{Msg: err.Error()}
		}
		pl.add(method.ProveProduct(p, o))
	}
	if race && !sequential && !bounded && encode.BaseSupported(p) == nil {
		// Reachability on decision diagrams proves the interleaving
		// product of every example faster than PDR (docs/BENCHMARKS.md,
		// "Reachability on decision diagrams"): it starts beside the
		// exhaustive search, and PDR waits for a free core.
		o := o
		o.Proof.Method = method.ProofReach
		pl.Candidates = slices.Insert(pl.Candidates, proofIdx, Candidate{Method: method.ProveProduct(p, o)})
		proofIdx++
	}
	if race && !sequential && !bounded && encode.BaseSupported(p) == nil {
		// K-induction with amplification (decision diagrams) proves
		// every number of rounds; it joins PDR after the head start,
		// and re-checks beside its base case on a second core.
		o := o
		o.Solver = method.SolverBDD
		pl.Candidates = append(pl.Candidates, Candidate{Method: method.Amplify(p, o), After: proofHeadStart})
	}
	if race {
		// The exhaustive search comes first, alone for proofHeadStart:
		// it answers most programs sooner, most of them within that
		// time (docs/BENCHMARKS.md, "Portfolio"), and the proof engine
		// beside it would only slow it down.
		pl.Candidates[proofIdx].After = proofHeadStart
		pl.Candidates = append([]Candidate{{Method: method.Exhaustive(p, o)}}, pl.Candidates...)
	}
	return nil
}

// amplify plans K-induction with amplification, which proves a
// concurrent program for every number of rounds: no bound, no
// certificate, no sequentialization applies.
func (pl *Plan) amplify(p *ir.Program, o method.Options, pin pins, sequential, bounded bool) error {
	switch {
	case sequential:
		return &result.UsageError{Msg: "--method amplify proves concurrent programs; this one has one thread (use --method auto)"}
	case bounded:
		return &result.UsageError{Msg: "--method amplify proves the program for every number of rounds: drop -k/--switches"}
	case o.Proof.Certificate != nil:
		return &result.UsageError{Msg: "--certificate asks for PDR's invariant; --method amplify gives none"}
	case pin.seq != "":
		return &result.UsageError{Msg: "--method amplify builds its own translation: drop --seq"}
	}
	maxRounds := o.Proof.MaxRounds
	if maxRounds <= 0 {
		maxRounds = method.DefaultMaxRounds
	}
	pl.Question = fmt.Sprintf("a proof for every number of rounds (hence every interleaving), K-inductive for some K = 1..%d, or a violation within K rounds", maxRounds)
	// Unless the user names a solver, the paper's way: decision
	// diagrams, a difference of sets. The candidate and run solvers
	// (gini) raced beside it answered no row of docs/BENCHMARKS.md
	// first, most not within 20 s, and took the core that the diagrams'
	// re-checks run on beside the base case.
	if !o.SolverStated {
		o.Solver = method.SolverBDD
	}
	pl.add(method.Amplify(p, o))
	return nil
}

// proofHeadStart is how long the exhaustive search of bmc prove runs
// alone before the proof engine joins it.
const proofHeadStart = 2 * time.Second

// livelock plans bmc check --lasso: the MUTANT lasso translation decided
// by BMC (its unwinding with PDR joining after lassoHeadStart), raced
// with the explicit search, which decides what the translation's
// inlining cannot (recursion deeper than it inlines, keyframe lassos)
// and small programs sooner. A program the translation does not take
// goes to the lasso on the interleaving product instead. --engine
// explicit, --seq eager (the translation alone; on a recursive program
// it hands over to the explicit search where its inlining cut calls) and
// --seq direct pin one.
func (pl *Plan) livelock(p *ir.Program, o method.Options, pin pins, lb result.LassoBound) error {
	switch {
	case lb.Stem < 0 || lb.Loop < 1:
		return &result.UsageError{Msg: fmt.Sprintf("--lasso needs a stem of at least 0 rounds and a loop of at least 1, got %d,%d", lb.Stem, lb.Loop)}
	case lb.Stem+lb.Loop > method.MaxLassoRounds:
		return &result.UsageError{Msg: fmt.Sprintf("--lasso: stem and loop must be at most %d rounds together, got %d", method.MaxLassoRounds, lb.Stem+lb.Loop)}
	case pin.seq != "" && pin.seq != method.SeqEager && pin.seq != method.SeqDirect:
		return &result.UsageError{Msg: fmt.Sprintf("--lasso takes its own translation or the direct product; --seq %s does not apply", o.Seq)}
	case pin.engine == method.EngineExplicit && pin.seq != "":
		return &result.UsageError{Msg: fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", o.Seq)}
	}
	if _, err := p.Instances(); err != nil {
		return &result.UsageError{Msg: fmt.Sprintf("--lasso: %v", err)}
	}
	pl.Question = "a livelock within " + lb.String()
	if d := o.Bounds.DepthWords(); d != "" {
		pl.Question += ", " + d
	}
	explicitCandidate := func() { pl.add(method.LassoExplicit(p, o, lb)) }
	direct := func() { pl.add(method.DirectLasso(p, o, lb)) }
	// The lasso translation with keyframes, decided by the summary
	// engine: "no livelock" at every call depth for recursive programs.
	// Both solvers race, as for safety, Spacer first: it proves the
	// absence where the diagrams grow (dive_stopped at 2,2: 0.8 s
	// against 6.2 s; retry_recursive_stops at 2,2: 1.5 s against 44 s),
	// the diagrams find deep livelocks sooner (keyframe_deep_stem at
	// 1,1: 0.3 s against 31 s), which the explicit search finds too.
	keyframes := func() {
		solvers := []method.SolverName{o.Solver}
		if o.Solver == method.SolverGini && !o.SolverStated {
			solvers = []method.SolverName{method.SolverGini, method.SolverBDD}
		}
		for _, s := range solvers {
			so := o
			so.Solver = s
			m := method.Keyframes(p, so, lb)
			// The depth bound is ours unless the user stated it: an
			// answer cut by it waits for the summaries'. A stated one is
			// the user's, and the search's "depth bound reached"
			// answers it.
			m.AnyDepth = !o.DepthStated
			pl.add(m)
		}
		pl.Question = fmt.Sprintf("a livelock within %s, %s (none at any call depth, if so)", lb, o.Bounds.DepthWords())
		if !o.DepthStated {
			pl.Question = fmt.Sprintf("a livelock within %s, any call depth", lb)
		}
	}
	refused := fairness.Supported(p)
	switch {
	case pin.engine == method.EngineSummaries && pin.seq != "" && pin.seq != method.SeqEager:
		return &result.UsageError{Msg: fmt.Sprintf("--lasso: the summary engine decides the lasso translation with keyframes (--seq eager), not --seq %s", o.Seq)}
	case pin.engine == method.EngineSummaries:
		keyframes()
	case pin.engine == method.EngineExplicit:
		explicitCandidate()
	case pin.seq == method.SeqDirect:
		direct()
	case pin.seq == method.SeqEager && refused != nil:
		return &result.UsageError{Msg: fmt.Sprintf("--lasso: %v; use --seq direct or --engine explicit", refused)}
	case refused != nil:
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: %v; deciding the lasso on the interleaving product instead\n", refused)
		}
		if pin.engine == "" {
			explicitCandidate()
		}
		direct()
	case pin.engine != "" || pin.seq != "":
		pl.add(method.LassoTranslation(p, o, lb, true))
	default:
		// The explicit search decides small programs before the others
		// have translated them; without fairness the lasso on the
		// interleaving product finds a livelock sooner than the
		// translation (docs/BENCHMARKS.md, "Portfolio"), which then
		// starts when a core frees: it proves a livelock's absence where
		// the other two run out of time.
		explicitCandidate()
		if lb.Fairness == result.NoFairness {
			direct()
		}
		if encode.BaseSupported(p) == nil {
			// No fair cycle on any interleaving is no livelock within
			// any bound: the fixpoint on decision diagrams proves it
			// where the searches within the bound do not end (the
			// ordered philosophers from N = 6 at --lasso 2,2).
			pl.add(method.FairCycles(p, o, lb))
		}
		if p.Recursive() {
			keyframes()
		}
		pl.add(method.LassoTranslation(p, o, lb, false))
	}
	return nil
}
