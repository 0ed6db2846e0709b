package kueue

import (
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Quotas (`resource_group` blocks) are shared by ClusterQueues and Cohorts: Kueue uses the same
// ResourceGroup type and the same webhook checks (pkg/webhooks/clusterqueue_webhook.go
// validateResourceGroups) for both.

// Limits from the CRD markers in kueue v0.19.2 apis/kueue/v1beta2/clusterqueue_types.go and the
// webhook's totals, for the descriptions only: the validate engine applies Kueue's own.
const (
	maxResourceGroups     = 16  // ResourceGroups +kubebuilder:validation:MaxItems=16
	maxCoveredResources   = 64  // CoveredResources MinItems=1, MaxItems=64
	maxFlavorsPerGroup    = 64  // Flavors MinItems=1, MaxItems=64
	maxResourcesPerFlavor = 64  // FlavorQuotas.Resources MinItems=1, MaxItems=64
	maxTotalFlavors       = 256 // webhook validateTotalFlavors
	maxTotalCovered       = 256 // webhook validateTotalCoveredResources
	maxFlavorResources    = 512 // webhook validateFlavorResourceCombinations, per resource group
)

// quotaPaths are the attributes of the quota fields whose names are not the API's: blocks are
// singular, and the fair sharing weight is flattened (the webhook reports it on spec.fairSharing).
var quotaPaths = map[string]string{
	"spec.resourceGroups":                         "resource_group",
	"spec.resourceGroups[*].flavors":              "resource_group[*].flavor",
	"spec.resourceGroups[*].flavors[*].resources": "resource_group[*].flavor[*].resource",
	"spec.fairSharing":                            "fair_sharing_weight",
	"spec.fairSharing.weight":                     "fair_sharing_weight",
}

// withQuotaPaths is paths and quotaPaths.
func withQuotaPaths(paths map[string]string) map[string]string {
	maps.Copy(paths, quotaPaths)
	return paths
}

// quotaPointers name a flavor listed twice in a resource group (the CRD's map list reports the
// element) by its name, as the webhook does for a flavor listed in two groups.
var quotaPointers = []framework.UpstreamPointer{{
	Field: "spec.resourceGroups[*].flavors[*]", Message: "Duplicate value", To: "resource_group[*].flavor[*].name",
}}

type resourceGroupModel struct {
	CoveredResources []types.String     `tfsdk:"covered_resources"`
	Flavors          []flavorQuotaModel `tfsdk:"flavor"`
}

type flavorQuotaModel struct {
	Name      types.String         `tfsdk:"name"`
	Resources []resourceQuotaModel `tfsdk:"resource"`
}

type resourceQuotaModel struct {
	Name           types.String `tfsdk:"name"`
	NominalQuota   types.String `tfsdk:"nominal_quota"`
	BorrowingLimit types.String `tfsdk:"borrowing_limit"`
	LendingLimit   types.String `tfsdk:"lending_limit"`
}

// quotaOwner says how the quota descriptions and checks differ between a ClusterQueue and a Cohort.
type quotaOwner struct {
	kind string // "ClusterQueue" or "Cohort"
	// parentAttr is the attribute without which borrowing and lending limits are refused:
	// `cohort` for a ClusterQueue, `parent` for a Cohort.
	parentAttr string
	// lendingWithinNominal: lending_limit <= nominal_quota (ClusterQueues only:
	// ValidateClusterQueue sets enforceNominalGreaterThanLending, validateCohort does not).
	lendingWithinNominal bool
}

var (
	clusterQueueQuota = quotaOwner{kind: "ClusterQueue", parentAttr: "cohort", lendingWithinNominal: true}
	cohortQuota       = quotaOwner{kind: "Cohort", parentAttr: "parent"}
)

// resourceGroupBlock is the `resource_group` block.
func (o quotaOwner) resourceGroupBlock() schema.ListNestedBlock {
	lending := "It must be at most `nominal_quota`."
	nominal := "How much of the resource workloads admitted by this ClusterQueue may use at a time."
	if !o.lendingWithinNominal {
		lending = "Unlike a ClusterQueue's, it may exceed `nominal_quota`."
		nominal = "Quota the Cohort adds on top of its ClusterQueues' quotas: a shared pool for the Cohort's members."
	}
	quantityNote := " A Kubernetes quantity such as `15`, `500m` or `256Gi`; not negative."
	return schema.ListNestedBlock{
		MarkdownDescription: fmt.Sprintf("A group of resources and the flavors that give quota for them, e.g. "+
			"`nvidia.com/gpu`, `cpu` and `memory` on GPU flavors. At most %d groups. A resource and a flavor may each "+
			"appear in one group only; in all at most %d flavors and %d covered resources, and at most %d "+
			"flavor-resource pairs per group.", maxResourceGroups, maxTotalFlavors, maxTotalCovered, maxFlavorResources),
		NestedObject: schema.NestedBlockObject{
			Attributes: map[string]schema.Attribute{
				"covered_resources": schema.ListAttribute{
					ElementType: types.StringType,
					Required:    true,
					MarkdownDescription: fmt.Sprintf("The resources this group's flavors give quota for, e.g. `nvidia.com/gpu`, "+
						"`nvidia.com/mig-1g.10gb`, `cpu`, `memory`: 1 to %d Kubernetes resource names. Each `flavor` has one "+
						"`resource` block per entry, in this order.", maxCoveredResources),
					Validators: []validator.List{listvalidator.ValueStringsAre(framework.QualifiedName()), listvalidator.UniqueValues()},
				},
			},
			Blocks: map[string]schema.Block{
				"flavor": schema.ListNestedBlock{
					MarkdownDescription: fmt.Sprintf("A ResourceFlavor and its quota for each covered resource: 1 to %d per "+
						"group, each flavor at most once in the %s.", maxFlavorsPerGroup, o.kind),
					NestedObject: schema.NestedBlockObject{
						Attributes: map[string]schema.Attribute{
							"name": schema.StringAttribute{
								Required: true,
								MarkdownDescription: "Name of a ResourceFlavor, e.g. `mlplatform_resource_flavor.a100.name` (a reference " +
									"makes Terraform create the flavor first). While no such flavor exists Kueue keeps a ClusterQueue " +
									"inactive with reason `FlavorNotFound`.",
								Validators: []validator.String{framework.DNSSubdomain()},
							},
						},
						Blocks: map[string]schema.Block{
							"resource": schema.ListNestedBlock{
								MarkdownDescription: fmt.Sprintf("The flavor's quota for one covered resource: one block per entry of "+
									"`covered_resources`, in the same order (at most %d).", maxResourcesPerFlavor),
								NestedObject: schema.NestedBlockObject{
									Attributes: map[string]schema.Attribute{
										"name": schema.StringAttribute{
											Required:            true,
											MarkdownDescription: "The covered resource this quota is for, e.g. `nvidia.com/gpu`.",
											Validators:          []validator.String{framework.QualifiedName()},
										},
										"nominal_quota": schema.StringAttribute{
											Required:            true,
											MarkdownDescription: nominal + quantityNote,
											Validators:          []validator.String{framework.Quantity()},
										},
										"borrowing_limit": schema.StringAttribute{
											Optional: true,
											MarkdownDescription: "How much more than `nominal_quota` this " + o.kind + " may borrow from unused quota " +
												"elsewhere in its cohort tree; unset means no limit. Only with `" + o.parentAttr + "`." + quantityNote,
											Validators: []validator.String{framework.Quantity()},
										},
										"lending_limit": schema.StringAttribute{
											Optional: true,
											MarkdownDescription: "How much of its unused quota this " + o.kind + " may lend to others in its cohort " +
												"tree; unset means all of it. Only with `" + o.parentAttr + "`. " + lending + quantityNote,
											Validators: []validator.String{framework.Quantity()},
										},
									},
								},
							},
						},
					},
				},
			},
		},
	}
}

// expandResourceGroups builds the apply configuration of resource groups. The quantities were
// checked at plan, so a parse error here is a bug.
func expandResourceGroups(groups []resourceGroupModel) ([]*kueueac.ResourceGroupApplyConfiguration, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]*kueueac.ResourceGroupApplyConfiguration, 0, len(groups))
	parse := func(p path.Path, v types.String) *resource.Quantity {
		if v.IsNull() {
			return nil
		}
		q, err := framework.ParseQuantity(v.ValueString())
		if err != nil {
			diags.AddAttributeError(p, "Invalid quantity", fmt.Sprintf("Attribute %s: %v", p, err))
			return nil
		}
		return &q
	}
	for i, g := range groups {
		gp := path.Root("resource_group").AtListIndex(i)
		rg := kueueac.ResourceGroup()
		for _, r := range g.CoveredResources {
			rg.WithCoveredResources(corev1.ResourceName(r.ValueString()))
		}
		for j, f := range g.Flavors {
			fp := gp.AtName("flavor").AtListIndex(j)
			fq := kueueac.FlavorQuotas().WithName(kueuev1beta2.ResourceFlavorReference(f.Name.ValueString()))
			for k, r := range f.Resources {
				rp := fp.AtName("resource").AtListIndex(k)
				rq := kueueac.ResourceQuota().WithName(corev1.ResourceName(r.Name.ValueString()))
				if q := parse(rp.AtName("nominal_quota"), r.NominalQuota); q != nil {
					rq.WithNominalQuota(*q)
				}
				if q := parse(rp.AtName("borrowing_limit"), r.BorrowingLimit); q != nil {
					rq.WithBorrowingLimit(*q)
				}
				if q := parse(rp.AtName("lending_limit"), r.LendingLimit); q != nil {
					rq.WithLendingLimit(*q)
				}
				fq.WithResources(rq)
			}
			rg.WithFlavors(fq)
		}
		out = append(out, rg)
	}
	return out, diags
}

// flattenResourceGroups reads resource groups back. The CRD makes the list atomic, so every live
// group is Terraform's. A quantity equal to what was configured keeps its configured spelling
// (`1.5` stays `1.5`, not `1500m`), so only a real change shows as drift.
func flattenResourceGroups(live []kueuev1beta2.ResourceGroup, prior []resourceGroupModel) []resourceGroupModel {
	out := make([]resourceGroupModel, len(live))
	for i, g := range live {
		var pg resourceGroupModel
		if i < len(prior) {
			pg = prior[i]
		}
		covered := make([]types.String, len(g.CoveredResources))
		for j, r := range g.CoveredResources {
			covered[j] = types.StringValue(string(r))
		}
		flavors := make([]flavorQuotaModel, len(g.Flavors))
		for j, f := range g.Flavors {
			var pf flavorQuotaModel
			if j < len(pg.Flavors) {
				pf = pg.Flavors[j]
			}
			resources := make([]resourceQuotaModel, len(f.Resources))
			for k, r := range f.Resources {
				var pr resourceQuotaModel
				if k < len(pf.Resources) {
					pr = pf.Resources[k]
				}
				resources[k] = resourceQuotaModel{
					Name:           types.StringValue(string(r.Name)),
					NominalQuota:   framework.QuantityValue(&r.NominalQuota, pr.NominalQuota),
					BorrowingLimit: framework.QuantityValue(r.BorrowingLimit, pr.BorrowingLimit),
					LendingLimit:   framework.QuantityValue(r.LendingLimit, pr.LendingLimit),
				}
			}
			flavors[j] = flavorQuotaModel{Name: types.StringValue(string(f.Name)), Resources: resources}
		}
		out[i] = resourceGroupModel{CoveredResources: covered, Flavors: flavors}
	}
	return out
}
