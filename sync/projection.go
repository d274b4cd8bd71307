package cloudsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// The cloud projection's METADATA/SYNC item holds, besides what the local one
// holds (last_event_id, last_event_hash), while a device is writing the
// projection: claim (a random token), claim_target (the sequence number it
// writes up to) and claimed_at. See doc.go for the protocol.
const (
	pkMetadata      = "METADATA"
	skSync          = "SYNC"
	attrLastEventID = "last_event_id"
	attrClaim       = "claim"
	attrClaimTarget = "claim_target"
	attrClaimedAt   = "claimed_at"
	projectionPerTx = 99 // items per transaction, beside the claim check
)

// projectionState is what the cloud METADATA/SYNC item says.
type projectionState struct {
	last   uint64 // the projection is complete up to this event
	claim  string // the token of the device writing it, if any
	target uint64 // that device's target
}

func syncKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pkMetadata), attrSK: str(skSync)}
}

// readProjectionState reads METADATA/SYNC with a consistent read.
func (c *Cloud) readProjectionState(ctx context.Context) (projectionState, error) {
	out, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(c.tables.Data), Key: syncKey(), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return projectionState{}, c.classify("read the cloud projection's METADATA/SYNC", err)
	}
	var st projectionState
	st.last, _ = strconv.ParseUint(getNum(out.Item, attrLastEventID), 10, 64)
	st.claim = getStr(out.Item, attrClaim)
	st.target, _ = strconv.ParseUint(getNum(out.Item, attrClaimTarget), 10, 64)
	return st, nil
}

// updateProjection brings the cloud projection from its last event up to
// this device's confirmed head, when it is behind it. It returns the
// projection's last event afterwards as far as this device knows. Losing
// the claim to another device is not an error: that device writes at least
// as far.
func (s *Syncer) updateProjection(ctx context.Context, c *Cloud, progress func()) (uint64, error) {
	st, err := c.readProjectionState(ctx)
	if err != nil {
		return 0, err
	}
	if err := s.local.PruneCloudDirty(ctx, st.last); err != nil {
		return st.last, err
	}
	head, puts, deletes, err := s.local.CloudDelta(ctx, st.last)
	if err != nil || head <= st.last {
		return st.last, err
	}
	if st.claim != "" && st.target > head {
		// Someone with more of the log is writing; their write covers ours.
		return st.last, nil
	}
	token := newToken()
	if err := c.claimProjection(ctx, st, token, head, s.now()); err != nil {
		if isConditionFailure(err) || isTransactionConflict(err) {
			return st.last, nil
		}
		return st.last, c.classify("claim the cloud projection", err)
	}
	s.step("projection-claimed")
	var syncItem app.Item
	var writes []types.TransactWriteItem
	for _, it := range puts {
		if it.PK() == pkMetadata && it.SK() == skSync {
			syncItem = it
			continue
		}
		writes = append(writes, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(c.tables.Data), Item: ToAttributeMap(it)}})
	}
	for _, it := range deletes {
		writes = append(writes, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(c.tables.Data), Key: ToAttributeMap(it)}})
	}
	if syncItem == nil {
		return st.last, app.Errorf(app.CodeInternal, "the confirmed projection has no METADATA/SYNC item after event %d", head)
	}
	s.progress.ToProject = len(writes)
	for start := 0; start < len(writes); start += projectionPerTx {
		chunk := writes[start:min(start+projectionPerTx, len(writes))]
		tx := append([]types.TransactWriteItem{{ConditionCheck: &types.ConditionCheck{
			TableName: aws.String(c.tables.Data), Key: syncKey(),
			ConditionExpression:       aws.String("claim = :tok"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":tok": str(token)},
		}}}, chunk...)
		_, err := c.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		if isConditionFailure(err) {
			return st.last, nil // another device took over
		}
		if err != nil {
			return st.last, c.classify("write the cloud projection", err)
		}
		s.progress.Projected += len(chunk)
		progress()
		s.step("projection-chunk")
	}
	if err := c.finishProjection(ctx, token, syncItem); err != nil {
		if isConditionFailure(err) {
			return st.last, nil
		}
		return st.last, c.classify("finish the cloud projection", err)
	}
	s.step("projection-done")
	if err := s.local.PruneCloudDirty(ctx, head); err != nil {
		return head, err
	}
	return head, nil
}

// claimProjection takes the right to write the projection up to target, on
// condition that METADATA/SYNC is still as read (same last event, same claim
// or none).
func (c *Cloud) claimProjection(ctx context.Context, st projectionState, token string, target uint64, now string) error {
	cond := "attribute_not_exists(last_event_id)"
	vals := map[string]types.AttributeValue{":tok": str(token), ":target": num(target), ":now": str(now)}
	if st.last != 0 {
		cond = "last_event_id = :last"
		vals[":last"] = num(st.last)
	}
	if st.claim == "" {
		cond += " AND attribute_not_exists(claim)"
	} else {
		cond += " AND claim = :seen"
		vals[":seen"] = str(st.claim)
	}
	_, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.tables.Data),
		Key:                       syncKey(),
		UpdateExpression:          aws.String("SET claim = :tok, claim_target = :target, claimed_at = :now"),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: vals,
	})
	return err
}

// finishProjection writes METADATA/SYNC as the confirmed projection holds it
// and drops the claim, on condition that the claim is still ours.
func (c *Cloud) finishProjection(ctx context.Context, token string, syncItem app.Item) error {
	names := map[string]string{}
	vals := map[string]types.AttributeValue{":tok": str(token)}
	set := ""
	for i, a := range syncItem {
		if a.Name == attrPK || a.Name == attrSK {
			continue
		}
		n, v := "#a"+strconv.Itoa(i), ":v"+strconv.Itoa(i)
		names[n] = a.Name
		vals[v] = toAttr(a.Value)
		if set != "" {
			set += ", "
		}
		set += n + " = " + v
	}
	names["#claim"] = attrClaim
	_, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.tables.Data),
		Key:                       syncKey(),
		UpdateExpression:          aws.String("SET " + set + " REMOVE claim, claim_target, claimed_at"),
		ConditionExpression:       aws.String("#claim = :tok"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: vals,
	})
	return err
}

// newToken returns a random claim token.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
