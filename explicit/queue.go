package explicit

// cost is what a path of the search has used: statements executed, then
// context switches. Paths are compared statements first, so the search
// finds a violation with the fewest statements, and among those one with
// the fewest context switches.
type cost struct{ stmts, switches int32 }

func (a cost) less(b cost) bool {
	return a.stmts < b.stmts || a.stmts == b.stmts && a.switches < b.switches
}

func (a cost) plus(b cost) cost { return cost{a.stmts + b.stmts, a.switches + b.switches} }

// costQueue hands out state ids in order of cost (a bucket queue). A
// push is never cheaper than the last pop, as in any search whose steps
// have no negative cost.
type costQueue struct {
	base    int32       // the statements of buckets[0]
	buckets [][][]int32 // by statements - base, then by switches
	sw      int         // the switches of the bucket being popped
	head    int         // the next id of that bucket
}

func (q *costQueue) push(id int32, at cost) {
	i := int(at.stmts - q.base)
	for len(q.buckets) <= i {
		q.buckets = append(q.buckets, nil)
	}
	level := q.buckets[i]
	for len(level) <= int(at.switches) {
		level = append(level, nil)
	}
	level[at.switches] = append(level[at.switches], id)
	q.buckets[i] = level
}

// pop returns a cheapest id and its cost; ok is false when none is left.
func (q *costQueue) pop() (id int32, at cost, ok bool) {
	for len(q.buckets) > 0 {
		level := q.buckets[0]
		for q.sw < len(level) {
			if b := level[q.sw]; q.head < len(b) {
				q.head++
				return b[q.head-1], cost{q.base, int32(q.sw)}, true
			}
			level[q.sw] = nil // drained: let it be collected
			q.sw, q.head = q.sw+1, 0
		}
		q.buckets = q.buckets[1:]
		q.base, q.sw, q.head = q.base+1, 0, 0
	}
	return 0, cost{}, false
}
