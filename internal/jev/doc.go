// Package jev implements jevcheck v0.1 contracts
// (../shared/specs/jevcheck-contract-v0.1.md) for evalgate: it loads a
// contract from JSON (one object) or JSONL (one case a line after an optional
// _meta line) and validates every rule of the spec, loads replay files, runs
// eval (the contract against a replayed candidate) and compare (the baseline
// replay's answers become the expectations), and writes the summary of
// `evalgate jev`.
//
// Texts are decoded with encoding/json, which keeps no positions. One
// jsonpos.Scan per decoded text finds duplicate keys (encoding/json keeps the
// last silently) and the order and offsets of the keys of every `expect`
// (encoding/json maps lose the order the summary needs); every other position
// is located only for the results that need one, in one more scan per text.
//
// Where the spec and the reference tool differ, the spec wins, with the
// decisions of README "jevcheck v0.1 contracts" "jevcheck v0.1".
package jev
