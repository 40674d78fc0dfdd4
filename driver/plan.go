package driver

import (
	"bmc/cover"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"bmc/encode"
	"bmc/explicit"
	"bmc/fairness"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/smt"
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
	// command runs the candidates as processes (Options.Command).
	command []string
	// anyThreads says a candidate answers for every number of threads
	// (coverability): an answer cut by the thread bound does not end
	// the race.
	anyThreads bool
	// note is said with an open answer: why the plan could not ask the
	// question it would have asked.
	note string
}

// Candidate is one engine, encoding and method that answers the question
// on its own.
type Candidate struct {
	Name string // as results name their engine: "explicit", "bmc+gini, lazy sequentialization"
	// Cores is how many cores it can keep busy: 1, or 2 where it races
	// methods of its own (a proof engine beside its unwinding, gini on a
	// simplified formula beside the plain one), the second borrowed
	// only while no candidate waits for it.
	Cores int
	After time.Duration // its head start: how long the ones before it run alone
	// AnyDepth says it answers at every call depth (a summary engine on
	// a recursive program): while it has not answered, an answer the
	// call depth cut short does not end the race.
	AnyDepth bool
	run      func(ctx context.Context, progress io.Writer) (*result.Result, error)
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
// the plan. They are the one place where "auto" is read.
type pins struct {
	engine, seq, method string
}

func pinsOf(o Options) pins {
	pin := func(s string) string {
		if s == "auto" {
			return ""
		}
		return s
	}
	return pins{pin(o.Engine), pin(o.Seq), pin(o.Proof.Method)}
}

// pinnedEngine is the engine that the flags --engine and --seq of bmc
// check choose ("bmc", "explicit"), and the flag that chooses it; ""
// when the plan chooses by the program.
func pinnedEngine(engine, seq string) (string, string) {
	pin := pinsOf(Options{Engine: engine, Seq: seq})
	switch {
	case pin.engine != "":
		return pin.engine, "--engine " + engine
	case hornSeq(pin.seq):
		return "summaries", "--seq " + pin.seq + ", which selects the summary engine"
	case pin.seq != "":
		return "bmc", fmt.Sprintf("--seq %s, which selects the bmc engine", seq)
	}
	return "", ""
}

// makePlan makes the plan for question q on p, with lb the livelock
// bound. Errors are *UsageError for options that do not fit the program.
func makePlan(ctx context.Context, p *ir.Program, o Options, q question, lb result.LassoBound) (*Plan, error) {
	if err := o.complete(q != proof); err != nil {
		return nil, err
	}
	if o.Solver == "z3" && !smt.Available {
		_, err := newSolver(ctx, "z3")
		return nil, err
	}
	o.Bounds = boundsFor(p, o)
	pin := pinsOf(o)
	if o.Solver == "bdd" {
		// Decision diagrams decide summaries only: the solver pins the
		// summary engine.
		switch {
		case q == proof && pin.method == "amplify":
		case q == proof && pin.method == "reach":
			// Reachability runs on diagrams of its own whatever the
			// solver; the engines around it take the default one.
			o.Solver = "gini"
		case q != proof && pin.engine != "" && pin.engine != "summaries",
			q == proof && pin.method != "" && pin.method != "summaries", pin.seq == "direct",
			q == livelock && pin.seq != "":
			return nil, &UsageError{bddOnly}
		case q != proof:
			pin.engine = "summaries"
		case pin.method != "amplify" && pin.method != "reach":
			pin.method = "summaries"
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
func boundsFor(p *ir.Program, o Options) Bounds {
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
func wordDepth(res *result.Result, p *ir.Program, o Options) {
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

// joinBounds words bounds one after the other, leaving out empty ones.
func joinBounds(bounds ...string) string {
	return strings.Join(slices.DeleteFunc(bounds, func(s string) bool { return s == "" }), ", ")
}

// add appends a candidate.
func (pl *Plan) add(name string, cores int, after time.Duration, run func(context.Context, io.Writer) (*result.Result, error)) {
	pl.Candidates = append(pl.Candidates, Candidate{Name: name, Cores: cores, After: after, run: run})
}

// contextBound is the rounds or switches the bounds ask for: ok false
// with neither (every interleaving).
func contextBound(b Bounds) (bd seq.Bound, ok bool) {
	switch {
	case b.Rounds > 0:
		return seq.Bound{Rounds: b.Rounds}, true
	case b.Switches >= 0:
		return seq.Bound{Switches: b.Switches}, true
	}
	return seq.Bound{}, false
}

// words words the bounds a question is asked within, the call depth
// where it is one (depthWords).
func (b Bounds) words() string {
	if bd, ok := contextBound(b); ok && b.GetafixSwitches {
		return fmt.Sprintf("%s, %s", bd, explicit.GetafixWords)
	}
	s := "every interleaving"
	if bd, ok := contextBound(b); ok {
		s = bd.String()
	}
	if d := b.depthWords(); d != "" {
		s += ", " + d
	}
	return s
}

// depthWords is "call depth D" where the call depth bounds the question
// (DepthBound), else "".
func (b Bounds) depthWords() string {
	if !b.DepthBound {
		return ""
	}
	return fmt.Sprintf("call depth %d", b.Depth)
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
func (pl *Plan) safety(ctx context.Context, p *ir.Program, o Options, pin pins) error {
	b := o.Bounds
	switch {
	case b.Rounds > MaxRounds:
		return &UsageError{fmt.Sprintf("-k must be at most %d, got %d", MaxRounds, b.Rounds)}
	case b.Switches > MaxSwitches:
		return &UsageError{fmt.Sprintf("--switches must be at most %d, got %d", MaxSwitches, b.Switches)}
	case pin.engine == "explicit" && pin.seq != "":
		return &UsageError{fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", o.Seq)}
	}
	bd, bounded := contextBound(b)
	pl.Question = "a violation within " + b.words()
	if b.GetafixSwitches {
		return pl.getafix(p, o, pin, bounded)
	}
	if parameterized(p, o, pin) || pin.engine == "coverability" || pin.engine == "interfaces" {
		if err := pl.parameterizedSafety(p, o, pin); err != nil || len(pl.Candidates) > 0 {
			return err
		}
	}
	explicitCandidate := func() {
		pl.add("explicit", 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkExplicit(ctx, p, o)
		})
	}
	sequential := encode.Supported(p, encode.KindSequential, b.Depth) == nil
	// The summary engine decides a recursive program at every call
	// depth, where the others search within one: it comes first, and
	// their depth-bound answers do not end the race.
	if hornSeq(pin.seq) && pin.engine != "" && pin.engine != "summaries" {
		return &UsageError{fmt.Sprintf("--seq %s is the summary engine's encoding, not the %s engine's", pin.seq, pin.engine)}
	}
	if err := pl.summaries(p, o, pin, sequential, bounded); err != nil || pin.engine == "summaries" || hornSeq(pin.seq) {
		return err
	}
	if sequential {
		var within []string
		if d := b.depthWords(); d != "" {
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
		if pin.engine != "explicit" {
			pl.add("bmc+"+o.Solver, 2, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
				return checkSequential(ctx, p, o, progress)
			})
		}
		if pin.engine == "explicit" || pin.engine == "" && !o.StepsStated {
			explicitCandidate()
		}
		return nil
	}
	if pin.engine == "explicit" {
		explicitCandidate()
		return nil
	}
	if pin.engine == "bmc" || pin.seq != "" {
		if !bounded {
			return &UsageError{"the bmc engine needs a bound for a concurrent program: -k K or --switches N"}
		}
		method := pin.seq
		if method == "" {
			// Where the threads loop or recurse, the answer rests on a
			// proof (unless the user stated the step bound), and PDR
			// proves the interleaving product far faster than the eager
			// program: dekker.bpl at 2 switches in 6 s against 285 s.
			method = "eager"
			if !o.StepsStated && loops(encoded(p, false, nil)) && encode.Supported(p, encode.KindDirect, b.Depth) == nil {
				method = "direct"
			}
		}
		if err := concurrentFits(ctx, p, method, bd, b.Depth); err != nil {
			return &UsageError{err.Error()}
		}
		if o.ThreadsStated && method != "direct" {
			return &UsageError{fmt.Sprintf("--max-threads does not go with --engine bmc here: for this program it runs BMC on the %s sequentialization, and the eager and lazy sequentializations take no program that starts threads", method)}
		}
		pl.addConcurrent(p, o, method)
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
			pl.add("reachability+bdd, every interleaving", 1, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
				return checkEveryInterleaving(ctx, p, o, progress)
			})
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
			so.Solver = "bdd"
			pl.add(summaryName("bdd", "product"), 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
				return checkSummaries(ctx, p, so, "product")
			})
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
	for _, method := range []string{"eager", "lazy"} {
		if concurrentFits(ctx, p, method, bd, b.Depth) == nil {
			pl.addConcurrent(p, o, method)
		}
	}
	return nil
}

// getafix plans Getafix's narrower question (Bounds.GetafixSwitches)
// for the programs its cross-product formulas take: the explicit
// search, and the product's least model on decision diagrams (or the
// solver the user named), the two engines that implement the rule.
func (pl *Plan) getafix(p *ir.Program, o Options, pin pins, bounded bool) error {
	const flag = "--switch-points getafix"
	switch {
	case !bounded:
		return &UsageError{flag + " needs a context bound: -k K or --switches N"}
	case pin.engine == "bmc" || pin.seq != "" && pin.seq != "product":
		_, by := pinnedEngine(o.Engine, o.Seq)
		return &UsageError{flag + " goes with the explicit engine and the summary engine's product encoding (--seq product), not " + by}
	case o.StepsStated:
		return &UsageError{flag + " does not go with --max-steps: its engines have no step bound"}
	}
	if err := encode.ProductTakes(p); err != nil {
		return &UsageError{fmt.Sprintf("%s takes what Getafix's cross-product formulas take, and %v", flag, err)}
	}
	if pin.engine != "summaries" && pin.seq == "" {
		pl.add("explicit", 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkExplicit(ctx, p, o)
		})
	}
	if pin.engine != "explicit" {
		so := o
		if !o.SolverStated {
			so.Solver = "bdd"
		}
		pl.add(summaryName(so.Solver, "product"), 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkSummaries(ctx, p, so, "product")
		})
	}
	return nil
}

// summaries adds the summary engine where it answers the question of
// safety: for a recursive program (or any, with --engine summaries)
// that is one thread or, within a context bound, goes through the eager
// sequentialization (or the one --seq names).
func (pl *Plan) summaries(p *ir.Program, o Options, pin pins, sequential, bounded bool) error {
	pinned := pin.engine == "summaries" || hornSeq(pin.seq)
	if !pinned && (pin.engine != "" || pin.seq != "" || !p.Recursive()) {
		return nil
	}
	method := ""
	if !sequential {
		bd, _ := contextBound(o.Bounds)
		method = pin.seq
		if method == "" {
			method = summaryMethod
		}
		switch {
		case !bounded && pinned:
			return &UsageError{"the summary engine needs a bound for a concurrent program: -k K or --switches N"}
		case method == "direct" && pinned:
			return &UsageError{"the summary engine takes the eager or lazy sequentialization or the context encoding, not --seq direct"}
		case !bounded:
			return nil
		}
		if !hornSeq(method) {
			if err := concurrentFits(context.Background(), p, method, bd, o.Bounds.Depth); err != nil {
				if pinned {
					return &UsageError{err.Error()}
				}
				return nil
			}
		}
		pl.Question = fmt.Sprintf("a violation within %s, any call depth", bd)
	} else {
		pl.Question = "a violation at any call depth"
	}
	if o.DepthStated {
		within := o.Bounds.words()
		if sequential {
			within = o.Bounds.depthWords() // one thread: no interleaving to name
		}
		pl.Question = "a violation within " + within + " (safe at any call depth, if so)"
	}
	solvers := []string{o.Solver}
	if o.Solver == "gini" && !o.SolverStated && (method == "" || hornSeq(method)) {
		// Two pure-Go solvers of different strengths, raced: Spacer's
		// lemmas win where few cubes separate the reachable atoms,
		// decision diagrams where the relations are large but regular
		// (docs/BENCHMARKS.md, "The least model on decision diagrams").
		// Not on the eager or lazy program (--seq), whose guessed copies
		// make the diagrams large: they would only take a core from the
		// engines after them.
		solvers = append(solvers, "bdd")
	}
	for _, s := range solvers {
		so := o
		so.Solver = s
		pl.add(summaryName(s, method), 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return checkSummaries(ctx, p, so, method)
		})
		pl.Candidates[len(pl.Candidates)-1].AnyDepth = true
	}
	return nil
}

// summaryMethod is the summary engine's encoding of a concurrent
// program when the user names none: the context encoding
// (docs/BENCHMARKS.md, "Summaries": up to 20 times faster than the
// eager program's clauses on the examples, as fast where it gains
// least; it encodes locks too).
const summaryMethod = "contexts"

// hornSeq says whether --seq names one of the summary engine's own
// encodings of the bounded-context question (no sequential program):
// the context encoding, or the product of the threads' states.
func hornSeq(method string) bool { return method == "contexts" || method == "product" }

// addConcurrent adds BMC on the sequentialization named method (eager,
// lazy, or the direct interleaving product).
func (pl *Plan) addConcurrent(p *ir.Program, o Options, method string) {
	pl.add(bmcName(o.Solver, method), 2, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return checkConcurrent(ctx, p, o, method, progress)
	})
}

// bmcName names BMC with a solver on a sequentialization.
func bmcName(solver, method string) string {
	if method == "direct" {
		return "bmc+" + solver + ", direct interleaving product"
	}
	return fmt.Sprintf("bmc+%s, %s sequentialization", solver, method)
}

// concurrentFits refuses what BMC cannot check within bd through method:
// a program the sequentializations (or the interleaving product) do not
// take, or one whose sequentialization would not fit in memory.
func concurrentFits(ctx context.Context, p *ir.Program, method string, bd seq.Bound, depth int) error {
	if method == "direct" {
		if err := encode.Supported(p, encode.KindDirect, depth); err != nil {
			return fmt.Errorf("%v; use --engine explicit", err)
		}
		return nil
	}
	if err := seq.Supported(p); err != nil {
		return fmt.Errorf("the program cannot be sequentialized: %v; use --engine explicit", err)
	}
	if bd.Rounds > 0 {
		bd.Switches = 0
	}
	return SeqFits(p, bd, MemoryLimit(ctx))
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
func (pl *Plan) proof(ctx context.Context, p *ir.Program, o Options, pin pins) error {
	b := o.Bounds
	bd, bounded := contextBound(b)
	method := pin.method
	if method == "" {
		method = "pdr"
	}
	name := proofName(method, o.Solver)
	race := pin.method == "" && pin.seq == "" && o.Proof.Certificate == nil
	sequential := encode.Supported(p, encode.KindSequential, b.Depth) == nil
	// A recursive program is proved at every call depth by its summaries;
	// the other engines prove within the depth, so with a certificate,
	// which they could not give for every depth, the summaries alone.
	if hornSeq(pin.seq) && pin.method != "" && pin.method != "summaries" {
		return &UsageError{fmt.Sprintf("--seq %s is the summary engine's encoding (--method summaries), not %s's", pin.seq, pin.method)}
	}
	if pin.method == "summaries" || hornSeq(pin.seq) || pin.method == "" && pin.seq != "direct" && p.Recursive() && (sequential || bounded) {
		if err := pl.summaries(p, o, pins{engine: "summaries", seq: pin.seq}, sequential, bounded); err != nil {
			return err
		}
		pl.Question = strings.Replace(pl.Question, "a violation", "a proof, or a violation,", 1)
		if pin.method == "summaries" || hornSeq(pin.seq) || o.Proof.Certificate != nil {
			return nil
		}
	}
	if pin.method == "amplify" {
		return pl.amplify(p, o, pin, sequential, bounded)
	}
	if o.Bounds.AnyThreads && !race {
		return &UsageError{"--max-threads '*' asks about every number of threads, which bmc prove answers without --method, --seq and --certificate (by coverability and the linear interfaces)"}
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
		if d := b.depthWords(); d != "" {
			pl.Question += ", " + d
		}
		pl.add(name, 1, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveSequential(ctx, p, o, progress)
		})
	case bounded:
		pl.Question = "a proof for executions of any length within " + b.words()
		sq := pin.seq
		if sq == "" {
			// PDR proves the interleaving product far faster than the
			// eager program (dekker.bpl at 2 switches: 6 s against 285 s).
			sq = "eager"
			if encode.Supported(p, encode.KindDirect, b.Depth) == nil {
				sq = "direct"
			}
		}
		if err := concurrentFits(ctx, p, sq, bd, b.Depth); err != nil {
			return &UsageError{strings.Replace(err.Error(), "use --engine explicit", "use --seq direct", 1)}
		}
		pl.add(name+", "+seqWords(sq), 1, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveBounded(ctx, p, o, sq, bd, progress)
		})
	default:
		pl.Question = "a proof for executions of any length within " + b.words()
		if err := encode.Supported(p, encode.KindDirect, b.Depth); err != nil {
			return &UsageError{err.Error()}
		}
		pl.add(name+", direct interleaving product", 1, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveProduct(ctx, p, o, progress, nil)
		})
	}
	if race && !sequential && !bounded && encode.BaseSupported(p) == nil {
		// Reachability on decision diagrams proves the interleaving
		// product of every example faster than PDR (docs/BENCHMARKS.md,
		// "Reachability on decision diagrams"): it starts beside the
		// exhaustive search, and PDR waits for a free core.
		o := o
		o.Proof.Method = "reach"
		reach := Candidate{Name: proofName("reach", o.Solver) + ", direct interleaving product", Cores: 1,
			run: func(ctx context.Context, progress io.Writer) (*result.Result, error) {
				return proveProduct(ctx, p, o, progress, nil)
			}}
		pl.Candidates = slices.Insert(pl.Candidates, proofIdx, reach)
		proofIdx++
	}
	if race && !sequential && !bounded && encode.BaseSupported(p) == nil {
		// K-induction with amplification (decision diagrams) proves
		// every number of rounds; it joins PDR after the head start,
		// and re-checks beside its base case on a second core.
		o := o
		o.Solver = "bdd"
		pl.add("k-induction with amplification+bdd", 2, proofHeadStart, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return proveAmplify(ctx, p, o, progress)
		})
	}
	if race {
		// The exhaustive search comes first, alone for proofHeadStart:
		// it answers most programs sooner, most of them within that
		// time (docs/BENCHMARKS.md, "Portfolio"), and the proof engine
		// beside it would only slow it down.
		pl.Candidates[proofIdx].After = proofHeadStart
		pl.Candidates = append([]Candidate{{Name: "explicit (exhaustive search)", Cores: 1,
			run: func(ctx context.Context, _ io.Writer) (*result.Result, error) {
				return exhaustive(ctx, p, o)
			}}}, pl.Candidates...)
	}
	return nil
}

// amplify plans K-induction with amplification, which proves a
// concurrent program for every number of rounds: no bound, no
// certificate, no sequentialization applies.
func (pl *Plan) amplify(p *ir.Program, o Options, pin pins, sequential, bounded bool) error {
	switch {
	case sequential:
		return &UsageError{"--method amplify proves concurrent programs; this one has one thread (use --method auto)"}
	case bounded:
		return &UsageError{"--method amplify proves the program for every number of rounds: drop -k/--switches"}
	case o.Proof.Certificate != nil:
		return &UsageError{"--certificate asks for PDR's invariant; --method amplify gives none"}
	case pin.seq != "":
		return &UsageError{"--method amplify builds its own translation: drop --seq"}
	}
	maxRounds := o.Proof.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	pl.Question = fmt.Sprintf("a proof for every number of rounds (hence every interleaving), K-inductive for some K = 1..%d, or a violation within K rounds", maxRounds)
	// Unless the user names a solver, the paper's way: decision
	// diagrams, a difference of sets. The candidate and run solvers
	// (gini) raced beside it answered no row of docs/BENCHMARKS.md
	// first, most not within 20 s, and took the core that the diagrams'
	// re-checks run on beside the base case.
	if !o.SolverStated {
		o.Solver = "bdd"
	}
	cores := 1
	if o.Solver == "bdd" {
		cores = 2
	}
	pl.add("k-induction with amplification+"+o.Solver, cores, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
		return proveAmplify(ctx, p, o, progress)
	})
	return nil
}

// proofHeadStart is how long the exhaustive search of bmc prove runs
// alone before the proof engine joins it.
const proofHeadStart = 2 * time.Second

// seqWords names a sequentialization in an engine's name.
func seqWords(method string) string {
	switch method {
	case "direct":
		return "direct interleaving product"
	case "contexts":
		return "context encoding"
	case "product":
		return "product encoding"
	}
	return method + " sequentialization"
}

// lassoHeadStart is how long the lasso translation's unwinding runs
// before its proof engine joins it. The threads' loops close within a
// few iterations in every livelock test and example (the unwinding
// answered all of them first, within 3 s), so the proof engine is there
// for loops that do not, and joins once the unwinding has taken longer
// than the benchmarks' largest rows.
const lassoHeadStart = 2 * time.Second

// livelock plans bmc check --lasso: the MUTANT lasso translation decided
// by BMC (its unwinding with PDR joining after lassoHeadStart), raced
// with the explicit search, which decides what the translation's
// inlining cannot (recursion deeper than it inlines, keyframe lassos)
// and small programs sooner. A program the translation does not take
// goes to the lasso on the interleaving product instead. --engine
// explicit, --seq eager (the translation alone; on a recursive program
// it hands over to the explicit search where its inlining cut calls) and
// --seq direct pin one.
func (pl *Plan) livelock(p *ir.Program, o Options, pin pins, lb result.LassoBound) error {
	switch {
	case lb.Stem < 0 || lb.Loop < 1:
		return &UsageError{fmt.Sprintf("--lasso needs a stem of at least 0 rounds and a loop of at least 1, got %d,%d", lb.Stem, lb.Loop)}
	case lb.Stem+lb.Loop > MaxLassoRounds:
		return &UsageError{fmt.Sprintf("--lasso: stem and loop must be at most %d rounds together, got %d", MaxLassoRounds, lb.Stem+lb.Loop)}
	case !lassoSeq(o.Seq):
		return &UsageError{fmt.Sprintf("--lasso takes its own translation or the direct product; --seq %s does not apply", o.Seq)}
	case pin.engine == "explicit" && pin.seq != "":
		return &UsageError{fmt.Sprintf("--seq %s needs the bmc engine, not --engine explicit", o.Seq)}
	}
	if _, err := p.Instances(); err != nil {
		return &UsageError{fmt.Sprintf("--lasso: %v", err)}
	}
	pl.Question = "a livelock within " + lb.String()
	if d := o.Bounds.depthWords(); d != "" {
		pl.Question += ", " + d
	}
	explicitCandidate := func() {
		pl.add("explicit", 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
			return lassoExplicit(ctx, p, o, lb), nil
		})
	}
	direct := func() {
		pl.add(bmcName(o.Solver, "direct"), 2, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return directLivelock(ctx, p, o, lb, progress)
		})
	}
	// The lasso translation with keyframes, decided by the summary
	// engine: "no livelock" at every call depth for recursive programs.
	// Both solvers race, as for safety, Spacer first: it proves the
	// absence where the diagrams grow (dive_stopped at 2,2: 0.8 s
	// against 6.2 s; retry_recursive_stops at 2,2: 1.5 s against 44 s),
	// the diagrams find deep livelocks sooner (keyframe_deep_stem at
	// 1,1: 0.3 s against 31 s), which the explicit search finds too.
	keyframes := func() {
		solvers := []string{o.Solver}
		if o.Solver == "gini" && !o.SolverStated {
			solvers = []string{"gini", "bdd"}
		}
		for _, s := range solvers {
			so := o
			so.Solver = s
			pl.add(keyframeEngine(s), 1, 0, func(ctx context.Context, _ io.Writer) (*result.Result, error) {
				res, err := keyframeLivelock(ctx, p, so, lb)
				var refused notTranslated
				if errors.As(err, &refused) {
					return nil, &UsageError{fmt.Sprintf("--lasso: the keyframe translation: %v", refused.error)}
				}
				return res, err
			})
			// The depth bound is ours unless the user stated it: an
			// answer cut by it waits for the summaries'. A stated one is
			// the user's, and the search's "depth bound reached"
			// answers it.
			pl.Candidates[len(pl.Candidates)-1].AnyDepth = !o.DepthStated
		}
		pl.Question = fmt.Sprintf("a livelock within %s, %s (none at any call depth, if so)", lb, o.Bounds.depthWords())
		if !o.DepthStated {
			pl.Question = fmt.Sprintf("a livelock within %s, any call depth", lb)
		}
	}
	refused := fairness.Supported(p)
	switch {
	case pin.engine == "summaries" && pin.seq != "" && pin.seq != "eager":
		return &UsageError{fmt.Sprintf("--lasso: the summary engine decides the lasso translation with keyframes (--seq eager), not --seq %s", o.Seq)}
	case pin.engine == "summaries":
		keyframes()
	case pin.engine == "explicit":
		explicitCandidate()
	case pin.seq == "direct":
		direct()
	case pin.seq == "eager" && refused != nil:
		return &UsageError{fmt.Sprintf("--lasso: %v; use --seq direct or --engine explicit", refused)}
	case refused != nil:
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bmc: %v; deciding the lasso on the interleaving product instead\n", refused)
		}
		if pin.engine == "" {
			explicitCandidate()
		}
		direct()
	case pin.engine != "" || pin.seq != "":
		pl.add("bmc+"+o.Solver+", lasso translation", 2, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return translationLivelock(ctx, p, o, lb, true, progress)
		})
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
			pl.add("fair cycles+bdd, every interleaving", 1, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
				return cycleLivelock(ctx, p, o, lb, progress)
			})
		}
		if p.Recursive() {
			keyframes()
		}
		pl.add("bmc+"+o.Solver+", lasso translation", 2, 0, func(ctx context.Context, progress io.Writer) (*result.Result, error) {
			return translationLivelock(ctx, p, o, lb, false, progress)
		})
	}
	return nil
}

// lassoSeq reports whether --seq seq goes with --lasso: the plan's
// choice, the lasso translation (eager) or the interleaving product
// (direct).
func lassoSeq(seq string) bool {
	s := pinsOf(Options{Seq: seq}).seq
	return s == "" || s == "eager" || s == "direct"
}

// exportMethod is the encoding bmc export writes for --seq method (auto:
// the interleaving product, which check and prove decide without a
// sequentialization's blow-up).
func exportMethod(method string) string {
	if m := pinsOf(Options{Seq: method}).seq; m != "" {
		return m
	}
	return "direct"
}

// unwindingAllowed says whether the bmc engine may decide a looping
// program by unwinding its loops (raced with its proof engine) and the
// direct lasso race several proof engines: only when no particular
// proof engine or proof was asked for.
func unwindingAllowed(po *ProofOptions) bool {
	return po != nil && pinsOf(Options{Proof: *po}).method == "" && po.Certificate == nil
}
