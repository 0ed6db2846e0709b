package monitoring

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// dashboardOptions are the attributes that shape the dashboard's JSON.
type dashboardOptions struct {
	Title, UID, Refresh, TimeFrom, TimeTo string
	// Datasource is the Prometheus data source the datasource variable selects first; empty,
	// Grafana's default one.
	Datasource string
}

// The dashboard's template variables. Multi-valued with "All" as `.*`, so that every query
// filters with `label=~"$var"` and All also matches series without the label (idle GPUs have no
// team).
const (
	dashboardVarDatasource   = "datasource"
	dashboardVarTeam         = "team"
	dashboardVarPool         = "pool"
	dashboardVarClusterQueue = "cluster_queue"
	dashboardAllValue        = ".*"
)

// Selectors of the recorded series, filtered by the variables that apply to them.
var (
	dashboardTeamFilter  = `{team=~"$team", pool=~"$pool"}`
	dashboardGPUFilter   = `{pool=~"$pool"}`
	dashboardQueueFilter = `{cluster_queue=~"$cluster_queue"}`
)

// overRange sums an hourly recorded series over the dashboard's range at a 1h step, as series.go
// says to.
func dashboardOverRange(series string) string {
	return fmt.Sprintf(`sum_over_time(%s%s[$__range:1h])`, series, dashboardTeamFilter)
}

// buildDashboard is the dashboard as Grafana's JSON model. Every panel queries only the series
// the billing rules record (series.go).
//
// It is the classic dashboard model (the SDK's `dashboard`, which it marks deprecated in favour of
// `dashboardv2`): Grafana's file provisioning, which the sidecar feeds, reads that model, while v2
// dashboards are API resources of recent Grafana versions only.
func buildDashboard(o dashboardOptions) (string, error) {
	//nolint:staticcheck // the classic model, as said above
	b := dashboard.NewDashboardBuilder(o.Title).
		Uid(o.UID).
		Tags([]string{"mlplatform", "gpu"}).
		Editable().
		Tooltip(dashboard.DashboardCursorSyncCrosshair).
		Time(o.TimeFrom, o.TimeTo).
		Refresh(o.Refresh).
		Timezone(common.TimeZoneBrowser).
		WithVariable(dashboardDatasourceVariable(o.Datasource)).
		WithVariable(dashboardLabelVariable(dashboardVarTeam, "Team", seriesTeamGPUs)).
		WithVariable(dashboardLabelVariable(dashboardVarPool, "Pool", seriesGPUEngineActive)).
		WithVariable(dashboardLabelVariable(dashboardVarClusterQueue, "ClusterQueue", seriesQueuePending))
	p := &dashboardPanels{}
	for _, row := range []struct {
		title           string
		dashboardPanels []cog.Builder[dashboard.Panel]
	}{
		{"Utilisation", p.utilisation()},
		{"Queues", p.queues()},
		{"Cost", p.cost()},
		{"Health", p.health()},
	} {
		b.WithRow(dashboard.NewRowBuilder(row.title).Id(p.nextID()))
		for _, panel := range row.dashboardPanels {
			b.WithPanel(panel)
		}
	}
	d, err := b.Build()
	if err != nil {
		return "", err
	}
	out, err := json.MarshalIndent(d, "", "  ")
	return string(out), err
}

func dashboardDatasourceVariable(current string) *dashboard.DatasourceVariableBuilder {
	v := dashboard.NewDatasourceVariableBuilder(dashboardVarDatasource).Label("Data source").Type("prometheus")
	if current != "" {
		v.Current(dashboard.VariableOption{
			Text:  dashboard.StringOrArrayOfString{String: &current},
			Value: dashboard.StringOrArrayOfString{String: &current},
		})
	}
	return v
}

// dashboardLabelVariable offers the values of a label of a recorded series.
func dashboardLabelVariable(name, label, series string) *dashboard.QueryVariableBuilder {
	q := fmt.Sprintf("label_values(%s, %s)", series, name)
	return dashboard.NewQueryVariableBuilder(name).
		Label(label).
		Datasource(dashboardDatasourceRef()).
		Query(dashboard.StringOrMap{String: &q}).
		Definition(q).
		Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
		Sort(dashboard.VariableSortAlphabeticalAsc).
		Multi(true).
		IncludeAll(true).
		AllValue(dashboardAllValue)
}

func dashboardDatasourceRef() common.DataSourceRef {
	typ, uid := "prometheus", "${"+dashboardVarDatasource+"}"
	return common.DataSourceRef{Type: &typ, Uid: &uid}
}

// dashboardPanels numbers the dashboardPanels as they are built.
type dashboardPanels struct{ id uint32 }

func (p *dashboardPanels) nextID() uint32 { p.id++; return p.id }

// query is one Prometheus target. by names the labels that identify each series it returns: its
// legend shows them (a table shows them as columns), and the dashboard's test checks that every
// series carries exactly these.
func dashboardQuery(refID, expr string, by ...string) *prometheus.DataqueryBuilder {
	legend := make([]string, len(by))
	for i, l := range by {
		legend[i] = "{{" + l + "}}"
	}
	q := prometheus.NewDataqueryBuilder().RefId(refID).Datasource(dashboardDatasourceRef()).Expr(expr).
		EditorMode(prometheus.QueryEditorModeCode)
	if len(by) > 0 {
		q.LegendFormat(strings.Join(legend, " / "))
	}
	return q
}

// wholeGPU names the MIG profile of whole GPUs, which dcgm-exporter leaves empty, so that legends
// and tables say so.
func wholeGPU(expr string) string {
	return fmt.Sprintf(`label_replace(%s, "mig_profile", "whole GPU", "mig_profile", "")`, expr)
}

func dashboardSumBy(by []string, expr string) string {
	return fmt.Sprintf("sum by (%s) (%s)", strings.Join(by, ", "), expr)
}

func (p *dashboardPanels) timeseries(title, description, unit string, q *prometheus.DataqueryBuilder) *timeseries.PanelBuilder {
	return timeseries.NewPanelBuilder().Id(p.nextID()).Title(title).Description(description).Unit(unit).
		Datasource(dashboardDatasourceRef()).Height(8).Span(12).FillOpacity(10).Min(0).WithTarget(q)
}

func (p *dashboardPanels) stat(title, description, unit string, q *prometheus.DataqueryBuilder) *stat.PanelBuilder {
	return stat.NewPanelBuilder().Id(p.nextID()).Title(title).Description(description).Unit(unit).
		Datasource(dashboardDatasourceRef()).Height(4).Span(6).WithTarget(q.Instant()).
		ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"}))
}

// table shows instant queries as rows, one column per label and a value column per query.
func (p *dashboardPanels) table(title, description, unit string, qs ...*prometheus.DataqueryBuilder) *table.PanelBuilder {
	t := table.NewPanelBuilder().Id(p.nextID()).Title(title).Description(description).Unit(unit).
		Datasource(dashboardDatasourceRef()).Height(8).Span(12)
	targets := make([]cog.Builder[variants.Dataquery], len(qs))
	for i, q := range qs {
		targets[i] = q.Instant().Format(prometheus.PromQueryFormatTable)
	}
	t.Targets(targets)
	transforms := []dashboard.DataTransformerConfig{}
	if len(qs) > 1 {
		transforms = append(transforms, dashboard.DataTransformerConfig{Id: "merge", Options: map[string]any{}})
	}
	transforms = append(transforms, dashboard.DataTransformerConfig{Id: "organize", Options: map[string]any{
		"excludeByName": map[string]bool{"Time": true},
	}})
	return t.Transformations(transforms)
}

func (p *dashboardPanels) utilisation() []cog.Builder[dashboard.Panel] {
	active := seriesGPUEngineActive + dashboardGPUFilter
	return []cog.Builder[dashboard.Panel]{
		p.stat("GPU engine active", "Average share of time the GPUs' (or MIG instances') graphics engines were busy "+
			"(DCGM_FI_PROF_GR_ENGINE_ACTIVE).", "percentunit", dashboardQuery("A", "avg("+active+")")),
		p.stat("GPUs held by running pods", "GPUs that running pods hold, a MIG slice counted as its share of a GPU.",
			"short", dashboardQuery("A", "sum("+seriesTeamGPUs+dashboardTeamFilter+")")),
		p.timeseries("Engine active by pool", "Average engine activity of each GPU node pool's GPUs.", "percentunit",
			dashboardQuery("A", "avg by (pool) ("+active+")", "pool")),
		p.timeseries("Engine active by GPU model and MIG profile", "Average engine activity per GPU model, and per "+
			"MIG profile for MIG instances.", "percentunit",
			dashboardQuery("A", wholeGPU("avg by (gpu_model, mig_profile) ("+active+")"), "gpu_model", "mig_profile")),
		p.timeseries("GPUs held by pool and capacity type", "GPUs that running pods hold in each pool, spot and on-demand.",
			"short", dashboardQuery("A", dashboardSumBy([]string{"pool", "capacity_type"}, seriesTeamGPUs+dashboardTeamFilter), "pool", "capacity_type")),
		p.timeseries("GPUs held by team", "GPUs that each team's running pods hold.", "short",
			dashboardQuery("A", dashboardSumBy([]string{"team"}, seriesTeamGPUs+dashboardTeamFilter), "team")),
	}
}

func (p *dashboardPanels) queues() []cog.Builder[dashboard.Panel] {
	return []cog.Builder[dashboard.Panel]{
		p.timeseries("Pending workloads", "Workloads waiting in each ClusterQueue, active (to be admitted when quota "+
			"frees) or inadmissible.", "short",
			dashboardQuery("A", dashboardSumBy([]string{"cluster_queue", "status"}, seriesQueuePending+dashboardQueueFilter), "cluster_queue", "status")),
		p.timeseries("Admitted workloads", "Workloads admitted and not finished, per ClusterQueue.", "short",
			dashboardQuery("A", dashboardSumBy([]string{"cluster_queue"}, seriesQueueAdmitted+dashboardQueueFilter), "cluster_queue")),
		p.timeseries("Admission wait (p95)", "95th percentile of the time workloads waited for admission, over 5 minutes.",
			"s", dashboardQuery("A", "max by (cluster_queue) ("+seriesQueueAdmissionWaitP95+dashboardQueueFilter+")", "cluster_queue")),
		p.table("Quota used against nominal", "Quota in use as a share of the nominal quota, per ClusterQueue, "+
			"flavor and resource; above 100% the queue borrows from its cohort.", "percentunit",
			dashboardQuery("A", "max by (cluster_queue, flavor, resource) ("+seriesQueueQuotaUsed+dashboardQueueFilter+")",
				"cluster_queue", "flavor", "resource")),
	}
}

func (p *dashboardPanels) cost() []cog.Builder[dashboard.Panel] {
	hours, cost := dashboardOverRange(seriesTeamGPUHours), dashboardOverRange(seriesTeamCost)
	spotHours := strings.Replace(hours, `{`, `{capacity_type="spot", `, 1)
	return []cog.Builder[dashboard.Panel]{
		p.stat("GPU-hours", "GPU-hours used in the dashboard's time range.", "short", dashboardQuery("A", "sum("+hours+")")),
		p.stat("Cost", "What the GPU-hours in the time range cost, at the pools' hourly prices.", "currencyUSD",
			dashboardQuery("A", "sum("+cost+")")),
		p.stat("Spot share of GPU-hours", "Share of the GPU-hours in the time range that ran on spot capacity.",
			"percentunit", dashboardQuery("A", "(sum("+spotHours+") or vector(0)) / sum("+hours+")")),
		p.stat("Cost per hour now", "What the running pods cost per hour.", "currencyUSD",
			dashboardQuery("A", "sum("+seriesTeamCostPerHour+dashboardTeamFilter+")")),
		p.table("GPU-hours and cost per team and project", "GPU-hours (A) and cost in USD (B) in the time range.", "short",
			dashboardQuery("A", dashboardSumBy([]string{"team", "project"}, hours), "team", "project"),
			dashboardQuery("B", dashboardSumBy([]string{"team", "project"}, cost), "team", "project")),
		p.table("Price per GPU-hour", "USD per hour of one unit of each resource the pools supply, spot against "+
			"on-demand.", "currencyUSD",
			dashboardQuery("A", "max by (pool, capacity_type, resource) ("+seriesUnitPrice+dashboardGPUFilter+")", "pool", "capacity_type", "resource")),
		p.timeseries("Cost per hour by team", "What each team's running pods cost per hour.", "currencyUSD",
			dashboardQuery("A", dashboardSumBy([]string{"team"}, seriesTeamCostPerHour+dashboardTeamFilter), "team")),
		p.timeseries("Cost per hour, spot against on-demand", "What the running pods cost per hour on spot and on "+
			"on-demand capacity.", "currencyUSD",
			dashboardQuery("A", dashboardSumBy([]string{"capacity_type"}, seriesTeamCostPerHour+dashboardTeamFilter), "capacity_type")),
	}
}

func (p *dashboardPanels) health() []cog.Builder[dashboard.Panel] {
	xid := "max_over_time(" + seriesGPUXIDErrors + dashboardGPUFilter + "[$__range])"
	return []cog.Builder[dashboard.Panel]{
		p.timeseries("GPU memory used", "Framebuffer memory in use, per GPU or MIG instance.", "percentunit",
			dashboardQuery("A", wholeGPU("max by (node, gpu, mig_profile) ("+seriesGPUMemoryUsed+dashboardGPUFilter+")"),
				"node", "gpu", "mig_profile")),
		p.timeseries("GPU temperature", "Temperature of each GPU.", "celsius",
			dashboardQuery("A", "max by (node, gpu) ("+seriesGPUTemperature+dashboardGPUFilter+")", "node", "gpu")),
		p.stat("GPUs with XID errors", "GPUs that reported an XID error in the time range.", "short",
			dashboardQuery("A", "count(max by (node, gpu) ("+xid+") > 0) or vector(0)")),
		p.table("XID errors per GPU", "The highest XID error code each GPU reported in the time range (0: none). "+
			"XIDs such as 48 (double-bit ECC), 79 (fallen off the bus) or 94/95 (contained/uncontained ECC) need the node "+
			"drained.", "none",
			dashboardQuery("A", "max by (node, gpu, gpu_model, pool) ("+xid+")", "node", "gpu", "gpu_model", "pool")),
	}
}
