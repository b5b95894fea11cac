package evalcase

import "encoding/json"

// paramsOf decodes an assertion's params, which are validated before they are graded, into T;
// "" (no params) is T's zero value.
func paramsOf[T any](raw string) T {
	var p T
	if raw != "" {
		json.Unmarshal([]byte(raw), &p) // validated before it is graded
	}
	return p
}

var (
	protocolCache    = newMemo(1024, paramsOf[protocolParams])
	placeholderCache = newMemo(1024, paramsOf[placeholderParams])
	forbiddenCache   = newMemo(1024, paramsOf[forbiddenParams])
	maxCharsCache    = newMemo(1024, paramsOf[maxCharsParams])
)
