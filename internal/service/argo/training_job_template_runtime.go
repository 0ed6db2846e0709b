package argo

import (
	"fmt"
	"time"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// Source, tracking, datasets and run lifetime: written into the WorkflowTemplate and read back.

func expandRuntime(m *trainingJobTemplateModel, spec *wfv1.WorkflowSpec, tmpl *wfv1.Template) {
	c := tmpl.Container
	if s := m.Source; s != nil {
		git := &wfv1.GitArtifact{Repo: s.GitRepo.ValueString(), Revision: s.Revision.ValueString()}
		if k := s.SSHPrivateKeySecret; k != nil {
			git.SSHPrivateKeySecret = &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: k.Name.ValueString()}, Key: k.Key.ValueString()}
		}
		tmpl.Inputs.Artifacts = wfv1.Artifacts{{Name: sourceArtifact, Path: sourcePath,
			ArtifactLocation: wfv1.ArtifactLocation{Git: git}}}
		c.WorkingDir = sourcePath
	}
	if tr := m.Tracking; tr != nil {
		c.Env = append(c.Env, corev1.EnvVar{Name: envTrackingURI, Value: tr.URI.ValueString()})
		if !tr.Experiment.IsNull() {
			c.Env = append(c.Env, corev1.EnvVar{Name: envExperiment, Value: tr.Experiment.ValueString()})
		}
		c.Env = append(c.Env, corev1.EnvVar{Name: envRunName, Value: "{{workflow.name}}"})
	}
	for i, v := range m.Volumes {
		name := fmt.Sprintf("dataset-%d", i)
		tmpl.Volumes = append(tmpl.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: v.ClaimName.ValueString(), ReadOnly: true}}})
		c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: name, MountPath: v.MountPath.ValueString(), ReadOnly: true})
	}
	if d := seconds(m.ActiveDeadline); d > 0 {
		spec.ActiveDeadlineSeconds = ptr.To(d)
	}
	if d := seconds(m.TTLAfterFinish); d > 0 {
		spec.TTLStrategy = &wfv1.TTLStrategy{SecondsAfterCompletion: ptr.To(int32(d))}
	}
	if !m.PodGC.IsNull() {
		spec.PodGC = &wfv1.PodGC{Strategy: wfv1.PodGCStrategy(m.PodGC.ValueString())}
	}
}

func seconds(v types.String) int64 {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil {
		return 0
	}
	return int64(d / time.Second)
}

func flattenRuntime(wt *wfv1.WorkflowTemplate, tmpl *wfv1.Template, m *trainingJobTemplateModel) {
	prior := *m
	m.Source = nil
	for _, a := range tmpl.Inputs.Artifacts {
		if a.Name != sourceArtifact || a.Git == nil {
			continue
		}
		m.Source = &sourceModel{GitRepo: types.StringValue(a.Git.Repo), Revision: types.StringValue(a.Git.Revision)}
		if k := a.Git.SSHPrivateKeySecret; k != nil {
			m.Source.SSHPrivateKeySecret = &secretRefModel{Name: types.StringValue(k.Name), Key: types.StringValue(k.Key)}
		}
	}
	m.Tracking = nil
	for _, e := range tmpl.Container.Env {
		switch e.Name {
		case envTrackingURI:
			if m.Tracking == nil {
				m.Tracking = &trackingModel{Experiment: types.StringNull()}
			}
			m.Tracking.URI = types.StringValue(e.Value)
		case envExperiment:
			if m.Tracking == nil {
				m.Tracking = &trackingModel{URI: types.StringNull()}
			}
			m.Tracking.Experiment = types.StringValue(e.Value)
		}
	}
	m.Volumes = nil
	claims := map[string]string{}
	for _, v := range tmpl.Volumes {
		if v.PersistentVolumeClaim != nil {
			claims[v.Name] = v.PersistentVolumeClaim.ClaimName
		}
	}
	for _, vm := range tmpl.Container.VolumeMounts {
		if claim, ok := claims[vm.Name]; ok {
			m.Volumes = append(m.Volumes, volumeModel{ClaimName: types.StringValue(claim), MountPath: types.StringValue(vm.MountPath)})
		}
	}
	if m.Volumes == nil && prior.Volumes != nil {
		m.Volumes = []volumeModel{}
	}
	m.ActiveDeadline = types.StringNull()
	if d := wt.Spec.ActiveDeadlineSeconds; d != nil {
		m.ActiveDeadline = durationValue(fmt.Sprintf("%ds", *d), prior.ActiveDeadline)
	}
	m.TTLAfterFinish = types.StringNull()
	if t := wt.Spec.TTLStrategy; t != nil && t.SecondsAfterCompletion != nil {
		m.TTLAfterFinish = durationValue(fmt.Sprintf("%ds", *t.SecondsAfterCompletion), prior.TTLAfterFinish)
	}
	m.PodGC = types.StringNull()
	if g := wt.Spec.PodGC; g != nil && g.Strategy != "" {
		m.PodGC = types.StringValue(string(g.Strategy))
	}
}
