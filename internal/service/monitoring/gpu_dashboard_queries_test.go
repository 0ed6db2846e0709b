package monitoring_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

// The proof that the dashboard's panels work: every Prometheus query of the dashboard's JSON (the
// very text the resource writes) is evaluated by promtool (`promtool test rules`, the Prometheus
// engine and parser of the pinned Prometheus) on synthetic data, and must return series that
// carry exactly the labels its legend names, each with a value that is a number. A query that
// does not parse, a panel that finds no data, a label the query drops or adds, and a series name
// that is not one of the recorded series all fail. The data is a parameter (dashboardData): the
// recorded series written directly (dashboardFixture), or raw series plus the rule files that
// record them.

// dashboardSeries is one of promtool's input_series.
type dashboardSeries struct {
	Series string `json:"series"`
	Values string `json:"values"`
}

// dashboardData is synthetic data to evaluate the dashboard on.
type dashboardData struct {
	RuleFiles []string // rule files recording the series the panels query from Series, if any
	Interval  time.Duration
	Series    []dashboardSeries
	EvalTime  time.Duration // when the queries are evaluated
	Range     time.Duration // the dashboard's time range then, for $__range
	// Selection is a value of each template variable for which every panel has data: the queries
	// are evaluated with all variables at All, then with these.
	Selection map[string]string
	Recorded  []string // the series names the panels may query
}

// dashboardTarget is one query of a panel.
type dashboardTarget struct {
	Panel, RefID, Expr string
	Labels             []string // from the legend: the labels that identify each series
}

// dashboardVariable is a query template variable.
type dashboardVariable struct{ Name, Query string }

var legendLabel = regexp.MustCompile(`\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}`)

// dashboardQueries extracts every panel's targets, and the query variables, from a dashboard's JSON.
// A panel without a target is an error.
func dashboardQueries(text string) ([]dashboardTarget, []dashboardVariable, error) {
	type panel struct {
		Type    string  `json:"type"`
		Title   string  `json:"title"`
		Panels  []panel `json:"panels"`
		Targets []struct {
			RefID  string `json:"refId"`
			Expr   string `json:"expr"`
			Legend string `json:"legendFormat"`
		} `json:"targets"`
	}
	var d struct {
		Panels     []panel `json:"panels"`
		Templating struct {
			List []struct {
				Type, Name string
				Query      any
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return nil, nil, err
	}
	var targets []dashboardTarget
	var walk func([]panel) error
	walk = func(ps []panel) error {
		for _, p := range ps {
			if p.Type == "row" {
				if err := walk(p.Panels); err != nil {
					return err
				}
				continue
			}
			if len(p.Targets) == 0 {
				return fmt.Errorf("panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				labels := []string{}
				for _, m := range legendLabel.FindAllStringSubmatch(tg.Legend, -1) {
					labels = append(labels, m[1])
				}
				targets = append(targets, dashboardTarget{Panel: p.Title, RefID: tg.RefID, Expr: tg.Expr, Labels: labels})
			}
		}
		return nil
	}
	if err := walk(d.Panels); err != nil {
		return nil, nil, err
	}
	var vars []dashboardVariable
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			q, ok := v.Query.(string)
			if !ok {
				return nil, nil, fmt.Errorf("variable %s: query %v is not a string", v.Name, v.Query)
			}
			vars = append(vars, dashboardVariable{Name: v.Name, Query: q})
		}
	}
	return targets, vars, nil
}

var grafanaVariable = regexp.MustCompile(`\$\{([a-zA-Z0-9_]+)\}|\$([a-zA-Z0-9_]+)`)

// grafanaSubstitute replaces the Grafana variables of a query as Grafana does before it sends the
// query to Prometheus: $__range is the dashboard's range in seconds ("3600s"), $__interval the
// step (here the scrape interval), $__rate_interval max($__interval + scrape interval, 4 x scrape
// interval); a template variable at All is its allValue (`.*`), a selected value is the value
// regexp-escaped (the variables are used with =~). Anything else is an error.
func grafanaSubstitute(expr string, d dashboardData, selection map[string]string) (string, error) {
	seconds := func(x time.Duration) string { return fmt.Sprintf("%ds", int(x.Seconds())) }
	builtin := map[string]string{
		"__range":         seconds(d.Range),
		"__interval":      seconds(d.Interval),
		"__rate_interval": seconds(max(2*d.Interval, 4*d.Interval)),
	}
	var errs []error
	out := grafanaVariable.ReplaceAllStringFunc(expr, func(m string) string {
		sub := grafanaVariable.FindStringSubmatch(m)
		name := sub[1] + sub[2]
		if v, ok := builtin[name]; ok {
			return v
		}
		if selection == nil {
			if _, ok := d.Selection[name]; ok {
				return ".*"
			}
		} else if v, ok := selection[name]; ok {
			return regexp.QuoteMeta(v)
		}
		errs = append(errs, fmt.Errorf("unknown Grafana variable %s", m))
		return m
	})
	return out, errors.Join(errs...)
}

var (
	quoted        = regexp.MustCompile(`"(\\.|[^"\\])*"`)
	rangeOrOffset = regexp.MustCompile(`\[[^\]]*\]`)
	// A metric name: one followed by a selector's braces, or any name with a colon (recording rules').
	metricName = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{|([a-zA-Z_][a-zA-Z0-9_]*:[a-zA-Z0-9_:]*)`)
)

// seriesNames are the metric names a query selects.
func seriesNames(expr string) []string {
	expr = rangeOrOffset.ReplaceAllString(quoted.ReplaceAllString(expr, `""`), "")
	var names []string
	for _, m := range metricName.FindAllStringSubmatch(expr, -1) {
		names = append(names, m[1]+m[2])
	}
	return names
}

// promExprTest is one of promtool's promql_expr_test; no samples means none are expected.
type promExprTest struct {
	Expr       string          `json:"expr"`
	EvalTime   string          `json:"eval_time"`
	ExpSamples []promExpSample `json:"exp_samples"`
}

type promExpSample struct {
	Labels string  `json:"labels"`
	Value  float64 `json:"value"`
}

// labelChecks are the expressions that hold q to its labels: it returns series (grouped without
// its labels, they leave exactly one empty label set, so no other label is left either), each
// has every label (grouped by a label it lacks, a series matches vector(1) on it), and no value
// is NaN (NaN != NaN).
func labelChecks(name, q string, labels []string, at string) []promExprTest {
	comment := "# " + name + "\n"
	one := []promExpSample{{Labels: "{}", Value: 1}}
	tests := []promExprTest{
		{Expr: fmt.Sprintf("%sgroup without (%s) (\n%s\n)", comment, strings.Join(labels, ", "), q), EvalTime: at, ExpSamples: one},
		{Expr: fmt.Sprintf("%s(\n%s\n) != (\n%s\n)", comment, q, q), EvalTime: at},
	}
	for _, l := range labels {
		tests = append(tests, promExprTest{
			Expr: fmt.Sprintf("%sgroup by (%s) (\n%s\n) and on (%s) vector(1)", comment, l, q, l), EvalTime: at,
		})
	}
	return tests
}

var labelValues = regexp.MustCompile(`^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)$`)

// dashboardQueryTests are the promtool tests of a dashboard's queries on d.
func dashboardQueryTests(text string, d dashboardData) ([]promExprTest, error) {
	targets, vars, err := dashboardQueries(text)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, errors.New("the dashboard has no queries")
	}
	at := d.EvalTime.String()
	var tests []promExprTest
	var errs []error
	checkNames := func(what, expr string) {
		for _, n := range seriesNames(expr) {
			if !slices.Contains(d.Recorded, n) {
				errs = append(errs, fmt.Errorf("%s queries %s, which is not a recorded series", what, n))
			}
		}
	}
	for _, v := range vars {
		m := labelValues.FindStringSubmatch(v.Query)
		if m == nil {
			errs = append(errs, fmt.Errorf("variable %s: %q is not label_values(series, label)", v.Name, v.Query))
			continue
		}
		checkNames("variable "+v.Name, m[1])
		// label_values offers the label's non-empty values; the selection must be one of them.
		comment := "# variable " + v.Name + "\n"
		tests = append(tests,
			promExprTest{Expr: fmt.Sprintf("%sabsent(group by (%s) (%s) unless on (%s) vector(1))", comment, m[2], m[1], m[2]), EvalTime: at},
			promExprTest{Expr: fmt.Sprintf("%sabsent(%s{%s=%q})", comment, m[1], m[2], d.Selection[v.Name]), EvalTime: at})
		if _, ok := d.Selection[v.Name]; !ok {
			errs = append(errs, fmt.Errorf("the data selects no value of variable %s", v.Name))
		}
	}
	for _, tg := range targets {
		what := fmt.Sprintf("panel %q query %s", tg.Panel, tg.RefID)
		checkNames(what, tg.Expr)
		for _, pass := range []struct {
			name      string
			selection map[string]string
		}{{"all", nil}, {"selected", d.Selection}} {
			q, err := grafanaSubstitute(tg.Expr, d, pass.selection)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", what, err))
				continue
			}
			tests = append(tests, labelChecks(what+" ("+pass.name+")", q, tg.Labels, at)...)
		}
	}
	return tests, errors.Join(errs...)
}

// runPromtool evaluates tests on d with `promtool test rules`, returning its output on failure.
func runPromtool(t *testing.T, d dashboardData, tests []promExprTest) error {
	t.Helper()
	promtool := promtoolPath(t)
	file := map[string]any{
		"rule_files":          d.RuleFiles,
		"evaluation_interval": d.Interval.String(),
		"tests": []map[string]any{{
			"interval":         d.Interval.String(),
			"input_series":     d.Series,
			"promql_expr_test": tests,
		}},
	}
	if d.RuleFiles == nil {
		file["rule_files"] = []string{}
	}
	body, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dashboard_test.yaml")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "test", "rules", path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("promtool test rules: %w\n%s", err, out)
	}
	return nil
}

// checkDashboardQueries fails t unless every query of the dashboard text passes on d.
func checkDashboardQueries(t *testing.T, text string, d dashboardData) {
	t.Helper()
	tests, err := dashboardQueryTests(text, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := runPromtool(t, d, tests); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d promtool expression tests passed", len(tests))
}

func TestGPUDashboard_queriesReturnTheirLabels(t *testing.T) {
	text, err := monitoring.DefaultDashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	checkDashboardQueries(t, text, dashboardFixture())
}

// The check fails a dashboard whose panel is broken: each case changes one query of the real
// dashboard, and promtool or the name check must refuse it, naming the panel.
func TestGPUDashboard_brokenQueriesFail(t *testing.T) {
	text, err := monitoring.DefaultDashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	engine := `avg by (pool) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\"})`
	cases := map[string]struct{ from, to, want string }{
		"does not parse":      {engine, `avg by (pool) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\"}`, `Engine active by pool`},
		"drops a label":       {engine, `avg(mlplatform:gpu_engine_active:ratio{pool=~\"$pool\"})`, `Engine active by pool`},
		"keeps another label": {engine, `avg by (pool, node) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\"})`, `Engine active by pool`},
		"finds no data":       {engine, `avg by (pool) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\", team=\"nobody\"})`, `Engine active by pool`},
		"filters on a label the series lacks": {engine, `avg by (pool) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\", cluster_queue=~\"$cluster_queue\"})`,
			`Engine active by pool.*\(selected\)`},
		"divides by zero": {engine, `avg by (pool) (mlplatform:gpu_engine_active:ratio{pool=~\"$pool\"}) / 0 * 0`, `Engine active by pool`},
		"queries a raw metric": {`mlplatform:gpu_temperature_celsius{`, `DCGM_FI_DEV_GPU_TEMP{`,
			`panel "GPU temperature" query A queries DCGM_FI_DEV_GPU_TEMP, which is not a recorded series`},
		"unknown variable": {`$cluster_queue`, `$queue`, `unknown Grafana variable \$queue`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(text, tc.from) {
				t.Fatalf("the dashboard has no %s", tc.from)
			}
			broken := strings.Replace(text, tc.from, tc.to, 1)
			d := dashboardFixture()
			tests, err := dashboardQueryTests(broken, d)
			if err == nil {
				err = runPromtool(t, d, tests)
			}
			if err == nil {
				t.Fatal("the broken dashboard passed")
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Fatalf("error does not match %q:\n%v", tc.want, err)
			}
		})
	}
}

// The panels on the billing rules' own day: the raw kube-state-metrics, dcgm-exporter and Kueue
// series of billingDay, recorded by the rules the billing resource writes, then queried as the
// dashboard queries them. Every panel finds its series, with the labels its legend names.
func TestGPUDashboard_queriesOnTheBillingDay(t *testing.T) {
	text, err := monitoring.DefaultDashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := monitoring.RenderRules(billingConfig())
	if err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(t.TempDir(), "rules.yaml")
	writeYAML(t, rules, spec)
	var series []dashboardSeries
	for _, s := range billingDay() {
		series = append(series, dashboardSeries(s))
	}
	checkDashboardQueries(t, text, dashboardData{
		RuleFiles: []string{rules},
		Interval:  billingInterval,
		Series:    series,
		EvalTime:  16*time.Hour + 30*time.Minute,
		Range:     16*time.Hour + 30*time.Minute,
		Selection: map[string]string{"team": "speech", "pool": "a100", "cluster_queue": "vision-queue"},
		Recorded:  recordedBy(spec),
	})
}

// recordedBy lists the series the rules record.
func recordedBy(spec monitoringv1.PrometheusRuleSpec) []string {
	var names []string
	for _, g := range spec.Groups {
		for _, r := range g.Rules {
			if r.Record != "" && !slices.Contains(names, r.Record) {
				names = append(names, r.Record)
			}
		}
	}
	return names
}
