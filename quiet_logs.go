package main

import "os"

// quietUnlessLogged turns off the logs of the plugin SDK and of the provider when the CLI would
// discard them. Terraform and OpenTofu keep a provider's log lines only when TF_LOG_PROVIDER or
// TF_LOG is set (internal/logging/logging.go, providerLogLevel, in both), but terraform-plugin-go
// and the framework format every line at TRACE level whenever their own variables are unset
// (terraform-plugin-framework issue 1269): that was about a third of the provider's CPU time in a
// plan of 100 objects. Logs asked for with any of these variables are left as asked.
func quietUnlessLogged() {
	for _, v := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		if os.Getenv(v) != "" {
			return
		}
	}
	for _, v := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		if os.Getenv(v) == "" {
			_ = os.Setenv(v, "off")
		}
	}
}
