package changes

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChangedLines(t *testing.T) {
	r := newRepo(t)
	var cfg []string
	for i := 1; i <= 10; i++ {
		cfg = append(cfg, "line"+string(rune('0'+i%10))+": x")
	}
	original := strings.Join(cfg, "\n") + "\n"
	r.write(".evalgate.yaml", original)
	r.write("conf/x.yaml", "a: 1\n")
	r.write("conf/[x].yaml", "a: 1\n")
	r.write("conf/deleted.yaml", "a: 1\n")
	base := r.commit("base")

	// Line 3 edited; a line inserted after line 7 (new line 8); the last
	// line deleted, after what is now line 10.
	edited := append([]string{}, cfg[:9]...)
	edited[2] = "line3: edited"
	edited = append(edited[:7], append([]string{"commands:"}, edited[7:]...)...)
	r.write(".evalgate.yaml", strings.Join(edited, "\n")+"\n")
	r.write("conf/x.yaml", "a: 2\n")
	r.remove("conf/deleted.yaml")
	r.write("conf/new.yaml", "a: 1\nb: 2\nc: 3") // untracked, no final newline

	ch, err := Detect(context.Background(), Request{Root: r.dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want []int
	}{
		{".evalgate.yaml", []int{3, 8, 10}},
		{"conf/x.yaml", []int{1}},
		{"conf/[x].yaml", nil}, // a literal name, not a glob matching conf/x.yaml
		{"conf/deleted.yaml", nil},
		{"conf/new.yaml", []int{1, 2, 3}},
		{"conf/absent.yaml", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := ChangedLines(context.Background(), r.dir, ch.BaseSHA, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ChangedLines(%s) mismatch (-want +got):\n%s", tc.file, diff)
			}
		})
	}
	if _, err := ChangedLines(context.Background(), r.dir, "-p", ".evalgate.yaml"); err == nil {
		t.Error("ChangedLines accepted an option as the base")
	}
}

func TestHunkLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		want  []int
	}{
		{"one line", "@@ -2 +2 @@ a\n-b\n+B\n", []int{2}},
		{"range", "@@ -3,0 +4,2 @@\n+d\n+e\n", []int{4, 5}},
		{"deletion at the start", "@@ -1,2 +0,0 @@\n-a\n-b\n", []int{1}},
		{"combined diff", "diff --cc f\n@@@ -1,2 -1,2 +1,3 @@@\n", []int{1, 2, 3}},
		{"content that looks like a header", "@@ -1 +1 @@\n-a\n+@@ -9 +9 @@\n", []int{1}},
		{"deleted file", "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n", nil},
		{"binary", "Binary files a/f and b/f differ\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, hunkLines([]byte(tc.patch))); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
