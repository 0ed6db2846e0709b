package karpenter

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// What render writes, flatten reads back: from state while it matches, and from the marked
// parts otherwise (import, or a change outside Terraform).
func TestNodeConfigUserDataRoundTrip(t *testing.T) {
	nc := &nodeConfigModel{TopologyManagerPolicy: types.StringValue("single-numa-node"),
		TopologyManagerScope: types.StringNull(), CPUManagerPolicy: types.StringValue("static")}
	script := "#!/bin/bash\necho ready\n"
	nodeConfig := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n"
	userMIME := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"//\"\n\n--//\nContent-Type: text/x-shellscript\n\necho one\n--//\nContent-Type: text/x-shellscript\n\necho two\n--//--\n"
	for name, tc := range map[string]struct {
		user  *string
		parts int
	}{
		"no user data":    {nil, 1},
		"shell script":    {&script, 2},
		"NodeConfig":      {&nodeConfig, 2},
		"user's own MIME": {&userMIME, 3},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := renderUserData(tc.user, nc)
			if err != nil {
				t.Fatal(err)
			}
			parts, ok, err := parseMIME(*out)
			if !ok || err != nil || len(parts) != tc.parts {
				t.Fatalf("rendered %d parts (MIME %v, %v), want %d:\n%s", len(parts), ok, err, tc.parts, *out)
			}
			if !strings.Contains(parts[0].body, "topologyManagerPolicy: single-numa-node") || parts[0].header.Get("Content-Type") != nodeConfigType {
				t.Errorf("first part = %+v", parts[0])
			}
			prior := types.StringNull()
			if tc.user != nil {
				prior = types.StringValue(*tc.user)
			}
			if u, got := flattenUserData(out, prior, nc); !u.Equal(prior) || got != nc {
				t.Errorf("refresh read %v, %+v", u, got)
			}
			u, got := flattenUserData(out, types.StringNull(), nil)
			if got == nil || !got.TopologyManagerPolicy.Equal(nc.TopologyManagerPolicy) || !got.CPUManagerPolicy.Equal(nc.CPUManagerPolicy) ||
				!got.TopologyManagerScope.IsNull() {
				t.Fatalf("import read node_config %+v", got)
			}
			switch {
			case tc.parts == 3: // several parts of the user's: read as a document of them, rendering the same
				v := u.ValueString()
				if again, err := renderUserData(&v, got); err != nil || *again != *out {
					t.Errorf("import read user_data %q, which renders to\n%v\nnot\n%s", v, again, *out)
				}
			case tc.user == nil:
				if !u.IsNull() {
					t.Errorf("import read user_data %q, want null", u.ValueString())
				}
			case u.ValueString() != *tc.user:
				t.Errorf("import read user_data %q, want %q", u.ValueString(), *tc.user)
			}
		})
	}
	// Without node_config the user data is left as written.
	if out, _ := renderUserData(&script, nil); *out != script {
		t.Errorf("rendered %q", *out)
	}
	if u, got := flattenUserData(&userMIME, types.StringNull(), nil); u.ValueString() != userMIME || got != nil {
		t.Errorf("a user's MIME document read as %q, %+v", u.ValueString(), got)
	}
}
