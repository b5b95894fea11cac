package grader

import (
	"bytes"
	"context"

	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/yuin/goldmark/ast"
)

var builtinCodeFences = &Tool{Tool: tooldef.CodeFences, Run: builtinRunCodeFences}

func builtinRunCodeFences(ctx context.Context, in *ToolInput) ([]Finding, error) {
	src, _ := builtinMarkdown(in)
	doc, err := builtinParseGuarded(ctx, "the target", src, in.FirstLine, func() ast.Node { return builtinParseBlocks(src) })
	if err != nil {
		return nil, err
	}
	pm := builtinNewPosMap(in)
	var out builtinFindings
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if len(bytes.TrimSpace(fb.Language(src))) > 0 {
			return ast.WalkSkipChildren, nil
		}
		// The key is the block's first non-blank line: it identifies the block without its line number.
		var first string
		for i := 0; i < fb.Lines().Len() && first == ""; i++ {
			seg := fb.Lines().At(i)
			first = string(bytes.TrimSpace(seg.Value(src)))
		}
		first = builtinTruncate(first, 80)
		out.add(Finding{
			Pos:      pm.at(builtinNodePos(fb)),
			Code:     "fence_without_language",
			Key:      first,
			Message:  "fenced code block names no language",
			Evidence: map[string]any{"first_line": first},
		})
		return ast.WalkSkipChildren, nil
	})
	return out.done(), ctx.Err()
}
