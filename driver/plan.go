package driver

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"bmc/cover"
	"bmc/encode"
	"bmc/fairness"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/seq"
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
	Why   string        // why it stands where it does (the plan table's row)
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
		if c.Why != "" {
			fmt.Fprintf(&b, "     why: %s\n", c.Why)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// pins are the parts of the plan the options fix; "" leaves a part to
// the plan.
type pins struct {
	engine method.Engine
	seq    method.Seq
	method method.ProofMethod
}

// task is what a plan is made for: the program, the question with its
// options, and what the plan's tables ask of them.
type task struct {
	ctx     context.Context // the run's: its memory limit
	p       *ir.Program
	o       method.Options
	q       method.Question
	lb      result.LassoBound
	pin     pins
	bounded bool      // by rounds or switches
	bd      seq.Bound // the context bound, when bounded
	programFacts
}

// programFacts are what the plan asks of the program, found once: its
// tables and checks read these, and call no lower layer themselves.
type programFacts struct {
	sequential bool // one thread (encode.KindSequential takes it)
	recursive  bool
	// Why an encoding or an engine does not take the program (nil: it
	// does): the interleaving product at the call depth, its base for
	// the decision diagrams, coverability (and the linear interfaces),
	// the lasso translation, the summary engine's product encoding, the
	// thread instances.
	directErr, baseErr, coverErr, lassoErr, productErr, instancesErr error
	threadsUnbounded                                                 bool
	// counted: the counter abstraction takes the program and a thread
	// group has two instances or more, whose interchangeable states it
	// counts.
	counted bool
	// foldedSafe: once the globals that keep one value are folded
	// (ir.FoldConstantGlobals), the control flow leaves no violation
	// (ir.MayViolate), which the summary engine's product sees at once.
	foldedSafe bool
	// ownWrites: three threads or more, each writing globals of its own
	// (ir.OwnWrites), whose pairs' views decide what the product's
	// reachable states grow too large for.
	ownWrites bool
}

// factsOf finds the program facts of p at the call depth.
func factsOf(p *ir.Program, depth int) programFacts {
	_, instancesErr := p.Instances()
	folded, _ := ir.FoldConstantGlobals(p)
	return programFacts{
		foldedSafe:       !ir.MayViolate(folded),
		ownWrites:        ir.OwnWrites(p),
		sequential:       encode.Supported(p, encode.KindSequential, depth) == nil,
		recursive:        p.Recursive(),
		directErr:        encode.Supported(p, encode.KindDirect, depth),
		baseErr:          encode.BaseSupported(p),
		coverErr:         cover.Supported(p),
		lassoErr:         fairness.Supported(p),
		productErr:       encode.ProductTakes(p),
		instancesErr:     instancesErr,
		threadsUnbounded: p.ThreadsUnbounded(),
		counted:          cover.CountedSupported(p) == nil && replicated(p),
	}
}

// replicated says whether a thread group of p has two instances or more.
func replicated(p *ir.Program) bool {
	for _, t := range p.Threads {
		if t.Count >= 2 {
			return true
		}
	}
	return false
}

// free says that no flag pins the engine or the encoding.
func (t *task) free() bool { return t.pin.engine == "" && t.pin.seq == "" }

// race says that bmc prove may race its engines: no flag pins the
// method or the encoding, and no certificate (which only PDR gives) is
// asked for.
func (t *task) race() bool {
	return t.pin.method == "" && t.pin.seq == "" && t.o.Proof.Certificate == nil
}

// makePlan makes the plan for question q on p, with lb the livelock
// bound: the options are checked (optionChecks), then the first case
// of q's table (planTables) that holds gives the methods, in order,
// that take the program. Errors are *result.UsageError for options that
// do not fit the program.
func makePlan(ctx context.Context, p *ir.Program, o method.Options, q method.Question, lb result.LassoBound) (*Plan, error) {
	if err := complete(&o, q != method.Proof); err != nil {
		return nil, err
	}
	if err := method.SolverAvailable(o.Solver); err != nil {
		return nil, err
	}
	o.Bounds = boundsFor(p, o)
	t := &task{ctx: ctx, p: p, o: o, q: q, lb: lb, pin: pins{o.Engine, o.Seq, o.Proof.Method}}
	if err := t.solverPins(); err != nil {
		return nil, err
	}
	t.programFacts = factsOf(p, t.o.Bounds.Depth)
	t.bd, t.bounded = t.o.Bounds.Context()
	pl := &Plan{Cores: o.Cores, note: t.note()}
	if candidateProcesses && o.Proof.Certificate == nil {
		// A certificate is the invariant of the proof that wins: only a
		// candidate in this process can hand it over.
		pl.command = o.Command
	}
	if pl.Cores <= 0 {
		pl.Cores = runtime.NumCPU()
	}
	if err := checkOptions(t, optionChecks); err != nil {
		return nil, err
	}
	if err := pl.fill(t, planTables[q]); err != nil {
		return nil, err
	}
	return pl, nil
}

// solverPins reads the solver bdd: decision diagrams decide summaries
// only (and reach and amplify, which prove), so the solver pins the
// summary engine where the flags leave it open.
func (t *task) solverPins() error {
	if t.o.Solver != method.SolverBDD {
		return nil
	}
	proof, pin := t.q == method.Proof, &t.pin
	switch {
	case proof && pin.method == method.ProofAmplify, proof && pin.method == method.ProofCounters,
		!proof && pin.engine == method.EngineCounters && t.q != method.Livelock:
		// The counter abstraction's configurations on decision diagrams.
	case proof && pin.method == method.ProofReach:
		// Reachability runs on diagrams of its own whatever the
		// solver; the engines around it take the default one.
		t.o.Solver = method.SolverGini
	case !proof && pin.engine != "" && pin.engine != method.EngineSummaries,
		proof && pin.method != "" && pin.method != method.ProofSummaries, pin.seq == method.SeqDirect,
		t.q == method.Livelock && pin.seq != "":
		return &result.UsageError{Msg: method.BDDOnly}
	case !proof:
		pin.engine = method.EngineSummaries
	default:
		pin.method = method.ProofSummaries
	}
	return nil
}

// fill adds the methods of the first case of cases that holds for t:
// each row whose condition holds and whose method takes the program.
// A method that does not is left out, or refused with its reason where
// the flags asked for it (planCase.pinned, planRow.must).
func (pl *Plan) fill(t *task, cases []planCase) error {
	for _, c := range cases {
		if c.when != nil && !c.when(t) {
			continue
		}
		if err := checkOptions(t, c.checks); err != nil {
			return err
		}
		if c.progress != nil && t.o.Progress != nil {
			fmt.Fprintln(t.o.Progress, "bmc: "+c.progress(t))
		}
		pl.Question, pl.anyThreads = c.question(t), c.anyThreads
		for _, r := range c.rows {
			if r.when != nil && !r.when(t) {
				continue
			}
			m := r.method(t)
			if !m.Answers(t.q) {
				return fmt.Errorf("internal error: the plan's case %q lists %s, which does not answer its question", c.name, m.Name)
			}
			if err := m.Fits(t.ctx); err != nil {
				if c.pinned || r.must {
					return &result.UsageError{Msg: err.Error()}
				}
				continue
			}
			m.AnyDepth = m.AnyDepth || r.anyDepth
			pl.Candidates = append(pl.Candidates, Candidate{Method: m, After: r.after, Why: r.why})
		}
		return nil
	}
	return fmt.Errorf("internal error: no case of the plan takes this question")
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
