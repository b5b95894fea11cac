package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/evalgate/evalgate/internal/report"
)

// stopSignals stop a run: SIGINT, SIGTERM (a cancelled CI job) and SIGHUP (a closed terminal) alike. The
// run's context is cancelled, which kills every running grader's process group; what finished is reported;
// the exit status is 3 (README "Exit status").
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stopper cancels a run's context at the first of stopSignals and remembers which signal it was.
type stopper struct {
	sig  atomic.Value // os.Signal, once received
	stop func()
}

// notifyStop returns a context derived from parent, cancelled at the first stop signal with the signal's
// name in its cause, and the stopper to ask about it; call stop when the run is over.
func notifyStop(parent context.Context) (context.Context, *stopper) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	s := &stopper{}
	signal.Notify(ch, stopSignals...)
	go func() {
		select {
		case sig := <-ch:
			s.sig.Store(sig)
			cancel(fmt.Errorf("evalgate received %s", signalName(sig)))
		case <-done:
		}
	}()
	s.stop = func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
	return ctx, s
}

// received returns the stop signal that arrived, or nil.
func (s *stopper) received() os.Signal {
	sig, _ := s.sig.Load().(os.Signal)
	return sig
}

// exit returns code, or, when a stop signal arrived, says so on stderr and returns the internal-failure
// status: the report holds only what finished.
func (s *stopper) exit(stderr io.Writer, code int) int {
	sig := s.received()
	if sig == nil {
		return code
	}
	fmt.Fprintf(stderr, "evalgate: stopped by %s: every grader was killed; the report holds what finished\n", signalName(sig))
	return exitInternal
}

// before reports a run that a stop signal ended before it made a report (engine.Run returned no
// report), in place of the error the stop caused, and returns the internal-failure status; false when no
// signal came, or a report was made.
func (s *stopper) before(stderr io.Writer, rep *report.Report) (int, bool) {
	sig := s.received()
	if sig == nil || rep != nil {
		return 0, false
	}
	fmt.Fprintf(stderr, "evalgate: stopped by %s before the report was made: nothing was graded\n", signalName(sig))
	return exitInternal, true
}

// signalName is the conventional name of a stop signal.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}
