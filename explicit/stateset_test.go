package explicit

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// TestStateSet checks the set against a map: ids in the order of
// insertion, the same id for a key found again, keys kept intact across
// the table's growth and chunk boundaries (a key longer than a chunk
// included), and a key buffer reused by the caller.
func TestStateSet(t *testing.T) {
	tests := []struct {
		name string
		keys func(r *rand.Rand) [][]byte
	}{
		{"empty key", func(*rand.Rand) [][]byte { return [][]byte{{}, {}, {0}, {}} }},
		{"many short keys, half of them again", func(r *rand.Rand) [][]byte {
			var ks [][]byte
			for i := 0; i < 20000; i++ {
				ks = append(ks, []byte(fmt.Sprint(r.Intn(10000))))
			}
			return ks
		}},
		{"keys that fill chunks", func(r *rand.Rand) [][]byte {
			var ks [][]byte
			for i := 0; i < 300; i++ {
				k := make([]byte, 1+r.Intn(chunkSize/100))
				r.Read(k)
				ks = append(ks, k, k)
			}
			return ks
		}},
		{"a key longer than a chunk", func(r *rand.Rand) [][]byte {
			long := bytes.Repeat([]byte{7}, chunkSize+3)
			return [][]byte{{1}, long, {2}, long, {1}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ss, want := newStateSet(), map[string]int32{}
			var buf []byte
			for _, k := range tc.keys(rand.New(rand.NewSource(1))) {
				buf = append(buf[:0], k...)
				id, added := ss.insert(buf)
				wantID, known := want[string(k)]
				if !known {
					wantID = int32(len(want))
					want[string(k)] = wantID
				}
				if id != wantID || added == known {
					t.Fatalf("insert(%d bytes) = %d, %v; want %d, %v", len(k), id, added, wantID, !known)
				}
				if len(buf) > 0 {
					buf[0] ^= 0xff // the set keeps its own copy
				}
			}
			if ss.len() != len(want) {
				t.Errorf("len %d, want %d", ss.len(), len(want))
			}
			for k, id := range want {
				if got := ss.key(id); string(got) != k {
					t.Errorf("key(%d): %d bytes, not the %d inserted", id, len(got), len(k))
				}
			}
		})
	}
}
