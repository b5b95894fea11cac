package grader

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/yuin/goldmark/ast"
)

var builtinHeadings = &Tool{Tool: tooldef.Headings, Run: builtinRunHeadings}

func builtinRunHeadings(ctx context.Context, in *ToolInput) ([]Finding, error) {
	src, _ := builtinMarkdown(in)
	doc, err := builtinParseGuarded(ctx, "the target", src, in.FirstLine, func() ast.Node { return builtinParseHeadings(src, false) })
	if err != nil {
		return nil, err
	}
	pm := builtinNewPosMap(in)
	present := map[string]bool{}
	var out builtinFindings
	prev := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		text := strings.TrimSpace(builtinPlainText(h, src))
		present[text] = true
		present[builtinHeadingSource(h, src)] = true
		if prev > 0 && h.Level > prev+1 {
			out.add(Finding{
				Pos:      pm.at(builtinNodePos(h)),
				Code:     "skipped_level",
				Key:      text,
				Message:  fmt.Sprintf("heading %q is level %d, more than one level below the previous heading (level %d)", text, h.Level, prev),
				Evidence: map[string]any{"heading": text, "level": h.Level, "previous": prev},
			})
		}
		prev = h.Level
		return ast.WalkSkipChildren, nil
	})
	for _, want := range tooldef.OptList(in.Options, "required") {
		if !present[strings.TrimSpace(want)] {
			out.add(Finding{
				Code:     "missing_heading",
				Key:      want,
				Message:  fmt.Sprintf("missing heading %q", want),
				Evidence: map[string]any{"heading": want},
			})
		}
	}
	return out.done(), ctx.Err()
}
