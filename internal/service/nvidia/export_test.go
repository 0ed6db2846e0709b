package nvidia

// Exported for the package's external (acceptance) tests.
var ConfigMapKind = configMapKind
