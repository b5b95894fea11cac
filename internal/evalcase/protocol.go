package evalcase

import (
	"fmt"
	"strings"
)

// protocolParams are protocol_complete's params.
type protocolParams struct {
	ExpectedItems   *float64 `json:"expected_items"` // integral, validated in pass 1
	Terminator      *string  `json:"terminator"`
	AllowExtraItems bool     `json:"allow_extra_items"`
}

// protoItem is one numbered item of a response.
type protoItem struct {
	n     int  // its number; -1 when too large to read
	empty bool // nothing but white space after the marker, up to the next item
}

// maxItemDigits bounds an item number: [1234567890] is read as malformed
// rather than overflowing.
const maxItemDigits = 9

// parseItems splits a response into items (PRODUCT.md §10): an item starts
// at a line that begins with [n] (n decimal digits) and runs to the next such
// line; a [n] later in a line is content; text before the first item is
// ignored.
func parseItems(body string) []protoItem {
	var items []protoItem
	for len(body) > 0 {
		line, rest, _ := strings.Cut(body, "\n")
		body = rest
		n, after, ok := itemMarker(line)
		if ok {
			items = append(items, protoItem{n: n, empty: true})
		} else {
			after = line
		}
		if len(items) > 0 && strings.TrimSpace(after) != "" {
			items[len(items)-1].empty = false
		}
	}
	return items
}

// itemMarker reads "[n]" at the start of line; after is the rest of the
// line.
func itemMarker(line string) (n int, after string, ok bool) {
	if len(line) < 3 || line[0] != '[' {
		return 0, "", false
	}
	end := digitsEnd(line, 1)
	if end == 1 || end >= len(line) || line[end] != ']' {
		return 0, "", false
	}
	digits := line[1:end]
	if len(strings.TrimLeft(digits, "0")) > maxItemDigits {
		return -1, line[end+1:], true
	}
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n, line[end+1:], true
}

func runProtocol(in *input, raw []byte) verdict {
	p := protocolCache.get(raw)
	resp, read := in.text, "text"
	if in.hasRaw {
		resp, read = in.raw, "raw_response"
	}
	var v verdict
	body := resp
	termFound := false
	if p.Terminator != nil {
		term := *p.Terminator
		idx := strings.Index(resp, term)
		termFound = idx >= 0
		if idx < 0 {
			v.fail("protocol_missing_terminator", fmt.Sprintf("the terminator %s is missing from the %s", quote(term), read), map[string]any{"terminator": term})
		} else {
			body = resp[:idx]
		}
	}
	items := parseItems(body)
	seen := map[int]bool{}
	prev := 0
	for i, it := range items {
		switch {
		case it.n < 0:
			v.fail("protocol_malformed_item", fmt.Sprintf("item %d has a number too large to read", i+1), map[string]any{"item": i + 1, "reason": "number"})
		case seen[it.n]:
			v.fail("protocol_malformed_item", fmt.Sprintf("item [%d] repeats", it.n), map[string]any{"item": it.n, "reason": "repeat"})
		case it.n > prev+1:
			v.fail("protocol_malformed_item", fmt.Sprintf("a gap before item [%d]: expected [%d]", it.n, prev+1), map[string]any{"item": it.n, "reason": "gap", "expected": prev + 1})
		case it.n == 0:
			v.fail("protocol_malformed_item", "items are numbered from [1], got [0]", map[string]any{"item": 0, "reason": "order", "expected": prev + 1})
		case it.n < prev+1:
			v.fail("protocol_malformed_item", fmt.Sprintf("item [%d] is out of order after [%d]", it.n, prev), map[string]any{"item": it.n, "reason": "order", "expected": prev + 1})
		}
		if it.n >= 0 {
			seen[it.n] = true
			prev = max(prev, it.n)
		}
		if it.empty {
			v.fail("protocol_malformed_item", fmt.Sprintf("item [%d] is empty", it.n), map[string]any{"item": it.n, "reason": "empty"})
		}
	}
	k := len(items)
	if p.ExpectedItems != nil {
		want := int(*p.ExpectedItems)
		switch {
		case k < want:
			v.fail("protocol_missing_item", fmt.Sprintf("%d of %d expected items", k, want), map[string]any{"expected_items": want, "actual_items": k})
		case k > want && !p.AllowExtraItems:
			v.fail("protocol_extra_item", fmt.Sprintf("%d items, %d expected", k, want), map[string]any{"expected_items": want, "actual_items": k})
		}
	} else if k == 0 {
		v.fail("protocol_malformed_item", "no numbered item ([1] at the start of a line) found", map[string]any{"reason": "none"})
	}
	if len(v.faults) == 0 {
		v.passMsg = fmt.Sprintf("protocol complete: %d item(s)", k)
		if p.Terminator != nil {
			v.passMsg += " and the terminator"
		}
		return v
	}
	numbers := make([]any, len(items))
	for i, it := range items {
		numbers[i] = it.n
	}
	v.evidence = map[string]any{"read": read, "actual_items": k, "numbers": numbers}
	if p.Terminator != nil {
		v.evidence["terminator"] = *p.Terminator
		v.evidence["terminator_found"] = termFound
	}
	if p.ExpectedItems != nil {
		v.evidence["expected_items"] = int(*p.ExpectedItems)
	}
	return v
}
