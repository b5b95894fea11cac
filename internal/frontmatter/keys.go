package frontmatter

// keyIndex finds a key among the entries a mapping has so far: by looking at each while they are
// few, through a map once there are more than keyIndexFrom, so that reading a mapping of n keys costs
// n lookups, not n² comparisons (170,000 keys in 1 MiB of frontmatter took minutes). Every reader
// of mappings (YAML, its fast path, JSON) checks keys through one.
type keyIndex struct{ m map[string]int }

const keyIndexFrom = 16

// find is the index in entries of the entry whose key is key, or -1.
func (x *keyIndex) find(entries []Entry, key string) int {
	if x.m != nil {
		if j, ok := x.m[key]; ok {
			return j
		}
		return -1
	}
	for j := range entries {
		if entries[j].Key == key {
			return j
		}
	}
	return -1
}

// added notes the last of entries, just appended with a key find did not find.
func (x *keyIndex) added(entries []Entry) {
	switch n := len(entries); {
	case x.m != nil:
		x.m[entries[n-1].Key] = n - 1
	case n > keyIndexFrom:
		x.m = make(map[string]int, 2*n)
		for j, e := range entries {
			x.m[e.Key] = j
		}
	}
}
