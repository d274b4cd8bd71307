package ui

import (
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
)

// The app asks where to save a file with its own small dialog, a file name
// and a folder, and never with Fyne's save dialog: that one opens the file
// it is given for writing, truncating it, before the app can look at it, so
// choosing the open database by mistake would destroy it. Here only a path
// is chosen; the file is written by the one guarded writer of its kind
// (dataio.WriteFileAtomic, or the store's backup), which refuses a database,
// a folder or a link and changes nothing when it does.

// SavePath is the dialog that asks where to save a file.
type SavePath struct {
	Name   *modal.Entry
	Folder *widget.Label
	Browse *modal.Button
	dir    string
	d      *modal.Dialog
}

// askSavePath asks for a file name and folder, starting from name and the
// folder remembered under pref (prefLastFolder: the last file opened or
// saved; prefBackupFolder: the last backup), and hands the chosen path to
// chosen. With replace, a file that exists is replaced only after the user
// says so (without, the writer refuses it); the writer still refuses what
// must never be replaced.
func askSavePath(s *session, pref, title, name string, replace bool, chosen func(path string)) {
	sp := &SavePath{Name: modal.NewEntry(), dir: rememberedFolder(s, pref)}
	sp.Name.SetText(name)
	sp.Folder = widget.NewLabel(sp.dir)
	sp.Folder.Wrapping = fyne.TextWrapBreak
	sp.Browse = modal.NewButtonWithIcon("Choose folder…", theme.FolderOpenIcon(), func() {
		askOpenPath(s, openSpec{Title: "Save in which folder?", Hint: "Go into the folder to save in (type or paste its path, or double-click it), then Use this folder.", Folders: true, Start: sp.dir}, func(dir string) {
			sp.dir = dir
			sp.Folder.SetText(dir)
		})
	})
	sp.Name.Validator = func(text string) error { _, err := sp.path(text); return err }
	items := []*widget.FormItem{
		widget.NewFormItem("File name", sp.Name),
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, sp.Browse, sp.Folder)),
	}
	sp.d = modal.NewFormDialog(title, "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		path, err := sp.path(sp.Name.Text)
		if err != nil {
			s.fail("Not saved", err)
			return
		}
		s.prefs.SetString(pref, sp.dir)
		if fi, err := os.Lstat(path); replace && err == nil && fi.Mode().IsRegular() {
			modal.ShowConfirm("Replace file?", path+" exists. Replace it?", func(ok bool) {
				if ok {
					chosen(path)
				}
			}, s.win)
			return
		}
		chosen(path)
	}, s.win)
	sp.Name.OnSubmitted = func(string) { sp.d.Submit() }
	sp.d.Resize(fyne.NewSize(560, 0))
	modal.Show(s.win, sp.d, nil)
	s.saving = sp
}

// path joins the folder and a file name typed, refusing a name that is no
// file name.
func (sp *SavePath) path(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", app.Errorf(app.CodeInvalid, "type a file name")
	case strings.ContainsRune(name, os.PathSeparator) || name == "." || name == "..":
		return "", app.Errorf(app.CodeInvalid, "%q is not a file name: choose the folder with Choose folder…", name)
	}
	return filepath.Join(sp.dir, name), nil
}

// prefBackupFolder remembers the folder of the last backup, apart from
// the other files': backups go where the last one went (and a restore
// looks there), not to the folder a cast vote record was last imported
// from, which may be a vendor's stick or a share nobody keeps backups on.
const prefBackupFolder = "lastBackupFolder"

// startFolder is the folder of the last file opened or saved, else
// Documents, else home.
func startFolder(s *session) string { return rememberedFolder(s, prefLastFolder) }

// rememberedFolder is the folder remembered under pref, else Documents,
// else home.
func rememberedFolder(s *session, pref string) string {
	if dir := s.prefs.String(pref); dir != "" {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "."
	}
	if docs := filepath.Join(home, "Documents"); isDir(docs) {
		return docs
	}
	return home
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
