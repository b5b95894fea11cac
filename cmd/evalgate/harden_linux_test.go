package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hardenRand returns n random bytes in hex: a planted secret that appears nowhere by chance.
func hardenRand(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// hardenSetup makes a world-readable directory with bin/evalgate and bin/hardenhelper (this test binary,
// which runs the registered main for those names) and returns it.
func hardenSetup(t *testing.T) (root, bin string) {
	t.Helper()
	root, err := os.MkdirTemp("", "evalgate-harden-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(root, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"evalgate", "hardenhelper"} {
		dst := filepath.Join(bin, name)
		if os.Link(exe, dst) != nil {
			hardenCopy(t, exe, dst)
		}
		if err := os.Chmod(dst, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, bin
}

func hardenCopy(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// hardenDir makes a directory the run's user can write.
func hardenDir(t *testing.T, path string, cred *syscall.Credential) string {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// hardenUser returns the credential to run evalgate as a non-root user: nil when the test does not run as
// root, else nobody's (65534 when /etc/passwd has no nobody). ok is false when the machine refuses to run
// a process as that user.
func hardenUser(t *testing.T) (cred *syscall.Credential, ok bool) {
	t.Helper()
	if os.Getuid() != 0 {
		return nil, true
	}
	uid, gid := uint32(65534), uint32(65534)
	if u, err := user.Lookup("nobody"); err == nil {
		if n, err := strconv.ParseUint(u.Uid, 10, 32); err == nil {
			uid = uint32(n)
		}
		if n, err := strconv.ParseUint(u.Gid, 10, 32); err == nil {
			gid = uint32(n)
		}
	}
	cred = &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{}}
	probe := exec.Command("/proc/self/exe", "-test.run=^$")
	probe.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := probe.Run(); err != nil && probe.ProcessState == nil {
		return nil, false
	}
	return cred, true
}

// hardenStart starts cmd as cred and returns its stdout and stderr buffers.
func hardenStart(t *testing.T, cmd *exec.Cmd, cred *syscall.Credential) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdout, stderr
}

// hardenWait waits (generously) for cmd and returns its exit code; it kills cmd and fails on a hang.
func hardenWait(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not exit", cmd.Path)
	}
	return cmd.ProcessState.ExitCode()
}

// hardenWaitFile waits (generously) until file exists and is not empty.
func hardenWaitFile(t *testing.T, file string, running *exec.Cmd) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if fi, err := os.Stat(file); err == nil && fi.Size() > 0 {
			return
		}
	}
	running.Process.Kill()
	t.Fatalf("%s never appeared", file)
}

// hardenGone polls until pid is dead (or a zombie), for at most a generous bound.
func hardenGone(pid int) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			s := string(st)
			if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && s[i+2] == 'Z' {
				return true
			}
		}
	}
	return false
}

func hardenPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestSecretsOutOfReach is the /proc attack: a grader running as the same non-root user as evalgate reads
// /proc/$PPID/environ and /proc/$PPID/mem and prints every secret it finds reversed and in base64, past the
// "***" masking. The control run shows the attack working on an unhardened parent; evalgate's run must
// leak nothing into stdout, stderr, the JSON report or SARIF.
func TestSecretsOutOfReach(t *testing.T) {
	cred, ok := hardenUser(t)
	if !ok {
		t.Skip("the test runs as root and cannot start a process as nobody (setuid refused): the attack needs a non-root user")
	}
	root, bin := hardenSetup(t)
	secrets := map[string]string{
		"GITHUB_TOKEN":             "ghs_" + hardenRand(t, 18),
		"EVALGATE_PLANTED_KEY":     "key-" + hardenRand(t, 18),
		"DEPLOY_PASSWORD":          "pw-" + hardenRand(t, 18),
		"GIT_CONFIG_VALUE_0":       "AUTHORIZATION: basic " + hardenRand(t, 18),
		"GIT_CONFIG_PARAMETERS":    "'http.extraheader'='bearer " + hardenRand(t, 18) + "'",
		"ACTIONS_ID_TOKEN_REQUEST": "idt-" + hardenRand(t, 18),
	}
	plain := "visible-" + hardenRand(t, 8)
	var names []string
	env := []string{
		"PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + hardenDir(t, filepath.Join(root, "home"), cred),
		"TMPDIR=" + hardenDir(t, filepath.Join(root, "tmp"), cred),
		"LANG=C.UTF-8",
		"EVALGATE_PLAIN=" + plain,
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=http.extraheader",
	}
	for name, v := range secrets {
		names = append(names, name)
		env = append(env, name+"="+v)
	}
	// What must never appear: each value, its hex core, their reversals and base64 forms.
	var forbidden []string
	for _, v := range secrets {
		core := v[strings.LastIndexAny(v, "_- ")+1:]
		core = strings.TrimSuffix(core, "'")
		for _, s := range []string{v, core} {
			forbidden = append(forbidden, s, hardenReverse(s),
				strings.TrimRight(base64.StdEncoding.EncodeToString([]byte(s)), "="),
				strings.TrimRight(base64.StdEncoding.EncodeToString([]byte(hardenReverse(s))), "="))
		}
	}
	leaks := func(what, text string) {
		t.Helper()
		for _, f := range forbidden {
			if strings.Contains(text, f) {
				t.Errorf("%s holds a planted secret (%q):\n%s", what, f, text)
				return
			}
		}
	}

	// Control: the same thief under an unhardened parent finds the secrets, as it did under evalgate.
	control := exec.Command(filepath.Join(bin, "hardenhelper"), append([]string{"parent", "hardenhelper", "steal", "-"}, names...)...)
	control.Env, control.Dir = env, root
	cout, cerr := hardenStart(t, control, cred)
	hardenWait(t, control)
	if !strings.Contains(cout.String(), "environ GITHUB_TOKEN reversed="+hardenReverse(secrets["GITHUB_TOKEN"])) {
		t.Fatalf("control: the thief found no secret in an unhardened parent, so the test proves nothing:\nstdout:\n%s\nstderr:\n%s", cout, cerr)
	}

	repo := filepath.Join(root, "repo")
	rv := hardenDir(t, filepath.Join(root, "rv"), cred)
	out := hardenDir(t, filepath.Join(root, "out"), cred)
	argv, _ := json.Marshal(append([]string{"hardenhelper", "steal", rv}, names...))
	page := "---\nevals:\n  - id: steal\n    grader: command\n    timeout-ms: 180000\n    command: " + string(argv) + "\n---\n# Steal\n"
	if err := os.MkdirAll(filepath.Join(repo, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "docs", "steal.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonFile, sarifFile := filepath.Join(out, "report.json"), filepath.Join(out, "report.sarif")
	cmd := exec.Command(filepath.Join(bin, "evalgate"), "check", "--format", "text",
		"--json", jsonFile, "--sarif", sarifFile, "docs/steal.md")
	cmd.Env, cmd.Dir = env, repo
	stdout, stderr := hardenStart(t, cmd, cred)

	// While the thief runs, look at evalgate's environment block from outside: as root the read works
	// whatever the dumpable flag, and the block must lack every withheld value (the re-exec); as the
	// same non-root user the read must fail (non-dumpable).
	hardenWaitFile(t, filepath.Join(rv, "started"), cmd)
	if ppid := hardenPid(t, filepath.Join(rv, "started")); ppid != cmd.Process.Pid {
		t.Errorf("the grader's parent is %d, evalgate is %d (the re-exec must keep the pid)", ppid, cmd.Process.Pid)
	}
	block, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
	switch {
	case os.Getuid() == 0 && err != nil:
		t.Errorf("root cannot read evalgate's environment block: %v", err)
	case os.Getuid() == 0:
		if !bytes.Contains(block, []byte("EVALGATE_PLAIN="+plain)) {
			t.Errorf("evalgate's environment block lacks EVALGATE_PLAIN: %q", block)
		}
		leaks("evalgate's /proc/PID/environ", string(block))
		for _, name := range append(names, "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0") {
			if bytes.Contains(block, []byte("\x00"+name+"=")) || bytes.HasPrefix(block, []byte(name+"=")) {
				t.Errorf("evalgate's environment block still holds %s", name)
			}
		}
	case !errors.Is(err, os.ErrPermission):
		t.Errorf("reading evalgate's environment block as the same user: err = %v, want permission denied", err)
	}
	if err := os.WriteFile(filepath.Join(rv, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	code := hardenWait(t, cmd)
	if code != 1 {
		t.Errorf("evalgate exited %d, want 1 (the thief fails)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	leaks("stdout", stdout.String())
	leaks("stderr", stderr.String())
	for _, f := range []string{jsonFile, sarifFile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		leaks(filepath.Base(f), string(b))
		if f == jsonFile && (!bytes.Contains(b, []byte("thief: environ:")) || !bytes.Contains(b, []byte("thief: mem:"))) {
			t.Errorf("the thief's report is not in the evidence:\n%s", b)
		}
	}
}

// TestStopSignals: SIGTERM and SIGHUP stop a run like SIGINT: every grader is killed, also the
// processes it left outside its group, the report holds what finished, and the exit status is 3.
func TestStopSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT"}[sig]
		t.Run(name, func(t *testing.T) {
			root, bin := hardenSetup(t)
			repo, tree := filepath.Join(root, "repo"), filepath.Join(root, "tree")
			for _, d := range []string{filepath.Join(repo, "docs"), tree} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			page := "---\nevals:\n" +
				"  - id: quick\n    grader: command\n    command: [\"hardenhelper\", \"exit\", \"0\"]\n" +
				"  - id: slow\n    grader: command\n    timeout-ms: 600000\n    command: [\"hardenhelper\", \"tree\", \"" + tree + "\"]\n" +
				"  - id: later\n    grader: command\n    command: [\"hardenhelper\", \"exit\", \"0\"]\n" +
				"---\n# Stop\n"
			if err := os.WriteFile(filepath.Join(repo, "docs", "stop.md"), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			jsonFile := filepath.Join(root, "report.json")
			cmd := exec.Command(filepath.Join(bin, "evalgate"), "check", "--jobs", "1", "--format", "text",
				"--json", jsonFile, "docs/stop.md")
			cmd.Dir = repo
			cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + root, "GITHUB_TOKEN=ghs_" + hardenRand(t, 8)}
			stdout, stderr := hardenStart(t, cmd, nil)
			t.Cleanup(func() { cmd.Process.Kill() })

			// With --jobs 1, quick has finished once slow has written its pids.
			hardenWaitFile(t, filepath.Join(tree, "leader.pid"), cmd)
			pids := map[string]int{}
			for _, f := range []string{"leader", "child", "setsid"} {
				pids[f] = hardenPid(t, filepath.Join(tree, f+".pid"))
				t.Cleanup(func() { syscall.Kill(pids[f], syscall.SIGKILL) })
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := hardenWait(t, cmd); code != 3 {
				t.Errorf("exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr.String(), "stopped by "+name) {
				t.Errorf("stderr does not name the signal:\n%s", stderr)
			}
			for f, pid := range pids {
				if !hardenGone(pid) {
					t.Errorf("the grader's %s process %d outlived evalgate", f, pid)
				}
			}
			b, err := os.ReadFile(jsonFile)
			if err != nil {
				t.Fatalf("no report: %v\nstderr:\n%s", err, stderr)
			}
			var rep struct {
				Results []struct{ Check, Outcome string }
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, r := range rep.Results {
				got[r.Check] = r.Outcome
			}
			if got["quick"] != "pass" || got["slow"] != "error" || got["later"] != "error" {
				t.Errorf("outcomes %v, want quick pass (it finished), slow and later error\n%s", got, b)
			}
		})
	}
}
