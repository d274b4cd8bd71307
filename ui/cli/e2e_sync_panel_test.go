package cli_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/ui"
)

// TestSyncPanelBackend runs the sync panel's Syncer as main.go wires it
// (ui.CloudSyncer over the real cloud sync) against DynamoDB Local: two
// devices converge through it, and bad settings are refused.
func TestSyncPanelBackend(t *testing.T) {
	setAWSEnv(t)
	prefix := fmt.Sprintf("panel%d_", time.Now().UnixNano())
	ctx := context.Background()
	var raw func(app.CloudOptions) app.Syncer
	open := func(name string) (*ui.CloudSyncer, *app.Service, func()) {
		// Wired as main.go wires the desktop app.
		st, err := localstore.Open(filepath.Join(t.TempDir(), name+".db"))
		if err != nil {
			t.Fatal(err)
		}
		cloud := func(o app.CloudOptions) app.Syncer {
			return cloudsync.New(st, cloudsync.Config{Endpoint: o.Endpoint, TablePrefix: prefix})
		}
		raw = cloud
		svc := app.NewService(st, nil, nil, app.WithAttemptLog(st.Attempts()))
		return ui.NewCloudSyncer(cloud), svc, func() { st.Close() }
	}
	a, svcA, closeA := open("a")
	defer closeA()
	t.Run("ErrBadEndpoint", func(t *testing.T) {
		if err := a.Configure(ui.SyncSettings{Endpoint: "dynamo at the office"}); app.ErrorCode(err) != app.CodeInvalid {
			t.Errorf("Configure with a bad endpoint: %v", err)
		}
	})
	if err := a.Configure(ui.SyncSettings{Endpoint: ddbEndpoint, Region: "us-east-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := raw(app.CloudOptions{Endpoint: ddbEndpoint}).InitCloud(ctx); err != nil {
		t.Fatal(err)
	}
	if err := svcA.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"); err != nil {
		t.Fatal(err)
	}
	st, err := a.Status(ctx)
	if err != nil || st.Pending != 1 {
		t.Fatalf("status before sync = %+v, %v", st, err)
	}
	var calls int
	rep, err := a.Sync(ctx, func(ui.SyncProgress) { calls++ })
	if err != nil || rep.Pushed != 1 {
		t.Fatalf("first sync = %+v, %v", rep, err)
	}
	if st, _ := a.Status(ctx); st.Pending != 0 || st.LastSuccess.IsZero() || a.Settings().Endpoint != ddbEndpoint {
		t.Errorf("status after sync = %+v, settings %+v", st, a.Settings())
	}
	b, svcB, closeB := open("b")
	defer closeB()
	if err := b.Configure(ui.SyncSettings{Endpoint: ddbEndpoint}); err != nil {
		t.Fatal(err)
	}
	if rep, err := b.Sync(ctx, nil); err != nil || rep.Pulled != 1 {
		t.Fatalf("second device's sync = %+v, %v", rep, err)
	}
	if _, err := svcB.SignIn(ctx, "olga", "owner-password"); err != nil {
		t.Errorf("the owner did not arrive on the second device: %v", err)
	}
	t.Run("ErrUnreachable", func(t *testing.T) {
		if err := b.Configure(ui.SyncSettings{Endpoint: "http://127.0.0.1:1"}); err != nil {
			t.Fatal(err)
		}
		_, err := b.Sync(ctx, nil)
		if err == nil || !strings.Contains(strings.ToLower(app.ErrorMessage(err)), "reach") {
			t.Errorf("sync to a closed port: %v", err)
		}
		if st, _ := b.Status(ctx); st.LastError == "" {
			t.Error("the failure is not in the status")
		}
	})
}
