package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestEveryDialogIsShownWithKeys reads the app's sources: no screen shows a
// Fyne dialog itself (dialog.ShowX, or Show on a dialog it made), so every
// dialog goes through package modal and Escape and Enter work in all of
// them.
func TestEveryDialogIsShownWithKeys(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	kiosk, _ := filepath.Glob("kiosk/*.go")
	for _, path := range append(files, kiosk...) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		made := map[string]bool{} // expressions a dialog.NewX was put in
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for i, rhs := range x.Rhs {
					if isDialogCall(rhs, "New") && i < len(x.Lhs) {
						made[exprText(src, fset, x.Lhs[i])] = true
					}
				}
			case *ast.CallExpr:
				if isDialogCall(x, "Show") {
					t.Errorf("%s: %s shows a dialog without modal's keys: use modal.%s", fset.Position(x.Pos()), exprText(src, fset, x.Fun), x.Fun.(*ast.SelectorExpr).Sel.Name)
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Show" && made[exprText(src, fset, sel.X)] {
					t.Errorf("%s: %s.Show() shows a dialog without modal's keys: use modal.Show", fset.Position(x.Pos()), exprText(src, fset, sel.X))
				}
			}
			return true
		})
	}
}

// isDialogCall reports whether e calls a function of Fyne's dialog package
// whose name starts with prefix.
func isDialogCall(e ast.Expr, prefix string) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "dialog" && strings.HasPrefix(sel.Sel.Name, prefix)
}

func exprText(src []byte, fset *token.FileSet, e ast.Expr) string {
	return string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
}

// TestEscapeAndEnterInTheApp walks dialogs of the app with the keyboard:
// New election (Ctrl+N) closes on Escape from its name field and creates on
// Enter; an error message closes on Enter.
func TestEscapeAndEnterInTheApp(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	c := h.win.Canvas()
	key := func(name fyne.KeyName) {
		ev := &fyne.KeyEvent{Name: name}
		if f := c.Focused(); f != nil {
			f.TypedKey(ev)
		} else {
			c.OnTypedKey()(ev)
		}
		h.wait()
	}
	h.sh.NewElection()
	f := h.sh.Elections.CreateForm
	if c.Focused() != f.Name {
		t.Fatalf("New election: focus on %v, want the name", c.Focused())
	}
	key(fyne.KeyEscape)
	if len(h.overlays()) != 0 {
		t.Fatalf("Escape in New election's name left it open: %s", h.dialogText())
	}
	h.sh.NewElection()
	f = h.sh.Elections.CreateForm
	test.Type(f.Name, "Mayor")
	key(fyne.KeyReturn)
	if h.sh.Election == nil || h.sh.Election.election.Name != "Mayor" {
		t.Fatalf("Enter in New election did not create it: %s", h.dialogText())
	}
	h.sh.NewElection()
	test.Type(h.sh.Elections.CreateForm.Name, "Mayor")
	key(fyne.KeyReturn) // a second Mayor is refused
	if !strings.Contains(h.dialogText(), "Mayor") || len(h.overlays()) == 0 {
		t.Fatalf("no refusal shown: %q", h.dialogText())
	}
	// The refusal is on top of the form, which keeps what was typed.
	if n := len(h.overlays()); n != 2 {
		t.Fatalf("%d dialogs open after the refusal, want the form and the message", n)
	}
	c.Unfocus()
	key(fyne.KeyReturn)
	if n := len(h.overlays()); n != 1 || h.sh.Elections.CreateForm.Name.Text != "Mayor" {
		t.Fatalf("Enter on the message: %d dialogs open, name %q", n, h.sh.Elections.CreateForm.Name.Text)
	}
	c.Focus(h.sh.Elections.CreateForm.Name)
	key(fyne.KeyEscape)
	if n := len(h.overlays()); n != 0 {
		t.Fatalf("Escape left %d dialogs open", n)
	}
}
