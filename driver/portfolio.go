package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"bmc/internal/budget"
	"bmc/method"
	"bmc/result"
)

// run races the plan's candidates on the run's cores: each starts,
// in the plan's order, once its head start has passed and a core is
// free; the first decisive answer (result.Result.Settled: a verdict, or
// unknown only at the bounds the user stated, which no other engine can
// improve) wins, and the others are cancelled, and have ended, before
// run returns. An internal error ends the run as well; a candidate
// that cannot take the program (a UsageError) leaves the others to
// answer. Without a decisive answer the result is the first candidate's
// in the plan's order, with the limits the others met.
func (pl *Plan) run(ctx context.Context, progress io.Writer) (*result.Result, error) {
	r := pl.newRace(ctx, progress)
	defer r.cancel()
	r.running.Add(1)
	go r.startAll()
	var won *raceAnswer
	for done := 0; done < len(pl.Candidates) && won == nil; done++ {
		select {
		case a := <-r.answers:
			won = r.take(a)
			if won != nil {
				r.cancel() // before the core goes back, so that no other candidate starts
			}
			r.giveBack(a, won != nil)
		case <-r.ctx.Done():
			done = len(pl.Candidates) // every candidate ends with ctx
		}
	}
	r.cancel()
	r.running.Wait()
	return r.end(won)
}

// candidateRace is one run of a plan's candidates (Plan.run).
type candidateRace struct {
	pl       *Plan
	start    time.Time
	outer    context.Context // the run's, for a candidate's process to report a limit of
	ctx      context.Context // cancelled when the race is decided
	cancel   context.CancelFunc
	cores    *budget.Cores
	progress io.Writer
	answers  chan raceAnswer
	// Once every candidate has started, the core of one that ends is lent
	// to the first running candidate (as a process) with a race of its
	// own; the cores it was lent come back with its own when it ends.
	allStarted atomic.Bool
	started    []atomic.Bool
	lends      []chan int
	lent       [][]int
	running    sync.WaitGroup
	active     atomic.Int32  // candidates started and not yet answered
	idle       chan struct{} // an answer left no candidate running
	results    []*result.Result
	errs       []error
	answered   []bool
}

// raceAnswer is a candidate's answer, and the core it ran on.
type raceAnswer struct {
	i, cpu int
	res    *result.Result
	err    error
}

func (pl *Plan) newRace(ctx context.Context, progress io.Writer) *candidateRace {
	n := len(pl.Candidates)
	r := &candidateRace{pl: pl, start: time.Now(), outer: ctx, cores: budget.NewCores(pl.Cores), progress: progress,
		answers: make(chan raceAnswer, n), started: make([]atomic.Bool, n), lends: make([]chan int, n),
		lent: make([][]int, n), idle: make(chan struct{}, 1),
		results: make([]*result.Result, n), errs: make([]error, n), answered: make([]bool, n)}
	r.ctx, r.cancel = context.WithCancel(ctx)
	r.ctx = budget.WithCores(r.ctx, r.cores)
	if progress != nil && n > 1 {
		r.progress = method.Serialized(progress) // the candidates report side by side
	}
	for i := range r.lends {
		r.lends[i] = make(chan int, pl.Cores)
	}
	return r
}

// startAll starts the candidates in order: each waits for its head
// start, which ends early when no candidate runs, and then for a core,
// so that a later one never takes a core before an earlier one.
func (r *candidateRace) startAll() {
	defer r.running.Done()
	for i, cand := range r.pl.Candidates {
		wait := time.NewTimer(cand.After - time.Since(r.start))
		for waiting := cand.After > time.Since(r.start) && r.active.Load() > 0; waiting; {
			select {
			case <-wait.C:
				waiting = false
			case <-r.idle:
				waiting = r.active.Load() > 0
			case <-r.ctx.Done():
				wait.Stop()
				return
			}
		}
		wait.Stop()
		cpu, ok := r.cores.Take(r.ctx)
		if !ok {
			return
		}
		if r.ctx.Err() != nil {
			r.cores.Give(cpu)
			return
		}
		r.active.Add(1)
		r.running.Add(1)
		r.started[i].Store(true)
		go func() {
			defer r.running.Done()
			a := raceAnswer{i: i, cpu: cpu}
			if r.pl.processes() {
				a.res, a.err = r.pl.runProcess(r.outer, r.ctx, i, cpu, r.lends[i], r.progress)
			} else {
				a.res, a.err = cand.Run(r.ctx, r.progress)
			}
			r.answers <- a
		}()
	}
	r.allStarted.Store(true)
}

// take records a candidate's answer and returns the answer that wins the
// race now, or nil.
func (r *candidateRace) take(a raceAnswer) *raceAnswer {
	r.results[a.i], r.errs[a.i], r.answered[a.i] = a.res, a.err, true
	var ue *result.UsageError
	switch {
	case a.err != nil && !errors.As(a.err, &ue):
		return &a // an internal error: a bug, reported at once
	case a.err == nil && r.pl.settled(a.res, r.answered):
		return &a
	}
	// The last candidate that answers at every call depth ended without
	// a decisive answer: an answer the depth cut short before it now is
	// one.
	for i, res := range r.results {
		if res != nil && r.errs[i] == nil && r.pl.settled(res, r.answered) {
			return &raceAnswer{i: i, res: res}
		}
	}
	return nil
}

// giveBack returns the cores of the candidate that answered a, only now:
// to the pool, or, while the race goes on, lent to the own race of a
// running candidate.
func (r *candidateRace) giveBack(a raceAnswer, decided bool) {
	for _, cpu := range append(r.lent[a.i], a.cpu) {
		if decided || !r.pl.processes() || !r.allStarted.Load() {
			r.cores.Give(cpu)
			continue
		}
		j := -1
		for k, cand := range r.pl.Candidates {
			if r.started[k].Load() && !r.answered[k] && len(r.lent[k]) < cand.Cores-1 {
				j = k
				break
			}
		}
		if j < 0 {
			r.cores.Give(cpu)
			continue
		}
		r.lent[j] = append(r.lent[j], cpu)
		r.lends[j] <- cpu
		if r.progress != nil {
			why := "without a verdict"
			if a.err == nil && len(a.res.Limits) > 0 {
				why = "at " + a.res.LimitText()
			}
			fmt.Fprintf(r.progress, "plan: %s ended %s; its core goes to the own race of %s\n", r.pl.Candidates[a.i].Name, why, r.pl.Candidates[j].Name)
		}
	}
	r.lent[a.i] = nil
	if r.active.Add(-1) == 0 {
		select {
		case r.idle <- struct{}{}:
		default:
		}
	}
}

// end is the race's result once every candidate has ended: the winner's,
// or without one the plan's undecided answer.
func (r *candidateRace) end(won *raceAnswer) (*result.Result, error) {
	if won != nil {
		if won.err != nil {
			return nil, won.err
		}
		if cutByDepth(won.res) {
			// What lies beyond the depth: a violation a summary engine
			// found deeper, and the depth it needs.
			for _, res := range r.results {
				for _, l := range limitsOf(res, result.LimitDeeper) {
					if !slices.Contains(won.res.Limits, l) {
						won.res.Limits = append(won.res.Limits, l)
					}
				}
			}
		}
		return r.pl.report(won.res, won.i), nil
	}
	// Answers that came in while the others stopped.
	for len(r.answers) > 0 {
		a := <-r.answers
		r.results[a.i], r.errs[a.i] = a.res, a.err
	}
	return r.pl.undecided(r.results, r.errs)
}

// processes says whether the candidates run as processes of their own
// (see candidateEnv).
func (pl *Plan) processes() bool { return pl.command != nil && len(pl.Candidates) > 1 }

// report completes the winner's result with the plan.
func (pl *Plan) report(res *result.Result, winner int) *result.Result {
	for _, cand := range pl.Candidates {
		res.Plan = append(res.Plan, result.Candidate{Engine: cand.Name, Cores: cand.Cores, After: cand.After})
	}
	res.Winner = pl.Candidates[winner].Name
	return res
}

// undecided is the answer of a run without a decisive one: the result of
// the first candidate in the plan's order that answered (settled, if one
// did), with the limits
// the others met beside its own (a limit of one engine cut its search,
// and the others' say why they could not take over), or the first
// candidate's error when none answered.
func (pl *Plan) undecided(results []*result.Result, errs []error) (*result.Result, error) {
	// A depth-bound answer the race went on after says more than a
	// timeout or a violation deeper than the depth the user stated.
	first := slices.IndexFunc(results, func(r *result.Result) bool {
		return r != nil && r.Settled() && !(pl.anyThreads && cutByThreads(r))
	})
	if first < 0 {
		first = slices.IndexFunc(results, func(r *result.Result) bool { return r != nil })
	}
	if first < 0 {
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		// No candidate started: the run's context ended first.
		return nil, errors.New("internal error: the run ended before any engine started")
	}
	res := results[first]
	for i, r := range results {
		if i == first || r == nil {
			continue
		}
		for _, l := range r.Limits {
			if l.Kind != result.LimitStopped && !slices.Contains(res.Limits, l) {
				res.Limits = append(res.Limits, l)
			}
		}
	}
	return pl.report(res, first), nil
}

// settled says whether r ends the race, the candidates that answered
// so far known: it is settled, and not cut by a bound another candidate
// of the plan does not have (the call depth, while a candidate that
// answers at every depth has not answered; the thread bound, where one
// answers for every number of threads).
func (pl *Plan) settled(r *result.Result, answered []bool) bool {
	return r.Settled() && !(cutByDepth(r) && pl.depthPending(answered)) && !(pl.anyThreads && cutByThreads(r))
}

// depthPending says whether a candidate that answers at every call
// depth has not answered yet.
func (pl *Plan) depthPending(answered []bool) bool {
	for i, c := range pl.Candidates {
		if c.AnyDepth && !answered[i] {
			return true
		}
	}
	return false
}

// limitsOf is r's limits of kind k (none for a nil r).
func limitsOf(r *result.Result, k result.LimitKind) []result.Limit {
	if r == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(r.Limits), func(l result.Limit) bool { return l.Kind != k })
}

// cutByDepth reports whether r is an answer the call depth cut short.

func cutByThreads(r *result.Result) bool {
	return r.Verdict == result.Unknown && r.Has(result.LimitThreads)
}

func cutByDepth(r *result.Result) bool {
	return r.Verdict == result.Unknown && (r.Has(result.LimitDepth) || r.Has(result.LimitRecursion))
}
