package evalcase

import "hash/maphash"

// caseIDs maps case ids to their slots in the index without a string per id (README "Results, scope and
// memory"): the ids stand end to end in one arena, the map is keyed by a hash of the id, and the slots
// whose ids share a hash are chained through their refs. None of it holds a pointer, so the collector
// never has to scan the index of a hundred thousand cases.
type caseIDs struct {
	seed  maphash.Seed
	arena []byte
	last  map[uint64]int32 // hash → the latest slot with that hash
}

func newIDs() *caseIDs { return &caseIDs{seed: maphash.MakeSeed(), last: map[uint64]int32{}} }

// find returns the slot of id in refs.
func (x *caseIDs) find(refs []caseRef, id string) (int32, bool) {
	slot, ok := x.last[maphash.String(x.seed, id)]
	for ok && slot >= 0 {
		if x.text(&refs[slot]) == id {
			return slot, true
		}
		slot = refs[slot].sameHash
	}
	return 0, false
}

// add gives id the slot len(refs), recording it in ref, which is to be appended to refs next.
func (x *caseIDs) add(ref *caseRef, slot int32, id string) {
	h := maphash.String(x.seed, id)
	ref.sameHash = -1
	if prev, ok := x.last[h]; ok {
		ref.sameHash = prev
	}
	x.last[h] = slot
	ref.idOff, ref.idLen = int64(len(x.arena)), uint32(len(id))
	x.arena = append(x.arena, id...)
}

// text is ref's id, without a copy (the arena's bytes never change; a larger arena is a new array,
// and the old one lives on as long as strings into it do).
func (x *caseIDs) text(ref *caseRef) string {
	b := x.arena[ref.idOff : ref.idOff+int64(ref.idLen)]
	return string(b)
}
