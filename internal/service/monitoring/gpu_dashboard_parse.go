package monitoring

import (
	"encoding/json"
	"errors"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// parseDashboard reads back the attributes a dashboard's JSON records, with the SDK's own
// dashboard model.
func parseDashboard(text string) (dashboardOptions, error) {
	var d dashboard.Dashboard //nolint:staticcheck // the classic model buildDashboard writes
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return dashboardOptions{}, err
	}
	if d.Title == nil || d.Uid == nil {
		return dashboardOptions{}, errors.New("it has no title or uid")
	}
	o := dashboardOptions{Title: *d.Title, UID: *d.Uid}
	if d.Refresh != nil {
		o.Refresh = *d.Refresh
	}
	if d.Time != nil {
		o.TimeFrom, o.TimeTo = d.Time.From, d.Time.To
	}
	for _, v := range d.Templating.List {
		if v.Name == dashboardVarDatasource && v.Current != nil && v.Current.Value.String != nil {
			o.Datasource = *v.Current.Value.String
		}
	}
	return o, nil
}
