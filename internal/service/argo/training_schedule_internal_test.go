package argo

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Schedules are parsed as Argo's cron controller parses them (robfig/cron's standard parser);
// the timezone is its own attribute.
func TestCheckSchedule(t *testing.T) {
	for s, want := range map[string]string{
		"0 2 * * *":               "",
		"30 1 * * 1-5":            "",
		"0 */6 * * *":             "",
		"@daily":                  "",
		"@every 6h":               "",
		"0 2 * *":                 "is not a cron schedule",
		"0 0 2 * * *":             "is not a cron schedule", // seconds are not a field Argo reads
		"61 2 * * *":              "is not a cron schedule",
		"nightly":                 "is not a cron schedule",
		"":                        "is not a cron schedule",
		"CRON_TZ=UTC 0 2 * * *":   "set it in `timezone` instead",
		"TZ=Europe/Berlin @daily": "set it in `timezone` instead",
	} {
		err := checkSchedule(s)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("checkSchedule(%q) = %v; want %q", s, err, want)
		}
	}
}

func TestCheckTimezone(t *testing.T) {
	for tz, ok := range map[string]bool{
		"UTC": true, "Europe/Berlin": true, "America/New_York": true, "Asia/Kolkata": true,
		"": false, "Local": false, "Mars/Olympus_Mons": false, "CET+1": false, "Europe/Atlantis": false,
	} {
		if err := checkTimezone(tz); (err == nil) != ok {
			t.Errorf("checkTimezone(%q) = %v; want ok %v", tz, err, ok)
		}
	}
}

func TestNoTemplate(t *testing.T) {
	for s, ok := range map[string]bool{
		"latest": true, "": true, "{": true, "a{b}": true, "x{": true, "{a}{b}": true,
		"{{workflow.name}}": false, "a{{=sprig.env('X')}}": false, "{x{{": false,
	} {
		if got := noTemplate.MatchString(s); got != ok {
			t.Errorf("noTemplate.MatchString(%q) = %v; want %v", s, got, ok)
		}
	}
}

// The CronWorkflow refers to the template by name, overrides parameters in name order, adds no
// workflow metadata, and always sends suspend, false included.
func TestTrainingScheduleExpand(t *testing.T) {
	ctx := context.Background()
	schedules, _ := types.ListValueFrom(ctx, types.StringType, []string{"0 2 * * *"})
	params, _ := types.MapValueFrom(ctx, types.StringType, map[string]string{"learning_rate": "1e-4", "batch_size": "64"})
	m := &trainingScheduleModel{
		Template: types.StringValue("sentiment-model"), Schedules: schedules, Timezone: types.StringValue("Europe/Berlin"),
		ConcurrencyPolicy: types.StringValue("Forbid"), StartingDeadline: types.StringValue("1h"),
		SuccessfulJobsHistoryLimit: types.Int64Value(3), FailedJobsHistoryLimit: types.Int64Value(0),
		Suspend: types.BoolValue(false), Parameters: params,
	}
	body, diags := trainingSchedule{}.Expand(ctx, m, framework.ObjectMeta{Namespace: "nlp", Name: "nightly",
		Labels: map[string]string{"billing.mlplatform.io/cost-centre": "cc-1234"}})
	if diags.HasError() {
		t.Fatal(diags)
	}
	spec := body.(map[string]any)["spec"].(map[string]any)
	want := map[string]any{
		"workflowSpec": map[string]any{
			"workflowTemplateRef": map[string]any{"name": "sentiment-model"},
			"arguments": map[string]any{"parameters": []any{
				map[string]any{"name": "batch_size", "value": "64"},
				map[string]any{"name": "learning_rate", "value": "1e-4"},
			}},
		},
		"schedules":                  []any{"0 2 * * *"},
		"timezone":                   "Europe/Berlin",
		"concurrencyPolicy":          "Forbid",
		"startingDeadlineSeconds":    int64(3600),
		"successfulJobsHistoryLimit": int64(3),
		"failedJobsHistoryLimit":     int64(0),
		"suspend":                    false,
	}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec =\n%#v\nwant\n%#v", spec, want)
	}
}
