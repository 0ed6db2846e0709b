package team

// Exported for the package's external (acceptance) tests.
var (
	NamespaceKind      = namespaceKind
	ServiceAccountKind = serviceAccountKind
	RoleKind           = roleKind
	RoleBindingKind    = roleBindingKind
	PolicyKind         = policyKind
	PolicyBindingKind  = policyBindingKind
	PolicyName         = policyName
)
