//go:build linux

package cli

import (
	"testing"

	"github.com/creack/pty"
)

// TestIsTerminalPty: the slave side of a pseudo-terminal is a terminal.
func TestIsTerminalPty(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	if !isTerminal(tty) {
		t.Errorf("isTerminal(%s) = false", tty.Name())
	}
	term := detectTerminal(tty, tty, isTerminal, func(string) string { return "" })
	if want := (terminal{stdout: true, color: true, progress: true}); term != want {
		t.Errorf("detectTerminal on a pty = %+v, want %+v", term, want)
	}
}
