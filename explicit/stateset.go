package explicit

import "hash/maphash"

// stateSet holds the keys of the states a search has found, by id, and
// finds the id of a key. The keys lie end to end in large chunks of
// bytes and the table holds ids, so that nothing in the set is a pointer
// per state: the garbage collector traces every pointer of the live heap
// in each of its cycles, and a map of strings would give it one per
// state to trace again in every cycle, cycles that come often when other
// engines allocate in the same process (the plan's race,
// docs/BENCHMARKS.md "Bounded safety").
type stateSet struct {
	seed   maphash.Seed
	chunks [][]byte // keys end to end; a chunk is never grown, so keys stay put
	refs   []keyRef // by id
	slots  []int32  // open addressing, linear probing: id+1, 0 when empty
}

// keyRef is where a key lies, with its hash, which spares most key
// comparisons and rehashing when the table grows.
type keyRef struct {
	hash       uint32
	chunk      uint32
	start, end uint32
}

// Chunks of keys start small, as the livelock search makes a set for
// each loop it tries, and double up to chunkSize (a longer key gets a
// chunk of its own).
const (
	firstChunkSize = 4 << 10
	chunkSize      = 1 << 20
)

func newStateSet() *stateSet {
	return &stateSet{seed: maphash.MakeSeed(), slots: make([]int32, 64)}
}

// len is the number of keys.
func (ss *stateSet) len() int { return len(ss.refs) }

// key is the key of id; the caller must not change it.
func (ss *stateSet) key(id int32) []byte {
	r := ss.refs[id]
	return ss.chunks[r.chunk][r.start:r.end:r.end]
}

// insert returns the id of key, adding a copy of it with the next id
// when it is new (added).
func (ss *stateSet) insert(key []byte) (id int32, added bool) {
	h := uint32(maphash.Bytes(ss.seed, key))
	mask := uint32(len(ss.slots) - 1)
	i := h & mask
	for ; ss.slots[i] != 0; i = (i + 1) & mask {
		id := ss.slots[i] - 1
		if r := ss.refs[id]; r.hash == h && string(ss.chunks[r.chunk][r.start:r.end]) == string(key) {
			return id, false
		}
	}
	id = int32(len(ss.refs))
	ss.refs = append(ss.refs, ss.store(key, h))
	ss.slots[i] = id + 1
	if 4*len(ss.refs) > 3*len(ss.slots) {
		ss.grow()
	}
	return id, true
}

// store copies key into the last chunk, or a new one when it does not
// fit.
func (ss *stateSet) store(key []byte, h uint32) keyRef {
	last := len(ss.chunks) - 1
	if last < 0 || len(ss.chunks[last])+len(key) > cap(ss.chunks[last]) {
		size := firstChunkSize
		if last >= 0 {
			size = min(2*cap(ss.chunks[last]), chunkSize)
		}
		ss.chunks = append(ss.chunks, make([]byte, 0, max(size, len(key))))
		last++
	}
	start := len(ss.chunks[last])
	ss.chunks[last] = append(ss.chunks[last], key...)
	return keyRef{hash: h, chunk: uint32(last), start: uint32(start), end: uint32(start + len(key))}
}

// grow doubles the table.
func (ss *stateSet) grow() {
	ss.slots = make([]int32, 2*len(ss.slots))
	mask := uint32(len(ss.slots) - 1)
	for id, r := range ss.refs {
		i := r.hash & mask
		for ss.slots[i] != 0 {
			i = (i + 1) & mask
		}
		ss.slots[i] = int32(id) + 1
	}
}
