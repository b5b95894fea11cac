// Package jev implements jevcheck v0.1 contracts (the jevcheck contract
// v0.1, as README "jevcheck v0.1 contracts" decides it) for evalgate: it loads a
// contract from JSON (one object) or JSONL (one case a line after an optional
// _meta line) and validates every rule of the spec, loads replay files, runs
// eval (the contract against a replayed candidate) and compare (the baseline
// replay's answers become the expectations), and writes the summary of
// `evalgate jev`.
//
// Each JSON text (a JSON file, or one line of a JSONL file) is parsed once by
// frontmatter.ParseJSON into a positioned Node tree, which reports syntax
// errors, invalid UTF-8 and duplicate keys at their positions in the same
// pass. The validators walk the Nodes: a fault takes its position from the
// value's Pos, or from its entry's KeyPos when the fault is about a key, and
// the keys of an `expect` keep their text order in the Node's entries. A
// contract and a replay keep only what eval and compare read, positions
// included; the trees are dropped once validated (a JSONL contract's line by
// line).
//
// Where the spec and the reference tool differ, the spec wins, with the
// decisions of README "jevcheck v0.1 contracts" "jevcheck v0.1".
package jev
