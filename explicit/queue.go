package explicit

// cost is what a path of the search has used: statements executed, and
// context switches. The search compares paths statements first, so that
// it finds a violation with the fewest statements, and among those one
// with the fewest context switches; or, with Options.FewestSwitches,
// switches first (see costQueue.switchesFirst).
type cost struct{ stmts, switches int32 }

// deferredSwitch is the least a context switch adds to a path: the
// switch and the first statement after it.
var deferredSwitch = cost{stmts: 1, switches: 1}

func (a cost) plus(b cost) cost { return cost{a.stmts + b.stmts, a.switches + b.switches} }

// costQueue hands out state ids in order of cost (a bucket queue); a
// negative id ^i stands for the context switches of state i, deferred
// (see Checker.expand). A push is never cheaper than the last pop, as in
// any search whose steps have no negative cost.
type costQueue struct {
	// switchesFirst orders the costs by context switches, then
	// statements: every state within s switches comes before any that
	// needs s+1, as in iterative context bounding (Musuvathi and Qadeer,
	// PLDI 2007, §3), where most bugs show within two preemptions. With
	// many threads, the states of few switches are a sliver of those of
	// few statements (Burns' mutual exclusion, 10 threads, a violation
	// after 27 statements and 2 switches: 0.5 million states against
	// more than 5 million).
	switchesFirst bool
	base          int32       // the major key of buckets[0]
	buckets       [][][]int32 // by major key - base, then by minor key
	minor         int         // the minor key of the bucket being popped
	head          int         // the next id of that bucket
}

// keys are a cost's major and minor keys in the queue's order.
func (q *costQueue) keys(at cost) (major, minor int32) {
	if q.switchesFirst {
		return at.switches, at.stmts
	}
	return at.stmts, at.switches
}

// less reports whether a is cheaper than b in the queue's order.
func (q *costQueue) less(a, b cost) bool {
	a1, a2 := q.keys(a)
	b1, b2 := q.keys(b)
	return a1 < b1 || a1 == b1 && a2 < b2
}

func (q *costQueue) push(id int32, at cost) {
	major, minor := q.keys(at)
	i := int(major - q.base)
	for len(q.buckets) <= i {
		q.buckets = append(q.buckets, nil)
	}
	level := q.buckets[i]
	for len(level) <= int(minor) {
		level = append(level, nil)
	}
	level[minor] = append(level[minor], id)
	q.buckets[i] = level
}

// pop returns a cheapest id and its cost; ok is false when none is left.
func (q *costQueue) pop() (id int32, at cost, ok bool) {
	for len(q.buckets) > 0 {
		level := q.buckets[0]
		for q.minor < len(level) {
			if b := level[q.minor]; q.head < len(b) {
				q.head++
				if q.switchesFirst {
					return b[q.head-1], cost{int32(q.minor), q.base}, true
				}
				return b[q.head-1], cost{q.base, int32(q.minor)}, true
			}
			level[q.minor] = nil // drained: let it be collected
			q.minor, q.head = q.minor+1, 0
		}
		q.buckets = q.buckets[1:]
		q.base, q.minor, q.head = q.base+1, 0, 0
	}
	return 0, cost{}, false
}
