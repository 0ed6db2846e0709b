package validate

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// policyCompiler compiles a policy's expressions as upstream's validation does (createCompiler,
// validation.go:1316: a compiler with variable composition when the policy has variables, each
// variable compiled and stored in order, then the validations), remembering each result for the
// process by everything that decides it. Building a composing compiler costs about 2 ms, and
// every team's policy has the same expressions.
type policyCompiler struct {
	hasParams bool
	vars      []admissionv1.Variable
}

// compileCache holds each compilation's error (nil when it compiled), by compileKey.
var compileCache sync.Map

type compileKey struct {
	HasParams     bool
	Vars          []admissionv1.Variable // those in scope: the ones before a variable, all for the rest
	Expr          string
	HasAuthorizer bool
	Message       bool // a messageExpression, which returns a string
}

// variable compiles the i-th variable.
func (pc policyCompiler) variable(i int) (*apiservercel.Error, error) {
	return pc.compile(compileKey{pc.hasParams, pc.vars[:i], pc.vars[i].Expression, true, false}, i)
}

// condition compiles a validation's expression, or its messageExpression.
func (pc policyCompiler) condition(expr string, message bool) (*apiservercel.Error, error) {
	return pc.compile(compileKey{pc.hasParams, pc.vars, expr, !message, message}, -1)
}

func (pc policyCompiler) compile(k compileKey, variable int) (*apiservercel.Error, error) {
	b, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	if e, ok := compileCache.Load(string(b)); ok {
		return e.(*apiservercel.Error), nil
	}
	decls := plugincel.OptionalVariableDeclarations{HasParams: pc.hasParams, HasAuthorizer: true}
	compiler := statelessCompiler()
	if len(pc.vars) > 0 {
		c, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
		if err != nil {
			return nil, fmt.Errorf("the CEL compiler of ValidatingAdmissionPolicy: %w", err)
		}
		for _, v := range k.Vars {
			if strings.TrimSpace(v.Expression) == "" {
				continue // validateVariable neither compiles nor declares it
			}
			c.CompileAndStoreVariable(&policyExpr{name: v.Name, expression: v.Expression, returns: variableTypes}, decls, environment.NewExpressions)
		}
		compiler = c
	}
	var r plugincel.CompilationResult
	switch {
	case variable >= 0:
		v := pc.vars[variable]
		r = compiler.(*plugincel.CompositedCompiler).CompileAndStoreVariable(
			&policyExpr{name: v.Name, expression: v.Expression, returns: variableTypes}, decls, environment.NewExpressions)
	case k.Message:
		// Upstream declares params for a messageExpression only when matchConditions may use them:
		// when the policy has a paramKind.
		r = compiler.CompileCELExpression(&policyExpr{expression: k.Expr, returns: messageTypes},
			plugincel.OptionalVariableDeclarations{HasParams: pc.hasParams}, environment.NewExpressions)
	default:
		r = compiler.CompileCELExpression(&policyExpr{expression: k.Expr, returns: validationTypes}, decls, environment.NewExpressions)
	}
	compileCache.Store(string(b), r.Error)
	return r.Error, nil
}
