//go:build unix

package cli

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/evalgate/evalgate/internal/report"
)

// TestStoppedBeforeReport: a run a signal stopped before it made a report says so, in place of the
// error the stop caused, with exit status 3; a run that made one, or that no signal stopped, goes on to
// its report.
func TestStoppedBeforeReport(t *testing.T) {
	quiet, s := notifyStop(context.Background())
	defer s.stop()
	var stderr strings.Builder
	if _, stopped := s.before(&stderr, nil); stopped || stderr.Len() > 0 {
		t.Fatalf("no signal came, yet the run stopped: %q", stderr.String())
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	<-quiet.Done()
	if _, stopped := s.before(&stderr, &report.Report{}); stopped {
		t.Error("a run with a report stopped before it")
	}
	code, stopped := s.before(&stderr, nil)
	if !stopped || code != exitInternal || stderr.String() != "evalgate: stopped by SIGHUP before the report was made: nothing was graded\n" {
		t.Errorf("before = %d, %v, %q", code, stopped, stderr.String())
	}
}
