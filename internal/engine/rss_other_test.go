//go:build !unix

package engine

import "os"

// peakRSS is 0 where the system reports no peak resident memory of a child.
func peakRSS(*os.ProcessState) float64 { return 0 }
