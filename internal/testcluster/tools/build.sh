#!/usr/bin/env bash
# Builds the project's heavy tools from the Go module proxy once, and caches each under
# $TOOLS_DIR/<name>-<version>/ (default <repo>/.cache/tools, git-ignored). A warm cache prints
# nothing. This file is the one place that pins the tools' versions.
#
#   build.sh [all]        the tools `make test` needs
#   build.sh NAME...      the named tools
#   build.sh -j N NAME... the named tools, N builds at a time (the go command leaves a core idle in
#                         its serial phases: links, downloads)
#   build.sh path NAME    build NAME if needed and print its path
#   build.sh find NAME    the path of NAME on PATH when its version is one the project is tested
#                         with (terraform, tofu, kubectl: see on_path_range), else as `path`;
#                         says on stderr which it took; NAME-VERSION is the pinned build only
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
TOOLS_DIR=${TOOLS_DIR:-$root/.cache/tools}
# The Go everything is built with (GNUmakefile and .ci/run say the same): karpenter-provider-aws
# v1.15 asks for Go 1.26.11, newer than the machine's 1.26.8, and the go command fetches this one
# from the module proxy.
export GOTOOLCHAIN=go1.27.3

declare -A version=(
	[terraform]=1.8.5
	[tofu]=1.12.6
	[terraform-docs]=0.22.0
	[kube-apiserver]=1.37.2
	[kube-controller-manager]=1.37.2
	[kubectl]=1.37.2
	[kube-scheduler]=1.37.2
	[etcd]=3.7.0
	[golangci-lint]=2.15.0
	[tfplugindocs]=0.25.0
	[kind]=0.33.0
	[kueue]=0.19.2
	[argo]=3.7.18
	# Test-only: proves the templates on v4's workflow controller. Security flaws are reported
	# for v4.0.5; it runs only against the local control plane and never ships.
	[argo4]=4.0.5
	[promtool]=0.316.0
	[controller-gen]=0.22.0
	# Nodes and pod lives for the tests and the demo that run training jobs to the end (issue 25):
	# KWOK plays the nodes, Karpenter (the sigs.k8s.io/karpenter the provider's go.mod pins, with
	# its KWOK cloud provider) makes them.
	[kwok]=0.8.0
	[karpenter-kwok]=1.15.0
)

# The minor versions, lowest and highest, of a CLI found on PATH that `find` takes instead of
# building one: Terraform from the oldest the suite runs on to the newest that runs here (1.11.4 is
# on these machines' PATH), OpenTofu's tested minor, and kubectl within the skew Kubernetes supports
# around the control plane's 1.37.
declare -A on_path_range=(
	[terraform]="1.8 1.11"
	[tofu]="1.12 1.12"
	[kubectl]="1.36 1.38"
)

# The version (major.minor.patch) a CLI on PATH prints of itself, or nothing.
version_on_path() {
	local out
	case $1 in
	terraform | tofu) out=$(CHECKPOINT_DISABLE=1 "$1" version 2>/dev/null | head -1) ;;
	kubectl) out=$(kubectl version --client 2>/dev/null | head -1) ;;
	esac
	[[ $out =~ v([0-9]+)\.([0-9]+)\.([0-9]+) ]] && echo "${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.${BASH_REMATCH[3]}"
}

# find prints the path of the CLI on PATH if its version is in on_path_range, else builds it.
# NAME-VERSION (terraform-1.8.5) asks for the pinned build itself, and only that version.
find_tool() {
	local name=$1 path v lo hi
	if [[ $name =~ ^(.+)-([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
		name=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		[ "${version[$name]:-}" = "$v" ] || { echo "$1: build.sh pins ${name} ${version[$name]:-(not a tool)}" >&2; return 2; }
		build "$name" && path_of "$name"
		return
	fi
	[ -n "${version[$name]:-}" ] || { echo "unknown tool: $name (known: ${!version[*]})" >&2; return 2; }
	if [ -n "${on_path_range[$name]:-}" ] && path=$(command -v "$name") && v=$(version_on_path "$name") && [ -n "$v" ]; then
		read -r lo hi <<<"${on_path_range[$name]}"
		if minor_at_least "$v" "$lo" && minor_at_least "$hi" "$v"; then
			echo "using $name $v from PATH ($path)" >&2
			echo "$path"
			return 0
		fi
		echo "$name $v on PATH is outside the tested ${lo}-${hi}: building ${version[$name]}" >&2
	fi
	build "$name" && path_of "$name"
}

# minor_at_least A B: A's major.minor is at least B's.
minor_at_least() {
	local a=(${1//./ }) b=(${2//./ })
	((a[0] > b[0] || (a[0] == b[0] && a[1] >= b[1])))
}

# Packages built inside a tools module (see module_of; its go.mod pins them) or, with @version, on
# their own.
package_of() {
	local v=${version[$1]}
	case $1 in
	terraform) echo "github.com/hashicorp/terraform@v$v" ;;
	tofu) echo github.com/opentofu/opentofu/cmd/tofu ;;
	terraform-docs) echo github.com/terraform-docs/terraform-docs ;;
	kube-apiserver) echo k8s.io/kubernetes/cmd/kube-apiserver ;;
	kube-controller-manager) echo k8s.io/kubernetes/cmd/kube-controller-manager ;;
	kubectl) echo k8s.io/kubernetes/cmd/kubectl ;;
	kube-scheduler) echo k8s.io/kubernetes/cmd/kube-scheduler ;;
	kwok) echo sigs.k8s.io/kwok/cmd/kwok ;;
	karpenter-kwok) echo sigs.k8s.io/karpenter/kwok ;;
	etcd) echo go.etcd.io/etcd/server/v3 ;;
	golangci-lint) echo "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$v" ;;
	tfplugindocs) echo "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v$v" ;;
	kind) echo "sigs.k8s.io/kind@v$v" ;;
	kueue) echo sigs.k8s.io/kueue/cmd/kueue ;;
	argo) echo github.com/argoproj/argo-workflows/v3/cmd/workflow-controller ;;
	argo4) echo github.com/argoproj/argo-workflows/v4/cmd/workflow-controller ;;
	promtool) echo github.com/prometheus/prometheus/cmd/promtool ;;
	controller-gen) echo "sigs.k8s.io/controller-tools/cmd/controller-gen@v$v" ;;
	*) echo "unknown tool: $1 (known: ${!version[*]})" >&2; return 2 ;;
	esac
}

ldflags_of() {
	case $1 in
	kube-apiserver | kube-controller-manager | kubectl | kube-scheduler)
		# A real, parseable version: Kueue refuses to start against v0.0.0-master.
		local v=k8s.io/component-base/version kv=${version[$1]}
		local minor=${kv#*.}
		echo "-X $v.gitVersion=v$kv -X $v.gitMajor=1 -X $v.gitMinor=${minor%%.*} -X $v.gitTreeState=clean -X $v.buildDate=1970-01-01T00:00:00Z"
		;;
	kueue) echo "-X sigs.k8s.io/kueue/pkg/version.GitVersion=v${version[$1]}" ;;
	# Release builds: without it `terraform version` says 1.8.5-dev, which version checks take
	# for older than 1.8.5.
	terraform) echo "-X github.com/hashicorp/terraform/version.dev=no" ;;
	tofu) echo "-X github.com/opentofu/opentofu/version.dev=no" ;;
	argo) echo "-X github.com/argoproj/argo-workflows/v3.version=v${version[$1]} -X github.com/argoproj/argo-workflows/v3.gitTreeState=clean" ;;
	argo4) echo "-X github.com/argoproj/argo-workflows/v4.version=v${version[$1]} -X github.com/argoproj/argo-workflows/v4.gitTreeState=clean" ;;
	esac
}

# The module a tool is built in. Kueue, Argo (v3 and v4), promtool, KWOK and Karpenter have their
# own: their k8s.io versions differ from those that k8s.io/kubernetes pins here, and from each
# other's. Argo v3's repeats its replace of olekukonko/tablewriter (v4 has none). OpenTofu's
# repeats its replace of hashicorp/hcl, and takes a newer gRPC; terraform-docs cannot be built
# with `go install M@v` (the proxy refuses its version list, which go install asks for).
module_of() {
	case $1 in
	tofu) echo "$here/tofu" ;;
	terraform-docs) echo "$here/terraform-docs" ;;
	kueue) echo "$here/kueue" ;;
	argo) echo "$here/argo" ;;
	argo4) echo "$here/argo4" ;;
	promtool) echo "$here/promtool" ;;
	kwok) echo "$here/kwok" ;;
	karpenter-kwok) echo "$here/karpenter" ;;
	*) echo "$here" ;;
	esac
}

# A tool's version in its module's go.mod must match the table above.
check_pin() {
	local module
	case $1 in
	kueue) module=sigs.k8s.io/kueue ;;
	etcd) module=go.etcd.io/etcd/server/v3 ;;
	argo) module=github.com/argoproj/argo-workflows/v3 ;;
	argo4) module=github.com/argoproj/argo-workflows/v4 ;;
	promtool) module=github.com/prometheus/prometheus ;;
	tofu) module=github.com/opentofu/opentofu ;;
	terraform-docs) module=github.com/terraform-docs/terraform-docs ;;
	kwok) module=sigs.k8s.io/kwok ;;
	karpenter-kwok) module=sigs.k8s.io/karpenter ;;
	*) return 0 ;;
	esac
	local got
	got=$(cd "$(module_of "$1")" && go list -m -f '{{.Version}}' "$module")
	[ "$got" = "v${version[$1]}" ] || { echo "tools/$1/go.mod requires $module $got, build.sh pins v${version[$1]}" >&2; return 1; }
}

# golangci-lint type-checks with the standard library it was built with: one build per Go.
path_of() {
	local v=${version[$1]}
	[ "$1" = golangci-lint ] && v+="-$GOTOOLCHAIN"
	echo "$TOOLS_DIR/$1-$v/$1"
}

build() {
	local name=$1 pkg bin dir
	pkg=$(package_of "$name")
	bin=$(path_of "$name")
	dir=$(dirname "$bin")
	[ -x "$bin" ] && return 0
	# One build of a tool at a time: test binaries, helpers and make targets may ask at once.
	mkdir -p "$TOOLS_DIR"
	local lock
	exec {lock}>"$TOOLS_DIR/.$name.lock"
	flock "$lock"
	[ -x "$bin" ] && { exec {lock}>&-; return 0; }
	check_pin "$name"
	echo "building $name ${version[$name]} (once; cached in $dir)" >&2
	local start=$SECONDS
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	(cd "$(module_of "$name")" && CGO_ENABLED=0 GOBIN="$dir.tmp" go install -trimpath -ldflags "-s -w $(ldflags_of "$name")" "$pkg")
	# go install names the binary after the package (etcd's is "server", Argo's "workflow-controller"): one file, renamed.
	[ -x "$dir.tmp/$name" ] || mv "$dir.tmp"/* "$dir.tmp/$name"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	echo "built $name ${version[$name]} in $((SECONDS - start))s" >&2
	exec {lock}>&-
}

# build_parallel N NAME...: each tool in a background build, N at a time; fails when one failed.
build_parallel() {
	local n=$1 status=0
	shift
	for t in "$@"; do
		while (($(jobs -rp | wc -l) >= n)); do wait -n || status=1; done
		build "$t" &
	done
	while (($(jobs -rp | wc -l) > 0)); do wait -n || status=1; done
	return $status
}

case ${1:-all} in
-j) shift; n=$1; shift; build_parallel "$n" "$@" ;;
all) for t in terraform tofu etcd kube-apiserver kube-controller-manager kube-scheduler kueue argo argo4 kwok karpenter-kwok promtool controller-gen golangci-lint tfplugindocs terraform-docs; do build "$t"; done ;;
path) build "$2" && path_of "$2" ;;
find) find_tool "$2" ;;
*) for t in "$@"; do build "$t"; done ;;
esac
