package kueue

// Exported for the package's external (acceptance) tests.
var ResourceFlavorKind = resourceFlavorKind
