package cloudsync

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// Checking the cloud projection. The projection in vote_data is derived
// from the log, but anyone with write access to the table can change it,
// and nothing in DynamoDB says that an item came from the log. So a device
// whose confirmed head is the event the projection says it is complete up
// to compares the whole table with its own confirmed projection (the same
// events applied by the same rules) and writes back what differs: puts for
// items missing or changed, deletes for items the log never made. The
// compare reads the whole table, so it runs every cycle while the
// projection is small (ProjectionCheckBytes: some 20,000 ballot items, or
// 60,000 imported ballots in chunks), otherwise at most every
// ProjectionCheckEvery, and whenever CheckProjection asks for it. It is
// bytes that cost: a million imported ballots are some 800 items, but
// 115 MB to read (50 s from DynamoDB Local).
const (
	ProjectionCheckBytes = 8 << 20
	ProjectionCheckEvery = time.Hour
	settingChecked       = "projection_checked"
)

// checkProjection compares and repairs the cloud projection when it is due.
func (s *Syncer) checkProjection(ctx context.Context, c *Cloud, st projectionState, head uint64, progress func()) error {
	if st.last != head || st.claim != "" || head == 0 {
		return nil
	}
	due, err := s.projectionCheckDue(ctx)
	if err != nil || !due {
		return err
	}
	writes, syncItem, err := s.projectionDiff(ctx, c)
	if err != nil {
		return err
	}
	if len(writes) > 0 {
		token := newToken()
		if err := c.claimProjection(ctx, st, token, head, s.now()); err != nil {
			if isConditionFailure(err) || isTransactionConflict(err) {
				return nil
			}
			return c.classify(ctx, "claim the cloud projection", err)
		}
		s.progress.ToProject, s.progress.Projected = len(writes), 0
		lost, err := s.writeBatches(ctx, c, token, writes, progress)
		if err != nil || lost {
			return err
		}
		if err := c.finishProjection(ctx, token, syncItem); err != nil && !isConditionFailure(err) {
			return c.classify(ctx, "finish the cloud projection", err)
		}
		s.repaired = len(writes)
	}
	return s.local.SetSyncSetting(ctx, settingChecked, []byte(s.now()))
}

// projectionCheckDue says whether this cycle compares the projection.
func (s *Syncer) projectionCheckDue(ctx context.Context) (bool, error) {
	if s.CheckProjection {
		return true, nil
	}
	n, err := s.local.ProjectionBytes(ctx)
	if err != nil || n <= ProjectionCheckBytes {
		return err == nil, err
	}
	last, ok, err := s.local.SyncSetting(ctx, settingChecked)
	if err != nil || !ok {
		return err == nil, err
	}
	t, err := time.Parse(time.RFC3339Nano, string(last))
	return err != nil || time.Since(t) >= ProjectionCheckEvery, nil
}

// projectionDiff reads the cloud projection and this device's confirmed
// projection and returns the writes that make the cloud's equal to it, and
// the METADATA/SYNC item to finish with.
func (s *Syncer) projectionDiff(ctx context.Context, c *Cloud) ([]types.WriteRequest, app.Item, error) {
	_, local, err := s.local.ConfirmedItems(ctx)
	if err != nil {
		return nil, nil, err
	}
	want := make(map[string]app.Item, len(local))
	var syncItem app.Item
	for _, it := range local {
		if it.PK() == pkMetadata && it.SK() == skSync {
			syncItem = it
			continue
		}
		want[itemKey(it)] = it
	}
	cloud, err := c.ProjectionItems(ctx)
	if err != nil {
		return nil, nil, err
	}
	var writes []types.WriteRequest
	for _, it := range cloud {
		k := itemKey(it)
		if it.PK() == pkMetadata && it.SK() == skSync {
			continue
		}
		w, ok := want[k]
		delete(want, k)
		switch {
		case !ok:
			writes = append(writes, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: ToAttributeMap(keyOnly(it))}})
		case !sameItem(w, it):
			writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: ToAttributeMap(w)}})
		}
	}
	for _, it := range want {
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: ToAttributeMap(it)}})
	}
	return writes, syncItem, nil
}

// ProjectionDifferences compares the cloud projection with items (what a
// rebuild from the log gives) and describes up to max differences, for
// verify --cloud.
func ProjectionDifferences(cloud, rebuilt []app.Item, max int) []string {
	want := make(map[string]app.Item, len(rebuilt))
	for _, it := range rebuilt {
		want[itemKey(it)] = it
	}
	var out []string
	add := func(format string, args ...any) {
		if len(out) < max {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	for _, it := range cloud {
		k := itemKey(it)
		w, ok := want[k]
		delete(want, k)
		switch {
		case it.PK() == pkMetadata && it.SK() == skSync:
		case !ok:
			add("the cloud projection holds %s / %s, which the log never made", it.PK(), it.SK())
		case !sameItem(w, it):
			add("the cloud projection's %s / %s differs from what the log says", it.PK(), it.SK())
		}
	}
	for _, it := range rebuilt {
		if _, missing := want[itemKey(it)]; missing && !(it.PK() == pkMetadata && it.SK() == skSync) {
			add("the cloud projection lacks %s / %s", it.PK(), it.SK())
		}
	}
	return out
}

func itemKey(it app.Item) string { return it.PK() + "\x00" + it.SK() }

func keyOnly(it app.Item) app.Item {
	return app.Item{{Name: app.AttrPK, Value: app.S(it.PK())}, {Name: app.AttrSK, Value: app.S(it.SK())}}
}

// sameItem compares two items attribute by attribute.
func sameItem(a, b app.Item) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
