package ui

import (
	"context"
	"net/url"
	"os"
	"strings"
	"sync"

	"votedesk/app"
)

// CloudSyncer adapts the app's cloud sync (app.Syncer, built for the
// connection settings by open) to the sync panel. The endpoint is
// remembered by sync itself; the profile and region are the AWS
// environment's (AWS_PROFILE, AWS_REGION), which Configure sets for this
// process. Credentials are never stored.
type CloudSyncer struct {
	open func(app.CloudOptions) app.Syncer

	mu       sync.Mutex
	settings SyncSettings
	loaded   bool
}

// NewCloudSyncer builds the panel's Syncer over the app's.
func NewCloudSyncer(open func(app.CloudOptions) app.Syncer) *CloudSyncer {
	return &CloudSyncer{open: open}
}

// Settings returns the connection sync uses.
func (c *CloudSyncer) Settings() SyncSettings {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.loaded {
		c.loaded = true
		c.settings.Profile = os.Getenv("AWS_PROFILE")
		c.settings.Region = os.Getenv("AWS_REGION")
		if st, err := c.open(app.CloudOptions{}).Status(context.Background()); err == nil {
			c.settings.Endpoint = st.Endpoint
		}
	}
	return c.settings
}

// Configure checks and sets the connection for the next sync.
func (c *CloudSyncer) Configure(s SyncSettings) error {
	s.Endpoint = strings.TrimSpace(s.Endpoint)
	if s.Endpoint != "" {
		u, err := url.Parse(s.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return app.Errorf(app.CodeInvalid, "the endpoint %q is not a URL like https://dynamodb.eu-west-1.amazonaws.com or http://127.0.0.1:8000", s.Endpoint)
		}
	}
	for name, v := range map[string]string{"AWS_PROFILE": strings.TrimSpace(s.Profile), "AWS_REGION": strings.TrimSpace(s.Region)} {
		if v == "" {
			os.Unsetenv(name)
		} else {
			os.Setenv(name, v)
		}
	}
	c.mu.Lock()
	c.settings, c.loaded = s, true
	c.mu.Unlock()
	return nil
}

func (c *CloudSyncer) syncer() app.Syncer {
	return c.open(app.CloudOptions{Endpoint: c.Settings().Endpoint})
}

// AppSyncer is the app's cloud sync with the panel's settings (the kiosk
// uses it).
func (c *CloudSyncer) AppSyncer() app.Syncer { return c.syncer() }

// Status says how sync stands on this device.
func (c *CloudSyncer) Status(ctx context.Context) (SyncStatus, error) {
	st, err := c.syncer().Status(ctx)
	if err != nil {
		return SyncStatus{}, err
	}
	return SyncStatus{LastSuccess: st.LastSuccess, Pending: st.Pending, LastError: st.LastError, Shards: st.Shards}, nil
}

// Sync runs one cycle, reporting events (and cloud items) done of total,
// and why it waits when it must wait to retry.
func (c *CloudSyncer) Sync(ctx context.Context, progress func(SyncProgress)) (SyncReport, error) {
	res, err := c.syncer().Sync(ctx, func(p app.SyncProgress) {
		if progress != nil {
			progress(SyncProgress{Done: p.Pulled + p.Pushed + p.Projected, Total: p.ToPull + p.ToPush + p.ToProject, Waiting: p.Waiting()})
		}
	})
	if err != nil {
		return SyncReport{}, err
	}
	return SyncReport{Pushed: res.Pushed, Pulled: res.Pulled}, nil
}

var _ Syncer = (*CloudSyncer)(nil)
