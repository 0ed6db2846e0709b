package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// requests counts API requests by "VERB resource" (resource with /subresource if any).
type requests map[string]float64

// writeVerbs are the verbs of apiserver_request_total that change something.
var writeVerbs = []string{"POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION"}

// housekeeping are the resources (group/resource) the API server and controllers write on their
// own every few seconds, whoever else calls: the API server's lease and the kubernetes Service's
// endpoints, and the leader-election leases of controller managers. No client is named in
// apiserver_request_total, so these are left out.
var housekeeping = map[string]bool{
	"coordination.k8s.io/leases":      true,
	"/endpoints":                      true,
	"discovery.k8s.io/endpointslices": true,
}

// scrape reads apiserver_request_total from the API server's /metrics (the metric and its verb,
// group, resource and subresource labels: k8s.io/apiserver/pkg/endpoints/metrics/metrics.go).
// Requests for no resource (discovery, /metrics itself), WATCH, and housekeeping are left out.
func scrape(ctx context.Context, cfg *rest.Config) (requests, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	raw, err := cs.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the API server's /metrics: %w", err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parsing the API server's /metrics: %w", err)
	}
	out := requests{}
	fam := families["apiserver_request_total"]
	if fam == nil {
		return out, nil
	}
	for _, m := range fam.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["resource"] == "" || labels["verb"] == "WATCH" || housekeeping[labels["group"]+"/"+labels["resource"]] {
			continue
		}
		res := labels["resource"]
		if s := labels["subresource"]; s != "" {
			res += "/" + s
		}
		out[labels["verb"]+" "+res] += m.GetCounter().GetValue()
	}
	return out, nil
}

// minus is what r counted since before.
func (r requests) minus(before requests) requests {
	out := requests{}
	for k, v := range r {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// verb sums the requests of one verb.
func (r requests) verb(v string) float64 {
	var n float64
	for k, c := range r {
		if strings.HasPrefix(k, v+" ") {
			n += c
		}
	}
	return n
}

func (r requests) writes() float64 {
	var n float64
	for _, v := range writeVerbs {
		n += r.verb(v)
	}
	return n
}

// String lists the counts by verb, each with its resources: "GET 100 (clusterqueues 50,
// resourceflavors 50); APPLY ...".
func (r requests) String() string {
	byVerb := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(r)) {
		verb, res, _ := strings.Cut(k, " ")
		byVerb[verb] = append(byVerb[verb], fmt.Sprintf("%s %g", short(res), r[k]))
	}
	var parts []string
	for _, verb := range slices.Sorted(maps.Keys(byVerb)) {
		parts = append(parts, fmt.Sprintf("%s %g (%s)", verb, r.verb(verb), strings.Join(byVerb[verb], ", ")))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// short abbreviates the resources of the W workloads, so that the table stays narrow.
func short(res string) string {
	switch res {
	case "resourceflavors":
		return "rf"
	case "clusterqueues":
		return "cq"
	}
	return res
}
