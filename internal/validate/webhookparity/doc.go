// Package webhookparity holds TestAccParity_Webhooks, in a test binary of its own: its cluster runs
// Kueue's manager and webhooks, which the CRD-step parity test in internal/validate must not meet.
package webhookparity
