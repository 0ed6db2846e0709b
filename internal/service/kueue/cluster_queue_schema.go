package kueue

import (
	"context"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Enums and defaults from the ClusterQueue CRD markers (kueue v0.19.2 apis/kueue/v1beta2/clusterqueue_types.go).
var (
	queueingStrategies  = []string{string(kueuev1beta2.BestEffortFIFO), string(kueuev1beta2.StrictFIFO)}
	stopPolicies        = []string{string(kueuev1beta2.None), string(kueuev1beta2.Hold), string(kueuev1beta2.HoldAndDrain)}
	reclaimPolicies     = []string{string(kueuev1beta2.PreemptionPolicyNever), string(kueuev1beta2.PreemptionPolicyLowerPriority), string(kueuev1beta2.PreemptionPolicyAny)}
	withinQueuePolicies = []string{string(kueuev1beta2.PreemptionPolicyNever), string(kueuev1beta2.PreemptionPolicyLowerPriority), string(kueuev1beta2.PreemptionPolicyLowerOrNewerEqualPriority)}
	borrowPolicies      = []string{string(kueuev1beta2.BorrowWithinCohortPolicyNever), string(kueuev1beta2.BorrowWithinCohortPolicyLowerPriority)}
	fungibilityPolicies = []string{string(kueuev1beta2.MayStopSearch), string(kueuev1beta2.TryNextFlavor)}
	fungibilityPrefs    = []string{string(kueuev1beta2.BorrowingOverPreemption), string(kueuev1beta2.PreemptionOverBorrowing)}
	migrationModes      = []string{string(kueuev1beta2.ConcurrentAdmissionTryPreferredFlavors), string(kueuev1beta2.ConcurrentAdmissionRetainFirstAdmission)}
)

// oneOf is the Markdown list of allowed values, built from the slice the validator uses.
func oneOf(values []string) string { return "one of " + codeList(values) }

func codeList(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

// enum is an optional string with a Kueue default: the allowed values are checked and documented
// from one slice.
func enum(desc string, values []string, def string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		Computed:            true,
		Default:             stringdefault.StaticString(def),
		MarkdownDescription: desc + " One of " + codeList(values) + "; defaults to `" + def + "`.",
		Validators:          []validator.String{stringvalidator.OneOf(values...)},
	}
}

func (clusterQueue) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("ClusterQueue")
	attrs["cohort"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Name of the cohort this queue belongs to (e.g. `mlplatform_cohort.x.name`); queues of one cohort " +
			"borrow each other's unused quota. A name, not necessarily a Cohort object. Needed for `borrowing_limit` and `lending_limit`.",
		Validators: []validator.String{framework.DNSSubdomain()},
	}
	attrs["namespace_selector"] = namespaceSelectorAttribute()
	attrs["queueing_strategy"] = enum("How pending workloads are ordered: `StrictFIFO` lets an older workload that does not "+
		"fit block newer ones; `BestEffortFIFO` admits newer ones that fit.", queueingStrategies, string(kueuev1beta2.BestEffortFIFO))
	attrs["stop_policy"] = enum("Anything but `None` makes the queue inactive: `Hold` lets admitted workloads finish, "+
		"`HoldAndDrain` evicts them.", stopPolicies, string(kueuev1beta2.None))
	attrs["preemption"] = preemptionAttribute()
	attrs["flavor_fungibility"] = flavorFungibilityAttribute()
	attrs["fair_sharing_weight"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Weight of this queue under fair sharing (only used when fair sharing is enabled in Kueue's " +
			"configuration), as a quantity such as `1` or `0.5`; Kueue's default is `1`. `0` or more than `1n`.",
		Validators: []validator.String{framework.Quantity()},
	}
	attrs["admission_mode"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Admission fair sharing for this queue (`admissionScope.admissionMode`), when it is enabled in " +
			"Kueue's configuration (`admissionFairSharing`): `UsageBasedAdmissionFairSharing` orders the queue's pending " +
			"workloads by their LocalQueues' recent usage, weighed by each LocalQueue's `fair_sharing_weight`, so a team " +
			"that used little goes first; `NoAdmissionFairSharing` turns it off. Omitted: Kueue's default for the queue.",
		Validators: []validator.String{stringvalidator.OneOf(string(kueuev1beta2.UsageBasedAdmissionFairSharing),
			string(kueuev1beta2.NoAdmissionFairSharing))},
	}
	attrs["concurrent_admission_policy"] = concurrentAdmissionAttribute()
	attrs["admission_checks_strategy"] = schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "AdmissionChecks (`mlplatform_admission_check`) a workload must pass before admission, each " +
			"for all flavors or for some; Kueue keeps the queue inactive while one is missing or inactive. 1 to 64, with " +
			"unique names. Kueue v1beta1's `admissionChecks: [x]` is `admission_checks_strategy = [{ name = \"x\" }]` " +
			"(v1beta2 has only the strategy). " + provisioningNeedsClusterAutoscaler + " The apply warns, naming the " +
			"rule, when such a check applies to a flavor whose nodes an `mlplatform_gpu_node_pool` supplies.",
		// Not the CRD's MinItems: an empty list writes no admissionChecksStrategy, which Kueue would
		// accept, but the user meant some checks.
		Validators: []validator.List{listvalidator.SizeAtLeast(1)},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the AdmissionCheck (1 to 316 characters).",
			},
			"on_flavors": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Flavors the check runs for; unset means all. At most 64 unique ResourceFlavor names.",
				Validators:          []validator.List{listvalidator.ValueStringsAre(framework.DNSSubdomain())},
			},
		}},
	}
	attrs["wait_for_active"] = schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
		MarkdownDescription: "Wait after create and update, within the `timeouts`, until Kueue reports the queue `Active`; " +
			"a timeout reports Kueue's reason (e.g. `FlavorNotFound`). Defaults to `true`; `false` skips the wait. A queue " +
			"stopped with `stop_policy` is inactive on purpose and is not waited for.",
	}
	attrs["active"] = schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether Kueue reports the queue `Active` (condition `Active=True`)."}
	attrs["pending_workloads"] = schema.Int64Attribute{Computed: true, MarkdownDescription: "Workloads waiting for admission, as last read."}
	attrs["admitted_workloads"] = schema.Int64Attribute{Computed: true, MarkdownDescription: "Workloads admitted and not finished, as last read."}
	return schema.Schema{
		MarkdownDescription: "A Kueue `ClusterQueue` (kueue.x-k8s.io/v1beta2): a pool of quota per ResourceFlavor and resource " +
			"that workloads submitted through LocalQueues are admitted against. Every check of Kueue's CRD, CEL rules and " +
			"admission webhook is made at plan time, naming the attribute. Its GPU quotas are checked against the " +
			"`mlplatform_gpu_node_pool` NodePools the flavors select: a quota for a resource their nodes never expose, above " +
			"what the pools can supply at their limits, or on a flavor whose `mlplatform.io/gpu` node labels no pool's nodes " +
			"carry (its runs would stay Pending), is an error; the quotas of several queues that add up to more are a " +
			"warning (over-commit can be deliberate). At plan the check takes the planned pools, flavors and queues of the " +
			"configuration (a queue that names its flavor by reference, from a flavor fed by a pool's `supplies`, is planned " +
			"after them); before it is written it adds the cluster's objects the configuration does not plan. At plan, a " +
			"flavor given GPU quota that selects GPU nodes (by `mlplatform.io/gpu`, `nvidia.com/gpu.product`, " +
			"`nvidia.com/mig.config`, ...) with labels that every GPU node pool of the configuration planned before " +
			"contradicts is a warning on the quota (or on the pool or flavor, whichever is planned last): a pool of another " +
			"configuration is not seen then. The queue is also recorded for the plan-time check of the training templates " +
			"that use it (see `mlplatform_training_job_template`'s `queue`). Create and update wait until Kueue reports " +
			"the queue `Active`; delete waits while admitted workloads hold it and names them on timeout.",
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			"resource_group": clusterQueueQuota.resourceGroupBlock(),
			"timeouts":       framework.TimeoutsBlock(ctx),
		},
	}
}

// concurrentAdmissionAttribute is spec.concurrentAdmissionPolicy (Kueue v0.18+, alpha).
func concurrentAdmissionAttribute() schema.SingleNestedAttribute {
	replace := "Kueue forbids changing it, so a change (setting or removing it too) replaces the queue."
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Concurrent admission (alpha since Kueue v0.18; Kueue's feature gate `ConcurrentAdmission` must be " +
			"on, otherwise Kueue stores and ignores it): a workload pursues every flavor at once, as a variant per flavor, and " +
			"starts on the first admitted; with `TryPreferredFlavors` it later moves to a flavor earlier in `resource_group`'s " +
			"order when that one has room. Needs exactly one `resource_group`, of at most 16 flavors, and `queueing_strategy = " +
			"\"BestEffortFIFO\"`: checked at plan with Kueue's webhook as with the gate on. " + replace,
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
		Attributes: map[string]schema.Attribute{
			"migration": schema.SingleNestedAttribute{
				Required:            true,
				MarkdownDescription: "Whether and how far an admitted workload moves to a preferred flavor.",
				Attributes: map[string]schema.Attribute{
					"mode": schema.StringAttribute{
						Required: true,
						MarkdownDescription: "`TryPreferredFlavors`: a running workload moves to a flavor earlier in the order " +
							"when it can be admitted there; `RetainFirstAdmission`: it stays where first admitted. " +
							oneOf(migrationModes) + ".",
						Validators: []validator.String{stringvalidator.OneOf(migrationModes...)},
					},
					"constraints": schema.SingleNestedAttribute{
						Optional:            true,
						MarkdownDescription: "Limits on the moves; only with `mode = \"TryPreferredFlavors\"`.",
						Attributes: map[string]schema.Attribute{
							"last_acceptable_flavor_name": schema.StringAttribute{
								Optional: true,
								MarkdownDescription: "The last flavor, in `resource_group`'s order, a workload may move to; unset: " +
									"any flavor preferred to its current one. One of the queue's flavors.",
								Validators: []validator.String{framework.DNSSubdomain()},
							},
						},
					},
				},
			},
		},
	}
}

func preemptionAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "When a pending workload may preempt admitted ones. `reclaim_within_cohort = \"Never\"` " +
			"cannot be combined with a `borrow_within_cohort.policy` other than `Never`. Unset leaves Kueue's defaults (never preempt).",
		Attributes: map[string]schema.Attribute{
			"reclaim_within_cohort": enum("Whether a workload that fits in this queue's nominal quota may preempt workloads "+
				"of other queues in the cohort that borrow it.", reclaimPolicies, string(kueuev1beta2.PreemptionPolicyNever)),
			"within_cluster_queue": enum("Whether a workload that does not fit in the nominal quota may preempt workloads of "+
				"this queue.", withinQueuePolicies, string(kueuev1beta2.PreemptionPolicyNever)),
			"borrow_within_cohort": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Whether a workload that must borrow may preempt workloads in other queues of the cohort (classic preemption only, not fair sharing).",
				Attributes: map[string]schema.Attribute{
					"policy": enum("`LowerPriority` allows preempting lower-priority workloads while borrowing.",
						borrowPolicies, string(kueuev1beta2.BorrowWithinCohortPolicyNever)),
					"max_priority_threshold": schema.Int64Attribute{
						Optional:            true,
						MarkdownDescription: "Only workloads with at most this priority may be preempted; unset means any that the policy allows. A 32-bit integer.",
						Validators:          []validator.Int64{int64validator.Between(math.MinInt32, math.MaxInt32)},
					},
				},
			},
		},
	}
}

func flavorFungibilityAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Whether a workload tries the next flavor before borrowing or preempting in the current one. " +
			"Unset leaves Kueue's defaults.",
		Attributes: map[string]schema.Attribute{
			"when_can_borrow": enum("What to do when the workload fits the current flavor only by borrowing.",
				fungibilityPolicies, string(kueuev1beta2.MayStopSearch)),
			"when_can_preempt": enum("What to do when the workload fits the current flavor only by preempting.",
				fungibilityPolicies, string(kueuev1beta2.TryNextFlavor)),
			"preference": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Which to prefer when every flavor needs borrowing or preemption: " + oneOf(fungibilityPrefs) +
					". Only with both `when_can_borrow` and `when_can_preempt` set to `TryNextFlavor`.",
				Validators: []validator.String{stringvalidator.OneOf(fungibilityPrefs...)},
			},
		},
	}
}
