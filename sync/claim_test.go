package cloudsync_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
	cloudsync "votedesk/sync"
)

func attrS(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// claimsIn returns the claims of every shard of the cloud log.
func claimsIn(t *testing.T, prefix string) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	var start map[string]types.AttributeValue
	for {
		page, err := rawClient().Scan(context.Background(), &dynamodb.ScanInput{
			TableName:         aws.String(cloudsync.TablesFor(prefix).Log),
			FilterExpression:  aws.String("attribute_exists(proposal_pk)"),
			ConsistentRead:    aws.Bool(true),
			ExclusiveStartKey: start,
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
		if page.LastEvaluatedKey == nil {
			return out
		}
		start = page.LastEvaluatedKey
	}
}

// proposalOf reads the proposal a claim names.
func proposalOf(t *testing.T, prefix string, claim map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	out, err := rawClient().GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(cloudsync.TablesFor(prefix).Log),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: attrS(claim, "proposal_pk")},
			"SK": &types.AttributeValueMemberS{Value: attrS(claim, "proposal_sk")},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil || out.Item == nil {
		t.Fatalf("the proposal of a claim: %v (found: %v)", err, out != nil && out.Item != nil)
	}
	return out.Item
}

// proposalLines returns a proposal's JSON lines.
func proposalLines(t *testing.T, p map[string]types.AttributeValue) []string {
	t.Helper()
	if s := attrS(p, "events"); s != "" {
		return strings.Split(s, "\n")
	}
	b, ok := p["events_gz"].(*types.AttributeValueMemberB)
	if !ok {
		t.Fatal("a proposal holds no events")
	}
	zr, err := gzip.NewReader(bytes.NewReader(b.Value))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(raw), "\n")
}

// putProposalLines replaces a proposal's events with lines.
func putProposalLines(t *testing.T, prefix string, p map[string]types.AttributeValue, lines []string) {
	t.Helper()
	item := map[string]types.AttributeValue{}
	for k, v := range p {
		if k != "events" && k != "events_gz" {
			item[k] = v
		}
	}
	item["events"] = &types.AttributeValueMemberS{Value: strings.Join(lines, "\n")}
	if _, err := rawClient().PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(cloudsync.TablesFor(prefix).Log), Item: item,
	}); err != nil {
		t.Fatal(err)
	}
}

// TestClaimedAppends: a device with many ballots to push writes them once
// as a proposal under a key of their own and races for the log's place with
// a small claim; the claim holds no events, and a device that pulls it
// reads the proposal's events at the claim's place. Both devices and the
// cloud hold every event once, in one order, and verify --cloud passes.
func TestClaimedAppends(t *testing.T) {
	prefix := newPrefix(t)
	a := newDevice(t, "A", prefix, 0, nil)
	b := newDevice(t, "B", prefix, time.Minute, nil)
	seed(a, 200)
	a.sync()
	b.sync()
	castMayor(a, "ann", 1, 60)
	castMayor(b, "ben", 100, 160)
	pendingA, _ := a.store.Pending(a.ctx, 0)
	pendingB, _ := b.store.Pending(b.ctx, 0)
	a.sync()
	b.sync() // loses the place A took, and claims the next
	a.sync()
	claims := claimsIn(t, prefix)
	if len(claims) < 2 {
		t.Fatalf("the cloud log holds %d claims, want one for each device's push of 60 ballots", len(claims))
	}
	pushes := 0
	for _, cl := range claims {
		if cl["events"] != nil || cl["events_gz"] != nil {
			t.Errorf("claim at %s holds events", attrS(cl, "SK"))
		}
		if !strings.HasPrefix(attrS(cl, "proposal_pk"), "PROPOSAL#") {
			t.Errorf("claim at %s names proposal %q", attrS(cl, "SK"), attrS(cl, "proposal_pk"))
		}
		if n := len(proposalLines(t, proposalOf(t, prefix, cl))); n >= 60 {
			pushes++
		}
	}
	if pushes != 2 {
		t.Errorf("%d claims name a proposal of 60 ballots or more, want one for each device's push", pushes)
	}
	log := converged(t, connect(t, prefix, nil), a, b)
	everyEventOnce(t, log, pendingA)
	everyEventOnce(t, log, pendingB)
	checkBallotsOnce(t, log, 121)
	rep, err := b.syncer.VerifyCloud(b.ctx)
	b.must(err)
	if len(rep.Problems) > 0 || strings.Contains(strings.Join(rep.Notes, " "), "proposal") {
		t.Errorf("verify --cloud: problems %v, notes %v", rep.Problems, rep.Notes)
	}

	// A device that wrote a proposal and stopped before its claim leaves
	// it unread: verify --cloud counts it, and nothing else changes.
	stray := proposalOf(t, prefix, claims[0])
	stray["SK"] = &types.AttributeValueMemberS{Value: strings.Repeat("0", 64)}
	if _, err := rawClient().PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(cloudsync.TablesFor(prefix).Log), Item: stray,
	}); err != nil {
		t.Fatal(err)
	}
	rep, err = a.syncer.VerifyCloud(a.ctx)
	a.must(err)
	if len(rep.Problems) > 0 || !slices.ContainsFunc(rep.Notes, func(n string) bool {
		return strings.HasPrefix(n, "1 proposal(s) in the cloud log table that no claim names")
	}) {
		t.Errorf("verify --cloud with a proposal no claim names: problems %v, notes %v", rep.Problems, rep.Notes)
	}
}

// TestTamperedProposalRefused: a proposal changed after its claim was
// written (a ballot dropped, a ballot swapped for one of another
// proposal's, a ballot's rankings edited), or gone, stops a device's pull
// at the claim's place with a message naming it, and changes nothing on
// the device; verify --cloud names it too.
func TestTamperedProposalRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string
		edit func(lines []string) []string
		at   uint64 // the event named, after the claim's first
	}{
		{"BallotDropped", "says it ends at", func(l []string) []string { return append(l[:3:3], l[4:]...) }, 0},
		{"BallotsSwapped", "holds place 5 where 4 belongs", func(l []string) []string {
			l[3], l[4] = l[4], l[3]
			return l
		}, 0},
		// Swapped and chained again, as the proposal's own places would
		// be: every event is whole and in place, but the run is not the
		// one the claim names.
		{"BallotsSwappedAndChained", "does not hold the events the claim names", func(l []string) []string {
			l[3], l[4] = l[4], l[3]
			return rechained(t, l)
		}, 0},
		{"BallotDroppedAndChained", "says it ends at", func(l []string) []string {
			return rechained(t, append(l[:3:3], l[4:]...))
		}, 0},
		{"RankingEdited", "changed after it was written", func(l []string) []string {
			l[5] = strings.Replace(l[5], "Kiss", "Wright", 1)
			return l
		}, 5},
		{"Gone", "claims a proposal", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The ballots stay in the global shard, whose places are the
			// merged log's.
			t.Setenv(envShardFrom, fmt.Sprint(1<<30))
			prefix := newPrefix(t)
			a := newDevice(t, "A", prefix, 0, nil)
			b := newDevice(t, "B", prefix, time.Minute, nil)
			seed(a, 100)
			a.sync()
			b.sync()
			head, _, _ := b.head()
			known := len(claimsIn(t, prefix))
			castMayor(a, "ann", 1, 40)
			a.sync()
			claims := claimsIn(t, prefix)
			if len(claims) != known+1 {
				t.Fatalf("%d claims after the push of 40 ballots, want %d", len(claims), known+1)
			}
			var claim map[string]types.AttributeValue
			for _, cl := range claims {
				if attrS(cl, "SK") == fmt.Sprintf("%020d", head+1) {
					claim = cl
				}
			}
			if claim == nil {
				t.Fatalf("no claim at %d, after the head B pulled", head+1)
			}
			p := proposalOf(t, prefix, claim)
			if tc.edit == nil {
				_, err := rawClient().DeleteItem(context.Background(), &dynamodb.DeleteItemInput{
					TableName: aws.String(cloudsync.TablesFor(prefix).Log),
					Key:       map[string]types.AttributeValue{"PK": p["PK"], "SK": p["SK"]},
				})
				b.must(err)
			} else {
				putProposalLines(t, prefix, p, tc.edit(proposalLines(t, p)))
			}
			castMayor(b, "ben", 60, 62)
			before := b.stateHash()
			bc, bh, bp := b.head()
			_, err := b.syncer.Sync(b.ctx, nil)
			if err == nil {
				t.Fatal("sync took a tampered proposal")
			}
			msg := app.ErrorMessage(err)
			if !strings.Contains(msg, fmt.Sprint(head+1+tc.at)) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q; want it to name %d and say %q", msg, head+1+tc.at, tc.want)
			}
			if b.stateHash() != before {
				t.Error("the projection changed")
			}
			if c, h, p := b.head(); c != bc || h != bh || p != bp {
				t.Errorf("log head moved: confirmed %d->%d, pending %d->%d", bc, c, bp, p)
			}
			rep, err := a.syncer.VerifyCloud(a.ctx)
			found := strings.Join(rep.Problems, " ")
			if err != nil {
				found += app.ErrorMessage(err)
			}
			if !strings.Contains(found, tc.want) {
				t.Errorf("verify --cloud found %q; want %q", found, tc.want)
			}
		})
	}
}

// rechained places the events of lines at 1, 2, ... chained from "", as a
// proposal holds them.
func rechained(t *testing.T, lines []string) []string {
	t.Helper()
	prev := ""
	out := make([]string, len(lines))
	for i, l := range lines {
		ev, err := app.DecodeEvent([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq = uint64(i) + 1
		ev.Chain(prev)
		prev = ev.Hash
		b, err := app.EncodeEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// proposalsUnder returns the sort keys of the proposals stored under pk.
func proposalsUnder(t *testing.T, prefix, pk string) []string {
	t.Helper()
	out, err := rawClient().Query(context.Background(), &dynamodb.QueryInput{
		TableName:                 aws.String(cloudsync.TablesFor(prefix).Log),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
		ConsistentRead:            aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	var sks []string
	for _, it := range out.Items {
		sks = append(sks, attrS(it, "SK"))
	}
	return sks
}

// claimedSK returns the sort key of the proposal under pk that a claim
// of the log names ("" when none does).
func claimedSK(t *testing.T, prefix, pk string) string {
	t.Helper()
	sk := ""
	for _, cl := range claimsIn(t, prefix) {
		if attrS(cl, "proposal_pk") == pk {
			if sk != "" {
				t.Fatalf("two claims name proposals under %s", pk)
			}
			sk = attrS(cl, "proposal_sk")
		}
	}
	return sk
}

// proposeAndStop runs one sync cycle of d that stops right after writing
// its proposal, before the claim.
func proposeAndStop(t *testing.T, d *device) {
	t.Helper()
	ctx, cancel := context.WithCancel(d.ctx)
	defer cancel()
	d.syncer.Step = func(step string) {
		if step == "proposed" {
			cancel()
		}
	}
	defer func() { d.syncer.Step = nil }()
	if _, err := d.syncer.Sync(ctx, nil); err == nil {
		t.Fatalf("%s: the sync stopped after its proposal reported no error", d.name)
	}
}

// TestUnclaimedProposalsDropped: a device removes the proposals it wrote
// that no claim names once a claim of another proposal placed their run:
// a run that grew after a cycle stopped between proposal and claim, and a
// run a copy of the database claimed first. The proposal the claim names
// stays, every device reads the log, and verify --cloud finds no proposal
// left over.
func TestUnclaimedProposalsDropped(t *testing.T) {
	t.Run("RunGrew", func(t *testing.T) {
		prefix, a, pk := withLargeRun(t)
		proposeAndStop(t, a)
		stopped := proposalsUnder(t, prefix, pk)
		if len(stopped) != 1 || claimedSK(t, prefix, pk) != "" {
			t.Fatalf("after a cycle stopped between proposal and claim: proposals %v, claimed %q", stopped, claimedSK(t, prefix, pk))
		}
		a.close()
		a.reopen(prefix)            // a new process, as each `votedesk sync` is
		castMayor(a, "ann", 61, 80) // the run grows: proposed again, longer
		all, _ := a.store.Pending(a.ctx, 0)
		a.sync()
		claimed := claimedSK(t, prefix, pk)
		if left := proposalsUnder(t, prefix, pk); claimed == "" || claimed == stopped[0] || !slices.Equal(left, []string{claimed}) {
			t.Errorf("after the longer run's claim: proposals %v, the claim names %q, the stopped cycle's was %s", left, claimed, stopped[0])
		}
		b := newDevice(t, "B", prefix, time.Minute, nil)
		b.sync()
		log := converged(t, connect(t, prefix, nil), a, b)
		everyEventOnce(t, log, all)
		checkBallotsOnce(t, log, 80)
		noStrayProposals(t, a)
	})
	t.Run("CopyClaimedFirst", func(t *testing.T) {
		prefix, a, pk := withLargeRun(t)
		copied := copyDevice(t, a, "A2", prefix) // holds ballots 1 to 60 pending too
		castMayor(a, "ann", 61, 80)
		all, _ := a.store.Pending(a.ctx, 0)
		proposeAndStop(t, a) // proposes ballots 1 to 80
		a.close()
		a.reopen(prefix) // a new process, as each `votedesk sync` is
		mine := proposalsUnder(t, prefix, pk)
		copied.sync() // proposes and claims ballots 1 to 60
		claimed := claimedSK(t, prefix, pk)
		if len(mine) != 1 || claimed == "" || claimed == mine[0] {
			t.Fatalf("A proposed %v, the copy's claim names %q", mine, claimed)
		}
		a.sync() // finds 1 to 60 in the log, pushes 61 to 80
		if left := proposalsUnder(t, prefix, pk); !slices.Equal(left, []string{claimed}) {
			t.Errorf("after A's sync: proposals %v under %s, want only the one the copy's claim names, %s", left, pk, claimed)
		}
		b := newDevice(t, "B", prefix, time.Minute, nil)
		b.sync()
		copied.sync()
		log := converged(t, connect(t, prefix, nil), a, copied, b)
		everyEventOnce(t, log, all)
		checkBallotsOnce(t, log, 80)
		noStrayProposals(t, b)
	})
}

// withLargeRun returns a device of a new deployment holding 60 ballots
// pending (a run large enough to be claimed), and the partition key of
// the proposals of that run.
func withLargeRun(t *testing.T) (prefix string, d *device, pk string) {
	t.Helper()
	prefix = newPrefix(t)
	d = newDevice(t, "A", prefix, 0, nil)
	seed(d, 200)
	d.sync()
	castMayor(d, "ann", 1, 60)
	pending, _ := d.store.Pending(d.ctx, 0)
	return prefix, d, "PROPOSAL#" + pending[0].ID
}

// noStrayProposals checks that verify --cloud finds the log sound and no
// proposal that no claim names.
func noStrayProposals(t *testing.T, d *device) {
	t.Helper()
	rep, err := d.syncer.VerifyCloud(d.ctx)
	d.must(err)
	if len(rep.Problems) > 0 || strings.Contains(strings.Join(rep.Notes, " "), "proposal") {
		t.Errorf("verify --cloud: problems %v, notes %v", rep.Problems, rep.Notes)
	}
}
