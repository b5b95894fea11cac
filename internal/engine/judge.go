package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/envpolicy"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/judge"
)

// The AI judge in a run (README "The AI judge"). An ai eval is planned first, in report order and one
// at a time: its provider, target and prompt, the runs the cache holds, and a claim on the budget for
// each run it still needs. Only then are the missing runs asked, in parallel, at most ai.concurrency
// requests in flight, apart from --jobs. Planning in order keeps the budget's choice of evals the same
// from run to run, whatever the timing.

// JudgeOptions are the judge's flags.
type JudgeOptions struct {
	Judge    string // --judge NAME: the provider of evals that name none; "" for ai.judge
	Off      bool   // --no-judge: every ai eval pending no_judge
	MaxCalls *int   // --max-judge-calls N; nil for ai.max-calls
	NoCache  bool   // --no-cache: read and write no cache entry
}

// judging is the judge of one run: the providers' clients, built once, and what the run shares
// between its ai evals.
type judging struct {
	ai       config.AI
	off      bool
	def      string // the default provider: --judge, else ai.judge
	provs    map[string]*provider
	cache    *judge.Cache
	params   string        // the parameters sent, as cache keys name them
	keyer    judge.Keys    // makes the cache keys
	sem      chan struct{} // one slot per request in flight
	budget   atomic.Int64  // calls left; meaningful when limited
	limited  bool
	limit    int
	keys     []string // every key's value, masked in every text that reaches a report
	calls    atomic.Int64
	cached   atomic.Int64
	spent    atomic.Int64 // evals left pending judge_budget
	keyless  atomic.Int64 // evals left pending judge_unavailable
	keyNames sync.Map     // the variables missing, for the notice
}

// provider is one configured provider, ready to ask.
type provider struct {
	cfg      config.Provider
	endpoint string // what the cache key names: the base URL, or the command
	// unavailable says why no request may be sent (the key unset, a fork's pull request); refused
	// why the judge may not run at all (a privileged event, commands.allow): skip command_refused.
	unavailable, refused string
	ask                  func(ctx context.Context, model string, in judge.Input, p judge.Prompt, run, runs int) (judge.Reply, error)
}

// judgeClient is the HTTP client of every provider: one pool of connections. It follows a redirect only
// within the base URL's origin: Go's client carries every header but Authorization and Cookie across
// origins, and x-api-key or api-key would reach another host (README "The AI judge": the key goes to
// base-url alone).
var judgeClient = &http.Client{Transport: judgeTransport(), CheckRedirect: sameOrigin}

func sameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if from := via[0].URL; !strings.EqualFold(req.URL.Scheme, from.Scheme) || !strings.EqualFold(req.URL.Host, from.Host) {
		return fmt.Errorf("redirected to %s://%s, another origin than base-url's: the key is not sent there", req.URL.Scheme, req.URL.Host)
	}
	return nil
}

func judgeTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}

// setupJudge builds the run's judge from the config and the flags; a --judge naming no provider is a
// usage error.
func (r *run) setupJudge() error {
	ai := r.cfg.AI
	o := r.opts.Judging
	j := &judging{ai: ai, off: o.Off, def: ai.Judge, provs: map[string]*provider{}}
	if o.Judge != "" {
		if _, ok := ai.Providers[o.Judge]; !ok {
			return usagef("--judge %s names no provider of ai.providers%s", o.Judge, diag.Suggest(o.Judge, providerNames(ai)))
		}
		j.def = o.Judge
	}
	switch {
	case o.MaxCalls != nil:
		j.limited, j.limit = true, *o.MaxCalls
	case ai.MaxCalls != nil:
		j.limited, j.limit = true, *ai.MaxCalls
	}
	j.budget.Store(int64(j.limit))
	if ai.Cache != "" && !o.NoCache {
		j.cache = &judge.Cache{Root: r.root, Dir: filepath.Join(r.cfg.Dir, filepath.FromSlash(ai.Cache))}
	}
	j.params = fmt.Sprintf("max-output-tokens=%d", ai.MaxOutputTokens)
	if ai.Temperature != nil {
		j.params += fmt.Sprintf(";temperature=%g", *ai.Temperature)
	}
	j.sem = make(chan struct{}, max(ai.Concurrency, 1))
	for name, pc := range ai.Providers {
		j.provs[name] = r.newProvider(pc, j)
	}
	r.judge = j
	return nil
}

func providerNames(ai config.AI) []string {
	names := make([]string, 0, len(ai.Providers))
	for n := range ai.Providers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// newProvider makes the client of one provider under the run's policy (README "Security model"):
// on a privileged event no judge runs and no key is read; on a pull request from a fork no key is
// sent.
func (r *run) newProvider(pc config.Provider, j *judging) *provider {
	p := &provider{cfg: pc, endpoint: pc.BaseURL}
	timeout := time.Duration(j.ai.TimeoutMS) * time.Millisecond
	if pc.Kind == "command" {
		p.endpoint = strings.Join(pc.Command, "\x00")
		if reason := r.policy.Refusal(pc.Command[0], false); reason != "" {
			p.refused = "judge refused: " + reason
		}
		p.ask = func(ctx context.Context, model string, in judge.Input, pr judge.Prompt, run, runs int) (judge.Reply, error) {
			c := judge.CommandJudge{Model: model, Run: r.commandRunner(pc, timeout, model)}
			return c.Ask(ctx, in, pr, run, runs)
		}
		return p
	}
	if r.inActions && !grader.TrustedEvent(r.policy.Event) && !r.opts.AllowUntrusted {
		p.refused = fmt.Sprintf("judge refused: privileged event %q: no judge is asked on this event unless --allow-untrusted-commands is given (the config comes from the pull request, and its base-url would receive the key)", r.policy.Event)
		return p
	}
	key := ""
	if pc.Auth != "none" {
		key = r.getenv(pc.APIKeyEnv)
		switch {
		case r.policy.ForkPR && !r.opts.AllowUntrusted:
			p.unavailable, key = "a pull request from a fork sends no key", ""
		case key == "":
			p.unavailable = pc.APIKeyEnv + " is not set"
		}
		if len(key) >= envpolicy.MinMasked {
			j.keys = append(j.keys, key)
		}
		if key != "" {
			r.redact = append(r.redact, key)
		}
	}
	if p.unavailable != "" {
		j.keyNames.Store(p.unavailable, true)
	}
	switch pc.Kind {
	case "anthropic":
		c := judge.Anthropic{BaseURL: pc.BaseURL, Key: key, Model: pc.Model, Headers: pc.Headers,
			Temperature: j.ai.Temperature, MaxOutputTokens: j.ai.MaxOutputTokens, Timeout: timeout,
			Retries: j.ai.Retries, Client: judgeClient}
		p.ask = func(ctx context.Context, model string, _ judge.Input, pr judge.Prompt, _, _ int) (judge.Reply, error) {
			c := c
			c.Model = model
			return c.Ask(ctx, pr)
		}
	default:
		c := judge.OpenAI{BaseURL: pc.BaseURL, Key: key, Auth: pc.Auth, Model: pc.Model, Headers: pc.Headers,
			Query: pc.Query, Temperature: j.ai.Temperature, MaxOutputTokens: j.ai.MaxOutputTokens,
			Timeout: timeout, Retries: j.ai.Retries, Client: judgeClient}
		p.ask = func(ctx context.Context, model string, _ judge.Input, pr judge.Prompt, _, _ int) (judge.Reply, error) {
			c := c
			c.Model = model
			return c.Ask(ctx, pr)
		}
	}
	return p
}

// commandRunner runs a command judge as a command grader runs (README "Security model"): no shell,
// the scrubbed environment, the config's directory, the process group killed at the timeout.
func (r *run) commandRunner(pc config.Provider, timeout time.Duration, model string) judge.Runner {
	argv := grader.Substitute(pc.Command, map[string]string{"model": model})
	return func(ctx context.Context, stdin []byte) ([]byte, []byte, bool, error) {
		cr := grader.RunCommand(ctx, grader.Command{
			Argv: argv, Dir: r.cfg.Dir, Env: r.env, Stdin: stdin, Timeout: timeout,
		})
		stderr := grader.Redact(cr.Stderr, r.redact)
		switch {
		case cr.NotFound:
			return nil, stderr, false, fmt.Errorf("%s: executable not found or not executable", pc.Command[0])
		case cr.TimedOut:
			return nil, stderr, false, fmt.Errorf("timed out after %d ms; the process group was killed", timeout.Milliseconds())
		case cr.Err != nil:
			return nil, stderr, false, cr.Err
		case !cr.Exited:
			return nil, stderr, false, errors.New("killed by " + cr.Signal)
		}
		return cr.Stdout, stderr, cr.ExitCode == 0, nil
	}
}

// judgePlan is what planning decided for one ai eval: a result already (no judge, a refusal, a
// fault), or the runs to take from the cache and to ask.
type judgePlan struct {
	done   *diag.Result
	notes  []diag.Result // judge_self_preference
	prov   *provider
	name   string // the provider's name
	model  string // the model asked
	in     judge.Input
	prompt judge.Prompt
	runs   []planRun
	short  bool // the budget did not cover every missing run
	// secrets are what the judge's text is masked with: the judges' keys; for a command judge, whose
	// output is a command's, the value of every removed variable as well (README "Security model").
	secrets []string
}

// planRun is one run of a plan.
type planRun struct {
	key    string
	entry  judge.Entry
	cached bool
	ask    bool // claimed on the budget: to be asked
}

// providerOf is the provider an ai eval uses: its own provider:, else --judge, else ai.judge.
func (j *judging) providerOf(ev *docmeta.Eval) string {
	if ev.Provider != "" {
		return ev.Provider
	}
	return j.def
}

// unknownProvider is unknown_provider's message.
func unknownProvider(ai config.AI, name string) string {
	return fmt.Sprintf("provider %s is not defined under ai.providers in the config%s", docmeta.Quote(name), diag.Suggest(name, providerNames(ai)))
}

// prepare resolves what an ai eval would ask: its provider, target, prompt and each run's cache
// key; done is set instead when no judge can be asked (no provider, a refusal, a fault).
func (r *run) prepare(ps *pageState, ev *docmeta.Eval) *judgePlan {
	j := r.judge
	base := evalResult(ps, ev)
	done := func(o diag.Outcome, code, msg string) *judgePlan {
		return &judgePlan{done: ptr(with(base, o, code, msg))}
	}
	name := j.providerOf(ev)
	prov := j.provs[name]
	switch {
	case ev.Provider != "" && prov == nil:
		return done(diag.Error, "unknown_provider", unknownProvider(j.ai, ev.Provider))
	case prov == nil:
		return done(diag.Pending, "no_judge", "waits for an ai judge; the config's ai section names none: "+ev.Assertion)
	}
	t, err := r.target(base, ps, ev)
	if err != nil {
		return &judgePlan{done: ptr(err.(*errResult).res)}
	}
	if len(t.bytes) > j.ai.MaxTargetBytes {
		return done(diag.Error, "judge_input_too_large", fmt.Sprintf("the target is %d bytes; ai.max-target-bytes is %d, and evalgate never truncates what the judge reads",
			len(t.bytes), j.ai.MaxTargetBytes))
	}
	p := &judgePlan{prov: prov, name: name, model: prov.cfg.Model, secrets: j.keys}
	if prov.cfg.Kind == "command" {
		p.secrets = r.redact // the keys are among them
	}
	if ev.Model != "" {
		p.model = ev.Model
	}
	p.in = judge.Input{Assertion: ev.Assertion, Evidence: ev.Evidence, Pass: ev.Examples.Pass, Fail: ev.Examples.Fail,
		Kind: t.kind, Path: t.file, Target: t.bytes}
	if p.in.Kind == "" {
		p.in.Kind = docmeta.TargetBody
	}
	p.prompt = judge.RenderDocument(p.in, ps.document(t.bytes))
	runs := ev.Runs
	if runs == 0 {
		runs = j.ai.Runs
	}
	p.runs = make([]planRun, runs)
	for i := range p.runs {
		p.runs[i].key = j.keyer.Key(judge.Request{Kind: prov.cfg.Kind, BaseURL: prov.endpoint, Model: p.model, Params: j.params, Run: i + 1, Prompt: p.prompt})
	}
	return p
}

// planJudge plans one ai eval (see the top of this file): what it would ask, and the runs the cache
// holds. Plans are made in parallel; claimRuns then claims the budget in order.
func (r *run) planJudge(ps *pageState, ev *docmeta.Eval) *judgePlan {
	j := r.judge
	base := evalResult(ps, ev)
	if prov := j.provs[j.providerOf(ev)]; prov != nil && (j.off || prov.refused != "") {
		// Nothing is read for a judge that will not be asked.
		if j.off {
			return &judgePlan{done: ptr(with(base, diag.Pending, "no_judge", "waits for an ai judge; --no-judge was given: "+ev.Assertion))}
		}
		return &judgePlan{done: ptr(with(base, diag.Skip, "command_refused", prov.refused))}
	}
	p := r.prepare(ps, ev)
	if p.done != nil {
		if j.off && p.done.Code == "no_judge" {
			p.done.Message = "waits for an ai judge; --no-judge was given: " + ev.Assertion
		}
		return p
	}
	p.notes = selfPreference(base, ps, ev, p.model)
	for i := range p.runs {
		pr := &p.runs[i]
		pr.entry, pr.cached = j.cache.Get(pr.key)
	}
	return p
}

// claimRuns claims a call on the budget for each run of p the cache does not hold. Plans are claimed
// one at a time in report order, so the budget goes to the same evals whatever the timing.
func (r *run) claimRuns(p *judgePlan, base diag.Result) {
	j := r.judge
	if p == nil || p.done != nil {
		return
	}
	missing := 0
	for _, pr := range p.runs {
		if !pr.cached {
			missing++
		}
	}
	if missing == 0 {
		return
	}
	if p.prov.unavailable != "" {
		j.keyless.Add(1)
		msg := "waits for the judge: " + p.prov.unavailable + " and the verdict is not in the cache"
		if j.cache == nil {
			msg = "waits for the judge: " + p.prov.unavailable + " (and no cache is read: --no-cache, or no ai.cache)"
		}
		p.done = ptr(with(base, diag.Pending, "judge_unavailable", msg))
		return
	}
	for i := range p.runs {
		if pr := &p.runs[i]; !pr.cached {
			pr.ask = j.claim()
			p.short = p.short || !pr.ask
		}
	}
	if p.short {
		j.spent.Add(1)
	}
}

func ptr[T any](v T) *T { return &v }

// claim takes one call from the budget; false when it is spent.
func (j *judging) claim() bool {
	if !j.limited {
		return true
	}
	for {
		left := j.budget.Load()
		if left <= 0 {
			return false
		}
		if j.budget.CompareAndSwap(left, left-1) {
			return true
		}
	}
}

// selfPreference is the judge_self_preference note when the model asked is the model that wrote the
// page (its root generated-by) or proposed the eval (an eval-provenance entry listing it, or listing
// none).
func selfPreference(base diag.Result, ps *pageState, ev *docmeta.Eval, model string) []diag.Result {
	same := func(s string) bool {
		return model != "" && strings.EqualFold(strings.TrimSpace(s), strings.TrimSpace(model))
	}
	by := ""
	if e := ps.root.Get("generated-by"); e != nil && same(e.Value.Text) {
		by = "the page's generated-by"
	}
	if ps.page != nil {
		for _, pv := range ps.page.Provenance {
			if by == "" && same(pv.GeneratedBy) && (len(pv.Evals) == 0 || slices.Contains(pv.Evals, ev.ID)) {
				by = "its eval-provenance"
			}
		}
	}
	if by == "" {
		return nil
	}
	res := with(base, diag.Fail, "judge_self_preference", fmt.Sprintf("the judge %s is the model that %s names; a model tends to prefer its own text: judge with another model",
		docmeta.Quote(model), by))
	res.Severity, res.Verdictless = diag.SeverityWarning, true
	return []diag.Result{res}
}

// gradeAI asks the runs a plan left to ask and decides the eval (README "The AI judge").
func (r *run) gradeAI(ctx context.Context, base diag.Result, ps *pageState, ev *docmeta.Eval, p *judgePlan) []diag.Result {
	if p.done != nil {
		return append([]diag.Result{*p.done}, p.notes...)
	}
	j := r.judge
	runs := make([]judge.Run, len(p.runs))
	var asking *sync.WaitGroup
	last := -1 // the last run to ask is asked on this goroutine: most plans ask one
	for i := range p.runs {
		pr := &p.runs[i]
		switch {
		case pr.cached:
			j.cached.Add(1)
			runs[i] = judge.Run{Verdict: &pr.entry.Verdict}
		case pr.ask:
			if k := last; k >= 0 {
				if asking == nil {
					asking = new(sync.WaitGroup)
				}
				asking.Go(func() { runs[k] = r.askRun(ctx, p, k) })
			}
			last = i
		}
	}
	if last >= 0 {
		runs[last] = r.askRun(ctx, p, last)
	}
	if asking != nil {
		asking.Wait()
	}
	if ctx.Err() != nil {
		return []diag.Result{with(base, diag.Error, "internal_error", "not finished: "+context.Cause(ctx).Error())}
	}
	res := r.judgeResult(base, p, runs)
	if res.Outcome == diag.Pending && (res.Code == "judge_split" || res.Code == "judge_incomplete") {
		if rev, ok := r.reviewed(base, ps, ev, p.in.Target); ok {
			rev.Evidence["judge"] = res.Evidence
			res = rev
		}
	}
	return append([]diag.Result{maskResult(res, p.secrets)}, p.notes...)
}

// askRun asks run i of a plan, holding one of the judge's slots, and caches a valid verdict. The
// model that answered and the tokens it took go to the run's entry, as a cached run has them.
func (r *run) askRun(ctx context.Context, p *judgePlan, i int) judge.Run {
	j := r.judge
	select {
	case j.sem <- struct{}{}:
	case <-ctx.Done():
		return judge.Run{Err: ctx.Err()}
	}
	defer func() { <-j.sem }()
	j.calls.Add(1)
	reply, err := p.prov.ask(ctx, p.model, p.in, p.prompt, i+1, len(p.runs))
	if err != nil {
		return judge.Run{Err: err}
	}
	e := &p.runs[i].entry
	e.Model, e.Tokens = p.mask(reply.Model), reply.Tokens // the server's word, which may echo anything
	v, err := judge.Parse(reply.Text, p.in.Target, reply.Fenced, p.mask)
	if err != nil {
		return judge.Run{Err: err}
	}
	e.Verdict = p.keptVerdict(v)
	j.cache.Put(p.runs[i].key, *e)
	return judge.Run{Verdict: &e.Verdict}
}

// Bounds of a run's reasoning and quotes in evidence.
const (
	maxReasoning = 1000
	maxQuotes    = 5
	maxQuote     = 300
)

// keptVerdict is what a run's verdict keeps, in the cache as in evidence: its reasoning and quotes
// within evidence's bounds (a 3 MB reasoning made an entry past what the cache reads back, so it was
// asked again every run), with every secret masked. A key the reply held escaped (\u0073\u006b...) is
// clear once decoded: the entry, which a later run without the key replays, had it in clear. Masked
// before the clip, so that no clip cuts a secret short of its mask.
func (p *judgePlan) keptVerdict(v judge.Verdict) judge.Verdict {
	quotes := make([]string, min(len(v.Quotes), maxQuotes))
	for i := range quotes {
		quotes[i] = diag.ClipRunes(p.mask(v.Quotes[i]), maxQuote)
	}
	return judge.Verdict{Quotes: quotes, Reasoning: diag.ClipRunes(p.mask(v.Reasoning), maxReasoning), Verdict: v.Verdict}
}

// mask is s with every one of the plan's secrets in it written ***.
func (p *judgePlan) mask(s string) string { return maskString(s, p.secrets) }

// judgeResult is the eval's result from its runs: the consensus, or judge_budget when runs are
// missing for want of calls, with the evidence of every run.
func (r *run) judgeResult(base diag.Result, p *judgePlan, runs []judge.Run) diag.Result {
	c := judge.Consensus(runs, r.judge.ai.Agreement)
	res := with(base, c.Outcome, c.Code, c.Message)
	if c.Code == "judge_failed" {
		for _, run := range runs {
			if errors.Is(run.Err, judge.ErrRefused) {
				res = with(base, diag.Error, "judge_refused", run.Err.Error())
				break
			}
		}
	}
	if p.short && res.Outcome != diag.Pass && res.Outcome != diag.Fail {
		msg := fmt.Sprintf("the budget of %d judge calls is spent", r.judge.limit)
		if r.judge.cache != nil { // --no-cache, or ai.cache "", keeps none
			msg += "; the runs asked so far are cached"
		}
		res = with(base, diag.Pending, "judge_budget", msg)
	}
	detail := make([]any, 0, len(runs))
	cached, total, models := 0, 0, []string{}
	for i, run := range runs {
		d := make(map[string]any, 5)
		d["run"], d["cached"] = i+1, p.runs[i].cached
		switch {
		case run.Verdict != nil:
			qs := run.Verdict.Quotes[:min(len(run.Verdict.Quotes), maxQuotes)]
			quotes := make([]any, len(qs))
			for k, q := range qs {
				quotes[k] = diag.ClipRunes(q, maxQuote)
			}
			d["verdict"], d["reasoning"], d["quotes"] = verdictValue(run.Verdict.Verdict), diag.ClipRunes(run.Verdict.Reasoning, maxReasoning), quotes
		case run.Err != nil:
			d["error"] = diag.ClipRunes(p.mask(run.Err.Error()), maxReasoning)
		default:
			d["error"] = "not asked: the budget of judge calls is spent"
		}
		if p.runs[i].cached {
			cached++
		}
		if m := p.runs[i].entry.Model; m != "" && !slices.Contains(models, m) {
			models = append(models, m)
		}
		total += p.runs[i].entry.Tokens
		detail = append(detail, d)
	}
	res.Evidence = map[string]any{
		"template": judge.Template, "provider": p.name, "model": p.model, "models_answered": toAny(models),
		"votes": map[string]any{"pass": c.Passes, "fail": c.Fails}, "runs": len(runs), "agreement": c.Agreement,
		"cached": cached, "tokens": total, "run_details": detail,
	}
	return res
}

// verdictValue is v as evidence holds it: one of the three verdict words costs no allocation.
func verdictValue(v string) any {
	switch v {
	case judge.Pass:
		return judge.Pass
	case judge.Fail:
		return judge.Fail
	case judge.Partial:
		return judge.Partial
	}
	return v
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// maskResult replaces every secret in the result's message and evidence with *** (README "The AI
// judge": a key never reaches a report).
func maskResult(res diag.Result, secrets []string) diag.Result {
	res.Message = maskString(res.Message, secrets)
	if len(secrets) > 0 && holdsKey(res.Evidence, secrets) {
		res.Evidence = maskValue(res.Evidence, secrets).(map[string]any)
	}
	return res
}

// maskString is s with every secret of 4 characters or more in it written ***, as a command's output is.
func maskString(s string, secrets []string) string {
	if !holdsKey(s, secrets) {
		return s
	}
	return string(grader.Redact([]byte(s), secrets))
}

// holdsKey says some string of v holds a secret that is masked: only then is the evidence copied to be
// masked.
func holdsKey(v any, keys []string) bool {
	switch x := v.(type) {
	case string:
		for _, k := range keys {
			if len(k) >= envpolicy.MinMasked && strings.Contains(x, k) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsKey(e, keys) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if holdsKey(e, keys) {
				return true
			}
		}
	}
	return false
}

func maskValue(v any, keys []string) any {
	switch x := v.(type) {
	case string:
		return maskString(x, keys)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskValue(e, keys)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = maskValue(e, keys)
		}
		return out
	}
	return v
}

// judgeNotices says, once each, why ai evals were left pending, and counts the calls.
func (r *run) judgeNotices() {
	j := r.judge
	if j == nil {
		return
	}
	r.rep.Seen.JudgeCalls, r.rep.Seen.JudgeCached = int(j.calls.Load()), int(j.cached.Load())
	if n := j.keyless.Load(); n > 0 {
		var why []string
		j.keyNames.Range(func(k, _ any) bool { why = append(why, k.(string)); return true })
		slices.Sort(why)
		counted := "; verdicts in the cache still count"
		if j.cache == nil {
			counted = "; no cache is read"
		}
		r.opts.Notice(fmt.Sprintf("evalgate: %d ai evals wait for the judge (judge_unavailable): %s%s", n, strings.Join(why, "; "), counted))
	}
	if n := j.spent.Load(); n > 0 {
		r.opts.Notice(fmt.Sprintf("evalgate: the budget of %d judge calls is spent; %d ai evals wait (judge_budget)", j.limit, n))
	}
}

// PruneResult is what `evalgate cache prune` did.
type PruneResult struct {
	Dir              string // the cache, repository-relative
	Removed, Kept    int
	Evals, Unplanned int // ai evals seen, and those whose keys could not be computed
}

// PruneCache is `evalgate cache prune` (README "The AI judge"): every selected page of the repository
// is read as check reads it, the cache key of each run of each ai eval is computed, and every entry no
// key names is deleted. An eval whose target cannot be read asks for nothing now, so its entries go.
func PruneCache(ctx context.Context, opts Options) (PruneResult, error) {
	opts.Mode, opts.All, opts.Paths, opts.Base = ModeCheck, true, nil, ""
	r, err := newRun(opts)
	if err != nil {
		return PruneResult{}, err
	}
	cfg, cfgResults, err := r.loadConfig()
	if err != nil {
		return PruneResult{}, err
	}
	if len(cfgResults) > 0 {
		return PruneResult{}, usagef("the config is invalid (see evalgate validate); the cache is left as it is")
	}
	r.cfg = cfg
	r.setupCommands()
	if err := r.setupJudge(); err != nil {
		return PruneResult{}, err
	}
	if cfg.AI.Cache == "" {
		return PruneResult{}, usagef("ai.cache is \"\": there is no cache to prune")
	}
	out := PruneResult{Dir: cfg.AI.Cache}
	if rel, ok := relSlash(r.root, filepath.Join(cfg.Dir, filepath.FromSlash(cfg.AI.Cache))); ok {
		out.Dir = rel
	}
	files, err := r.selectFiles(ctx)
	if err != nil {
		return PruneResult{}, err
	}
	keep := map[string]bool{}
	for chunk := range slices.Chunk(files.pages, pageChunk) {
		for _, ps := range r.loadPages(ctx, chunk) {
			if ps.page == nil {
				continue
			}
			for _, ev := range ps.page.Evals {
				if ev.Grader != "ai" {
					continue
				}
				out.Evals++
				p := r.prepare(ps, ev)
				if p.done != nil {
					out.Unplanned++
				}
				for _, run := range p.runs {
					keep[run.key] = true
				}
			}
			ps.release()
		}
	}
	c := &judge.Cache{Root: r.root, Dir: filepath.Join(cfg.Dir, filepath.FromSlash(cfg.AI.Cache))}
	out.Removed, out.Kept, err = c.Prune(keep)
	return out, err
}
