package ui

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// The app asks for a file or folder to read with its own dialog, not Fyne's:
// Fyne's shows a few rows, starts in the process's folder, takes no typed
// path and cannot offer "a file of these kinds, or a folder" (a Dominion or
// Hart export is a folder). This one fills the window, starts in the last
// folder used (else Documents, else home), lists folders first and then the
// files the app can read (every file at a tick), narrows the list as a name
// is typed, and takes a typed or pasted path: Enter on a folder goes into
// it, on a file opens it.

// prefLastFolder remembers the folder of the last file opened or saved.
const prefLastFolder = "lastFolder"

// fileKind is a file name ending a dialog offers, and what it holds.
type fileKind struct{ Ext, Label string }

// openSpec is what an open dialog asks for.
type openSpec struct {
	Title string
	// Hint says what may be chosen, above the list.
	Hint string
	// Kinds are the files offered; none offers every file.
	Kinds []fileKind
	// Files and Folders say what may be chosen.
	Files, Folders bool
	// Start is the folder listed first; empty starts in the last folder
	// used (startFolder).
	Start string
}

// dirItem is one row of the list.
type dirItem struct {
	Name    string
	Dir     bool
	Size    int64
	ModTime time.Time
}

// OpenPath is the dialog that asks for a file or folder to read.
type OpenPath struct {
	// Path shows the folder listed; a path typed or pasted here is gone to
	// or opened with Enter, and a name typed after the folder narrows the
	// list.
	Path *modal.Entry
	Up   *modal.Button
	List *openGrid
	// AllFiles lists files of every kind.
	AllFiles *modal.Check
	// Message says why what was typed cannot be opened.
	Message *widget.Label
	// Open opens the selected file (goes into a selected folder); UseFolder,
	// where a folder may be chosen, chooses the selected folder or the one
	// listed.
	Open, UseFolder *modal.Button
	// Dir is the folder listed.
	Dir string

	s       *session
	spec    openSpec
	chosen  func(path string)
	items   []dirItem // the folder's entries offered
	shown   []dirItem // those matching the name typed
	sel     int
	setting bool
	// listing counts the folders asked for: a listing that arrives after a
	// later one was asked for is dropped.
	listing int
	d       *modal.Dialog
}

// askOpenPath shows the dialog; chosen gets the path of the file or folder
// chosen.
func askOpenPath(s *session, spec openSpec, chosen func(path string)) *OpenPath {
	op := &OpenPath{s: s, spec: spec, chosen: chosen, sel: -1}
	op.Path = modal.NewEntry()
	op.Path.OnChanged = op.typed
	op.Path.OnSubmitted = func(string) { op.Submit() }
	op.Up = modal.NewButtonWithIcon("", theme.MoveUpIcon(), func() { op.Navigate(filepath.Dir(op.Dir)) })
	op.List = newOpenGrid([]column{{Title: "Name", Width: 380}, {Title: "Kind", Width: 300}, {Title: "Size", Width: 100, Align: fyne.TextAlignTrailing}, {Title: "Modified", Width: 150}},
		func() int { return len(op.shown) }, op.cell, func(row, col int) bool { return col == 0 && op.shown[row].Dir }, func() {
			if op.sel >= 0 {
				op.openItem(op.shown[op.sel])
			}
		})
	op.List.OnSelected = func(id widget.TableCellID) { op.sel = id.Row; op.buttons() }
	op.List.OnUnselected = func(widget.TableCellID) { op.sel = -1; op.buttons() }
	op.AllFiles = modal.NewCheck("Show every file", func(bool) { op.Navigate(op.Dir) })
	if len(spec.Kinds) == 0 {
		op.AllFiles.Hide()
	}
	op.Message = widget.NewLabel("")
	op.Message.Importance = widget.DangerImportance
	op.Message.Wrapping = fyne.TextWrapWord
	op.Message.Hide()
	op.Open = modal.NewButtonWithIcon("Open", theme.FolderOpenIcon(), op.Submit)
	op.Open.Importance = widget.HighImportance
	op.UseFolder = modal.NewButtonWithIcon("Use this folder", theme.ConfirmIcon(), op.useFolder)
	cancel := modal.NewButtonWithIcon("Cancel", theme.CancelIcon(), nil)
	buttons := []fyne.CanvasObject{cancel, op.Open}
	if spec.Folders {
		buttons = []fyne.CanvasObject{cancel, op.UseFolder, op.Open}
		if !spec.Files {
			op.Open.SetText("Go into")
			op.Open.Importance = widget.MediumImportance
			op.UseFolder.Importance = widget.HighImportance
		}
	}
	hint := widget.NewLabel(spec.Hint)
	hint.Wrapping = fyne.TextWrapWord
	top := container.NewVBox(hint, container.NewBorder(nil, nil, op.Up, nil, op.Path))
	bottom := container.NewVBox(op.Message, op.AllFiles)
	op.d = modal.NewCustomWithoutButtons(spec.Title, container.NewBorder(top, bottom, nil, nil, op.List), s.win)
	op.d.SetButtons(buttons)
	cancel.OnTapped = op.d.Hide
	op.Navigate(cmp.Or(spec.Start, startFolder(s)))
	// The dialog uses the whole window, less a margin.
	size := s.win.Canvas().Size()
	op.d.Resize(fyne.NewSize(size.Width-2*theme.Padding()*4, size.Height-2*theme.Padding()*4))
	modal.Show(s.win, op.d, op.Submit)
	s.win.Canvas().Focus(op.Path)
	s.opening = op
	return op
}

// Navigate lists the folder dir, read off the UI goroutine (a folder on a
// slow disk or share must not freeze the window); a folder that cannot be
// read is said and the list stays.
func (op *OpenPath) Navigate(dir string) {
	dir = filepath.Clean(dir)
	op.listing++
	n, all := op.listing, op.AllFiles.Checked
	offui.Run(op.s.tasks, func() ([]dirItem, error) { return op.list(dir, all) }, func(items []dirItem, err error) {
		if n != op.listing {
			return
		}
		if err != nil {
			op.say(fmt.Sprintf("Cannot list %s: %v", dir, pathError(err)))
			return
		}
		op.show(dir, items)
	})
}

// list reads the entries of dir the dialog offers, folders first, then by
// name in any case; all offers files of every kind and hidden ones.
func (op *OpenPath) list(dir string, all bool) ([]dirItem, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var items []dirItem
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && !all {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, name)) // through links
		if err != nil {
			continue
		}
		it := dirItem{Name: name, Dir: fi.IsDir(), Size: fi.Size(), ModTime: fi.ModTime()}
		if !it.Dir && (!op.spec.Files || (!all && len(op.spec.Kinds) > 0 && op.kindOf(name) == "")) {
			continue
		}
		items = append(items, it)
	}
	slices.SortFunc(items, func(a, b dirItem) int {
		if a.Dir != b.Dir {
			if a.Dir {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	return items, nil
}

// show lists items, the entries of dir. What was typed after the folder's
// path while it was read is kept, and narrows the list.
func (op *OpenPath) show(dir string, items []dirItem) {
	op.say("")
	op.items, op.Dir = items, dir
	prefix := withSeparator(dir)
	typed, ok := strings.CutPrefix(op.Path.Text, prefix)
	if !ok || strings.Contains(typed, string(os.PathSeparator)) {
		op.setting = true
		op.Path.SetText(prefix)
		op.Path.CursorColumn = len([]rune(op.Path.Text))
		op.setting = false
		typed = ""
	}
	op.narrow(typed)
	enable(op.Up, filepath.Dir(dir) != dir)
}

// narrow shows the items whose names start with prefix (any case),
// selecting, when a prefix is typed, the one of that very name or else the
// first.
func (op *OpenPath) narrow(prefix string) {
	op.shown = op.shown[:0]
	lower, first := strings.ToLower(prefix), 0
	for _, it := range op.items {
		if strings.HasPrefix(strings.ToLower(it.Name), lower) {
			if it.Name == prefix {
				first = len(op.shown)
			}
			op.shown = append(op.shown, it)
		}
	}
	op.unselect()
	op.List.Refresh()
	op.List.ScrollToTop()
	if prefix != "" && len(op.shown) > 0 {
		op.List.Select(widget.TableCellID{Row: first, Col: 0})
	}
}

// unselect clears the selection.
func (op *OpenPath) unselect() {
	op.sel = -1
	op.List.UnselectAll()
	op.buttons()
}

// typed follows the path field: a folder typed with a separator after it is
// listed, a name after the folder listed narrows the list.
func (op *OpenPath) typed(text string) {
	if op.setting {
		return
	}
	op.say("")
	p := op.resolve(text)
	if strings.HasSuffix(text, string(os.PathSeparator)) {
		if isDir(p) && p != op.Dir {
			op.Navigate(p)
			return
		}
	}
	dir, name := filepath.Split(p)
	if strings.HasSuffix(text, string(os.PathSeparator)) {
		dir, name = p, ""
	}
	if filepath.Clean(dir) == op.Dir {
		op.narrow(name)
		return
	}
	// A path elsewhere: Enter goes there or opens it, not the row that was
	// selected.
	op.unselect()
}

// resolve turns what was typed into a clean absolute path: ~ is the home
// folder, a relative path is taken from the folder listed.
func (op *OpenPath) resolve(text string) string {
	text = strings.TrimSpace(text)
	if text == "~" || strings.HasPrefix(text, "~"+string(os.PathSeparator)) {
		if home, err := os.UserHomeDir(); err == nil {
			text = home + text[1:]
		}
	}
	if !filepath.IsAbs(text) {
		text = filepath.Join(op.Dir, text)
	}
	return filepath.Clean(text)
}

// Submit is Enter in the path field and the Open button: the selected row
// is opened; else the path typed is gone into (a folder) or opened (a
// file), once looked at off the UI goroutine (a path on a network share
// that does not answer must not freeze the window).
func (op *OpenPath) Submit() {
	if op.sel >= 0 && op.sel < len(op.shown) {
		op.openItem(op.shown[op.sel])
		return
	}
	p := op.resolve(op.Path.Text)
	offui.Run(op.s.tasks, func() (os.FileInfo, error) { return os.Stat(p) }, func(fi os.FileInfo, err error) { op.submitted(p, fi, err) })
}

// submitted goes into or opens the path typed, p, as Stat found it.
func (op *OpenPath) submitted(p string, fi os.FileInfo, err error) {
	switch {
	case err != nil:
		op.say(fmt.Sprintf("%s: %v", p, pathError(err)))
	case fi.IsDir() && p != op.Dir:
		op.Navigate(p)
	case fi.IsDir() && op.spec.Folders:
		op.choose(p)
	case fi.IsDir():
		op.say("Choose a file in " + p)
	case op.spec.Files:
		op.choose(p)
	default:
		op.say(p + " is a file: choose a folder")
	}
}

// openItem goes into a folder or opens a file.
func (op *OpenPath) openItem(it dirItem) {
	p := filepath.Join(op.Dir, it.Name)
	if it.Dir {
		op.Navigate(p)
		return
	}
	op.choose(p)
}

// useFolder chooses the selected folder, else the one listed.
func (op *OpenPath) useFolder() {
	if op.sel >= 0 && op.sel < len(op.shown) && op.shown[op.sel].Dir {
		op.choose(filepath.Join(op.Dir, op.shown[op.sel].Name))
		return
	}
	op.choose(op.Dir)
}

// choose closes the dialog with path chosen, remembering its folder.
func (op *OpenPath) choose(path string) {
	op.s.prefs.SetString(prefLastFolder, filepath.Dir(path))
	op.d.Hide()
	op.chosen(path)
}

// buttons names and enables the buttons for the row selected.
func (op *OpenPath) buttons() {
	var it *dirItem
	if op.sel >= 0 && op.sel < len(op.shown) {
		it = &op.shown[op.sel]
	}
	if it != nil && it.Dir {
		op.UseFolder.SetText(fmt.Sprintf("Use %q", it.Name))
	} else {
		op.UseFolder.SetText("Use this folder")
	}
	if op.spec.Files {
		op.Open.SetText("Open")
		if it != nil && it.Dir {
			op.Open.SetText("Go into")
		}
	}
	if !op.spec.Files && (it == nil || !it.Dir) {
		op.Open.Disable()
	} else {
		op.Open.Enable()
	}
}

// say shows a message under the list; "" hides it.
func (op *OpenPath) say(msg string) {
	op.Message.SetText(msg)
	if msg == "" {
		op.Message.Hide()
	} else {
		op.Message.Show()
	}
}

// cell is the text of one cell of the list.
func (op *OpenPath) cell(row, col int) string {
	if row >= len(op.shown) {
		return ""
	}
	it := op.shown[row]
	switch col {
	case 0:
		if it.Dir {
			return it.Name + string(os.PathSeparator)
		}
		return it.Name
	case 1:
		if it.Dir {
			return "Folder"
		}
		return orText(op.kindOf(it.Name), "File")
	case 2:
		if it.Dir {
			return ""
		}
		return fmtBytes(it.Size)
	default:
		return it.ModTime.Local().Format("2006-01-02 15:04")
	}
}

// kindOf is the label of the kind a file name ends in, "" when none offered.
func (op *OpenPath) kindOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	for _, k := range op.spec.Kinds {
		if k.Ext == ext {
			return k.Label
		}
	}
	return ""
}

// withSeparator ends a folder's path with the separator, as typed paths to
// folders are.
func withSeparator(dir string) string {
	if strings.HasSuffix(dir, string(os.PathSeparator)) {
		return dir
	}
	return dir + string(os.PathSeparator)
}

// pathError is an error of the file system in words: without the path,
// which the message already names.
func pathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		switch {
		case os.IsNotExist(pe.Err):
			return fmt.Errorf("no such file or folder")
		case os.IsPermission(pe.Err):
			return fmt.Errorf("permission denied")
		}
		return pe.Err
	}
	return err
}

// fmtBytes is a file size in words: 512 bytes, 12.3 kB, 4.5 MB.
func fmtBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
