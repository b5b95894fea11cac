package cli

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// terminal is what check and validate know about where their output goes
// (README "On a terminal").
type terminal struct {
	// stdout is a terminal: the text format takes the terminal form, which
	// shows what the run saw (else one stderr line says it).
	stdout bool
	// color paints that form: stdout is a terminal, NO_COLOR is unset or
	// empty (no-color.org) and TERM is not dumb.
	color bool
	// progress draws the progress line: stderr is a terminal that can erase
	// a line (TERM is not dumb).
	progress bool
}

// detectTerminal decides the terminal of a run; isTerminal tells whether a
// writer is a terminal, getenv reads the environment.
func detectTerminal(stdout, stderr io.Writer, isTerminal func(io.Writer) bool, getenv func(string) string) terminal {
	dumb := getenv("TERM") == "dumb"
	t := terminal{stdout: isTerminal(stdout), progress: !dumb && isTerminal(stderr)}
	t.color = t.stdout && !dumb && getenv("NO_COLOR") == ""
	return t
}

// The progress line's timing (README "On a terminal"): it appears once a run
// is progressDelay old and is drawn again at most once per progressEvery.
const (
	progressDelay = 2 * time.Second
	progressEvery = 100 * time.Millisecond
)

// eraseLine returns the cursor to the start of the line and erases it (CR,
// then ECMA-48 EL, erase in line, to its end).
const eraseLine = "\r\x1b[K"

// progressLine draws "evalgate: 12/40 evals" on stderr, over itself, and
// writes the other stderr lines of the run past it. Its methods may be
// called from any goroutine.
type progressLine struct {
	w     io.Writer
	now   func() time.Time
	start time.Time

	mu          sync.Mutex
	done, total int
	drawn       string    // the text on the screen; "" when none is
	last        time.Time // when it was drawn
}

// newProgressLine returns a progress line on w, its run starting now; now is
// the clock.
func newProgressLine(w io.Writer, now func() time.Time) *progressLine {
	return &progressLine{w: w, now: now, start: now()}
}

// set records the counts: engine.Options.Progress.
func (p *progressLine) set(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
}

// tick draws the line when there are evals to grade, the run is at least
// progressDelay old, the last draw at least progressEvery old, and the
// counts changed since (or nothing is drawn).
func (p *progressLine) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total == 0 {
		return
	}
	now := p.now()
	if now.Sub(p.start) < progressDelay || p.drawn != "" && now.Sub(p.last) < progressEvery {
		return
	}
	text := fmt.Sprintf("evalgate: %d/%d evals", p.done, p.total)
	if text == p.drawn {
		return
	}
	io.WriteString(p.w, "\r"+text+"\x1b[K")
	p.drawn, p.last = text, now
}

// println writes line and a newline, erasing the progress line first; the
// next tick draws it again.
func (p *progressLine) println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	io.WriteString(p.w, line+"\n")
}

// clear erases the progress line, if one is drawn.
func (p *progressLine) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
}

func (p *progressLine) erase() {
	if p.drawn != "" {
		io.WriteString(p.w, eraseLine)
		p.drawn = ""
	}
}

// run ticks every progressEvery on a goroutine of its own until stop is
// called; stop waits for that goroutine and erases the line, and may be
// called more than once.
func (p *progressLine) run() (stop func()) {
	ticker := time.NewTicker(progressEvery)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ticker.C:
				p.tick()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			ticker.Stop()
			close(done)
			wg.Wait()
			p.clear()
		})
	}
}
