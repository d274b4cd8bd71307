package app

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Users lists every user, by name, without password hashes.
func (s *Service) Users(ctx context.Context, actor string) ([]User, error) {
	var out []User
	err := s.view(ctx, "list users", actor, PermViewApplication, func(tx Tx, _ User) error {
		return tx.Partitions(prefixUser, skMetadata, func(it Item) (bool, error) {
			u := userFromItem(it)
			u.PasswordHash = ""
			out = append(out, u)
			return true, nil
		})
	})
	return out, err
}

// User looks a user up by name or by email.
func (s *Service) User(ctx context.Context, actor, login string) (User, error) {
	var out User
	err := s.view(ctx, "look up user", actor, PermViewApplication, func(tx Tx, _ User) error {
		u, ok, err := getUser(tx, login)
		if err == nil && !ok {
			u, ok, err = userByEmail(tx, strings.ToLower(strings.TrimSpace(login)))
		}
		if err != nil {
			return err
		}
		if !ok {
			return Errorf(CodeNotFound, "no user with name or email %q", login)
		}
		u.PasswordHash = ""
		out = u
		return nil
	})
	return out, err
}

// HasUsers reports whether anyone has registered yet (first-run check).
func (s *Service) HasUsers(ctx context.Context) (bool, error) {
	var c Counts
	err := s.store.View(ctx, func(tx Tx) (err error) {
		c, err = getCounts(tx)
		return err
	})
	return c.Users > 0, err
}

// Counts returns the totals of users and elections.
func (s *Service) Counts(ctx context.Context, actor string) (Counts, error) {
	var c Counts
	err := s.view(ctx, "read counts", actor, PermViewApplication, func(tx Tx, _ User) (err error) {
		c, err = getCounts(tx)
		return err
	})
	return c, err
}

// Elections lists the elections, by name, without the archived ones.
func (s *Service) Elections(ctx context.Context, actor string) ([]Election, error) {
	return s.listElections(ctx, actor, false)
}

// ArchivedElections lists the archived elections, by name.
func (s *Service) ArchivedElections(ctx context.Context, actor string) ([]Election, error) {
	return s.listElections(ctx, actor, true)
}

func (s *Service) listElections(ctx context.Context, actor string, archived bool) ([]Election, error) {
	var out []Election
	err := s.view(ctx, "list elections", actor, PermViewApplication, func(tx Tx, _ User) error {
		return tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
			if e := electionFromItem(it); e.Archived == archived {
				out = append(out, e)
			}
			return true, nil
		})
	})
	return out, err
}

// Election returns one election.
func (s *Service) Election(ctx context.Context, actor, name string) (Election, error) {
	var out Election
	err := s.view(ctx, "show election", actor, PermViewApplication, func(tx Tx, _ User) (err error) {
		out, err = electionFor(ctx, tx, name)
		return err
	})
	return out, err
}

// ElectionByID returns the election with id id under the name it has now:
// what a screen that shows it reloads, so that it follows a rename (by a
// sync or another official) instead of showing whichever election has
// taken its old name. An error says when it was deleted or merged.
func (s *Service) ElectionByID(ctx context.Context, actor, id string) (Election, error) {
	return s.electionOfID(ctx, actor, id, false)
}

// JoinedElection returns the election that the id of an election now
// stands for, as the rules read an event that names it by id: the election
// itself under the name it has now, or, once it was merged, the election
// it joined. A kiosk holds its election by id and goes on there, as the
// ballots it cast offline do when they reach the log. An error says when
// it was deleted.
func (s *Service) JoinedElection(ctx context.Context, actor, id string) (Election, error) {
	return s.electionOfID(ctx, actor, id, true)
}

// electionOfID finds the election id stands for now (electionByID, which
// follows a merge); unless joined, the election a merge joined is not the
// one asked for, and the error says what became of that one.
func (s *Service) electionOfID(ctx context.Context, actor, id string, joined bool) (Election, error) {
	var out Election
	err := s.view(ctx, "show election", actor, PermViewApplication, func(tx Tx, _ User) error {
		e, ok, err := electionByID(tx, id)
		if err != nil {
			return err
		}
		if ok && (joined || e.ID == id) {
			out = e
			return nil
		}
		r, found, err := getElectionRecord(tx, id)
		if err != nil {
			return err
		}
		if !found {
			return Errorf(CodeNotFound, "no election has id %s", id)
		}
		return whatBecameOf(tx, shown{r.Name, id}, false)
	})
	return out, err
}

// Candidates lists an election's candidates in ballot order.
func (s *Service) Candidates(ctx context.Context, actor, election string) ([]Candidate, error) {
	var out []Candidate
	err := s.view(ctx, "list candidates", actor, PermViewApplication, func(tx Tx, _ User) error {
		if _, err := electionFor(ctx, tx, election); err != nil {
			return err
		}
		var err error
		out, err = candidatesOf(tx, election)
		return err
	})
	return out, err
}

// Voters lists an election's poll book by name, marking who has voted.
func (s *Service) Voters(ctx context.Context, actor, election string) ([]Voter, error) {
	var out []Voter
	err := s.view(ctx, "list voters", actor, PermViewApplication, func(tx Tx, _ User) error {
		if _, err := electionFor(ctx, tx, election); err != nil {
			return err
		}
		err := tx.Query(electionPK(election), prefixVoter, func(it Item) (bool, error) {
			out = append(out, voterFromItem(it))
			return true, nil
		})
		if err != nil {
			return err
		}
		// Ballot keys sort like voter keys, so one pass marks who voted:
		// each ballot's voter read where it lies (a chunk of imported
		// ballots, like an imported ballot's item, names none).
		i := 0
		return tx.QueryAttr(electionPK(election), prefixBallot, "voter_name", func(raw []byte) (bool, error) {
			if len(raw) == 0 {
				return true, nil
			}
			v := string(raw)
			for i < len(out) && out[i].Name < v {
				i++
			}
			if i < len(out) && out[i].Name == v {
				out[i].Voted = true
			}
			return true, nil
		})
	})
	return out, err
}

// Eligibility says whether a voter may vote in an election and whether they
// already have.
type Eligibility struct {
	Eligible bool
	Voted    bool
}

// CheckVoter looks a voter up in an election's poll book.
func (s *Service) CheckVoter(ctx context.Context, actor, election, voter string) (Eligibility, error) {
	var out Eligibility
	err := s.view(ctx, "check voter", actor, PermVote, func(tx Tx, _ User) error {
		if _, err := electionFor(ctx, tx, election); err != nil {
			return err
		}
		var err error
		if _, out.Eligible, err = tx.Get(electionPK(election), voterSK(voter)); err != nil {
			return err
		}
		_, out.Voted, err = tx.Get(electionPK(election), ballotSK(voter))
		return err
	})
	return out, err
}

// Ballots lists an election's ballots, as the disclosure rule allows: in a
// secret election, below AUDITOR, nothing while its polls are open, and from
// when they close without voter names or times, ordered by confirmation
// code, so nothing links a voter to a ranking. Precincts and batches of a
// secret election come with small ones combined (MergeSmallGroups), for
// every role.
func (s *Service) Ballots(ctx context.Context, actor, election string) ([]Ballot, error) {
	l, err := s.ListBallots(ctx, actor, election)
	if err != nil {
		return nil, err
	}
	return l.Rows(ctx, 0, l.Len())
}

// ballotGroups are the groups an imported ballot names, each with its
// attribute and its field of Ballot.
var ballotGroups = [...]struct {
	what  string
	field func(*Ballot) *string
}{
	{"precinct", func(b *Ballot) *string { return &b.Precinct }},
	{"batch", func(b *Ballot) *string { return &b.Batch }},
	{"tabulator", func(b *Ballot) *string { return &b.Tabulator }},
}

// BallotList is an election's ballots as Ballots lists them (the same
// ballots, order and disclosure), for a screen that shows a few at a time:
// it holds each ballot's key and confirmation code, and Rows reads the
// ballots themselves when they are shown. A million ballots listed whole
// took 8 s and 1.2 GB of memory; listed so, about 100 bytes each.
type BallotList struct {
	s               *Service
	actor, election string
	id              string // the election's id: its name may go to another
	byKey           bool   // in key order (else in confirmation-code order)
	d               Disclosure
	keys, codes     []string                             // in the order shown
	groups          [len(ballotGroups)]map[string]string // a group's name as shown, where the small-group rule changes it
}

// ListBallots lists an election's ballots for actor, as Ballots does.
func (s *Service) ListBallots(ctx context.Context, actor, election string) (*BallotList, error) {
	return s.listBallots(ctx, actor, election, false)
}

// ListBallotsByCode is ListBallots in confirmation-code order whatever the
// rule lets actor see: the order of what an election publishes (an
// export of its cast vote records), which says nothing of who voted when.
func (s *Service) ListBallotsByCode(ctx context.Context, actor, election string) (*BallotList, error) {
	return s.listBallots(ctx, actor, election, true)
}

func (s *Service) listBallots(ctx context.Context, actor, election string, byCode bool) (*BallotList, error) {
	l := &BallotList{s: s, actor: actor, election: election}
	err := s.view(ctx, "list ballots", actor, PermViewApplication, func(tx Tx, u User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		if l.d = Disclose(e, u.Role); !l.d.Contents {
			return withheld(e)
		}
		l.id, l.byKey = e.ID, l.d.Links && !byCode
		var groups [len(ballotGroups)][]string
		// Each ballot's key and code (and groups) read where they lie,
		// its rankings not decoded: a million ballots' list took 0.9 to
		// 1.2 s decoding them.
		attrs := []string{"confirmation"}
		if e.Grouped {
			attrs = append(attrs, "precinct", "batch", "tabulator")
		}
		err = ballotAttrs(tx, election, prefixBallot, attrs, func(k []byte, vals [][]byte) (bool, error) {
			sk := string(k)
			code, unlisted := strings.CutPrefix(sk, prefixUnlisted)
			if !unlisted || code != string(vals[0]) {
				code = string(vals[0])
			} // else the code shares the key's text
			l.keys, l.codes = append(l.keys, sk), append(l.codes, code)
			if e.Grouped {
				var b Ballot
				b.Precinct, b.Batch, b.Tabulator = string(vals[1]), string(vals[2]), string(vals[3])
				for i, g := range ballotGroups {
					groups[i] = append(groups[i], *g.field(&b))
				}
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		for i, g := range ballotGroups {
			if !e.Grouped {
				break
			}
			shown, _ := MergeSmallGroups(e, g.what, groups[i])
			for j, v := range groups[i] {
				if shown[j] != v {
					if l.groups[i] == nil {
						l.groups[i] = map[string]string{}
					}
					l.groups[i][v] = shown[j]
				}
			}
		}
		if !l.byKey {
			order := make([]int, len(l.keys))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int { return strings.Compare(l.codes[a], l.codes[b]) })
			keys, codes := make([]string, len(order)), make([]string, len(order))
			for i, j := range order {
				keys[i], codes[i] = l.keys[j], l.codes[j]
			}
			l.keys, l.codes = keys, codes
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Len is how many ballots the list holds.
func (l *BallotList) Len() int { return len(l.keys) }

// VoterWidth is the length in characters of the longest voter name the
// list shows (0 where the rule shows none), for a table's column.
func (l *BallotList) VoterWidth() int {
	w := 0
	if l.d.Links {
		for _, k := range l.keys {
			if !strings.HasPrefix(k, prefixUnlisted) {
				w = max(w, utf8.RuneCountInString(k[len(prefixBallot):]))
			}
		}
	}
	return w
}

// Code is the confirmation code of ballot i of the list.
func (l *BallotList) Code(i int) string { return l.codes[i] }

// Find returns the place in the list of the ballot whose confirmation code
// is code (in any letter case), or -1.
func (l *BallotList) Find(code string) int {
	for i, c := range l.codes {
		if strings.EqualFold(c, code) {
			return i
		}
	}
	return -1
}

// FindSource returns the place in the list of the imported ballot whose
// source id (the cast vote record's id, printed on its paper) is id, or -1.
// Source ids are what Ballots shows: withheld in a secret election from
// roles below AUDITOR, who are told so.
func (l *BallotList) FindSource(ctx context.Context, id string) (int, error) {
	if id == "" {
		return -1, nil
	}
	if !l.d.Links {
		return -1, Errorf(CodeForbidden, "%q is a secret election: its ballots' source ids are withheld from your role", l.election)
	}
	if !l.byKey {
		return -1, Errorf(CodeInternal, "a ballot list in confirmation-code order is not searched by source id")
	}
	// The list is in key order, and imported ballots' keys are one run of
	// it, in the order a query of them meets them.
	from := sort.SearchStrings(l.keys, prefixUnlisted)
	at := -1
	err := l.s.view(ctx, "find a ballot", l.actor, PermViewApplication, func(tx Tx, u User) error {
		if err := l.still(ctx, tx, u); err != nil {
			return err
		}
		n := 0
		err := ballotAttr(tx, l.election, prefixUnlisted, "source_id", func(v []byte) (bool, error) {
			if string(v) == id {
				at = from + n
				return false, nil
			}
			n++
			return true, nil
		})
		if err != nil || at < 0 {
			return err
		}
		if at < len(l.keys) {
			g := ballotGetter{tx: tx, pk: electionPK(l.election)}
			if b, ok, err := g.get(l.keys[at]); err != nil || ok && b.SourceID == id {
				return err
			}
		}
		return Errorf(CodeConflict, "the ballots of %q changed since they were listed: list them again", l.election)
	})
	if err != nil {
		return -1, err
	}
	return at, nil
}

// still refuses to read the list further when what it was made under has
// changed: the election (its name may now be another's), or what the rule
// lets u see of it.
func (l *BallotList) still(ctx context.Context, tx Tx, u User) error {
	e, err := electionFor(ctx, tx, l.election)
	if err != nil {
		return err
	}
	switch d := Disclose(e, u.Role); {
	case e.ID != l.id:
		return Errorf(CodeConflict, "%q is now another election than the one whose ballots were listed: list them again", l.election)
	case d == l.d:
		return nil
	case !d.Contents:
		return withheld(e)
	}
	return Errorf(CodeConflict, "who may see what of %q changed since its ballots were listed: list them again", l.election)
}

// Rows reads ballots from to to-1 of the list as Ballots shows them. The
// rule is applied again as it stands now: a list made under another (the
// polls closed since, or the viewer's role changed) or whose ballots have
// changed place (a rename, a merge, a duplicate resolved) is refused, to
// be listed again.
func (l *BallotList) Rows(ctx context.Context, from, to int) ([]Ballot, error) {
	from, to = max(from, 0), min(to, len(l.keys))
	out := make([]Ballot, 0, max(to-from, 0))
	err := l.s.view(ctx, "list ballots", l.actor, PermViewApplication, func(tx Tx, u User) error {
		if err := l.still(ctx, tx, u); err != nil {
			return err
		}
		g := ballotGetter{tx: tx, pk: electionPK(l.election)}
		for i := from; i < to; i++ {
			b, ok, err := g.get(l.keys[i])
			if err != nil {
				return err
			}
			if !ok {
				return Errorf(CodeConflict, "the ballots of %q changed since they were listed: list them again", l.election)
			}
			for g, names := range l.groups {
				if shown, ok := names[*ballotGroups[g].field(&b)]; ok {
					*ballotGroups[g].field(&b) = shown
				}
			}
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	hideLinks(l.d, out)
	return out, nil
}

// hideLinks takes from listed ballots what the rule d withholds: who cast
// each and when, and in a secret election where it came from.
func hideLinks(d Disclosure, out []Ballot) {
	if d.Links {
		return
	}
	for i := range out {
		out[i].Voter, out[i].WhenCast = "", time.Time{}
		if d.Secret {
			out[i].SourceID = ""
		}
	}
}
