package evalcase

import "hash/maphash"

// index finds lines by the id they hold (README "Results, scope and memory"): the candidates by their
// case_id, and the cases no candidate names by their id. Each line's ref is in a slot, found by a keyed
// 64-bit hash of its id through an open-addressing table. The ids are not kept: a ref says where its
// line is, and a caller that must be sure two ids are the same reads the line again. Two different ids
// share a hash once in 2^64 (the seed is new each run, so no file can be made to collide), and as
// every caller compares the ids it reads again, a collision costs a read, never a wrong verdict. None
// of it holds a pointer the collector has to scan, and growing it never copies the refs.
type index struct {
	seed  maphash.Seed
	refs  [][]lineRef // refChunk each, the last one filling
	table []uint32    // per entry: slot+1, 0 for empty; at most half full. The hash is the slot's ref's.
	count int32
}

const refChunk = 4096

func newIndex() *index { return &index{seed: maphash.MakeSeed(), table: make([]uint32, 1024)} }

// len is how many lines it holds.
func (x *index) len() int { return int(x.count) }

// at is the ref in slot.
func (x *index) at(slot int32) *lineRef { return &x.refs[slot/refChunk][slot%refChunk] }

// hash is id's hash, as the index keys it.
func (x *index) hash(id string) uint64 { return maphash.String(x.seed, id) }

// find returns a slot whose id hashes as id does: id's own slot, but for a collision.
func (x *index) find(id string) (int32, bool) {
	slot := int32(-1)
	x.each(x.hash(id), func(s int32) bool { slot = s; return false })
	return slot, slot >= 0
}

// each calls f with every slot whose id hashes to h, until f returns false.
func (x *index) each(h uint64, f func(slot int32) bool) {
	mask := uint64(len(x.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := x.table[i]
		if e == 0 {
			return
		}
		if slot := int32(e - 1); x.at(slot).hash == h && !f(slot) {
			return
		}
	}
}

// add puts ref, the line of the id whose hash is h, in the next slot.
func (x *index) add(ref lineRef, h uint64) {
	slot := x.count
	ref.hash = h
	if slot%refChunk == 0 {
		x.refs = append(x.refs, make([]lineRef, 0, refChunk))
	}
	x.refs[len(x.refs)-1] = append(x.refs[len(x.refs)-1], ref)
	x.count++
	if int(x.count)*2 > len(x.table) {
		x.grow()
	}
	x.put(h, uint32(slot+1))
}

// grow doubles the table.
func (x *index) grow() {
	old := x.table
	x.table = make([]uint32, 2*len(old))
	for _, e := range old {
		if e != 0 {
			x.put(x.at(int32(e-1)).hash, e)
		}
	}
}

// put stores entry e for hash h in the first free place from h on.
func (x *index) put(h uint64, e uint32) {
	mask := uint64(len(x.table) - 1)
	i := h & mask
	for x.table[i] != 0 {
		i = (i + 1) & mask
	}
	x.table[i] = e
}
