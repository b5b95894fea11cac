package proc

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// procReexecs reports whether Harden re-executes here: on Linux always (/proc/self/exe and memfd).
func procReexecs() bool { return true }

// procHelperPlatform prints the dumpable flag and the subreaper flag.
func procHelperPlatform() {
	d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	fmt.Printf("dumpable %d/%v\n", d, err)
	fmt.Printf("subreaper %v\n", Subreaper())
}

func procCheckPlatform(t *testing.T, got map[string]string) {
	t.Helper()
	if got["dumpable"] != "0/<nil>" {
		t.Errorf("after Harden, dumpable = %s, want 0", got["dumpable"])
	}
	if got["subreaper"] != "true" {
		t.Errorf("after Harden, subreaper = %s, want true", got["subreaper"])
	}
}
