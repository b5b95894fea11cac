package evalcase

import "hash/maphash"

// index is pass 1's index of cases (README "Results, scope and memory"): each case's ref in a slot,
// found by its id. The refs stand in chunks and the ids end to end in chunks of text, found through
// an open-addressing table of slots keyed by a hash of the id. None of it holds a pointer the
// collector has to scan, and growing it never copies the refs or the ids.
type index struct {
	seed  maphash.Seed
	refs  [][]caseRef // refChunk each, the last one filling
	text  [][]byte    // at most textChunk bytes each (an id longer than that has one of its own)
	table []uint64    // per entry: the id's hash's high 32 bits, then slot+1; 0 is empty. At most half full.
	count int32
}

const (
	refChunk  = 4096
	textChunk = 64 << 10
)

func newIndex() *index { return &index{seed: maphash.MakeSeed(), table: make([]uint64, 1024)} }

// len is how many cases there are.
func (x *index) len() int { return int(x.count) }

// at is the ref in slot.
func (x *index) at(slot int32) *caseRef { return &x.refs[slot/refChunk][slot%refChunk] }

// find returns the slot of the case id.
func (x *index) find(id string) (int32, bool) {
	h := maphash.String(x.seed, id)
	mask := uint64(len(x.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := x.table[i]
		if e == 0 {
			return 0, false
		}
		if e>>32 == h>>32 {
			slot := int32(e&(1<<32-1)) - 1
			ref := x.at(slot)
			if string(x.text[ref.idChunk][ref.idOff:ref.idOff+ref.idLen]) == id {
				return slot, true
			}
		}
	}
}

// add puts ref in the next slot, with id, which is not in the index yet.
func (x *index) add(ref caseRef, id string) {
	slot := x.count
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
	if int(x.count)*2 > len(x.table) {
		x.grow()
	}
	h := maphash.String(x.seed, id)
	x.put(h, h>>32<<32|uint64(slot+1))
}

// grow doubles the table.
func (x *index) grow() {
	old := x.table
	x.table = make([]uint64, 2*len(old))
	for _, e := range old {
		if e != 0 {
			r := x.at(int32(e&(1<<32-1)) - 1)
			x.put(maphash.Bytes(x.seed, x.text[r.idChunk][r.idOff:r.idOff+r.idLen]), e)
		}
	}
}

// put stores entry e for hash h in the first free place from h on.
func (x *index) put(h, e uint64) {
	mask := uint64(len(x.table) - 1)
	i := h & mask
	for x.table[i] != 0 {
		i = (i + 1) & mask
	}
	x.table[i] = e
}

// id is ref's case id.
func (x *index) id(ref *caseRef) string {
	return string(x.text[ref.idChunk][ref.idOff : ref.idOff+ref.idLen])
}
