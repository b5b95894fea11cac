package grader

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinConcurrent runs every tool over several pages from many goroutines with one shared PageCache
// and expects the results of a sequential run with a cache of its own. Run it with -race.
func TestBuiltinConcurrent(t *testing.T) {
	repo, schemaIn := builtinSchemaRepo(t)
	var inputs []*ToolInput
	var tools []*Tool
	add := func(name, opts, body string, proto *ToolInput) {
		in := *proto
		in.Target = []byte(body)
		in.Options = builtinTestOpts(t, opts)
		if probs := LookupBuiltin(name).CheckOptions(in.Options, "options"); len(probs) > 0 {
			t.Fatalf("%s %q: %v", name, opts, probs)
		}
		inputs = append(inputs, &in)
		tools = append(tools, LookupBuiltin(name))
	}
	for i := range 6 {
		page := fmt.Sprintf("docs/p%d.md", i)
		body := fmt.Sprintf("# Page %d\n\n#### Skip\n\n[next](p%d.md#page-%d) [gone](gone%d.md) [self](#page-%d) "+
			"[bad](p%d.md#nope)\n\n```\nTODO %d\n```\n", i, (i+1)%6, (i+1)%6, i, i, (i+1)%6, i)
		builtinTestWrite(t, filepath.Join(repo, filepath.FromSlash(page)), "---\ntitle: x\n---\n"+body)
		proto := *schemaIn
		proto.File, proto.FirstLine, proto.Pages = page, 4, nil
		add("tool:links", "", body, &proto)
		add("tool:headings", "required: [Page 0, Summary]", body, &proto)
		add("tool:contains", "pattern: 'Page [0-2]'", body, &proto)
		add("tool:absent", "text: todo\nignore-case: true", body, &proto)
		add("tool:length", "max-words: 10", body, &proto)
		add("tool:code-fences", "", body, &proto)
		add("tool:frontmatter-schema", "schema: ../schemas/page.schema.json", body, &proto)
		add("tool:frontmatter-schema", "schema: ../schemas/remote-ref.json", body, &proto)
	}

	type result struct {
		Findings []Finding
		Err      string
	}
	run := func(tool *Tool, in *ToolInput, pages *PageCache) result {
		cp := *in
		cp.Pages = pages
		fs, err := tool.Run(context.Background(), &cp)
		r := result{Findings: fs}
		if err != nil {
			r.Err = err.Error()
		}
		return r
	}
	want := make([]result, len(inputs))
	for i, in := range inputs {
		want[i] = run(tools[i], in, NewPageCache())
	}

	const workers = 8
	shared := NewPageCache()
	got := make([][]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]result, len(inputs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range inputs {
				i := (k + w*7) % len(inputs) // every worker in another order
				got[w][i] = run(tools[i], inputs[i], shared)
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		if diff := cmp.Diff(want, got[w]); diff != "" {
			t.Fatalf("worker %d differs from the sequential run (-want +got):\n%s", w, diff)
		}
	}
	findings := 0
	for _, r := range want {
		findings += len(r.Findings)
	}
	if findings < 6*8 {
		t.Errorf("only %d findings: the pages do not exercise the tools", findings)
	}
}
