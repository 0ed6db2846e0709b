package monitoring

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// PrometheusRuleKind is prometheus-operator's monitoring.coreos.com/v1 PrometheusRule.
var PrometheusRuleKind = kube.Kind{
	GVR:        monitoringv1.SchemeGroupVersion.WithResource(monitoringv1.PrometheusRuleName),
	Kind:       monitoringv1.PrometheusRuleKind,
	Namespaced: true,
	Requires:   "the Prometheus Operator (monitoring.coreos.com/v1 PrometheusRule CRD, e.g. from kube-prometheus-stack)",
}
