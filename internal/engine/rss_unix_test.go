//go:build unix

package engine

import (
	"os"
	"syscall"
)

// peakRSS is a finished process's peak resident memory in MB (Linux reports kilobytes; 0 when unknown).
func peakRSS(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss) / 1024
	}
	return 0
}
