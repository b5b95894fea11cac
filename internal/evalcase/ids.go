package evalcase

import "hash/maphash"

// index is pass 1's index of cases (README "Results, scope and memory"): each case's ref in a slot,
// found by its id. The refs stand in chunks and the ids end to end in chunks of text, behind a map
// keyed by a hash of the id; slots whose ids share a hash are chained through their refs. None of it
// holds a pointer the collector has to scan, and growing it never copies what it holds.
type index struct {
	seed  maphash.Seed
	refs  [][]caseRef // refChunk each, the last one filling
	text  [][]byte    // at most textChunk bytes each (an id longer than that has one of its own)
	last  map[uint64]int32
	count int32
}

const (
	refChunk  = 4096
	textChunk = 64 << 10
)

func newIndex() *index { return &index{seed: maphash.MakeSeed(), last: map[uint64]int32{}} }

// len is how many cases there are.
func (x *index) len() int { return int(x.count) }

// at is the ref in slot.
func (x *index) at(slot int32) *caseRef { return &x.refs[slot/refChunk][slot%refChunk] }

// find returns the slot of the case id.
func (x *index) find(id string) (int32, bool) {
	slot, ok := x.last[maphash.String(x.seed, id)]
	for ok && slot >= 0 {
		ref := x.at(slot)
		if x.id(ref) == id {
			return slot, true
		}
		slot = ref.sameHash
	}
	return 0, false
}

// add puts ref in the next slot, with id.
func (x *index) add(ref caseRef, id string) {
	slot := x.count
	h := maphash.String(x.seed, id)
	ref.sameHash = -1
	if prev, ok := x.last[h]; ok {
		ref.sameHash = prev
	}
	x.last[h] = slot
	n := len(x.text)
	if n == 0 || len(x.text[n-1])+len(id) > cap(x.text[n-1]) {
		x.text = append(x.text, make([]byte, 0, max(textChunk, len(id))))
		n++
	}
	ref.idChunk, ref.idOff, ref.idLen = uint32(n-1), uint32(len(x.text[n-1])), uint32(len(id))
	x.text[n-1] = append(x.text[n-1], id...)
	if slot%refChunk == 0 {
		x.refs = append(x.refs, make([]caseRef, 0, refChunk))
	}
	x.refs[len(x.refs)-1] = append(x.refs[len(x.refs)-1], ref)
	x.count++
}

// id is ref's case id.
func (x *index) id(ref *caseRef) string {
	return string(x.text[ref.idChunk][ref.idOff : ref.idOff+ref.idLen])
}
