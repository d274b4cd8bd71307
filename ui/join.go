package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// JoinCloud asks where the deployment's cloud tables are (endpoint, AWS
// profile, region: credentials come from the AWS environment, never from
// VoteDesk), then syncs this empty database from them off the UI goroutine,
// with a progress bar, and shows sign-in for the users it brought.
func (sh *Shell) JoinCloud() {
	set := sh.cfg.Sync.Settings()
	endpoint, profile, region := modal.NewEntry(), modal.NewEntry(), modal.NewEntry()
	endpoint.SetText(set.Endpoint)
	endpoint.SetPlaceHolder("empty: the region's DynamoDB; http://127.0.0.1:8000 for DynamoDB Local")
	profile.SetText(set.Profile)
	region.SetText(set.Region)
	items := []*widget.FormItem{
		widget.NewFormItem("Endpoint", endpoint),
		widget.NewFormItem("AWS profile", profile),
		widget.NewFormItem("Region", region),
	}
	sh.joinDialog = modal.NewFormDialog("Join from the cloud", "Join", "Cancel", items, func(ok bool) {
		sh.joinDialog = nil
		if ok {
			sh.Join(SyncSettings{Endpoint: endpoint.Text, Profile: profile.Text, Region: region.Text})
		}
	}, sh.win)
	sh.joinDialog.Resize(fyne.NewSize(620, 0))
	modal.Show(sh.win, sh.joinDialog, nil)
}

// joinNote is what the join dialog says while it fetches.
const joinNote = "Syncing this device with the deployment's log…"

// Join syncs this empty database from the cloud with the given settings.
func (sh *Shell) Join(set SyncSettings) {
	if err := sh.cfg.Sync.Configure(set); err != nil {
		showError(sh.win, "Cannot join", err, "")
		return
	}
	bar := widget.NewProgressBar()
	note := widget.NewLabel(joinNote)
	progress := modal.NewCustomWithoutButtons("Fetching from the cloud", container.NewVBox(note, bar), sh.win)
	modal.ShowBusy(sh.win, progress)
	offui.Run(sh.tasks, func() (SyncReport, error) {
		return sh.cfg.Sync.Sync(context.Background(), func(p SyncProgress) {
			sh.tasks.Post(func() { showSyncProgress(bar, note, p, joinNote) })
		})
	}, func(rep SyncReport, err error) {
		progress.Hide()
		if err != nil {
			showError(sh.win, "Cannot join", err, "Nothing was changed; check the endpoint, the AWS profile and region, and the network.")
			return
		}
		if has, _ := sh.cfg.Service.HasUsers(context.Background()); !has {
			showError(sh.win, "Nothing to join", app.Errorf(app.CodeNotFound, "the cloud tables hold no users yet"), "Create the owner account here instead, and sync to share it.")
			return
		}
		sh.Show()
		modal.ShowInformation("Joined", "This device now holds the deployment's "+plural(rep.Pulled, "event", "events")+". Sign in with your VoteDesk account.", sh.win)
	})
}
