package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// Syncer is what the sync panel drives: the cloud sync of the event log.
// The sync package provides it and main.go passes it in Config.Sync.
type Syncer interface {
	// Settings returns the cloud connection sync uses.
	Settings() SyncSettings
	// Configure changes the connection; the next sync uses it.
	Configure(SyncSettings) error
	// Status says how sync stands now.
	Status(ctx context.Context) (SyncStatus, error)
	// Sync pushes this device's new events and pulls the others', calling
	// progress as it goes.
	Sync(ctx context.Context, progress func(SyncProgress)) (SyncReport, error)
}

// SyncProgress is where a sync stands: events (and cloud items) done of
// total, and, while it waits to retry, why and for how long in plain words
// (app.SyncProgress.Waiting).
type SyncProgress struct {
	Done, Total int
	Waiting     string
}

// SyncSettings is where the cloud copy lives.
type SyncSettings struct {
	Endpoint string // empty: the region's DynamoDB endpoint
	Profile  string // the AWS shared-config profile
	Region   string
}

// SyncStatus is how sync stands.
type SyncStatus struct {
	LastSuccess time.Time
	// Pending counts this device's events not yet pushed.
	Pending int
	// LastError is the last sync's failure, if it failed.
	LastError string
	// Shards says how far this device has read each shard of the cloud
	// log.
	Shards []app.ShardPlace
}

// SyncReport is what one sync did.
type SyncReport struct {
	Pushed, Pulled, Conflicts, Rejected int
}

// syncIntervals are the automatic sync choices, in minutes (0 = off).
var syncIntervals = []struct {
	label   string
	minutes int
}{{"Off", 0}, {"Every minute", 1}, {"Every 5 minutes", 5}, {"Every 15 minutes", 15}, {"Every hour", 60}}

// SyncScreen is the sync panel: the cloud connection, Sync now, automatic
// sync, progress, last success and pending events, and the conflicts and
// rejected events sync found, for officials to review and resolve.
type SyncScreen struct {
	s *session

	conflicts  []app.Conflict
	rejections []app.Rejection
	selected   int
	elections  map[string]app.Election

	Endpoint, Profile, Region *modal.Entry
	Save, SyncNow             *modal.Button
	Interval                  *modal.Select
	Progress                  *widget.ProgressBar
	Tabs                      *container.AppTabs // conflicts, rejected events
	LastSuccess, Pending      *widget.Label
	// Read says how far this device has read each shard of the cloud log.
	Read            *widget.Label
	Report          *widget.Label
	Conflicts       *grid
	Rejections      *grid
	Accept, Dismiss *modal.Button
	// Reason is kept with the decision on a conflict, in the log.
	Reason *modal.Entry

	// stopAuto stops the automatic-sync timer, while one is armed.
	stopAuto func()
	syncing  bool
	content  fyne.CanvasObject
}

func newSyncScreen(s *session) *SyncScreen {
	sc := &SyncScreen{s: s, selected: -1,
		Endpoint: modal.NewEntry(), Profile: modal.NewEntry(), Region: modal.NewEntry(),
		Progress: widget.NewProgressBar(), LastSuccess: widget.NewLabel("—"), Pending: widget.NewLabel("—"), Read: widget.NewLabel("—"), Report: widget.NewLabel("")}
	sc.Read.Wrapping = fyne.TextWrapWord
	sc.Endpoint.SetPlaceHolder("empty: the region's DynamoDB endpoint")
	sc.Profile.SetPlaceHolder("default")
	sc.Region.SetPlaceHolder("not set: type one, e.g. eu-west-1 (or set AWS_REGION)")
	sc.Save = modal.NewButtonWithIcon("Save connection", theme.DocumentSaveIcon(), sc.saveSettings)
	sc.SyncNow = modal.NewButtonWithIcon("Sync now", theme.ViewRefreshIcon(), sc.Sync)
	sc.SyncNow.Importance = widget.HighImportance
	labels := make([]string, len(syncIntervals))
	for i, iv := range syncIntervals {
		labels[i] = iv.label
	}
	sc.Interval = modal.NewSelect(labels, func(string) { sc.schedule(true) })
	sc.Report.Wrapping = fyne.TextWrapWord
	sc.Conflicts = newGrid([]column{
		{"Election", 170, fyne.TextAlignLeading},
		{"Seq", 60, fyne.TextAlignTrailing},
		{"Kind", 130, fyne.TextAlignLeading},
		{"Voter", 130, fyne.TextAlignLeading},
		{"State", 150, fyne.TextAlignLeading},
		{"Detail", 480, fyne.TextAlignLeading},
	}, func() int { return len(sc.conflicts) }, sc.conflictCell, nil)
	sc.Conflicts.OnSelected = func(id widget.TableCellID) { sc.selected = id.Row; sc.updateButtons() }
	sc.Rejections = newGrid([]column{
		{"Seq", 60, fyne.TextAlignTrailing},
		{"Event", 190, fyne.TextAlignLeading},
		{"Actor", 120, fyne.TextAlignLeading},
		{"Code", 90, fyne.TextAlignLeading},
		{"Why the rules refused it", 640, fyne.TextAlignLeading},
	}, func() int { return len(sc.rejections) }, func(row, col int) string {
		r := sc.rejections[row]
		return [...]string{strconv.FormatUint(r.Seq, 10), string(r.Type), r.Actor, string(r.Code), r.Reason}[col]
	}, nil)
	sc.Accept = modal.NewButtonWithIcon(acceptLabel, theme.ConfirmIcon(), func() { sc.resolve(true) })
	sc.Dismiss = modal.NewButtonWithIcon(dismissLabel, theme.CancelIcon(), func() { sc.resolve(false) })
	sc.Reason = modal.NewEntry()
	sc.Reason.SetPlaceHolder("Why (kept with the decision, in the log)")

	if s.sync != nil {
		set := s.sync.Settings()
		sc.Endpoint.SetText(set.Endpoint)
		sc.Profile.SetText(set.Profile)
		sc.Region.SetText(set.Region)
	}
	conn := widget.NewForm(
		widget.NewFormItem("Endpoint", sc.Endpoint),
		widget.NewFormItem("Profile", sc.Profile),
		widget.NewFormItem("Region", sc.Region))
	status := widget.NewForm(
		widget.NewFormItem("Automatic sync", sc.Interval),
		widget.NewFormItem("Last success", sc.LastSuccess),
		widget.NewFormItem("Pending events", sc.Pending),
		widget.NewFormItem("Cloud log read", sc.Read))
	top := container.NewGridWithColumns(2,
		widget.NewCard("Cloud connection", "", container.NewVBox(conn, container.NewHBox(sc.Save))),
		widget.NewCard("Sync", "", container.NewVBox(status, container.NewBorder(nil, nil, sc.SyncNow, nil, sc.Progress), sc.Report)))
	conflicts := container.NewBorder(container.NewBorder(nil, nil, container.NewHBox(sc.Dismiss, sc.Accept), nil, sc.Reason), nil, nil, nil, sc.Conflicts)
	sc.Tabs = container.NewAppTabs(
		container.NewTabItem("Conflicts to review", conflicts),
		container.NewTabItem("Rejected events", sc.Rejections))
	sc.content = container.NewBorder(container.NewVBox(title("Sync"), top), nil, nil, nil, sc.Tabs)
	if s.sync == nil {
		sc.Report.SetText("Cloud sync is not part of this build: everything stays on this computer. Conflicts and rejected events from earlier syncs are still listed here.")
	}
	sc.Interval.SetSelected(labels[sc.intervalIndex()])
	sc.Progress.Hide()
	sc.updateButtons()
	return sc
}

func (sc *SyncScreen) conflictCell(row, col int) string {
	c := sc.conflicts[row]
	switch col {
	case 0:
		return c.Election
	case 1:
		return strconv.FormatUint(c.Seq, 10)
	case 2:
		return c.Kind
	case 3:
		return orDash(c.Voter)
	case 4:
		if c.Resolved {
			return c.Resolution + " by " + c.ResolvedBy
		}
		return "to review"
	}
	return c.Detail
}

// intervalIndex is the remembered automatic-sync choice.
func (sc *SyncScreen) intervalIndex() int {
	m := sc.s.prefs.IntWithFallback(prefSyncInterval, 0)
	for i, iv := range syncIntervals {
		if iv.minutes == m {
			return i
		}
	}
	return 0
}

// schedule arms the automatic-sync timer for the chosen interval,
// remembering the choice when remember is set.
func (sc *SyncScreen) schedule(remember bool) {
	minutes := 0
	for _, iv := range syncIntervals {
		if iv.label == sc.Interval.Selected {
			minutes = iv.minutes
		}
	}
	if remember {
		sc.s.prefs.SetInt(prefSyncInterval, minutes)
	}
	sc.stop()
	if minutes == 0 || sc.s.sync == nil {
		return
	}
	sc.stopAuto = sc.s.tasks.After(time.Duration(minutes)*time.Minute, func() {
		sc.Sync()
		sc.schedule(false)
	})
}

// stop ends automatic sync (on sign-out).
func (sc *SyncScreen) stop() {
	if sc.stopAuto != nil {
		sc.stopAuto()
		sc.stopAuto = nil
	}
}

func (sc *SyncScreen) updateButtons() {
	has := sc.s.sync != nil
	for _, w := range []fyne.Disableable{sc.Endpoint, sc.Profile, sc.Region, sc.Save, sc.Interval} {
		enable(w, has && sc.s.can(app.PermUseApplication))
	}
	enable(sc.SyncNow, has && !sc.syncing && sc.s.can(app.PermUseApplication))
	c, ok := sc.currentConflict()
	m := ok && !c.Resolved && sc.s.manages(sc.elections[c.Election])
	accept, dismiss := acceptLabel, dismissLabel
	if ok {
		accept, dismiss = conflictDecisions(c)
	}
	for b, text := range map[*modal.Button]string{sc.Accept: orText(accept, acceptLabel), sc.Dismiss: dismiss} {
		if b.Text != text {
			b.SetText(text)
		}
	}
	enable(sc.Dismiss, m)
	enable(sc.Reason, m)
	enable(sc.Accept, m && accept != "")
}

// The decision buttons' words while no conflict is selected.
const acceptLabel, dismissLabel = "Accept", "Dismiss"

// conflictDecisions says what accepting and dismissing conflict c do, in the
// buttons' words; accept is "" where accepting changes nothing, and then
// the one decision is to mark it reviewed.
func conflictDecisions(c app.Conflict) (accept, dismiss string) {
	switch {
	case c.Kind == "duplicate_ballot":
		return "Count this ballot instead", "Keep the first ballot"
	case c.Kind == "refused_ballot" && c.Election != "":
		return "Count this ballot", "Do not count it"
	case c.Kind == "refused_recast":
		return "Count the changed ballot", "Keep the ballot before the change"
	case c.Kind == "name_collision":
		return "Merge it into the election of that name", "Keep them apart"
	}
	return "", "Mark as reviewed"
}

func (sc *SyncScreen) currentConflict() (app.Conflict, bool) {
	if sc.selected < 0 || sc.selected >= len(sc.conflicts) {
		return app.Conflict{}, false
	}
	return sc.conflicts[sc.selected], true
}

// refresh reloads the status, conflicts and rejections.
func (sc *SyncScreen) refresh() {
	type state struct {
		status     SyncStatus
		hasStatus  bool
		conflicts  []app.Conflict
		rejections []app.Rejection
		elections  map[string]app.Election
	}
	load(sc.s, "Cannot read the sync state", func(ctx context.Context) (state, error) {
		var st state
		var err error
		if st.conflicts, err = sc.s.svc.Conflicts(ctx, sc.s.actor(), ""); err != nil {
			return st, err
		}
		if st.rejections, err = sc.s.svc.Rejections(ctx, sc.s.actor()); err != nil {
			return st, err
		}
		es, err := sc.s.svc.Elections(ctx, sc.s.actor())
		if err != nil {
			return st, err
		}
		st.elections = map[string]app.Election{}
		for _, e := range es {
			st.elections[e.Name] = e
		}
		if sc.s.sync != nil {
			st.status, err = sc.s.sync.Status(ctx)
			st.hasStatus = err == nil
		}
		return st, nil
	}, func(st state) {
		sc.conflicts, sc.rejections, sc.elections = st.conflicts, st.rejections, st.elections
		sc.selected = -1
		sc.Conflicts.UnselectAll()
		sc.Conflicts.Refresh()
		sc.Rejections.Refresh()
		if st.hasStatus {
			sc.showStatus(st.status)
		}
		sc.updateButtons()
	})
}

func (sc *SyncScreen) showStatus(st SyncStatus) {
	sc.LastSuccess.SetText(orText(fmtTime(st.LastSuccess), "never"))
	sc.Pending.SetText(fmtCount(st.Pending))
	sc.Read.SetText(orText(sc.shardsRead(st.Shards), "—"))
	if st.LastError != "" {
		sc.Report.SetText("The last sync failed: " + st.LastError)
	}
}

// shardsRead says how far each shard of the cloud log is read: the global
// shard, then each election's under its name (its id when this device does
// not show it).
func (sc *SyncScreen) shardsRead(shards []app.ShardPlace) string {
	names := map[string]string{}
	for _, e := range sc.elections {
		names[e.ID] = e.Name
	}
	var parts []string
	for _, sh := range shards {
		name := "shared log"
		if sh.ElectionID != "" {
			name = orText(names[sh.ElectionID], sh.ElectionID) + " ballots"
		}
		parts = append(parts, fmt.Sprintf("%s to entry %s", name, fmtCount(int(sh.Read))))
	}
	return strings.Join(parts, " · ")
}

// saveSettings stores the connection.
func (sc *SyncScreen) saveSettings() {
	set := SyncSettings{Endpoint: sc.Endpoint.Text, Profile: sc.Profile.Text, Region: sc.Region.Text}
	sc.s.do("Cannot save the connection", func(context.Context) error { return sc.s.sync.Configure(set) }, func() {
		sc.Report.SetText("Connection saved; the next sync uses it.")
	})
}

// Sync runs one sync off the UI goroutine with a progress bar.
func (sc *SyncScreen) Sync() {
	if sc.s.sync == nil || sc.syncing {
		return
	}
	sc.syncing = true
	sc.Progress.SetValue(0)
	sc.Progress.Show()
	sc.Report.SetText("Syncing…")
	sc.updateButtons()
	offui.Run(sc.s.tasks, func() (SyncReport, error) {
		return sc.s.sync.Sync(sc.s.ctx(), func(p SyncProgress) {
			sc.s.tasks.Post(func() { sc.showProgress(p) })
		})
	}, func(r SyncReport, err error) {
		sc.syncing = false
		sc.Progress.SetValue(1)
		if err != nil {
			// A failed sync did not finish: no full bar.
			sc.Progress.Hide()
			sc.Report.SetText("Sync failed: " + app.ErrorMessage(err))
			sc.s.fail("Sync failed", err)
		} else {
			sc.Report.SetText(fmt.Sprintf("Synced at %s: %s pushed, %s pulled, %s, %s.", fmtTime(sc.s.svc.Now()),
				plural(r.Pushed, "event", "events"), plural(r.Pulled, "event", "events"),
				plural(r.Conflicts, "new conflict", "new conflicts"), plural(r.Rejected, "rejected event", "rejected events")))
		}
		sc.refresh()
		sc.s.changed()
	})
}

// showProgress shows a sync's progress on the panel.
func (sc *SyncScreen) showProgress(p SyncProgress) {
	showSyncProgress(sc.Progress, sc.Report, p, "Syncing…")
}

// showSyncProgress moves a sync's bar, and says on note why the sync waits
// while it waits to retry ("The cloud is busy (...); retrying in 4 s.") and
// what it does otherwise (syncing).
func showSyncProgress(bar *widget.ProgressBar, note *widget.Label, p SyncProgress, syncing string) {
	if p.Total > 0 {
		bar.SetValue(float64(p.Done) / float64(p.Total))
	}
	note.SetText(orText(p.Waiting, syncing))
}

// resolve settles the selected conflict as its buttons say (conflictDecisions),
// with the reason typed beside them.
func (sc *SyncScreen) resolve(accept bool) {
	c, ok := sc.currentConflict()
	if !ok {
		return
	}
	reason := strings.TrimSpace(sc.Reason.Text)
	sc.s.do("Cannot resolve the conflict", func(ctx context.Context) error {
		_, err := sc.s.svc.DecideConflict(ctx, sc.s.actor(), c, accept, reason)
		return err
	}, func() {
		sc.Reason.SetText("")
		sc.refresh()
	})
}
