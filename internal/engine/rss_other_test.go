//go:build !unix

package engine

import (
	"os"
	"time"
)

// peakRSS is 0 where the system reports no peak resident memory of a child.
func peakRSS(*os.ProcessState) float64 { return 0 }

// cpuTime is 0 where the system reports no CPU time of this process.
func cpuTime() time.Duration { return 0 }
