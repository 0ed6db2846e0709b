package monitoring

// Exported to the package's external tests (monitoring_test), which also run the provider and so
// cannot be in this package.

// DefaultDashboardJSON is the dashboard the resource writes with every attribute at its default.
func DefaultDashboardJSON() (string, error) {
	return buildDashboard(dashboardOptions{
		Title:    defaultDashboardTitle,
		UID:      defaultDashboardName,
		Refresh:  defaultDashboardRefresh,
		TimeFrom: defaultDashboardTimeFrom,
		TimeTo:   defaultDashboardTimeTo,
	})
}

// The recorded series the dashboard may query (series.go).
const (
	SeriesPodGPUs               = seriesPodGPUs
	SeriesTeamGPUs              = seriesTeamGPUs
	SeriesUnitPrice             = seriesUnitPrice
	SeriesTeamCostPerHour       = seriesTeamCostPerHour
	SeriesTeamGPUHours          = seriesTeamGPUHours
	SeriesTeamCost              = seriesTeamCost
	SeriesGPUEngineActive       = seriesGPUEngineActive
	SeriesGPUMemoryUsed         = seriesGPUMemoryUsed
	SeriesGPUTemperature        = seriesGPUTemperature
	SeriesGPUXIDErrors          = seriesGPUXIDErrors
	SeriesQueuePending          = seriesQueuePending
	SeriesQueueAdmitted         = seriesQueueAdmitted
	SeriesQueueAdmissionWaitP95 = seriesQueueAdmissionWaitP95
	SeriesQueueQuotaUsed        = seriesQueueQuotaUsed
)

// RecordedSeries lists them all.
var RecordedSeries = []string{
	seriesPodGPUs, seriesTeamGPUs, seriesUnitPrice, seriesTeamCostPerHour, seriesTeamGPUHours, seriesTeamCost,
	seriesGPUEngineActive, seriesGPUMemoryUsed, seriesGPUTemperature, seriesGPUXIDErrors,
	seriesQueuePending, seriesQueueAdmitted, seriesQueueAdmissionWaitP95, seriesQueueQuotaUsed,
}
