package result

import "fmt"

// Fairness is the condition a livelock (a fair ultimately periodic
// execution) must meet on its repeating loop, where "infinitely often"
// means "somewhere in the loop" and "continuously" means "at every
// configuration of the loop" (mutant-fair-nontermination, section 2).
type Fairness int

const (
	// StrongFairness: a thread that takes no step in the loop is
	// terminated or blocked throughout it, waiting in acquire on a lock
	// another thread holds at every configuration of the loop.
	StrongFairness Fairness = iota
	// WeakFairness: a thread that takes no step in the loop is
	// terminated, or blocked at some configuration of the loop.
	WeakFairness
	// NoFairness: any loop with at least one step.
	NoFairness
)

var fairnessNames = [...]string{"strong", "weak", "none"}

func (f Fairness) String() string { return fairnessNames[f] }

// ParseFairness reads a --fairness value.
func ParseFairness(s string) (Fairness, error) {
	for i, n := range fairnessNames {
		if s == n {
			return Fairness(i), nil
		}
	}
	return 0, fmt.Errorf("unknown fairness %q (want strong, weak or none)", s)
}

// LassoBound bounds the livelock search: round-robin executions of Stem
// rounds followed by a loop of Loop rounds that ends in the configuration
// it started from, and the fairness the loop must meet. A shorter stem or
// loop is one padded with empty rounds, so the bound covers them too.
type LassoBound struct {
	Stem, Loop int
	Fairness   Fairness
}

func (b LassoBound) String() string {
	f := map[Fairness]string{StrongFairness: "strongly fair", WeakFairness: "weakly fair", NoFairness: "fair or not"}[b.Fairness]
	return fmt.Sprintf("a stem of %s and a loop of %s (%s)",
		Plural(b.Stem, "round"), Plural(b.Loop, "round"), f)
}
