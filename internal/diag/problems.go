package diag

import "fmt"

// MaxFileFaults bounds the faults reported for one file (README "Limits"): a file of two million bad
// entries would otherwise take gigabytes to hold and make a report hundreds of times its size. Past
// it, faults are counted, and the first one not reported says how many there are (MoreFaults).
const MaxFileFaults = 1000

// MoreFaults is the message of the fault that stands for n more of a file's faults.
func MoreFaults(n int) string { return fmt.Sprintf("%d more faults in this file are not reported", n) }

// FileProblems gathers the problems of one file, at most MaxFileFaults of them. The zero value is
// empty and ready to use.
type FileProblems struct {
	list  []Problem
	more  int
	first Problem // the first problem past the bound
}

// Add adds ps.
func (f *FileProblems) Add(ps ...Problem) {
	for _, p := range ps {
		if len(f.list) < MaxFileFaults {
			f.list = append(f.list, p)
			continue
		}
		if f.more == 0 {
			f.first = p
		}
		f.more++
	}
}

// Len is how many problems were added, those not kept included.
func (f *FileProblems) Len() int { return len(f.list) + f.more }

// List is the problems kept, in the order added, and then, past the bound, the first one not kept
// saying how many there are.
func (f *FileProblems) List() []Problem {
	if f.more == 0 {
		return f.list
	}
	p := f.first
	p.Message = MoreFaults(f.more)
	return append(f.list[:len(f.list):len(f.list)], p)
}
