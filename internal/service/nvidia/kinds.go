// Package nvidia holds the resources and data sources for NVIDIA GPUs: the GPU catalog and MIG
// layouts as data sources (internal/gpu is their single source of facts), and the GPU
// Operator's ConfigMaps for the MIG manager (mig-parted) and the device plugin (time-slicing).
package nvidia

// gpuOperatorNamespace is where the GPU Operator's Helm chart is usually installed and where it
// looks for the ConfigMaps it is pointed at.
const gpuOperatorNamespace = "gpu-operator"
