package karpenter

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
)

func code(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

func stringDefault(s string) defaults.String { return stringdefault.StaticString(s) }

func int64Default(i int64) defaults.Int64 { return int64default.StaticInt64(i) }

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// withDescription returns a map attribute with another description.
func withDescription(a schema.Attribute, desc string) schema.Attribute {
	if m, ok := a.(schema.MapAttribute); ok {
		m.MarkdownDescription = desc
		return m
	}
	return a
}
