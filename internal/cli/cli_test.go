package cli

import (
	"bytes"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args     []string
		wantPos  []string
		wantAll  bool
		wantConf string
	}{
		{[]string{"a.md", "--all"}, []string{"a.md"}, true, ""},
		{[]string{"--config", "c.yaml", "a.md", "b.md"}, []string{"a.md", "b.md"}, false, "c.yaml"},
		{[]string{"a.md", "--", "--all", "-x.md"}, []string{"a.md", "--all", "-x.md"}, false, ""},
		{[]string{"--", "-leading.md"}, []string{"-leading.md"}, false, ""},
		{nil, nil, false, ""},
	}
	for _, tt := range tests {
		fs := newFlagSet("check")
		all := fs.Bool("all", false, "")
		conf := fs.String("config", "", "")
		pos, err := parseArgs(fs, tt.args)
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tt.args, err)
			continue
		}
		if !slices.Equal(pos, tt.wantPos) || *all != tt.wantAll || *conf != tt.wantConf {
			t.Errorf("parseArgs(%q) = %q all=%v config=%q, want %q all=%v config=%q",
				tt.args, pos, *all, *conf, tt.wantPos, tt.wantAll, tt.wantConf)
		}
	}
}

func TestMainUsageErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--jobs", "x"},
		{"check", "--format", "xml"},
		{"nope"},
		{"schema", "a", "b"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(args, nil, &stdout, &stderr)
		if code != 2 {
			t.Errorf("Main(%q) = %d, want 2", args, code)
		}
		if stdout.Len() != 0 {
			t.Errorf("Main(%q) wrote a report: %q", args, stdout.String())
		}
		if n := strings.Count(stderr.String(), "\n"); n != 1 {
			t.Errorf("Main(%q) wrote %d stderr lines, want 1: %q", args, n, stderr.String())
		}
	}
}

// TestEveryCommandsFlags runs every subcommand of the table with -h and with a flag it does not
// define: help on stdout and exit 0, or one usage line naming the command and exit 2.
func TestEveryCommandsFlags(t *testing.T) {
	words := map[string][]string{"jev": {"jev", "eval"}, "cache": {"cache", "prune"}}
	for name := range commands {
		cmd := words[name]
		if cmd == nil {
			cmd = []string{name}
		}
		var stdout, stderr bytes.Buffer
		if code := Main(append(slices.Clone(cmd), "-h"), nil, &stdout, &stderr); code != exitOK || stdout.Len() == 0 || stderr.Len() != 0 {
			t.Errorf("%s -h: exit %d, stdout %d bytes, stderr %q", name, code, stdout.Len(), stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		code := Main(append(slices.Clone(cmd), "--no-such-flag"), nil, &stdout, &stderr)
		want := "evalgate: " + strings.Join(cmd, " ") + ": flag provided but not defined: -no-such-flag\n"
		if code != exitUsage || stdout.Len() != 0 || stderr.String() != want {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q, want exit 2 and %q", name, code, stdout.String(), stderr.String(), want)
		}
	}
}

// fullDisk is a stdout that takes nothing, as /dev/full or a closed descriptor.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestOutputNotWritten: a command whose output cannot be written exits 3 and says why, as a report
// that cannot be written does; `evalgate schema > schema.json` on a full disk reported success.
func TestOutputNotWritten(t *testing.T) {
	for _, args := range [][]string{{"schema"}, {"schema", "config"}, {"version"}, {"help"}, {"explain"}} {
		var stderr strings.Builder
		if code := Main(args, nil, fullDisk{}, &stderr); code != exitInternal || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q; want 3 and the reason", args, code, stderr.String())
		}
	}
}
