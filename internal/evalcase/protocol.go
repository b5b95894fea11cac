package evalcase

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// protocolParams are protocol_complete's params.
type protocolParams struct {
	ExpectedItems   *float64 `json:"expected_items"` // integral, validated before it is graded
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

// parseItems splits a response into items (README "EvalCase v1 fixtures"): an item starts
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

// malformedItem is the message and detail of item i (0-based), numbered n,
// after the highest number prev, malformed for reason.
func malformedItem(i, n, prev int, reason string) (string, map[string]any) {
	switch reason {
	case "number":
		return fmt.Sprintf("item %d has a number too large to read", i+1), map[string]any{"item": i + 1, "reason": reason}
	case "repeat":
		return fmt.Sprintf("item [%d] repeats", n), map[string]any{"item": n, "reason": reason}
	case "gap":
		return fmt.Sprintf("a gap before item [%d]: expected [%d]", n, prev+1), map[string]any{"item": n, "reason": reason, "expected": prev + 1}
	}
	if n == 0 {
		return "items are numbered from [1], got [0]", map[string]any{"item": 0, "reason": reason, "expected": prev + 1}
	}
	return fmt.Sprintf("item [%d] is out of order after [%d]", n, prev), map[string]any{"item": n, "reason": reason, "expected": prev + 1}
}

func runProtocol(in *input, raw []byte) verdict {
	p := protocolCache.getBytes(raw)
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
			v.fail("protocol_missing_terminator", fmt.Sprintf("the terminator %s is missing from the %s", quote(short(term)), read), map[string]any{"terminator": term})
		} else {
			body = resp[:idx]
		}
	}
	items := parseItems(body)
	seen := map[int]bool{}
	prev := 0
	for i, it := range items {
		reason := ""
		switch {
		case it.n < 0:
			reason = "number"
		case seen[it.n]:
			reason = "repeat"
		case it.n > prev+1:
			reason = "gap"
		case it.n < prev+1:
			reason = "order"
		}
		if reason != "" && v.wants("protocol_malformed_item") {
			msg, detail := malformedItem(i, it.n, prev, reason)
			v.record("protocol_malformed_item", msg, detail)
		}
		if it.n >= 0 {
			seen[it.n] = true
			prev = max(prev, it.n)
		}
		if it.empty && v.wants("protocol_malformed_item") {
			v.record("protocol_malformed_item", fmt.Sprintf("item [%d] is empty", it.n), map[string]any{"item": it.n, "reason": "empty"})
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
	if !v.failed() {
		v.passMsg = "protocol complete: " + strconv.Itoa(k) + " item(s)"
		if p.Terminator != nil {
			v.passMsg += " and the terminator"
		}
		return v
	}
	v.evidence = map[string]any{"read": read, "actual_items": k}
	diag.PutList(v.evidence, "numbers", len(items), func(i int) any { return items[i].n })
	if p.Terminator != nil {
		v.evidence["terminator"] = *p.Terminator
		v.evidence["terminator_found"] = termFound
	}
	if p.ExpectedItems != nil {
		v.evidence["expected_items"] = int(*p.ExpectedItems)
	}
	return v
}
