package kueue

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var _ datasource.DataSourceWithConfigure = &clusterQueueDataSource{}

type clusterQueueDataSourceModel struct {
	Name               types.String       `tfsdk:"name"`
	Labels             types.Map          `tfsdk:"labels"`
	Cohort             types.String       `tfsdk:"cohort"`
	QueueingStrategy   types.String       `tfsdk:"queueing_strategy"`
	StopPolicy         types.String       `tfsdk:"stop_policy"`
	ResourceGroups     []dsResourceGroup  `tfsdk:"resource_groups"`
	Active             types.Bool         `tfsdk:"active"`
	PendingWorkloads   types.Int64        `tfsdk:"pending_workloads"`
	ReservingWorkloads types.Int64        `tfsdk:"reserving_workloads"`
	AdmittedWorkloads  types.Int64        `tfsdk:"admitted_workloads"`
	FlavorsUsage       []dsFlavorUsage    `tfsdk:"flavors_usage"`
	FlavorsReservation []dsFlavorUsage    `tfsdk:"flavors_reservation"`
	Conditions         []dsConditionModel `tfsdk:"conditions"`
}

type dsResourceGroup struct {
	CoveredResources []types.String  `tfsdk:"covered_resources"`
	Flavors          []dsFlavorQuota `tfsdk:"flavors"`
}

type dsFlavorQuota struct {
	Name      types.String         `tfsdk:"name"`
	Resources []resourceQuotaModel `tfsdk:"resources"`
}

type dsFlavorUsage struct {
	Name      types.String      `tfsdk:"name"`
	Resources []dsResourceUsage `tfsdk:"resources"`
}

type dsResourceUsage struct {
	Name     types.String `tfsdk:"name"`
	Total    types.String `tfsdk:"total"`
	Borrowed types.String `tfsdk:"borrowed"`
}

type dsConditionModel struct {
	Type               types.String `tfsdk:"type"`
	Status             types.String `tfsdk:"status"`
	Reason             types.String `tfsdk:"reason"`
	Message            types.String `tfsdk:"message"`
	LastTransitionTime types.String `tfsdk:"last_transition_time"`
}

type clusterQueueDataSource struct{ framework.DataSourceBase }

// NewClusterQueueDataSource is data.mlplatform_cluster_queue.
func NewClusterQueueDataSource() datasource.DataSource { return &clusterQueueDataSource{} }

func (d *clusterQueueDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster_queue"
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func computedInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func computedList(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}

func usageAttribute(desc string) schema.ListNestedAttribute {
	return computedList(desc, map[string]schema.Attribute{
		"name": computedString("The ResourceFlavor."),
		"resources": computedList("Per resource of the flavor.", map[string]schema.Attribute{
			"name":     computedString("The resource, e.g. `nvidia.com/gpu`."),
			"total":    computedString("Quantity in use, including what is borrowed."),
			"borrowed": computedString("Quantity in use above the nominal quota, borrowed from the cohort."),
		}),
	})
}

func (d *clusterQueueDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An existing Kueue `ClusterQueue`: its quotas and its live status (usage per flavor and " +
			"resource, workload counts, conditions), for dashboards, outputs and checks such as a `precondition` that a " +
			"queue is active. Read on every plan.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the ClusterQueue.",
				Validators:          []validator.String{framework.DNSSubdomain()},
			},
			"labels":            schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The queue's labels."},
			"cohort":            computedString("The cohort the queue belongs to; null if none."),
			"queueing_strategy": computedString("`BestEffortFIFO` or `StrictFIFO`."),
			"stop_policy":       computedString("`None`, `Hold` or `HoldAndDrain`."),
			"resource_groups": computedList("The queue's quotas.", map[string]schema.Attribute{
				"covered_resources": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Resources the group covers."},
				"flavors": computedList("Flavors and their quotas.", map[string]schema.Attribute{
					"name": computedString("The ResourceFlavor."),
					"resources": computedList("Quota per covered resource.", map[string]schema.Attribute{
						"name":            computedString("The resource."),
						"nominal_quota":   computedString("Nominal quota, as a Kubernetes quantity."),
						"borrowing_limit": computedString("Borrowing limit; null if unlimited."),
						"lending_limit":   computedString("Lending limit; null if unlimited."),
					}),
				}),
			}),
			"active":              schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the condition `Active` is `True`."},
			"pending_workloads":   computedInt("Workloads waiting for admission."),
			"reserving_workloads": computedInt("Workloads reserving quota."),
			"admitted_workloads":  computedInt("Workloads admitted and not finished."),
			"flavors_usage":       usageAttribute("Quota used by admitted workloads, per flavor."),
			"flavors_reservation": usageAttribute("Quota reserved by workloads (admitted or waiting on admission checks), per flavor."),
			"conditions": computedList("The queue's status conditions.", map[string]schema.Attribute{
				"type":                 computedString("Condition type, e.g. `Active`."),
				"status":               computedString("`True`, `False` or `Unknown`."),
				"reason":               computedString("Machine-readable reason, e.g. `Ready` or `FlavorNotFound`."),
				"message":              computedString("Human-readable detail."),
				"last_transition_time": computedString("When the status last changed (RFC 3339)."),
			}),
		},
	}
}

func (d *clusterQueueDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m clusterQueueDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := m.Name.ValueString()
	live, err := d.Provider.Client.Get(ctx, clusterQueueKind, "", name)
	if kube.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "ClusterQueue not found",
			"Attribute name: the cluster has no ClusterQueue "+name+".")
		return
	}
	var cq kueuev1beta2.ClusterQueue
	if err == nil {
		err = runtime.DefaultUnstructuredConverter.FromUnstructured(live.Object, &cq)
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading ClusterQueue "+name, err.Error())
		return
	}
	m.Labels = framework.MapValue(cq.Labels)
	m.Cohort = framework.OptionalString(string(cq.Spec.CohortName))
	m.QueueingStrategy = types.StringValue(string(cq.Spec.QueueingStrategy))
	m.StopPolicy = types.StringValue(string(kueuev1beta2.None))
	if cq.Spec.StopPolicy != nil {
		m.StopPolicy = types.StringValue(string(*cq.Spec.StopPolicy))
	}
	m.ResourceGroups, m.Conditions = []dsResourceGroup{}, []dsConditionModel{}
	for _, g := range flattenResourceGroups(cq.Spec.ResourceGroups, nil) {
		dg := dsResourceGroup{CoveredResources: g.CoveredResources, Flavors: []dsFlavorQuota{}}
		for _, f := range g.Flavors {
			dg.Flavors = append(dg.Flavors, dsFlavorQuota(f))
		}
		m.ResourceGroups = append(m.ResourceGroups, dg)
	}
	st := cq.Status
	m.Active = types.BoolValue(isActive(&cq))
	m.PendingWorkloads = types.Int64Value(int64(st.PendingWorkloads))
	m.ReservingWorkloads = types.Int64Value(int64(st.ReservingWorkloads))
	m.AdmittedWorkloads = types.Int64Value(int64(st.AdmittedWorkloads))
	m.FlavorsUsage = flattenUsage(st.FlavorsUsage)
	m.FlavorsReservation = flattenUsage(st.FlavorsReservation)
	for _, c := range st.Conditions {
		m.Conditions = append(m.Conditions, dsConditionModel{
			Type: types.StringValue(c.Type), Status: types.StringValue(string(c.Status)),
			Reason: types.StringValue(c.Reason), Message: types.StringValue(c.Message),
			LastTransitionTime: types.StringValue(c.LastTransitionTime.UTC().Format(time.RFC3339)),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func isActive(cq *kueuev1beta2.ClusterQueue) bool {
	c, ok := activeCondition(cq)
	return ok && c.Status == metav1.ConditionTrue
}

func flattenUsage(in []kueuev1beta2.FlavorUsage) []dsFlavorUsage {
	out := make([]dsFlavorUsage, 0, len(in))
	for _, f := range in {
		u := dsFlavorUsage{Name: types.StringValue(string(f.Name)), Resources: []dsResourceUsage{}}
		for _, r := range f.Resources {
			u.Resources = append(u.Resources, dsResourceUsage{
				Name: types.StringValue(string(r.Name)), Total: types.StringValue(r.Total.String()), Borrowed: types.StringValue(r.Borrowed.String()),
			})
		}
		out = append(out, u)
	}
	return out
}
