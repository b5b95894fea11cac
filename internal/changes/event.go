// Package changes decides which files a run checks: the PATH arguments, a
// diff against a base, or what a GitHub event changed.
package changes

import (
	"encoding/json"
	"fmt"
	"os"
)

// Event is the part of a GitHub Actions event payload evalgate reads.
type Event struct {
	Name        string // GITHUB_EVENT_NAME
	PullRequest *PullRequest
}

// PullRequest is the payload's pull_request object.
type PullRequest struct {
	HeadSHA  string
	BaseSHA  string
	HeadRepo string // head.repo.full_name; "" when head.repo is null
	BaseRepo string // base.repo.full_name
}

// maxPayload bounds how much of an event payload is read (GitHub caps
// payloads at 25 MB).
const maxPayload = 32 << 20

// LoadEvent reads the event payload at path (GITHUB_EVENT_PATH).
func LoadEvent(name, path string) (*Event, error) {
	ev := &Event{Name: name}
	if path == "" {
		return ev, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return ev, err
	}
	defer f.Close()
	var payload struct {
		PullRequest *struct {
			Head struct {
				SHA  string `json:"sha"`
				Repo *struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"head"`
			Base struct {
				SHA  string `json:"sha"`
				Repo *struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"base"`
		} `json:"pull_request"`
	}
	dec := json.NewDecoder(&limitedReader{f: f, n: maxPayload})
	if err := dec.Decode(&payload); err != nil {
		return ev, fmt.Errorf("event payload %s: %v", path, err)
	}
	if pr := payload.PullRequest; pr != nil {
		ev.PullRequest = &PullRequest{HeadSHA: pr.Head.SHA, BaseSHA: pr.Base.SHA}
		if pr.Head.Repo != nil {
			ev.PullRequest.HeadRepo = pr.Head.Repo.FullName
		}
		if pr.Base.Repo != nil {
			ev.PullRequest.BaseRepo = pr.Base.Repo.FullName
		}
	}
	return ev, nil
}

// Fork reports whether the event is a pull request from another repository
// (or one whose head repository is gone): its page commands are untrusted.
func (e *Event) Fork() bool {
	pr := e.PullRequest
	return pr != nil && (pr.HeadRepo == "" || pr.HeadRepo != pr.BaseRepo)
}

type limitedReader struct {
	f *os.File
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("larger than %d bytes", maxPayload)
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= int64(n)
	return n, err
}
