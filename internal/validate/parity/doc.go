// Package parity is what the parity tests share: a corpus of objects generated from a CRD's
// schema (with hand-written ones where one change cannot break a rule) and the verdicts of the
// engine and of the apiserver on them. Only tests import it: TestAccParity_CRDStep
// (internal/validate) and TestAccParity_Webhooks (internal/validate/webhookparity).
package parity
