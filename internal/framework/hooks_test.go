package framework

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hookMethod is one method of a hook interface: its name and parameter and result types, with the
// model type parameter M as "M" and framework's own types unqualified.
type hookMethod struct{ name, params string }

// TestHooksAsserted: every Spec type of a service that has a hook's methods asserts, at compile
// time, that it implements the hook (`_ framework.PlanModifier = trainingJobTemplate{}`), so a
// signature that drifts from the hook is a build error rather than a hook the cycle silently
// skips. The hooks are read from hooks.go, the services from ../service.
func TestHooksAsserted(t *testing.T) {
	fset := token.NewFileSet()
	hooks := map[string][]hookMethod{}
	hooksFile, err := parser.ParseFile(fset, "hooks.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range hooksFile.Decls {
		for _, s := range genSpecs(d, token.TYPE) {
			ts := s.(*ast.TypeSpec)
			it, ok := ts.Type.(*ast.InterfaceType)
			if !ok {
				continue
			}
			for _, m := range it.Methods.List {
				hooks[ts.Name.Name] = append(hooks[ts.Name.Name], hookMethod{m.Names[0].Name, params(fset, m.Type.(*ast.FuncType), "")})
			}
		}
	}
	if len(hooks) < 10 {
		t.Fatalf("read %d hooks from hooks.go; want every optional hook there", len(hooks))
	}

	files, err := filepath.Glob("../service/*/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no service files: %v", err)
	}
	methods := map[string]map[string]string{} // package/type -> method -> params
	asserted := map[string]bool{}             // package/type/hook
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.Base(filepath.Dir(f))
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
				key := pkg + "/" + receiverName(fn.Recv.List[0].Type)
				if methods[key] == nil {
					methods[key] = map[string]string{}
				}
				methods[key][fn.Name.Name] = params(fset, fn.Type, "framework.")
			}
			for _, s := range genSpecs(d, token.VAR) {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != 1 || vs.Names[0].Name != "_" || len(vs.Values) != 1 {
					continue
				}
				hook, impl := assertedHook(vs.Type), implName(vs.Values[0])
				if hook != "" && impl != "" {
					asserted[pkg+"/"+impl+"/"+hook] = true
				}
			}
		}
	}

	checked := 0
	for typ, ms := range methods {
		for hook, want := range hooks {
			if !implements(ms, want) {
				continue
			}
			checked++
			if !asserted[typ+"/"+hook] {
				pkg, name, _ := strings.Cut(typ, "/")
				t.Errorf("service %s: %s has the methods of framework.%s but no `_ framework.%s = %s{}` assertion", pkg, name, hook, hook, name)
			}
		}
	}
	if checked < 20 {
		t.Errorf("found %d hook implementations in the services; want the twenty and more there are", checked)
	}
}

func genSpecs(d ast.Decl, tok token.Token) []ast.Spec {
	if g, ok := d.(*ast.GenDecl); ok && g.Tok == tok {
		return g.Specs
	}
	return nil
}

// params renders a function's parameter and result types, dropping qualifier from them and writing
// the model type (M, or the receiver's model *fooModel) as M.
func params(fset *token.FileSet, ft *ast.FuncType, qualifier string) string {
	out := []string{fieldTypes(fset, ft.Params, qualifier)}
	if ft.Results != nil {
		out = append(out, fieldTypes(fset, ft.Results, qualifier))
	}
	return strings.Join(out, " -> ")
}

func fieldTypes(fset *token.FileSet, fields *ast.FieldList, qualifier string) string {
	var out []string
	for _, f := range fields.List {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, f.Type)
		s := strings.ReplaceAll(b.String(), qualifier, "")
		if strings.HasSuffix(s, "Model") && strings.HasPrefix(s, "*") {
			s = "*M"
		}
		for range max(1, len(f.Names)) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

// implements reports whether a type's methods include every method of a hook, by name, parameters
// and results.
func implements(ms map[string]string, hook []hookMethod) bool {
	return !slices.ContainsFunc(hook, func(m hookMethod) bool {
		p, ok := ms[m.name]
		return !ok || p != m.params
	})
}

func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// assertedHook is X of `framework.X` or `framework.X[M]`.
func assertedHook(e ast.Expr) string {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == "framework" {
			return sel.Sel.Name
		}
	}
	return ""
}

// implName is T of `T{}` or `(*T)(nil)`.
func implName(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.CompositeLit:
		return receiverName(v.Type)
	case *ast.CallExpr:
		if p, ok := v.Fun.(*ast.ParenExpr); ok {
			return receiverName(p.X)
		}
	}
	return ""
}
