package cloudsync_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
)

// The scenarios of issue 18: databases deployed as officials deploy them
// (copied to kiosks, restored from backups), devices that lie, and a cloud
// that changes behind the log's back. In every one, every ballot a voter
// holds a receipt for is counted or listed for officials to decide.

// copyDevice copies a device's database to a new file, as an official
// copies a prepared database to a kiosk, and opens the copy as a device.
func copyDevice(t *testing.T, src *device, name, prefix string) *device {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	if _, err := src.store.Backup(src.ctx, path); err != nil {
		t.Fatal(err)
	}
	return openDevice(t, name, path, prefix)
}

// openDevice opens an existing database file as a device.
func openDevice(t *testing.T, name, path, prefix string) *device {
	t.Helper()
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d := &device{t: t, name: name, path: path, store: st, ctx: context.Background()}
	d.svc = app.NewService(st, apptest.NewClock(start.Add(time.Hour), time.Millisecond), nil)
	d.syncer = newTestSyncer(st, prefix, nil)
	return d
}

// receipt is a ballot a voter was told was recorded.
type receipt struct {
	voter, code string
}

// castAs casts voter's ballot on a device and returns its receipt.
func castAs(d *device, actor, election, voter string, names ...string) receipt {
	d.t.Helper()
	r := make([]app.Ranking, len(names))
	for i, n := range names {
		r[i] = app.Ranking{Candidate: n, Rank: i + 1}
	}
	rc, err := d.svc.CastBallot(d.ctx, actor, app.Cast{Election: election, Voter: voter, Rankings: r, Source: app.SourceKiosk})
	d.must(err)
	return receipt{voter: voter, code: rc.Confirmation}
}

// accounted checks on a device that every receipt is a counted ballot of
// the election or a conflict officials can decide, and returns how many are
// counted.
func accounted(t *testing.T, d *device, election string, receipts []receipt) int {
	t.Helper()
	ballots, err := d.svc.Ballots(d.ctx, "olga", election)
	d.must(err)
	counted := map[string]string{}
	for _, b := range ballots {
		counted[b.Confirmation] = b.Voter
	}
	conflicts, err := d.svc.Conflicts(d.ctx, "olga", election)
	d.must(err)
	listed := map[string]bool{}
	for _, c := range conflicts {
		listed[c.Confirmation] = true
		if c.SetAside != "" {
			listed[c.SetAside] = true
		}
	}
	n := 0
	for _, r := range receipts {
		switch voter, ok := counted[r.code]; {
		case ok && voter == r.voter:
			n++
		case listed[r.code]:
		default:
			t.Errorf("%s: the receipt %s of %s is neither counted nor listed for officials", d.name, r.code, r.voter)
		}
	}
	return n
}

// prepare is an official's laptop with olga (OWNER) and the launched
// election Mayor (voters v0001-v0040), synced to the cloud.
func prepare(t *testing.T, prefix string) *device {
	t.Helper()
	l := newDevice(t, "laptop", prefix, 0, nil)
	seed(l, 40)
	l.sync()
	return l
}

// laptopAndKiosk is a prepared laptop (prepare) and a kiosk made by
// copying its database file, both synced, under a new prefix.
func laptopAndKiosk(t *testing.T) (prefix string, laptop, kiosk *device) {
	t.Helper()
	prefix = newPrefix(t)
	laptop = prepare(t, prefix)
	kiosk = copyDevice(t, laptop, "kiosk", prefix)
	kiosk.sync()
	return prefix, laptop, kiosk
}

func TestClonedKiosksKeepEveryBallot(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	k1 := copyDevice(t, laptop, "kiosk1", prefix)
	k2 := copyDevice(t, laptop, "kiosk2", prefix)
	if k1.store.DeviceID() == k2.store.DeviceID() || k1.store.DeviceID() == laptop.store.DeviceID() {
		t.Fatalf("copies share a device id: laptop %s, kiosks %s and %s", laptop.store.DeviceID(), k1.store.DeviceID(), k2.store.DeviceID())
	}
	var receipts []receipt
	for i := 1; i <= 3; i++ {
		receipts = append(receipts, castAs(k1, "ann", "Mayor", fmt.Sprintf("v%04d", i), "Kiss"))
	}
	for i := 4; i <= 7; i++ {
		receipts = append(receipts, castAs(k2, "ben", "Mayor", fmt.Sprintf("v%04d", i), "Wright"))
	}
	k1.sync()
	k2.sync()
	laptop.sync()
	k1.sync()
	converged(t, connect(t, prefix, nil), laptop, k1, k2)
	for _, d := range []*device{laptop, k1, k2} {
		if n := accounted(t, d, "Mayor", receipts); n != 7 {
			t.Errorf("%s counts %d of the 7 receipted ballots", d.name, n)
		}
		e, err := d.svc.Election(d.ctx, "olga", "Mayor")
		d.must(err)
		if e.Ballots != 7 {
			t.Errorf("%s: Mayor holds %d ballots, want 7", d.name, e.Ballots)
		}
	}
	// The copies said who they are now.
	joined := 0
	for _, ev := range cloudLog(t, connect(t, prefix, nil)) {
		if ev.Type == app.EvDeviceJoined && strings.Contains(string(ev.Data), app.DeviceCopied) {
			joined++
		}
	}
	if joined != 2 {
		t.Errorf("%d device announcements of copies in the cloud log, want 2", joined)
	}
}

// TestRestoredBackupRewinds restores an older backup over a device's
// database in place (the same file: nothing about the file tells it was
// rewound), then casts and syncs: the cloud log holds this device's later
// events, so it takes a new identity before pushing, and no ballot is lost.
func TestRestoredBackupRewinds(t *testing.T) {
	prefix, laptop, kiosk := laptopAndKiosk(t)
	backup := filepath.Join(t.TempDir(), "kiosk-backup.db")
	if _, err := kiosk.store.Backup(kiosk.ctx, backup); err != nil {
		t.Fatal(err)
	}
	before := []receipt{castAs(kiosk, "ann", "Mayor", "v0001", "Kiss"), castAs(kiosk, "ann", "Mayor", "v0002", "Kiss")}
	kiosk.sync()
	oldID := kiosk.store.DeviceID()

	kiosk.close()
	raw, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kiosk.path, raw, 0o600); err != nil { // same file, same inode
		t.Fatal(err)
	}
	kiosk = openDevice(t, "kiosk", kiosk.path, prefix)
	if kiosk.store.DeviceID() != oldID {
		t.Fatalf("the rewound file changed identity before it could know (%s -> %s)", oldID, kiosk.store.DeviceID())
	}
	after := []receipt{castAs(kiosk, "ann", "Mayor", "v0003", "Wright"), castAs(kiosk, "ann", "Mayor", "v0004", "Wright")}
	kiosk.sync()
	if kiosk.store.DeviceID() == oldID {
		t.Error("the rewound device kept its identity after the cloud showed it its own later events")
	}
	laptop.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	all := append(before, after...)
	for _, d := range []*device{laptop, kiosk} {
		if n := accounted(t, d, "Mayor", all); n != 4 {
			t.Errorf("%s counts %d of the 4 receipted ballots", d.name, n)
		}
	}
	cs, err := laptop.svc.Conflicts(laptop.ctx, "olga", "")
	laptop.must(err)
	found := false
	for _, c := range cs {
		// Its new events took ids its older self had used: a collision,
		// or, had it made none, a rewind.
		found = found || c.Kind == "device_"+app.DeviceRewound || c.Kind == "device_"+app.DeviceCollision
	}
	if !found {
		t.Errorf("no conflict records the rewound device: %+v", cs)
	}
}

// forge appends an event to a device's log as if the device had made it,
// replays it there (the rules refuse it) and leaves it pending, so the
// device's next sync pushes it to the cloud.
func forge(d *device, ev *app.Event) {
	d.t.Helper()
	d.must(d.store.Update(d.ctx, func(tx app.Tx) error {
		if err := tx.AppendEvent(ev); err != nil {
			return err
		}
		_, err := app.Replay(tx, ev)
		return err
	}))
}

// TestHostileDeviceTakesIds: a device pushes events under another device's
// next ids. They are refused everywhere (the ids are not its own), and the
// other device's ballots are counted as cast.
func TestHostileDeviceTakesIds(t *testing.T) {
	prefix, laptop, kiosk := laptopAndKiosk(t)
	hostile := copyDevice(t, laptop, "hostile", prefix)
	hostile.sync()

	mayor, err := hostile.svc.Election(hostile.ctx, "olga", "Mayor")
	hostile.must(err)
	ann, err := hostile.svc.User(hostile.ctx, "olga", "ann")
	hostile.must(err)
	annKey, _ := app.DefaultKeyring.Key(ann.ID)
	_, attackerKey, _ := ed25519.GenerateKey(nil)
	for n := 1; n <= 3; n++ {
		ev, err := app.MakeEvent(app.EventSpec{Type: app.EvBallotCast, When: start.Add(3 * time.Hour), Actor: ann, ActorKey: annKey,
			Device: attackerKey, DeviceSeq: n,
			Data: map[string]any{"election": "Mayor", "election_id": mayor.ID, "voter": fmt.Sprintf("v%04d", 30+n),
				"confirmation": fmt.Sprintf("forged-%d", n), "rankings": [][]string{{"Montroll"}}, "source": "kiosk"}})
		hostile.must(err)
		// Give the forged event the kiosk's next id; the device signature
		// cannot follow.
		ev.ID = fmt.Sprintf("%s-%010d", kiosk.store.DeviceID(), 1+n)
		forge(hostile, ev)
	}
	hostile.sync()

	receipts := []receipt{castAs(kiosk, "ann", "Mayor", "v0001", "Kiss"), castAs(kiosk, "ann", "Mayor", "v0002", "Kiss")}
	kiosk.sync()
	laptop.sync()
	hostile.sync()
	for _, d := range []*device{laptop, kiosk, hostile} {
		if n := accounted(t, d, "Mayor", receipts); n != 2 {
			t.Errorf("%s counts %d of the kiosk's 2 ballots", d.name, n)
		}
		ballots, err := d.svc.Ballots(d.ctx, "olga", "Mayor")
		d.must(err)
		for _, b := range ballots {
			if strings.HasPrefix(b.Confirmation, "forged-") {
				t.Errorf("%s counts the forged ballot %s", d.name, b.Confirmation)
			}
		}
		rs, err := d.svc.Rejections(d.ctx, "olga")
		d.must(err)
		refused := 0
		for _, r := range rs {
			if strings.Contains(r.Reason, "signed by device") {
				refused++
			}
		}
		if refused != 3 {
			t.Errorf("%s refused %d forged events, want 3: %+v", d.name, refused, rs)
		}
	}
	if h := laptop.stateHash(); h != kiosk.stateHash() || h != hostile.stateHash() {
		t.Error("the devices do not agree after the forgery")
	}
}

// TestForgedActor: a device with table credentials adds events in the name
// of the OWNER without the OWNER's key, and an unsigned event after the log
// became signed. Every device refuses them.
func TestForgedActor(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	thief := copyDevice(t, laptop, "stolen-kiosk", prefix)
	thief.sync()
	olga, err := thief.svc.User(thief.ctx, "olga", "olga")
	thief.must(err)
	ben, err := thief.svc.User(thief.ctx, "olga", "ben")
	thief.must(err)
	_, fakeOwnerKey, _ := ed25519.GenerateKey(nil)
	_, thiefDevice, _ := ed25519.GenerateKey(nil)
	grant, err := app.MakeEvent(app.EventSpec{Type: app.EvUserRoleChanged, When: start.Add(3 * time.Hour), Actor: olga, ActorKey: fakeOwnerKey,
		Device: thiefDevice, DeviceSeq: 1, Data: map[string]any{"name": "ben", "user_id": ben.ID, "role": "AUDITOR"}})
	thief.must(err)
	forge(thief, grant)
	unsigned := &app.Event{ID: "0123456789abcdef-0000000001", When: start.Add(3 * time.Hour), Actor: "olga", Type: app.EvUserRoleChanged,
		Data: json.RawMessage(`{"name":"ben","role":"AUDITOR"}`)}
	forge(thief, unsigned)
	thief.sync()
	laptop.sync()
	for _, d := range []*device{laptop, thief} {
		u, err := d.svc.User(d.ctx, "olga", "ben")
		d.must(err)
		if u.Role != app.RoleUser {
			t.Errorf("%s: ben is %s after forged grants", d.name, u.Role)
		}
		rs, err := d.svc.Rejections(d.ctx, "olga")
		d.must(err)
		var reasons []string
		for _, r := range rs {
			reasons = append(reasons, r.Reason)
		}
		joined := strings.Join(reasons, "\n")
		if !strings.Contains(joined, "not olga's") || !strings.Contains(joined, "unsigned") {
			t.Errorf("%s: rejections do not name the forgeries:\n%s", d.name, joined)
		}
	}
}

// TestSameNameElectionsOffline: two devices create an election of one name
// offline, one of them secret with ballots. Neither merges into the other:
// the second is kept apart under a provisional name, a secret election
// stays secret, and officials rename it.
func TestSameNameElectionsOffline(t *testing.T) {
	prefix := newPrefix(t)
	a := prepare(t, prefix)
	c := copyDevice(t, a, "C", prefix)
	a.must(a.svc.CreateElection(a.ctx, "ann", "Board", "", false))
	a.must(a.svc.AddCandidates(a.ctx, "ann", "Board", "Pat", "Quinn"))
	c.must(c.svc.CreateElection(c.ctx, "ben", "Board", "", true))
	c.must(c.svc.AddCandidates(c.ctx, "ben", "Board", "Rosa", "Sam"))
	c.must(c.svc.AddVoters(c.ctx, "ben", "Board", app.VoterEntry{Name: "b1"}))
	c.must(c.svc.LaunchElection(c.ctx, "ben", "Board"))
	rc := castAs(c, "ben", "Board", "b1", "Rosa", "Sam")
	a.sync()
	c.sync()
	a.sync()
	converged(t, connect(t, prefix, nil), a, c)

	for _, d := range []*device{a, c} {
		board, err := d.svc.Election(d.ctx, "ann", "Board")
		d.must(err)
		if board.Secret || board.Candidates != 2 || board.Status != app.StatusDraft {
			t.Errorf("%s: Board is %+v, want ann's draft with Pat and Quinn", d.name, board)
		}
		var kept app.Election
		es, err := d.svc.Elections(d.ctx, "ann")
		d.must(err)
		for _, e := range es {
			if strings.HasPrefix(e.Name, "Board (") {
				kept = e
			}
		}
		if !kept.Secret || kept.Status != app.StatusLaunched || kept.Ballots != 1 || kept.Conflicts != 1 {
			t.Fatalf("%s: the second Board is %+v, want ben's secret election kept apart with its ballot and a conflict", d.name, kept)
		}
		if _, err := d.svc.Ballots(d.ctx, "ann", kept.Name); !app.IsCode(err, app.CodeForbidden) {
			t.Errorf("%s: a USER lists the ballots of the open secret election: %v", d.name, err)
		}
		cs, err := d.svc.Conflicts(d.ctx, "ann", kept.Name)
		d.must(err)
		if len(cs) != 1 || cs[0].Kind != "name_collision" || !strings.Contains(cs[0].Detail, "Board") {
			t.Errorf("%s: conflicts of %s: %+v", d.name, kept.Name, cs)
		}
	}
	kept := ""
	es, _ := c.svc.Elections(c.ctx, "ben")
	for _, e := range es {
		if strings.HasPrefix(e.Name, "Board (") {
			kept = e.Name
		}
	}
	c.must(c.svc.RenameElection(c.ctx, "ben", kept, "Board of Health"))
	c.sync()
	a.sync()
	converged(t, connect(t, prefix, nil), a, c)
	e, err := a.svc.Election(a.ctx, "ben", "Board of Health")
	a.must(err)
	if e.Conflicts != 0 || e.Ballots != 1 || !e.Secret {
		t.Errorf("after the rename: %+v", e)
	}
	if n := accounted(t, a, "Board of Health", []receipt{rc}); n != 1 {
		t.Error("the receipted ballot of the renamed election is not counted")
	}
}

// mergeTwins syncs devices a and c, which each made election name offline,
// has ann accept the name collision on a (merging the later one, given a
// provisional name, into the first), syncs both again, checks they
// converged, and returns the provisional name.
func mergeTwins(t *testing.T, prefix string, a, c *device, name string) string {
	t.Helper()
	a.sync()
	c.sync()
	a.sync()
	es, err := a.svc.Elections(a.ctx, "ann")
	a.must(err)
	kept := ""
	for _, e := range es {
		if strings.HasPrefix(e.Name, name+" (") {
			kept = e.Name
		}
	}
	cs, err := a.svc.Conflicts(a.ctx, "ann", kept)
	a.must(err)
	if len(cs) != 1 {
		t.Fatalf("conflicts of %q: %+v", kept, cs)
	}
	a.must(a.svc.ResolveConflict(a.ctx, "ann", kept, cs[0].Seq, true, "the same levy, made on two laptops"))
	a.sync()
	c.sync()
	converged(t, connect(t, prefix, nil), a, c)
	return kept
}

// twinLevies is a prepared laptop a and a copy c of it, on each of which
// an official made and launched the same secret election, Levy 2, offline:
// candidates Yes and No, voters p{device name} and voters.
func twinLevies(t *testing.T, voters ...string) (prefix string, a, c *device) {
	t.Helper()
	prefix = newPrefix(t)
	a = prepare(t, prefix)
	c = copyDevice(t, a, "C", prefix)
	for _, d := range []*device{a, c} {
		entries := []app.VoterEntry{{Name: "p" + d.name}}
		for _, v := range voters {
			entries = append(entries, app.VoterEntry{Name: v})
		}
		d.must(d.svc.CreateElection(d.ctx, "ann", "Levy 2", "", true))
		d.must(d.svc.AddCandidates(d.ctx, "ann", "Levy 2", "Yes", "No"))
		d.must(d.svc.AddVoters(d.ctx, "ann", "Levy 2", entries...))
		d.must(d.svc.LaunchElection(d.ctx, "ann", "Levy 2"))
	}
	return prefix, a, c
}

// TestSameElectionMadeTwiceMerges: two officials make the same election
// (same candidates, same secrecy) offline; accepting the name collision
// merges them, and a voter who voted in both becomes a duplicate to decide.
func TestSameElectionMadeTwiceMerges(t *testing.T) {
	prefix, a, c := twinLevies(t, "p1", "p2")
	var receipts []receipt
	for _, d := range []*device{a, c} {
		receipts = append(receipts, castAs(d, "ann", "Levy 2", "p1", "Yes"), castAs(d, "ann", "Levy 2", "p"+d.name, "No"))
	}
	// C's Levy 2 also holds imported ballots (a chunk), which move with it.
	_, err := c.svc.ImportBallots(c.ctx, "ann", "Levy 2", "cvr", []app.ImportedBallot{
		{SourceID: "r1", Rankings: []app.Ranking{{Candidate: "Yes", Rank: 1}}},
		{SourceID: "r2", Rankings: []app.Ranking{{Candidate: "No", Rank: 1}}},
	}, nil)
	c.must(err)
	// What each device's kiosk holds: its own Levy 2, by id.
	ids := map[*device]string{}
	for _, d := range []*device{a, c} {
		e, err := d.svc.Election(d.ctx, "ann", "Levy 2")
		d.must(err)
		ids[d] = e.ID
	}
	kept := mergeTwins(t, prefix, a, c, "Levy 2")
	merged := 0
	for d, id := range ids {
		_, err := d.svc.Election(app.ForElection(d.ctx, "Levy 2", id), "ann", "Levy 2")
		switch {
		case err == nil:
		case errors.Is(err, app.ErrElectionGone) && strings.Contains(app.ErrorMessage(err), `merged into "Levy 2"`):
			merged++
		default:
			t.Errorf("%s: its Levy 2, held by id after the merge: %v", d.name, err)
		}
	}
	if merged != 1 {
		t.Errorf("%d of the two Levy 2 were found merged, want 1", merged)
	}
	for _, d := range []*device{a, c} {
		e, err := d.svc.Election(d.ctx, "olga", "Levy 2")
		d.must(err)
		if e.Ballots != 5 || e.Voters != 4 || !e.Secret {
			t.Errorf("%s: merged Levy 2 = %+v, want 5 ballots (p1 once, two imported) and 4 voters", d.name, e)
		}
		r, err := d.store.Verify(d.ctx)
		d.must(err)
		if !r.OK() {
			t.Errorf("%s: verify after the merge: %v", d.name, r.Problems)
		}
		accounted(t, d, "Levy 2", receipts)
		if _, err := d.svc.Election(d.ctx, "olga", kept); !app.IsCode(err, app.CodeNotFound) {
			t.Errorf("%s: %s still exists after the merge: %v", d.name, kept, err)
		}
	}
}

// TestBallotForAMergedElectionJoinsIt: C's kiosk takes a ballot offline in
// C's Levy 2 after A has merged that election into its own Levy 2 and
// before C hears of it. The ballot names its election by id, and an id
// follows its election into the one it joined: the ballot is counted
// there, on every device, not refused as cast in an election that no
// longer exists.
func TestBallotForAMergedElectionJoinsIt(t *testing.T) {
	prefix, a, c := twinLevies(t, "late")
	var receipts []receipt
	for _, d := range []*device{a, c} {
		receipts = append(receipts, castAs(d, "ann", "Levy 2", "p"+d.name, "Yes"))
	}
	a.sync()
	c.sync() // C's Levy 2 takes a provisional name: A's was in the log first
	a.sync()
	es, err := c.svc.Elections(c.ctx, "ann")
	c.must(err)
	var twin app.Election
	for _, e := range es {
		if strings.HasPrefix(e.Name, "Levy 2 (") {
			twin = e
		}
	}
	cs, err := a.svc.Conflicts(a.ctx, "ann", twin.Name)
	a.must(err)
	if len(cs) != 1 {
		t.Fatalf("conflicts of %q: %+v", twin.Name, cs)
	}
	a.must(a.svc.ResolveConflict(a.ctx, "ann", twin.Name, cs[0].Seq, true, "the same levy, made on two laptops"))
	a.sync()
	// C has not synced since: its kiosk casts into its Levy 2, by id.
	rc, err := c.svc.CastBallot(app.ForElection(c.ctx, twin.Name, twin.ID), "ann", app.Cast{Election: twin.Name, Voter: "late",
		Rankings: []app.Ranking{{Candidate: "No", Rank: 1}}, Source: app.SourceKiosk})
	c.must(err)
	receipts = append(receipts, receipt{voter: "late", code: rc.Confirmation})
	c.sync()
	a.sync()
	converged(t, connect(t, prefix, nil), a, c)
	for _, d := range []*device{a, c} {
		if n := accounted(t, d, "Levy 2", receipts); n != len(receipts) {
			t.Errorf("%s: %d of the %d receipted ballots are counted in the merged Levy 2", d.name, n, len(receipts))
		}
	}
}

// TestReceiptForADeletedElectionIsKept: a kiosk takes a ballot offline in
// Levy (secret) while a laptop, which sees no ballots in it, deletes the
// election and syncs first. The ballot cannot be counted where it lands,
// but its receipt is not lost: every device lists it for officials,
// outside any election, with its code and ranking for those who may see a
// secret election's links and without them for a USER, and an ADMIN
// acknowledges it.
func TestReceiptForADeletedElectionIsKept(t *testing.T) {
	prefix, laptop, kiosk := laptopAndKiosk(t)
	rc := castAs(kiosk, "ann", "Levy", "l001", "Yes")
	laptop.must(laptop.svc.DeleteElection(laptop.ctx, "olga", "Levy"))
	laptop.sync()
	kiosk.sync()
	laptop.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	var seq uint64
	for _, d := range []*device{laptop, kiosk} {
		cs, err := d.svc.Conflicts(d.ctx, "olga", "")
		d.must(err)
		var kept *app.Conflict
		for i, c := range cs {
			if c.Confirmation == rc.code {
				kept = &cs[i]
			}
		}
		switch {
		case kept == nil:
			t.Errorf("%s: the receipt %s of a ballot whose election was deleted is not listed: %+v", d.name, rc.code, cs)
		case kept.Election != "" || kept.Kind != "refused_ballot" || kept.Voter != "l001" || len(kept.Rankings) != 1 ||
			kept.Rankings[0].Candidate != "Yes" || !strings.Contains(kept.Detail, `election "Levy"`):
			t.Errorf("%s: the receipt is listed as %+v", d.name, *kept)
		default:
			seq = kept.Seq
		}
		low, err := d.svc.Conflicts(d.ctx, "ann", "")
		d.must(err)
		for _, c := range low {
			if c.Kind == "refused_ballot" && (c.Confirmation != "" || len(c.Rankings) != 0) {
				t.Errorf("%s: a USER reads the code or ranking of a secret election's ballot: %+v", d.name, c)
			}
		}
	}
	laptop.must(laptop.svc.ResolveConflict(laptop.ctx, "olga", "", seq, false, "Levy was deleted: a test election"))
	laptop.sync()
	kiosk.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	cs, err := kiosk.svc.Conflicts(kiosk.ctx, "olga", "")
	kiosk.must(err)
	for _, c := range cs {
		if c.Confirmation == rc.code && !c.Resolved {
			t.Errorf("the acknowledgement did not reach the kiosk: %+v", c)
		}
	}
}

// TestReceiptAfterItsOfficialLostTheRole: a kiosk takes a ballot offline
// in ann's name while the OWNER, on a laptop, takes ann's role away and
// syncs first. The ballot is refused where it lands (ann may no longer
// cast), on every device alike, but its voter holds a receipt: it is kept
// for officials, and counted once one accepts it.
func TestReceiptAfterItsOfficialLostTheRole(t *testing.T) {
	prefix, laptop, kiosk := laptopAndKiosk(t)
	rc := castAs(kiosk, "ann", "Mayor", "v0001", "Kiss")
	laptop.must(laptop.svc.SetRole(laptop.ctx, "olga", "ann", app.RoleObserver))
	laptop.sync()
	kiosk.sync()
	laptop.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	cs, err := laptop.svc.Conflicts(laptop.ctx, "olga", "Mayor")
	laptop.must(err)
	if len(cs) != 1 || cs[0].Kind != "refused_ballot" || cs[0].Confirmation != rc.code || !strings.Contains(cs[0].Detail, "role") {
		t.Fatalf("conflicts = %+v, want ann's refused ballot with its receipt", cs)
	}
	if n := accounted(t, laptop, "Mayor", []receipt{rc}); n != 0 {
		t.Errorf("a ballot cast by an official whose role was taken earlier in the log is counted")
	}
	countAccepted(t, prefix, laptop, kiosk, cs[0], rc, "the kiosk was offline; the voter is in the poll book")
}

// countAccepted has an official on laptop accept refused ballot c, syncs
// laptop and kiosk, and checks that both count its receipt rc.
func countAccepted(t *testing.T, prefix string, laptop, kiosk *device, c app.Conflict, rc receipt, why string) {
	t.Helper()
	laptop.must(laptop.svc.ResolveConflict(laptop.ctx, "olga", c.Election, c.Seq, true, why))
	laptop.sync()
	kiosk.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	for _, d := range []*device{laptop, kiosk} {
		if n := accounted(t, d, c.Election, []receipt{rc}); n != 1 {
			t.Errorf("%s: the accepted ballot is not counted", d.name)
		}
	}
}

// TestReceiptAfterItsOfficialsKeyChanged: a kiosk, signed in as ann
// before it went offline, holds ann's signing key and takes a ballot in
// her name while a laptop changes ann's password (a new key) or removes
// her account, and syncs first. The kiosk's event is ann's, signed with a
// key she really had, so its ballot is not dropped as a forgery: it is
// kept for officials, and counted once one accepts it. A ballot in ann's
// name signed with a key she never had is still refused outright, and
// officials are not asked about it.
func TestReceiptAfterItsOfficialsKeyChanged(t *testing.T) {
	for _, change := range []string{"password", "removed"} {
		t.Run(change, func(t *testing.T) {
			prefix, laptop, kiosk := laptopAndKiosk(t)
			ann, err := laptop.svc.User(laptop.ctx, "olga", "ann")
			laptop.must(err)
			key, _ := app.DefaultKeyring.Key(ann.ID)
			own := &app.Keyring{}
			own.Add(ann.ID, key)
			kiosk.svc = app.NewService(kiosk.store, apptest.NewClock(start.Add(2*time.Hour), time.Millisecond), nil, app.WithKeyring(own))
			rc := castAs(kiosk, "ann", "Mayor", "v0001", "Kiss")
			mayor, err := kiosk.svc.Election(kiosk.ctx, "olga", "Mayor")
			kiosk.must(err)
			_, fakeKey, _ := ed25519.GenerateKey(nil)
			_, fakeDevice, _ := ed25519.GenerateKey(nil)
			forged, err := app.MakeEvent(app.EventSpec{Type: app.EvBallotCast, When: start.Add(3 * time.Hour), Actor: ann, ActorKey: fakeKey,
				Device: fakeDevice, DeviceSeq: 1, Data: map[string]any{"election": "Mayor", "election_id": mayor.ID, "voter": "v0002",
					"confirmation": "FAKE-FAKE-FAKE", "rankings": [][]string{{"Wright"}}, "source": "kiosk"}})
			kiosk.must(err)
			if change == "password" {
				laptop.must(laptop.svc.ChangePassword(laptop.ctx, "olga", "ann", "a-new-clerk-password"))
			} else {
				laptop.must(laptop.svc.RemoveUser(laptop.ctx, "olga", "ann"))
			}
			laptop.sync()
			kiosk.sync()
			forge(kiosk, forged)
			kiosk.sync()
			laptop.sync()
			converged(t, connect(t, prefix, nil), laptop, kiosk)
			cs, err := laptop.svc.Conflicts(laptop.ctx, "olga", "Mayor")
			laptop.must(err)
			if len(cs) != 1 || cs[0].Kind != "refused_ballot" || cs[0].Confirmation != rc.code {
				t.Fatalf("conflicts = %+v, want ann's refused ballot with its receipt, and nothing of the forgery", cs)
			}
			countAccepted(t, prefix, laptop, kiosk, cs[0], rc, "cast at the kiosk before the change")
		})
	}
}

// TestReceiptedBallotAfterFinalize: a kiosk takes a ballot offline while a
// laptop finalizes the election and syncs first. The ballot is refused
// where it lands, kept for officials with its receipt, and counted once an
// official accepts it.
func TestReceiptedBallotAfterFinalize(t *testing.T) {
	prefix, laptop, kiosk := laptopAndKiosk(t)
	rc := castAs(kiosk, "ann", "Levy", "l001", "Yes")
	laptop.must(laptop.svc.CloseElection(laptop.ctx, "olga", "Levy"))
	laptop.must(laptop.svc.FinalizeElection(laptop.ctx, "olga", "Levy"))
	laptop.sync()
	kiosk.sync()
	laptop.sync()

	cs, err := laptop.svc.Conflicts(laptop.ctx, "olga", "Levy")
	laptop.must(err)
	if len(cs) != 1 || cs[0].Kind != "refused_ballot" || cs[0].Confirmation != rc.code || cs[0].Voter != "l001" {
		t.Fatalf("conflicts = %+v, want the refused ballot of l001 with its receipt", cs)
	}
	low, err := laptop.svc.Conflicts(laptop.ctx, "ann", "Levy")
	laptop.must(err)
	if low[0].Confirmation != "" || len(low[0].Rankings) != 0 {
		t.Errorf("a USER sees the refused secret ballot's code or rankings: %+v", low[0])
	}
	laptop.must(laptop.svc.ResolveConflict(laptop.ctx, "olga", "Levy", cs[0].Seq, true, "cast before the close; the kiosk was offline"))
	laptop.sync()
	kiosk.sync()
	converged(t, connect(t, prefix, nil), laptop, kiosk)
	// Below AUDITOR the log's refused ballot and its resolution carry no
	// ranking and no code: Levy is secret.
	laptop.must(laptop.svc.Log(laptop.ctx, "ann", 1, func(ev *app.Event) error {
		switch ev.Type {
		case app.EvBallotCast, app.EvBallotRankingsChanged, app.EvConflictResolved:
			if shown := string(ev.Display()) + string(ev.Data); len(ev.Sealed) > 0 || strings.Contains(shown, rc.code) || strings.Contains(shown, `"Yes"`) {
				t.Errorf("a USER reads event %d (%s) with the ballot's ranking or code: %s", ev.Seq, ev.Type, shown)
			}
		}
		return nil
	}))
	for _, d := range []*device{laptop, kiosk} {
		if n := accounted(t, d, "Levy", []receipt{rc}); n != 1 {
			t.Errorf("%s: the accepted ballot is not counted", d.name)
		}
		cs, err := d.svc.Conflicts(d.ctx, "olga", "Levy")
		d.must(err)
		if !cs[0].Resolved || cs[0].ResolutionReason == "" {
			t.Errorf("%s: conflict after the decision: %+v", d.name, cs[0])
		}
	}
}

// TestEditsConflictOnlyOnSharedFields: offline edits of different settings
// of one election raise no conflict, in either order; edits of the same
// setting do.
func TestEditsConflictOnlyOnSharedFields(t *testing.T) {
	for _, first := range []string{"A", "B"} {
		t.Run("First"+first, func(t *testing.T) {
			prefix := newPrefix(t)
			a := prepare(t, prefix)
			b := copyDevice(t, a, "B", prefix)
			desc := "the city council, 2026"
			a.must(a.svc.UpdateElection(a.ctx, "olga", "Council", 0, app.ElectionChanges{Description: &desc}))
			b.must(b.svc.AddCandidates(b.ctx, "olga", "Council", "W"))
			yes := true
			b.must(b.svc.UpdateElection(b.ctx, "olga", "Council", 0, app.ElectionChanges{AllowRecast: &yes}))
			devs := []*device{a, b}
			if first == "B" {
				devs = []*device{b, a}
			}
			devs[0].sync()
			devs[1].sync()
			devs[0].sync()
			cs, err := a.svc.Conflicts(a.ctx, "olga", "Council")
			a.must(err)
			if len(cs) != 0 {
				t.Errorf("unrelated edits raised conflicts: %+v", cs)
			}
			other := "council of the city"
			a.must(a.svc.UpdateElection(a.ctx, "olga", "Council", 0, app.ElectionChanges{Description: &other}))
			mine := "council, edited on B"
			b.must(b.svc.UpdateElection(b.ctx, "olga", "Council", 0, app.ElectionChanges{Description: &mine}))
			devs[0].sync()
			devs[1].sync()
			devs[0].sync()
			cs, err = a.svc.Conflicts(a.ctx, "olga", "Council")
			a.must(err)
			if len(cs) != 1 || cs[0].Kind != "stale_edit" || !strings.Contains(cs[0].Detail, "description") {
				t.Errorf("two edits of the description: conflicts %+v", cs)
			}
		})
	}
}

// TestTamperedProjectionRepaired: someone with write access to vote_data
// adds an ADMIN, a user and finalizes an election there, behind the log's
// back. verify --cloud names the differences, and the next honest sync
// writes the projection back to what the log says.
func TestTamperedProjectionRepaired(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	c := connect(t, prefix, nil)
	laptop.sync()
	clean := cloudStateHash(t, c)
	items, err := c.ProjectionItems(laptop.ctx)
	laptop.must(err)
	db := rawClient()
	for _, it := range items {
		switch {
		case it.PK() == "USER#ann" && it.SK() == "METADATA":
			it.Set("role", app.S("ADMIN"))
		case it.PK() == "ELECTION#Mayor" && it.SK() == "METADATA":
			it.Set("status", app.S("finalized"))
		default:
			continue
		}
		putItem(t, db, cloudsync.TablesFor(prefix).Data, it)
	}
	mallory := app.Item{{Name: "PK", Value: app.S("USER#mallory")}, {Name: "SK", Value: app.S("METADATA")}, {Name: "role", Value: app.S("OWNER")}}
	putItem(t, db, cloudsync.TablesFor(prefix).Data, mallory)

	r, err := laptop.syncer.VerifyCloud(laptop.ctx)
	laptop.must(err)
	joined := strings.Join(r.Problems, "\n")
	if r.OK() || !strings.Contains(joined, "USER#mallory") || !strings.Contains(joined, "USER#ann") || !strings.Contains(joined, "ELECTION#Mayor") {
		t.Errorf("verify --cloud of a tampered projection: %+v", r)
	}
	res := laptop.sync()
	if res.Repaired != 3 {
		t.Errorf("the sync repaired %d items, want 3", res.Repaired)
	}
	if got := cloudStateHash(t, c); got != clean {
		t.Error("the cloud projection is not what the log says after an honest sync")
	}
	if r, err := laptop.syncer.VerifyCloud(laptop.ctx); err != nil || !r.OK() {
		t.Errorf("verify --cloud after the repair: %+v %v", r, err)
	}
}

// frozen is an endpoint that takes requests and never answers.
type frozen struct{}

func (frozen) Do(req *http.Request) (*http.Response, error) {
	<-req.Context().Done()
	return nil, req.Context().Err()
}

// TestFrozenEndpointEndsTheCycle: a cloud that stops answering ends the
// cycle within the call deadline, with a message that says so, and nothing
// local changes.
func TestFrozenEndpointEndsTheCycle(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	castAs(laptop, "ann", "Mayor", "v0001", "Kiss")
	before := laptop.stateHash()
	cfg := cloudConfig(prefix, frozen{})
	cfg.CallTimeout = 300 * time.Millisecond
	s := cloudsync.New(laptop.store, cfg)
	begin := time.Now()
	_, err := s.Sync(laptop.ctx, nil)
	took := time.Since(begin)
	if err == nil || !strings.Contains(app.ErrorMessage(err), "did not answer within 300ms") {
		t.Errorf("sync against a frozen endpoint: %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("the cycle took %s against a frozen endpoint", took)
	}
	if laptop.stateHash() != before {
		t.Error("a failed cycle changed the database")
	}
	st, err := s.Status(laptop.ctx)
	laptop.must(err)
	if !strings.Contains(st.LastError, "did not answer") || st.Pending != 1 {
		t.Errorf("status after the frozen cycle: %+v", st)
	}
}

// putItem writes an item into a cloud table directly, as someone with
// write access to the AWS account could.
func putItem(t *testing.T, db *dynamodb.Client, table string, it app.Item) {
	t.Helper()
	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: cloudsync.ToAttributeMap(it)})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRefusedSecretBallotReasonWithheld: a ballot of the secret election
// Levy that every device refuses is listed with its reason for the OWNER,
// and without it for a USER (a reason such as "Maybe is not a candidate"
// would tell its ranking); a refused ballot of the open election Mayor
// keeps its reason for everyone.
func TestRefusedSecretBallotReasonWithheld(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	hostile := copyDevice(t, laptop, "hostile", prefix)
	hostile.sync()
	ann, err := hostile.svc.User(hostile.ctx, "olga", "ann")
	hostile.must(err)
	annKey, _ := app.DefaultKeyring.Key(ann.ID)
	_, attackerKey, _ := ed25519.GenerateKey(nil)
	for n, name := range []string{"Levy", "Mayor"} {
		e, err := hostile.svc.Election(hostile.ctx, "olga", name)
		hostile.must(err)
		ev, err := app.MakeEvent(app.EventSpec{Type: app.EvBallotCast, When: start.Add(3 * time.Hour), Actor: ann, ActorKey: annKey,
			Device: attackerKey, DeviceSeq: n + 1,
			Data: map[string]any{"election": name, "election_id": e.ID, "voter": "v0001",
				"confirmation": fmt.Sprintf("refused-%d", n), "rankings": [][]string{{"Maybe"}}, "source": "kiosk"}})
		hostile.must(err)
		forge(hostile, ev)
	}
	hostile.sync()
	laptop.sync()
	reasons := func(actor string) map[string]string {
		rs, err := laptop.svc.Rejections(laptop.ctx, actor)
		laptop.must(err)
		out := map[string]string{}
		for _, r := range rs {
			if r.Type == app.EvBallotCast {
				out[r.Election] = r.Reason
			}
		}
		return out
	}
	owner, user := reasons("olga"), reasons("ann")
	if owner["Levy"] == "" || owner["Mayor"] == "" || strings.Contains(owner["Levy"], "shown to AUDITOR") {
		t.Fatalf("the OWNER reads refusals %q, want both with their reasons", owner)
	}
	if user["Levy"] != "a ballot of a secret election was refused (the reason is shown to AUDITOR and up)" {
		t.Errorf("a USER reads the refused secret ballot's reason %q", user["Levy"])
	}
	if user["Mayor"] != owner["Mayor"] {
		t.Errorf("a USER reads the open election's refusal as %q, the OWNER as %q", user["Mayor"], owner["Mayor"])
	}
}

// Two kiosks offline draw the same confirmation code for two paper ballots
// of no poll-book voter (forced here: both draw from the same id sequence).
// Both ballots count on every device, each listed with its code; neither
// is refused or overwritten.
func TestSameCodeOnTwoKiosksKeepsBoth(t *testing.T) {
	prefix := newPrefix(t)
	laptop := prepare(t, prefix)
	k1 := copyDevice(t, laptop, "kiosk1", prefix)
	k2 := copyDevice(t, laptop, "kiosk2", prefix)
	for _, k := range []*device{k1, k2} {
		k.svc = app.NewService(k.store, apptest.NewClock(start.Add(time.Hour), time.Millisecond), &apptest.SeqIDs{Next: 41})
	}
	paper := func(d *device, who string) string {
		rc, err := d.svc.CastBallot(d.ctx, "olga", app.Cast{Election: "Mayor", Rankings: []app.Ranking{{Candidate: who, Rank: 1}}, Source: app.SourcePaper})
		d.must(err)
		return rc.Confirmation
	}
	c1, c2 := paper(k1, "Kiss"), paper(k2, "Wright")
	if c1 != c2 {
		t.Fatalf("the kiosks drew %s and %s; the test needs one code twice", c1, c2)
	}
	k1.sync()
	k2.sync()
	laptop.sync()
	k1.sync()
	converged(t, connect(t, prefix, nil), laptop, k1, k2)
	for _, d := range []*device{laptop, k1, k2} {
		bothUnderCode(t, d, "Mayor", c1, "Kiss", "Wright")
		e, err := d.svc.Election(d.ctx, "olga", "Mayor")
		d.must(err)
		if e.Ballots != 2 {
			t.Errorf("%s: Mayor holds %d ballots, want 2", d.name, e.Ballots)
		}
	}
}

// bothUnderCode checks that a device lists, under one confirmation code,
// exactly the ballots whose first choices are firsts, and verifies.
func bothUnderCode(t *testing.T, d *device, election, code string, firsts ...string) {
	t.Helper()
	ballots, err := d.svc.Ballots(d.ctx, "olga", election)
	d.must(err)
	var got []string
	for _, b := range ballots {
		if b.Confirmation == code {
			got = append(got, b.Rankings[0].Candidate)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, firsts) {
		t.Errorf("%s: %s lists the ballots with code %s as %v; want %v", d.name, election, code, got, firsts)
	}
	if r, err := d.store.Verify(d.ctx); err != nil || !r.OK() {
		t.Errorf("%s does not verify: %v %v", d.name, err, r.Problems)
	}
}

// Merging two elections made offline under one name keeps two paper
// ballots that drew the same confirmation code, one in each.
func TestMergeKeepsBallotsOfOneCode(t *testing.T) {
	prefix := newPrefix(t)
	a := prepare(t, prefix)
	c := copyDevice(t, a, "C", prefix)
	code := ""
	for _, d := range []*device{a, c} {
		d.must(d.svc.CreateElection(d.ctx, "ann", "Levy 3", "", false))
		d.must(d.svc.AddCandidates(d.ctx, "ann", "Levy 3", "Yes", "No"))
		d.must(d.svc.LaunchElection(d.ctx, "ann", "Levy 3"))
		d.svc = app.NewService(d.store, apptest.NewClock(start.Add(time.Hour), time.Millisecond), &apptest.SeqIDs{Next: 77})
		rc, err := d.svc.CastBallot(d.ctx, "olga", app.Cast{Election: "Levy 3", Rankings: []app.Ranking{{Candidate: map[string]string{"laptop": "Yes", "C": "No"}[d.name], Rank: 1}}, Source: app.SourcePaper})
		d.must(err)
		if code != "" && rc.Confirmation != code {
			t.Fatalf("the devices drew %s and %s; the test needs one code twice", code, rc.Confirmation)
		}
		code = rc.Confirmation
	}
	mergeTwins(t, prefix, a, c, "Levy 3")
	for _, d := range []*device{a, c} {
		bothUnderCode(t, d, "Levy 3", code, "No", "Yes")
	}
}

// TestDecisionTakenBetweenPullAndPush: a kiosk's pull turns two voters'
// second ballots into conflicts, its push fails, and an official there
// accepts one voter's ballot; another device then appends first, so the
// next cycle lays the kiosk's events, decision included, one place further
// on. Every device must end with that voter's conflict accepted and the
// other's open: a decision that named its conflict by number alone
// accepted the other voter's ballot instead.
func TestDecisionTakenBetweenPullAndPush(t *testing.T) {
	prefix := newPrefix(t)
	l := prepare(t, prefix)
	a := newDevice(t, "a", prefix, time.Minute, nil)
	ft := newFaultyTransport(7, 0, serverError)
	ft.only = "PutItem"
	b := newDevice(t, "b", prefix, 2*time.Minute, &http.Client{Transport: ft})
	a.sync()
	b.sync()
	castAs(a, "ann", "Mayor", "v0001", "Kiss")
	castAs(a, "ann", "Mayor", "v0002", "Kiss")
	a.sync()
	castAs(b, "ann", "Mayor", "v0001", "Wright")
	castAs(b, "ann", "Mayor", "v0002", "Wright")
	ft.mu.Lock()
	ft.rate = 1
	ft.mu.Unlock()
	if _, err := b.syncer.Sync(b.ctx, nil); err == nil {
		t.Fatal("b's push went through a cloud that refuses every write")
	}
	cs, err := b.svc.Conflicts(b.ctx, "ann", "Mayor")
	b.must(err)
	if len(cs) != 2 {
		t.Fatalf("conflicts on b after its pull: %+v", cs)
	}
	for _, c := range cs {
		if c.Voter == "v0002" {
			_, err := b.svc.DecideConflict(b.ctx, "ann", c, true, "the paper ballot says Wright")
			b.must(err)
		}
	}
	castAs(a, "ann", "Mayor", "v0003", "Kiss")
	a.sync()
	ft.heal()
	b.sync()
	a.sync()
	l.sync()
	converged(t, connect(t, prefix, nil), l, a, b)
	for _, d := range []*device{l, a, b} {
		cs, err := d.svc.Conflicts(d.ctx, "ann", "Mayor")
		d.must(err)
		for _, c := range cs {
			if want := c.Voter == "v0002"; c.Resolved != want {
				t.Errorf("%s: the conflict of %s is resolved=%v (%s), want %v", d.name, c.Voter, c.Resolved, c.Resolution, want)
			}
		}
		bs, err := d.svc.Ballots(d.ctx, "olga", "Mayor")
		d.must(err)
		for _, bl := range bs {
			if want := map[string]string{"v0001": "Kiss", "v0002": "Wright", "v0003": "Kiss"}[bl.Voter]; bl.Rankings[0].Candidate != want {
				t.Errorf("%s: %s's ballot ranks %s first, want %s", d.name, bl.Voter, bl.Rankings[0].Candidate, want)
			}
		}
	}
}
