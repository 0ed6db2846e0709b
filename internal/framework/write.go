package framework

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// maxWriteAttempts bounds how often a write that found the object changed since it was read is
// decided again.
const maxWriteAttempts = 5

func keptChanging(ref ObjectRef) error {
	return fmt.Errorf("%s kept changing while it was written (%d attempts): another writer is busy with it; apply again", ref, maxWriteAttempts)
}

// readBeforeWrite reads every object to write, aligned with objs (nil where one does not exist),
// and refuses, before anything is written, those that are not the instance's: objects it did not
// write, or for a shared object, keys it may not write.
func (r *Resource[M, PM]) readBeforeWrite(ctx context.Context, objs []Object, own owner, shared bool, diags *diag.Diagnostics) []*unstructured.Unstructured {
	lives := make([]*unstructured.Unstructured, len(objs))
	for i, o := range objs {
		live, err := r.Provider.Client.Get(ctx, o.Ref.Kind, o.Ref.Namespace, o.Ref.Name)
		switch {
		case kube.IsNotFound(err):
			continue
		case err != nil:
			diags.AddError("Reading "+o.Ref.String()+" before writing it", err.Error())
			continue
		case shared:
			keys, _ := dataKeys(o.Body)
			if refusals := own.keyRefusals(live, o.Ref, keys); len(refusals) > 0 {
				diags.AddError("Keys of "+o.Ref.String()+" belong to someone else", refusalError(refusals).Error())
			}
		case !own.owns(live):
			diags.AddError(o.Ref.String()+" already exists", notOwned(o.Ref, live, r.Spec.TypeSuffix(), own.id))
		}
		lives[i] = live
	}
	return lives
}

// writeOwned applies o with the instance's marks under its field manager. Over live (the
// instance's object as it was read) it writes with force, on the condition that the object is
// still that one (its UID); where nothing was, it creates without force, so that an object
// someone else created since (another workspace applying at the same moment) is a conflict
// instead of being written over. A conflict is read again and decided again.
func (r *Resource[M, PM]) writeOwned(ctx context.Context, o Object, own owner, live *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	body, err := own.marked(o.Body)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", o.Ref, err)
	}
	c := r.Provider.Client
	for range maxWriteAttempts {
		opts := kube.ApplyOptions{Manager: own.manager}
		if live != nil {
			opts.Force, opts.UID = true, live.GetUID()
		}
		out, err := c.ApplyWith(ctx, o.Ref.Kind, body, opts)
		if !kube.IsConflict(err) {
			return out, err
		}
		if live, err = c.Get(ctx, o.Ref.Kind, o.Ref.Namespace, o.Ref.Name); kube.IsNotFound(err) {
			live = nil
		} else if err != nil {
			return nil, err
		} else if !own.owns(live) {
			return nil, errors.New(notOwned(o.Ref, live, r.Spec.TypeSuffix(), own.id))
		}
	}
	return nil, keptChanging(o.Ref)
}
