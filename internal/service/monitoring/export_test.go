package monitoring

// What the external tests use of the package.
type (
	RulesConfig = rulesConfig
	PoolSupply  = poolSupply
)

// RenderRules is the function the resource renders its PrometheusRule's spec with.
var RenderRules = renderRules
