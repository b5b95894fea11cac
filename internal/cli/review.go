package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/evalgate/evalgate/internal/engine"
	"github.com/evalgate/evalgate/internal/report"
)

const reviewUsage = `Usage: evalgate review PAGE EVAL_ID --pass|--fail [--note TEXT] [--by NAME] [--config FILE]

Records a human review of one eval of a page in the reviews file
(.evalgate/reviews.jsonl, or the config's reviews): the verdict, who gave
it (default git's user.name), when, a note, and the hash of the eval and
its target, so that the review goes stale when either changes.
`

// runReview is `evalgate review` (README "Human reviews").
func runReview(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("review")
	pass := fs.Bool("pass", false, "")
	fail := fs.Bool("fail", false, "")
	note := fs.String("note", "", "")
	by := fs.String("by", "", "")
	configFlag := fs.String("config", "", "")
	pos, code, ok := parseFlags(fs, reviewUsage, args, stdout, stderr)
	switch {
	case !ok:
		return code
	case len(pos) != 2:
		return usageErr(stderr, "review takes PAGE and EVAL_ID, got %d arguments", len(pos))
	case *pass == *fail:
		return usageErr(stderr, "review: give --pass or --fail")
	}
	dir, err := os.Getwd()
	if err != nil {
		return internalErr(stderr, err)
	}
	file, err := engine.Review(context.Background(), engine.ReviewOptions{Dir: dir, ConfigFlag: *configFlag,
		Page: pos[0], EvalID: pos[1], Pass: *pass, Note: *note, By: *by, Now: time.Now()})
	if err != nil {
		code, _ := runStatus(nil, err, stderr) // a usage error, or an internal one
		return code
	}
	verdict := "fail"
	if *pass {
		verdict = "pass"
	}
	fmt.Fprintln(stderr, report.Notice(fmt.Sprintf("evalgate: recorded %s for %s in %s of %s", verdict, pos[1], pos[0], file)))
	return exitOK
}
