package diag

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// NearMiss returns the candidate closest to s, for a "did you mean" hint, and whether one is close
// enough to offer: within edit distance 2 of s, and not as far as s is long (a name of two letters,
// both different, is no near miss). Letters compare without case and '-' equals '_', so BROKEN-LINK
// finds broken_link. Ties go to the earlier candidate, so the hint is the same on every run.
func NearMiss(s string, candidates []string) (string, bool) {
	key := nearKey(s)
	n := utf8.RuneCountInString(key)
	limit := min(2, n-1)
	best, bestDist := "", limit+1
	for _, c := range candidates {
		c0 := nearKey(c)
		if abs(utf8.RuneCountInString(c0)-n) > limit {
			continue // at least that many edits apart: a key of a megabyte costs no more than a short one
		}
		if d := editDistance(key, c0); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, best != "" && best != s
}

func nearKey(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "-", "_")
}

// editDistance is the Levenshtein distance between a and b, in code points.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Suggest is the "did you mean" end of a message about the unknown name s:
// `; did you mean "X"?` when NearMiss offers X among candidates, else "",
// in the words of an unknown key's hint.
func Suggest(s string, candidates []string) string {
	if near, ok := NearMiss(s, candidates); ok {
		return "; did you mean " + strconv.Quote(near) + "?"
	}
	return ""
}

func abs(n int) int { return max(n, -n) }
