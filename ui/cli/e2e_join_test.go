package cli_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/assets"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/ui"
)

// TestFirstRunJoinsFromCloud: a new laptop of an office that already uses
// VoteDesk joins it from the first-run screen instead of creating an owner:
// it syncs from DynamoDB Local and then asks for sign-in with the office's
// users. An empty cloud leaves it on the first-run screen, saying why.
func TestFirstRunJoinsFromCloud(t *testing.T) {
	setAWSEnv(t)
	ctx := context.Background()
	device := func(prefix string) (*localstore.Store, *app.Service, func(app.CloudOptions) app.Syncer) {
		st, err := localstore.Open(filepath.Join(t.TempDir(), "votedesk.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		cloud := func(o app.CloudOptions) app.Syncer {
			return cloudsync.New(st, cloudsync.Config{Endpoint: o.Endpoint, TablePrefix: prefix})
		}
		return st, app.NewService(st, nil, nil, app.WithAttemptLog(st.Attempts())), cloud
	}
	prefix := fmt.Sprintf("join%d_", time.Now().UnixNano())
	_, office, officeCloud := device(prefix)
	if _, err := officeCloud(app.CloudOptions{Endpoint: ddbEndpoint}).InitCloud(ctx); err != nil {
		t.Fatal(err)
	}
	if err := office.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"); err != nil {
		t.Fatal(err)
	}
	if _, err := officeCloud(app.CloudOptions{Endpoint: ddbEndpoint}).Sync(ctx, nil); err != nil {
		t.Fatal(err)
	}

	shell := func(prefix string) (*ui.Shell, *app.Service) {
		st, svc, cloud := device(prefix)
		a := test.NewTempApp(t)
		w := test.NewWindow(nil)
		t.Cleanup(w.Close)
		sh := ui.NewShell(a, w, ui.Config{Service: svc, DBPath: st.Path(), Icon: assets.Icon, Sync: ui.NewCloudSyncer(cloud)})
		sh.Show()
		if sh.FirstRun == nil || sh.FirstRun.Join == nil {
			t.Fatal("the first-run screen offers no Join")
		}
		return sh, svc
	}
	t.Run("Joined", func(t *testing.T) {
		sh, svc := shell(prefix)
		sh.Join(ui.SyncSettings{Endpoint: ddbEndpoint, Region: "us-east-1"})
		sh.Wait()
		if has, _ := svc.HasUsers(ctx); !has || sh.SignIn == nil {
			t.Fatal("the laptop did not get the office's users and the sign-in screen")
		}
		if _, err := svc.SignIn(ctx, "olga", "owner-password"); err != nil {
			t.Errorf("the office's owner cannot sign in on the new laptop: %v", err)
		}
	})
	t.Run("ErrEmptyCloud", func(t *testing.T) {
		empty := fmt.Sprintf("empty%d_", time.Now().UnixNano())
		_, _, cloud := device(empty)
		if _, err := cloud(app.CloudOptions{Endpoint: ddbEndpoint}).InitCloud(ctx); err != nil {
			t.Fatal(err)
		}
		sh, svc := shell(empty)
		sh.Join(ui.SyncSettings{Endpoint: ddbEndpoint, Region: "us-east-1"})
		sh.Wait()
		if has, _ := svc.HasUsers(ctx); has || sh.SignIn != nil {
			t.Error("joining an empty cloud left the first-run screen")
		}
	})
}
