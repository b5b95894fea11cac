package jev

import (
	"context"

	"github.com/evalgate/evalgate/internal/diag"
)

// CountCases reads and validates the contract rel (repository-relative)
// under root, as Check does, and returns its number of cases; when the
// contract cannot be read or is invalid, 0 and its faults.
func CountCases(root, rel string) (int, []diag.Result) {
	o := Evaluate(context.Background(), Entry{Contract: rel}, RepoReader(root), false)
	if o.Contract == nil {
		return 0, o.Faults
	}
	return len(o.Contract.Cases), nil
}
