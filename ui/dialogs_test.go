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

// TestEveryDialogIsShownWithKeys reads the app's sources: no screen makes
// or shows a Fyne dialog itself (dialog.NewX, dialog.ShowX), so every
// dialog is modal's, shown with Escape and Enter; and the app's screens
// make their buttons, check boxes and drop-downs with modal, whose controls
// take Enter and hand Escape on while focused (Fyne's swallow both). The
// run-time check of the same is in TestMain: every control in every dialog
// the tests open is a modal.KeyPasser.
func TestEveryDialogIsShownWithKeys(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	kiosk, _ := filepath.Glob("kiosk/*.go")
	deafMakers := map[string]string{
		"NewButton": "modal.NewButton", "NewButtonWithIcon": "modal.NewButtonWithIcon",
		"NewCheck": "modal.NewCheck", "NewSelect": "modal.NewSelect",
		"NewRadioGroup": "modal.NewSelect", "NewCheckGroup": "modal.NewCheck",
	}
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
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if isPkgCall(call, "dialog", "New") || isPkgCall(call, "dialog", "Show") {
				t.Errorf("%s: %s is Fyne's dialog, whose buttons swallow Escape and Enter: use modal's", fset.Position(call.Pos()), exprText(src, fset, call.Fun))
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && !strings.HasPrefix(path, "kiosk") && isPkgCall(call, "widget", "New") {
				if use, deaf := deafMakers[sel.Sel.Name]; deaf {
					t.Errorf("%s: widget.%s makes a control that swallows Escape and Enter: use %s", fset.Position(call.Pos()), sel.Sel.Name, use)
				}
			}
			return true
		})
	}
}

// isPkgCall reports whether call calls a function of package pkg whose name
// starts with prefix.
func isPkgCall(call *ast.CallExpr, pkg, prefix string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && strings.HasPrefix(sel.Sel.Name, prefix)
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
