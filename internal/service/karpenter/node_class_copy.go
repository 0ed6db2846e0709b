package karpenter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Karpenter tags instances and volumes from the EC2NodeClass alone; a NodePool cannot carry EC2
// tags. So a GPU node pool with billing tags launches its nodes with an EC2NodeClass of its own,
// named after the pool: a copy of its node_class whose tags add the pool's billing. The pool
// writes the copy, and mlplatform_node_class rewrites its copies after each apply, so that they
// follow it within the same terraform apply.
const (
	// LabelNodeClassCopy marks a copy ("true"), so that no other EC2NodeClass is overwritten.
	LabelNodeClassCopy = "mlplatform.io/node-class-copy"
	// AnnotationCopyOf names the EC2NodeClass a copy was made from. (Annotations, as names may be
	// longer than a label value.)
	AnnotationCopyOf = "mlplatform.io/copy-of"
	// AnnotationBillingTags holds, as JSON, the tags the copy adds to the original's.
	AnnotationBillingTags = "mlplatform.io/billing-tags"
)

// copyRef is where pool `name` writes its copy. As for every object, the pool's owner mark says
// whether an EC2NodeClass of that name is the pool's copy or someone else's.
func copyRef(name string) framework.ObjectRef {
	return framework.ObjectRef{Kind: ec2NodeClassKind, Name: name}
}

// nodeClassCopy is the EC2NodeClass `name` that copies base with billing added to its tags.
func nodeClassCopy(base *unstructured.Unstructured, name string, billing, defaultLabels map[string]string) (map[string]any, error) {
	spec, found, err := unstructured.NestedMap(base.Object, "spec")
	if err != nil {
		return nil, fmt.Errorf("reading EC2NodeClass %s: %w", base.GetName(), err)
	}
	if !found {
		return nil, fmt.Errorf("EC2NodeClass %s has no spec", base.GetName())
	}
	tags, _, _ := unstructured.NestedStringMap(spec, "tags")
	if tags == nil {
		tags = map[string]string{}
	}
	maps.Copy(tags, billing)
	spec["tags"] = tags
	billingJSON, err := json.Marshal(billing)
	if err != nil {
		return nil, err
	}
	labels := maps.Clone(defaultLabels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[LabelNodeClassCopy] = "true"
	return map[string]any{
		"apiVersion": awsV1.String(),
		"kind":       ec2NodeClassKind.Kind,
		"metadata": map[string]any{
			"name":        name,
			"labels":      labels,
			"annotations": map[string]string{AnnotationCopyOf: base.GetName(), AnnotationBillingTags: string(billingJSON)},
		},
		"spec": spec,
	}, nil
}

// withAnnotation sets an annotation on a body made by nodeClassCopy.
func withAnnotation(body map[string]any, key, value string) map[string]any {
	body["metadata"].(map[string]any)["annotations"].(map[string]string)[key] = value
	return body
}

// copyOverwritesNodeClass says why a pool with billing cannot be named like its node_class.
func copyOverwritesNodeClass(name string) string {
	return fmt.Sprintf("With billing set, the pool launches its nodes with an EC2NodeClass of its own, named %q like the pool, "+
		"which would overwrite node_class %q: give the pool or the node class another name.", name, name)
}

// poolNodeClass is the copy of EC2NodeClass base that pool `name` launches its nodes with. It
// refuses to take over an EC2NodeClass of that name that is not a copy.
func poolNodeClass(ctx context.Context, p *framework.ProviderData, base, name string, billing map[string]string) (framework.Object, error) {
	if base == name {
		return framework.Object{}, errors.New(copyOverwritesNodeClass(name))
	}
	src, err := p.Client.Get(ctx, ec2NodeClassKind, "", base)
	if kube.IsNotFound(err) {
		return framework.Object{}, fmt.Errorf("node_class: EC2NodeClass %q does not exist; a pool with billing copies it to add its billing tags", base)
	}
	if err != nil {
		return framework.Object{}, err
	}
	body, err := nodeClassCopy(src, name, billing, p.DefaultLabels)
	return framework.Object{Ref: copyRef(name), Body: body}, err
}

// AfterApply rewrites the copies GPU node pools made of this EC2NodeClass, so that they carry its
// new settings with their own billing tags.
func (nodeClass) AfterApply(ctx context.Context, p *framework.ProviderData, _ *nodeClassModel, objs []*unstructured.Unstructured) diag.Diagnostics {
	applied := objs[0]
	var diags diag.Diagnostics
	copies, err := p.Client.List(ctx, ec2NodeClassKind, "", metav1.ListOptions{LabelSelector: LabelNodeClassCopy + "=true"})
	if err != nil {
		diags.AddError("Listing the copies of EC2NodeClass "+applied.GetName(), err.Error())
		return diags
	}
	for _, c := range copies.Items {
		// Only copies a GPU node pool wrote (its owner mark) are rewritten.
		mark := c.GetAnnotations()[framework.OwnerAnnotation]
		if c.GetAnnotations()[AnnotationCopyOf] != applied.GetName() || !strings.HasPrefix(mark, framework.OwnerMark(gpuNodePoolTypeSuffix, "")) {
			continue
		}
		billing := map[string]string{}
		if err := json.Unmarshal([]byte(c.GetAnnotations()[AnnotationBillingTags]), &billing); err != nil {
			diags.AddError("Reading EC2NodeClass "+c.GetName(), fmt.Sprintf("annotation %s: %v", AnnotationBillingTags, err))
			continue
		}
		body, err := nodeClassCopy(applied, c.GetName(), billing, p.DefaultLabels)
		if err == nil {
			// The copy is the pool's: it keeps the pool's marks, is written under the pool's field
			// manager, and only while it is the copy just listed.
			withAnnotation(body, framework.OwnerAnnotation, mark)
			if id, ok := c.GetAnnotations()[framework.OwnerIDAnnotation]; ok {
				withAnnotation(body, framework.OwnerIDAnnotation, id)
			}
			_, err = p.Client.ApplyWith(ctx, ec2NodeClassKind, body, kube.ApplyOptions{Manager: p.ManagerOf(&c), Force: true, UID: c.GetUID()})
		}
		if err != nil {
			diags.AddError("Updating EC2NodeClass "+c.GetName()+", GPU node pool "+c.GetName()+"'s copy of "+applied.GetName(), err.Error())
		}
	}
	return diags
}
