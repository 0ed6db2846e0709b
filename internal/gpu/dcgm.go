package gpu

// The DCGM fields the billing rules, the GPU dashboard and the preflight read, as dcgm-exporter
// 4.5.x names its metrics (etc/default-counters.csv holds them all).
const (
	DCGMEngineActive = "DCGM_FI_PROF_GR_ENGINE_ACTIVE" // ratio 0-1; also per MIG instance
	DCGMFBUsed       = "DCGM_FI_DEV_FB_USED"           // MiB
	DCGMFBFree       = "DCGM_FI_DEV_FB_FREE"           // MiB
	DCGMTemperature  = "DCGM_FI_DEV_GPU_TEMP"          // °C
	DCGMXID          = "DCGM_FI_DEV_XID_ERRORS"        // the last XID error
)

// DCGMFields are the fields above, for a check that dcgm-exporter exports them all.
var DCGMFields = []string{DCGMEngineActive, DCGMFBUsed, DCGMFBFree, DCGMTemperature, DCGMXID}
