package jev

import "github.com/evalgate/evalgate/internal/diag"

// CountCases reads and validates the contract rel (repository-relative)
// under root, as Check does, and returns its number of cases; when the
// contract cannot be read or is invalid, 0 and its faults.
func CountCases(root, rel string) (int, []diag.Result) {
	text, res := readRepoFile(root, rel, !jsonlFile(rel))
	if res != nil {
		res.Check, res.File = diag.CheckDefinition, rel
		return 0, []diag.Result{*res}
	}
	c, faults := LoadContract(rel, text, Options{})
	if len(faults) > 0 {
		return 0, faults
	}
	return len(c.Cases), nil
}
