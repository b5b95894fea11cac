// Package evalcase implements the EvalCase v1 contract (as README "EvalCase v1 fixtures"
// decides it): JSONL fixtures of cases, validated field by
// field, and the six deterministic assertions run on candidate outputs.
//
// A run streams (Stream, Check). Pass 1 reads every selected candidates file
// line by line, validates each candidate and keeps an index of case id →
// file, byte offset, length and line of its first candidate. Pass 2 reads
// every fixture line by line, validates each case and, when a candidate
// names it, re-reads that candidate by offset and runs the case's
// assertions. Each case line is read and decoded once. No case or candidate
// text outlives its check, so memory grows only by the index.
//
// Lines are decoded into typed structs (the fast path, fast.go: the hand
// scanner of scan.go, else encoding/json), which reports nothing. A line the fast path doubts goes to the
// authoritative validation (schema.go): it is parsed once into a positioned
// tree by frontmatter.ParseJSON (syntax_error, invalid_utf8 and duplicate_key
// come from it) and held against the tables of the checking kit
// internal/shape, then EvalCase's own rules; every fault is at the position
// of the node it is about and names its field (assertions[1].params.max).
// Result positions are 1-based lines and code-point columns.
//
// Placeholder tokenisation: syntax.go (printf and Python), icu.go (ICU
// MessageFormat), placeholder.go (custom patterns, the auto union and the
// comparison with its codes). The assertion vocabulary is the one registry
// Vocabulary (vocab.go).
package evalcase
