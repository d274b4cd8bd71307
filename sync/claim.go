package cloudsync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// Claims: a large append loses its races cheaply (doc.go, "Claims").
//
// A segment that would be stored larger than the claim threshold is not
// raced for its place in the log's partition whole. Its entries are first
// written once, as a proposal, under a partition key of their own:
//
//	PK          PROPOSAL#{the first entry's id}
//	SK          the SHA-256 of the proposal's lines, hex
//	entity_type PROPOSAL
//	count       how many entries it holds (N)
//	events / events_gz   the entries as a segment holds them, placed at
//	            1, 2, ... and chained from "" (a place of no log: where
//	            they land is the claim's)
//
// and then the place is raced for with a claim: the segment's item without
// its events, naming the proposal and the hash the entry before it has
// (prev_hash, which only claims carry). A claim is a few hundred bytes, so a
// lost race costs one write unit of the log's partition instead of the
// whole segment's, and readers of that partition read claims; the events
// are read from the proposals' partitions, one per append, so the reads
// are spread too. A reader places the proposal's entries at the claim's
// place, chained from its prev_hash, and takes them only if the last hash
// and first id are the claim's: a proposal changed after its claim was
// written is refused like a changed segment.
const (
	attrPrevHash    = "prev_hash"
	attrProposalPK  = "proposal_pk"
	attrProposalSK  = "proposal_sk"
	attrCount       = "count"
	proposalPrefix  = "PROPOSAL#"
	proposalEntity  = "PROPOSAL"
	proposalsPerGet = 100 // BatchGetItem's limit
)

// DefaultClaimFrom is the stored size (bytes, compressed) above which a
// segment appended alone is proposed and claimed instead of raced for
// whole: past it, a segment costs more than one write unit, and every lost
// race would cost the log's partition all of them.
const DefaultClaimFrom = 4 << 10

// proposal is a run of entries written, unplaced, under a key of its own.
type proposal struct {
	pk, sk string
	item   map[string]types.AttributeValue
}

// proposalOf builds the proposal of entries (placed anywhere).
func proposalOf(entries []entry) (proposal, error) {
	var lines bytes.Buffer
	prev := ""
	for i, e := range entries {
		p := e.placed(uint64(i)+1, prev)
		prev = p.hash()
		b, err := p.encode()
		if err != nil {
			return proposal{}, err
		}
		if i > 0 {
			lines.WriteByte('\n')
		}
		lines.Write(b)
	}
	sum := sha256.Sum256(lines.Bytes())
	p := proposal{pk: proposalPrefix + entries[0].id(), sk: hex.EncodeToString(sum[:])}
	seg, err := newSegment(p.pk, entries, lines.Bytes())
	if err != nil {
		return proposal{}, err
	}
	p.item = map[string]types.AttributeValue{
		attrPK:        str(p.pk),
		attrSK:        str(p.sk),
		"entity_type": str(proposalEntity),
		attrCount:     num(uint64(len(entries))),
	}
	for _, a := range []string{attrEvents, attrEventsGz} {
		if v := seg.item[a]; v != nil {
			p.item[a] = v
		}
	}
	return p, nil
}

// claimOf is seg's claim on its place: its item without the events,
// naming p and the hash its first entry is chained to.
func claimOf(seg segment, p proposal) segment {
	item := make(map[string]types.AttributeValue, len(seg.item)+1)
	for k, v := range seg.item {
		if k != attrEvents && k != attrEventsGz {
			item[k] = v
		}
	}
	item[attrPrevHash] = str(seg.entries[0].prevHash())
	item[attrProposalPK] = str(p.pk)
	item[attrProposalSK] = str(p.sk)
	return segment{entries: seg.entries, item: item, stored: 512}
}

// propose writes p. Writing it again writes the same item (its key is its
// content's hash), so a retry, or the same run proposed again in a later
// cycle, changes nothing.
func (c *Cloud) propose(ctx context.Context, p proposal) error {
	_, err := c.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(c.tables.Log), Item: p.item})
	if err != nil {
		return c.classify(ctx, "write a proposal to the cloud log", err)
	}
	return nil
}

// resolveClaims gives each claim among items the events of the proposal it
// names, as a copy of the claim holding them; decodeSegment then places
// them. Proposals are read eventually consistent, and those not found so
// consistently (a proposal is written before its claim, so a consistent
// read finds it). A claim whose proposal is missing is a segment with no
// events: the read stops there, naming it.
func (c *Cloud) resolveClaims(ctx context.Context, items []map[string]types.AttributeValue) error {
	type key struct{ pk, sk string }
	var want []key
	at := map[key][]int{}
	for i, it := range items {
		pk, sk := getStr(it, attrProposalPK), getStr(it, attrProposalSK)
		if pk == "" {
			continue
		}
		k := key{pk, sk}
		if c.onClaim != nil {
			c.onClaim(pk, sk)
		}
		if at[k] == nil {
			want = append(want, k)
		}
		at[k] = append(at[k], i)
	}
	for len(want) > 0 {
		n := min(len(want), proposalsPerGet)
		keys := make([]map[string]types.AttributeValue, n)
		for i, k := range want[:n] {
			keys[i] = map[string]types.AttributeValue{attrPK: str(k.pk), attrSK: str(k.sk)}
		}
		want = want[n:]
		// Eventually consistent first, at half the read units; what that
		// did not find (a copy that has not seen the proposal yet)
		// consistently.
		missing := map[key]bool{}
		for _, consistent := range []bool{false, true} {
			for tries := 0; len(keys) > 0; tries++ {
				out, err := c.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
					c.tables.Log: {Keys: keys, ConsistentRead: aws.Bool(consistent)},
				}})
				if err != nil {
					return c.classify(ctx, "read the cloud log", err)
				}
				for _, k := range keys {
					missing[key{getStr(k, attrPK), getStr(k, attrSK)}] = true
				}
				for _, got := range out.Responses[c.tables.Log] {
					k := key{getStr(got, attrPK), getStr(got, attrSK)}
					delete(missing, k)
					for _, i := range at[k] {
						items[i] = withEvents(items[i], got)
					}
				}
				keys = out.UnprocessedKeys[c.tables.Log].Keys
				if len(keys) > 0 {
					// Throttled: DynamoDB hands back what it did not read.
					if err := sleep(ctx, time.Duration(min(tries+1, 20))*50*time.Millisecond); err != nil {
						return err
					}
				}
			}
			for k := range missing {
				keys = append(keys, map[string]types.AttributeValue{attrPK: str(k.pk), attrSK: str(k.sk)})
			}
			clear(missing)
		}
	}
	return nil
}

// withEvents is a copy of claim holding the events of its proposal p.
func withEvents(claim, p map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(claim)+1)
	for k, v := range claim {
		out[k] = v
	}
	for _, a := range []string{attrEvents, attrEventsGz} {
		if v := p[a]; v != nil {
			out[a] = v
		}
	}
	return out
}

// placeClaimed places the entries of a claim's proposal (at 1, 2, ...) at
// the claim's place first, chained from its prev_hash, and checks that they
// are what the claim names.
func placeClaimed(item map[string]types.AttributeValue, first uint64, evs []entry) ([]entry, error) {
	prev := getStr(item, attrPrevHash)
	for i, e := range evs {
		if e.seq() != uint64(i)+1 {
			return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d: the proposal it claims holds place %d where %d belongs", first, e.seq(), i+1)
		}
		evs[i] = e.placed(first+uint64(i), prev)
		prev = evs[i].hash()
	}
	if prev != getStr(item, attrLastHash) || evs[0].id() != getStr(item, attrFirstID) {
		return nil, app.Errorf(app.CodeInvalid, "cloud log segment at %d: the proposal it claims does not hold the events the claim names (changed after it was written)", first)
	}
	return evs, nil
}

// write appends one batch of segments: a segment alone that is stored
// larger than the claim threshold as a claim on its proposal, which is
// written first (once per run: the proposal does not depend on the place);
// anything else as it is (Cloud.appendSegments).
func (s *Syncer) write(ctx context.Context, c *Cloud, batch []segment) error {
	from := s.cfg.ClaimFrom
	if from == 0 {
		from = DefaultClaimFrom
	}
	if len(batch) != 1 || from < 0 || batch[0].stored-256 <= from {
		return c.appendSegments(ctx, batch)
	}
	entries := batch[0].entries
	key := runKey{first: entries[0].id(), last: entries[len(entries)-1].id(), n: len(entries)}
	if s.proposed == nil || s.proposed.key != key {
		// A new run: propose it. A run raced for again (after a lost
		// race its entries are placed elsewhere, but they are the same
		// entries) keeps the proposal already written.
		p, err := proposalOf(entries)
		if err != nil {
			return err
		}
		if err := s.noteProposal(ctx, p, entries[0].id()); err != nil {
			return err
		}
		if err := c.propose(ctx, p); err != nil {
			return err
		}
		s.proposed = &proposedRun{key: key, p: p}
		s.step("proposed")
	}
	if err := c.appendSegments(ctx, []segment{claimOf(batch[0], s.proposed.p)}); err != nil {
		return err
	}
	s.sawClaim(s.proposed.p.pk, s.proposed.p.sk)
	return nil
}

// runKey names a run of entries: its first and last entries' ids and its
// length (an entry's id names its content).
type runKey struct {
	first, last string
	n           int
}

// proposedRun is the run a cycle proposed last (Syncer.write), and its
// proposal.
type proposedRun struct {
	key runKey
	p   proposal
}

// writtenProposal is a proposal this device wrote (settingProposals),
// noted before it is written, so that a device stopped right after
// writing it still finds it, with the id of its run's first entry.
type writtenProposal struct {
	PK    string `json:"pk"`
	SK    string `json:"sk"`
	First string `json:"first"`
}

// proposalsWritten returns the proposals this device wrote and has not
// settled yet, and notes their partition keys for sawClaim. A list that
// does not read is taken as empty: the proposals it named are then left
// in the cloud, where verify --cloud counts them.
func (s *Syncer) proposalsWritten(ctx context.Context) ([]writtenProposal, error) {
	b, ok, err := s.local.SyncSetting(ctx, settingProposals)
	if err != nil {
		return nil, err
	}
	var ps []writtenProposal
	if ok && json.Unmarshal(b, &ps) != nil {
		ps = nil
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	if s.noted == nil {
		s.noted, s.placedBy = map[string]bool{}, map[string]string{}
	}
	for _, w := range ps {
		s.noted[w.PK] = true
	}
	return ps, nil
}

// noteProposal adds p, whose run starts with the entry first, to the
// proposals this device wrote; before p is written.
func (s *Syncer) noteProposal(ctx context.Context, p proposal, first string) error {
	ps, err := s.proposalsWritten(ctx)
	if err != nil {
		return err
	}
	for _, w := range ps {
		if w.PK == p.pk && w.SK == p.sk {
			return nil
		}
	}
	return s.saveProposals(ctx, append(ps, writtenProposal{PK: p.pk, SK: p.sk, First: first}))
}

// saveProposals keeps ps as the proposals this device wrote and has not
// settled, and forgets what it knew of the others.
func (s *Syncer) saveProposals(ctx context.Context, ps []writtenProposal) error {
	b, err := json.Marshal(ps)
	if err != nil {
		return err
	}
	if err := s.local.SetSyncSetting(ctx, settingProposals, b); err != nil {
		return err
	}
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	clear(s.noted)
	for _, w := range ps {
		s.noted[w.PK] = true
	}
	maps.DeleteFunc(s.placedBy, func(pk, _ string) bool { return !s.noted[pk] })
	return nil
}

// sawClaim notes that a claim in the log (written by this Syncer, or read)
// names proposal pk/sk, when pk is one of this device's proposals: that
// proposal placed the run whose first entry pk names.
func (s *Syncer) sawClaim(pk, sk string) {
	s.claimsMu.Lock()
	defer s.claimsMu.Unlock()
	if s.noted[pk] {
		s.placedBy[pk] = sk
	}
}

// dropProposals removes from the cloud the proposals this device wrote
// whose runs the log holds through another proposal's claim: a run that
// grew before its claim won (the longer run was proposed again), a run a
// copy of this database claimed first, the proposal of a cycle that
// stopped before its claim. A proposal is removed only when its run's
// first entry is no longer pending here and a claim that this Syncer wrote
// or read names another proposal of that entry: the log holds each event
// once, so no claim can name the one removed, and a proposal a claim names
// is never removed. A proposal whose run was placed otherwise (a segment, a
// claim this Syncer did not see) is forgotten and left in the cloud, where
// verify --cloud counts it. A removal that fails is tried again next cycle.
func (s *Syncer) dropProposals(ctx context.Context, c *Cloud, pending int) error {
	ps, err := s.proposalsWritten(ctx)
	if err != nil || len(ps) == 0 {
		return err
	}
	waiting := map[string]bool{}
	if pending > 0 {
		evs, err := s.local.Pending(ctx, 0)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			waiting[ev.ID] = true
		}
	}
	s.claimsMu.Lock()
	placedBy := maps.Clone(s.placedBy)
	s.claimsMu.Unlock()
	var keep []writtenProposal
	for _, w := range ps {
		if waiting[w.First] {
			keep = append(keep, w)
			continue
		}
		if by, seen := placedBy[w.PK]; seen && by != w.SK {
			if err := c.dropProposal(ctx, w.PK, w.SK); err != nil {
				if ctx.Err() != nil {
					return err
				}
				keep = append(keep, w)
				continue
			}
			s.step("proposal-dropped")
		}
	}
	if len(keep) == len(ps) {
		return nil // nothing settled: the list stands
	}
	return s.saveProposals(ctx, keep)
}

// dropProposal deletes proposal pk/sk from the log table.
func (c *Cloud) dropProposal(ctx context.Context, pk, sk string) error {
	_, err := c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(c.tables.Log),
		Key:       map[string]types.AttributeValue{attrPK: str(pk), attrSK: str(sk)},
	})
	if err != nil {
		return c.classify(ctx, "remove a proposal no claim names from the cloud log", err)
	}
	return nil
}

// unclaimedProposals counts the proposals in the log table whose keys are
// not in claimed: runs written by devices that stopped between a proposal
// and its claim, or whose run grew before they claimed it (they proposed
// the longer run), or whose claim is being raced for right now. Nothing
// reads them; they take storage. It scans the table.
func (c *Cloud) unclaimedProposals(ctx context.Context, claimed map[string]bool) (int, error) {
	n := 0
	var start map[string]types.AttributeValue
	for {
		out, err := c.db.Scan(ctx, &dynamodb.ScanInput{
			TableName:                 aws.String(c.tables.Log),
			FilterExpression:          aws.String("begins_with(PK, :p)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": str(proposalPrefix)},
			ProjectionExpression:      aws.String("PK, SK"),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			return n, c.classify(ctx, "read the cloud log", err)
		}
		for _, it := range out.Items {
			if !claimed[getStr(it, attrPK)+"/"+getStr(it, attrSK)] {
				n++
			}
		}
		if out.LastEvaluatedKey == nil {
			return n, nil
		}
		start = out.LastEvaluatedKey
	}
}
