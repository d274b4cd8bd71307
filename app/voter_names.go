package app

import (
	"fmt"
	"slices"
	"strings"
)

// The poll book's name index. Each election's voters are listed by
// NameKey (letter case and spacing aside) in a partition of their own,
// VOTERNAMES#{election id}, one item a voter under the sort key
// {NameKey(name)}\x1f{name}. The rules that compare a name with a poll book
// (a batch of voters added, a user taking a voter's name) and a kiosk's
// check-in look names up there instead of reading every voter: adding
// voters to a state's roll of millions was quadratic.
//
// The index is derived from the log like the rest of the projection,
// written by the same events in the same transactions (so undo and rebase
// keep it), and stays on the device (LocalPartition): the cloud
// projection and the state hash leave it out, so devices of versions with
// and without it hold the same projection there. It is keyed by the
// election's id, which a rename keeps. A name's key never holds a control
// character (names may not), so \x1f ends it.
//
// PrefixVoterNames begins the partition key of an election's index.
const PrefixVoterNames = "VOTERNAMES#"

const nameKeyEnd = "\x1f"

func voterNamesPK(electionID string) string { return PrefixVoterNames + electionID }

func voterNameSK(name string) string { return NameKey(name) + nameKeyEnd + name }

// listVoterName adds a poll-book voter to the index: an item of its keys
// alone, which hold the name (indexedName).
func listVoterName(tx Tx, electionID, name string) error {
	return putVoterNameSK(tx, electionID, voterNameSK(name))
}

func putVoterNameSK(tx Tx, electionID, sk string) error {
	it := make(Item, 0, 2)
	it.Set(AttrPK, S(voterNamesPK(electionID)))
	it.Set(AttrSK, S(sk))
	return tx.Put(it)
}

// indexedName is the voter's name an index item's sort key holds.
func indexedName(sk string) string {
	_, name, _ := strings.Cut(sk, nameKeyEnd)
	return name
}

// unlistVoterName removes a poll-book voter from the index.
func unlistVoterName(tx Tx, electionID, name string) error {
	return tx.Delete(voterNamesPK(electionID), voterNameSK(name))
}

// dropVoterNames removes an election's index (the election is deleted, or
// merged into another).
func dropVoterNames(tx Tx, electionID string) error {
	var sks []string
	err := tx.Query(voterNamesPK(electionID), "", func(it Item) (bool, error) {
		sks = append(sks, it.SK())
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, sk := range sks {
		if err := tx.Delete(voterNamesPK(electionID), sk); err != nil {
			return err
		}
	}
	return nil
}

// votersKeyed calls fn with the name of each voter of the election whose
// NameKey is key, in the order of their names (the order of their VOTER#
// items), until fn returns false.
func votersKeyed(tx Tx, electionID, key string, fn func(name string) bool) error {
	return tx.Query(voterNamesPK(electionID), key+nameKeyEnd, func(it Item) (bool, error) {
		return fn(indexedName(it.SK())), nil
	})
}

// votersFree refuses names that a voter of the election's poll book holds
// as the domain compares names. Of several clashes it names the one a
// reading of the poll book in order meets first (the voter with the least
// name), as the rules did when they read every voter: a refusal's words
// are part of the projection, the same on every device.
func (a *applier) votersFree(e Election, names []string) error {
	var clash, as string
	for _, n := range names {
		err := votersKeyed(a.tx, e.ID, NameKey(n), func(v string) bool {
			if clash == "" || v < as {
				clash, as = n, v
			}
			return false
		})
		if err != nil {
			return err
		}
	}
	if clash != "" {
		return Errorf(CodeConflict, "%q is already in the poll book of %q (as %q)", clash, e.Name, as)
	}
	return nil
}

// isVoterNames reports whether pk is an election's poll-book name index.
func isVoterNames(pk string) bool { return strings.HasPrefix(pk, PrefixVoterNames) }

// IndexPollBooks lists every poll-book voter of the projection in its
// election's name index, which must be empty: what a file written before
// the index (layout version 5) needs once, and what a pull that rolls back
// events pending since that upgrade makes again (localstore, migrate.go).
func IndexPollBooks(tx Tx) error {
	var elections []Election
	err := tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		elections = append(elections, electionFromItem(it))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, e := range elections {
		var names []string
		err := tx.QueryAttr(electionPK(e.Name), prefixVoter, "voter_name", func(v []byte) (bool, error) {
			names = append(names, string(v))
			return true, nil
		})
		if err != nil {
			return err
		}
		// In the index's order, not the poll book's: bbolt inserts each
		// new key of a transaction in place (commands_election.go).
		sks := make([]string, len(names))
		for i, n := range names {
			sks[i] = voterNameSK(n)
		}
		slices.Sort(sks)
		for _, sk := range sks {
			if err := putVoterNameSK(tx, e.ID, sk); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckPollBookIndex checks that each election's name index lists exactly
// its poll book (verify): every voter under its name's key, nothing else,
// and nothing for an election deleted or merged. It reads a voter at a
// time, so a state's roll needs no memory.
func CheckPollBookIndex(tx Tx) (problems []string, err error) {
	var records []electionRecord
	err = tx.Partitions(prefixElectionID, skMetadata, func(it Item) (bool, error) {
		records = append(records, electionRecordFromItem(it))
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	for _, r := range records {
		e, live, err := getElection(tx, r.Name)
		if err != nil {
			return nil, err
		}
		live = live && r.DeletedSeq == 0 && e.ID == r.ID
		listed := 0
		if live {
			var missing string
			err := tx.QueryAttr(electionPK(e.Name), prefixVoter, "voter_name", func(v []byte) (bool, error) {
				listed++
				if _, ok, err := tx.Get(voterNamesPK(e.ID), voterNameSK(string(v))); err != nil || !ok {
					missing = string(v)
					return false, err
				}
				return true, nil
			})
			if err != nil {
				return nil, err
			}
			if missing != "" {
				problems = append(problems, fmt.Sprintf("the poll book of %q lists %q, which its name index does not", e.Name, missing))
				continue
			}
		}
		indexed, extra := 0, ""
		err = tx.Query(voterNamesPK(r.ID), "", func(it Item) (bool, error) {
			indexed++
			if extra == "" {
				extra = indexedName(it.SK())
			}
			return true, nil
		})
		if err != nil {
			return nil, err
		}
		switch {
		case !live && indexed > 0:
			problems = append(problems, fmt.Sprintf("the election %q (%s) is gone, but its poll book's name index still lists %d voter(s), %q first", r.Name, r.ID, indexed, extra))
		case live && indexed != listed:
			problems = append(problems, fmt.Sprintf("the name index of the poll book of %q lists %d voter(s), the poll book %d", e.Name, indexed, listed))
		}
	}
	return problems, nil
}
