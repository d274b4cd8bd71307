package kiosk

import (
	"context"

	"votedesk/app"
)

// CloudSync adapts the app's cloud sync to the kiosk's Syncer; nil when
// there is none.
func CloudSync(s app.Syncer) Syncer {
	if s == nil {
		return nil
	}
	return cloudSync{s}
}

type cloudSync struct{ s app.Syncer }

// Pending counts this device's changes not yet in the cloud log.
func (c cloudSync) Pending(ctx context.Context) (int, error) {
	st, err := c.s.Status(ctx)
	return st.Pending, err
}

// SyncNow runs one sync cycle.
func (c cloudSync) SyncNow(ctx context.Context) error {
	_, err := c.s.Sync(ctx, nil)
	return err
}
