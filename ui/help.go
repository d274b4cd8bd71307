package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
)

// keyboardHelp is every keyboard shortcut of the officials' app with what it
// does, from the shortcuts the menus and the window bind, and the keys
// every screen answers.
func keyboardHelp() [][2]string {
	return [][2]string{
		{shortcutLabel(shortcutNew), "New election"},
		{shortcutLabel(shortcutFind), "Find an election"},
		{shortcutLabel(shortcutResults), "Results of the open election"},
		{shortcutLabel(shortcutAudit), "Risk-limiting audit of the open election"},
		{shortcutLabel(shortcutRefresh), "Refresh what the screen shows"},
		{shortcutLabel(shortcutSignOut), "Sign out"},
		{shortcutLabel(shortcutTabs[0]) + " to " + shortcutLabel(shortcutTabs[len(shortcutTabs)-1]), "An election's tabs; on Candidates or Poll book, type at once"},
		{shortcutLabel(shortcutNextView) + " / " + shortcutLabel(shortcutPrevView), "Next / previous tab or view"},
		{"Tab / Shift+Tab", "Move to the next / previous field or button"},
		{"Enter or Space", "Press the focused button; Enter confirms a dialog"},
		{"Escape", "Close a dialog without doing anything"},
		{"Enter", "In a search: go to the list; on the elections list: open"},
		{"Alt", "Open the menu bar (then arrows and Enter)"},
		{"Arrows, then Space", "In a table: move, then select (a round's cell is read whole below)"},
		{"On the audit board", "Enter opens a draw; a digit picks a candidate; Enter saves"},
	}
}

// shortcutLabel writes a shortcut as a person reads it: "Ctrl+Shift+L".
func shortcutLabel(sc *desktop.CustomShortcut) string {
	var parts []string
	for _, m := range []struct {
		mod  fyne.KeyModifier
		name string
	}{{fyne.KeyModifierControl, "Ctrl"}, {fyne.KeyModifierSuper, "Cmd"}, {fyne.KeyModifierAlt, "Alt"}, {fyne.KeyModifierShift, "Shift"}} {
		if sc.Modifier&m.mod != 0 {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, string(sc.KeyName)), "+")
}

// ShowShortcuts lists the keyboard shortcuts in a dialog.
func (sh *Shell) ShowShortcuts() {
	rows := keyboardHelp()
	grid := container.NewGridWithColumns(2)
	for _, r := range rows {
		grid.Add(widget.NewLabelWithStyle(r[0], fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		grid.Add(widget.NewLabel(r[1]))
	}
	modal.ShowCustom("Keyboard shortcuts", "Close", grid, sh.win)
}

// guideText is the short guide of the Help menu: an election from set-up to
// certification, as the README's tour tells it.
const guideText = `## An election, step by step

1. **New election** (File menu or Ctrl+N): a name, and whether ballots are **secret** (nobody below AUDITOR ever sees who voted how, and counts stay hidden from them until the polls close).
2. **Candidates** and **Poll book** tabs: add the candidates in ballot order and the voters (type them, or import a CSV file).
3. **Edit**: the voting window, re-casting, the counting method and its rules, how long the records are kept.
4. **Launch**: the election opens for voting. Start a **kiosk** on a polling-place computer (Kiosk button, or ` + "`votedesk kiosk ELECTION`" + `); officials key in **paper ballots**; **import** the cast vote records a voting system exported.
5. **Close polls**: no more ballots. Count (**Results** tab: rounds, chart, flow, ballots), review conflicts from sync, and audit: on the **Audit** tab (Ctrl+Shift+A) start a risk-limiting audit with the ballot manifest and a seed rolled in public; the audit board reads each drawn paper ballot twice, and the audit says when the count is confirmed.
6. **Finalize**: the results are certified and everything is frozen. Export the reports (JSON, CSV, HTML) from the Results tab.

## Keeping records safe

* **File ▸ Back up database…** writes a copy you can restore; keep one off the laptop.
* Nothing is ever written over the database or a backup; a deleted finalized election is kept as a copy first.
* Every change is an event in a hash-chained log: ` + "`votedesk verify`" + ` checks it.

## Results say how final they are

PRELIMINARY while voting is open, UNOFFICIAL once the polls are closed, FINAL once finalized.

The README that comes with VoteDesk has the full tour with pictures, every command and every file format.`

// ShowGuide shows the short guide in a dialog that scrolls inside the
// window.
func (sh *Shell) ShowGuide() {
	text := widget.NewRichTextFromMarkdown(guideText)
	text.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(text)
	d := modal.NewCustom("Getting started", "Close", scroll, sh.win)
	size := sh.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(720, size.Width*0.9), min(560, size.Height*0.85)))
	modal.Show(sh.win, d, nil)
}
