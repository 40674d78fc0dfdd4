package driver

import (
	"errors"
	"fmt"

	"bmc/cover"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// parameterized says whether the question is about every number of
// threads: the user asked (--max-threads '*'), or the program can start
// unboundedly many and the user stated no thread bound and pinned no
// engine that needs one.
func parameterized(p *ir.Program, o method.Options, pin pins) bool {
	if o.Bounds.AnyThreads {
		return true
	}
	return !o.ThreadsStated && pin.engine == "" && pin.seq == "" && p.ThreadsUnbounded()
}

// parameterizedSafety plans bmc check for every number of threads:
// coverability decides every interleaving; under a context bound its
// proof holds a fortiori, and a violation it finds is searched for
// within the bound with the threads it needs. The explicit engine runs
// beside it within --max-threads: a violation it finds is a violation
// for some number of threads. The linear interfaces answer -k K, and
// without a bound try k = 1, 2, ... with the adequacy check where the
// threads all exist from the start (proveByRounds).
func (pl *Plan) parameterizedSafety(p *ir.Program, o method.Options, pin pins) error {
	coverErr := cover.Supported(p) // the linear interfaces take the same programs
	_, bounded := o.Bounds.Context()
	refused := func(err error) error {
		if un := (*cover.Unsupported)(nil); errors.As(err, &un) {
			return &result.UsageError{Msg: method.Placed(p, err)}
		}
		return err
	}
	interfaces := func() { pl.add(method.Interfaces(p, o)) }
	pl.Question = "a violation within " + o.Bounds.Words() + ", " + method.EveryThreadCount
	pl.anyThreads = true
	switch {
	case o.Bounds.AnyThreads && (pin.seq != "" || pin.engine != "" && pin.engine != method.EngineCoverability && pin.engine != method.EngineInterfaces):
		return &result.UsageError{Msg: "--max-threads '*' asks about every number of threads, which only --engine coverability and --engine interfaces answer"}
	case pin.engine == method.EngineCoverability && coverErr != nil:
		return refused(coverErr)
	case pin.engine == method.EngineInterfaces && coverErr != nil:
		return refused(coverErr)
	case pin.engine == method.EngineInterfaces && o.Bounds.Switches >= 0:
		return &result.UsageError{Msg: "--engine interfaces counts rounds (-k K), not context switches"}
	case pin.engine == method.EngineInterfaces:
		interfaces()
		return nil
	case coverErr != nil && o.Bounds.AnyThreads:
		return &result.UsageError{Msg: fmt.Sprintf("--max-threads '*' needs coverability, which does not take this program: %v", coverErr)}
	case coverErr != nil:
		// The bounded plan, within --max-threads; an open answer says
		// why not every number of threads.
		pl.anyThreads = false
		pl.Question = "a violation within " + o.Bounds.Words()
		if un := (*cover.Unsupported)(nil); errors.As(coverErr, &un) {
			pl.note = fmt.Sprintf("coverability, which asks about every number of threads, does not take this program (%s)", method.Placed(p, coverErr))
		}
		return nil
	}
	pl.add(method.Coverability(p, o))
	if pin.engine != "" {
		return nil
	}
	pl.add(method.ExplicitSomeThreads(p, o))
	if o.Bounds.Rounds > 0 || !bounded {
		// Third: the explicit search within --max-threads usually ends
		// soon (the thread bound), where the adequacy game may not.
		interfaces()
	}
	return nil
}
