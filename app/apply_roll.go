package app

import "fmt"

func applyCandidatesAdded(a *applier) error {
	d, e, err := managedData[candidatesChanged](a)
	if err != nil {
		return err
	}
	if err := candidatesEditable(e); err != nil {
		return err
	}
	names, err := a.eventNames("candidate", d.Names)
	if err != nil {
		return err
	}
	if a.ev.Signed() {
		if err := a.candidatesFree(e, names); err != nil {
			return err
		}
		for _, n := range names {
			if _, err := CleanCandidateName(n); err != nil {
				return err
			}
		}
	}
	if err := a.requireAll(e, names, candidateSK, false, func(n string) error {
		return Errorf(CodeConflict, "%q is already a candidate in %q", n, e.Name)
	}); err != nil {
		return err
	}
	for _, n := range names {
		e.NextOrder++
		if err := a.tx.Put(Candidate{Election: e.Name, Name: n, Order: e.NextOrder}.item()); err != nil {
			return err
		}
	}
	e.Candidates += int64(len(names))
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

// eventNames checks the names an event lists: each a valid name (normalized,
// for signed events), none twice.
func (a *applier) eventNames(kind string, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, Errorf(CodeInvalid, "no %ss given", kind)
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if err := a.checkName(kind, n); err != nil {
			return nil, err
		}
		k := n
		if a.ev.Signed() {
			k = NameKey(n)
		} else {
			n = trimmed(n)
			k = n
		}
		if seen[k] {
			return nil, Errorf(CodeInvalid, "%s %q is listed twice", kind, n)
		}
		seen[k] = true
	}
	if !a.ev.Signed() {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = trimmed(n)
		}
		return out, nil
	}
	return names, nil
}

// candidatesFree refuses names that a candidate of the election already
// holds as the domain compares names. (A poll book's names are looked up in
// their index instead: votersFree.)
func (a *applier) candidatesFree(e Election, names []string) error {
	want := make(map[string]string, len(names))
	for _, n := range names {
		want[NameKey(n)] = n
	}
	// Each name is compared where it lies, without decoding its item.
	var clash string
	var key []byte
	err := a.tx.QueryAttr(electionPK(e.Name), prefixCand, "candidate_name", func(v []byte) (bool, error) {
		key = appendNameKey(key[:0], v)
		if n, ok := want[string(key)]; ok {
			clash = fmt.Sprintf("%q is already a candidate in %q (as %q)", n, e.Name, v)
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	if clash != "" {
		return Errorf(CodeConflict, "%s", clash)
	}
	return nil
}

// candidatesEditable checks that the candidate list may change: only in a
// draft that allows edits.
func candidatesEditable(e Election) error {
	if err := editable(e); err != nil {
		return err
	}
	if e.Status != StatusDraft {
		return Errorf(CodeConflict, "election %q is %s; candidates change only in a draft", e.Name, e.Status)
	}
	return nil
}

func applyCandidatesRemoved(a *applier) error {
	d, e, err := managedData[candidatesChanged](a)
	if err != nil {
		return err
	}
	if err := candidatesEditable(e); err != nil {
		return err
	}
	if e.Ballots > 0 {
		return Errorf(CodeConflict, "election %q already holds %d ballot(s); its candidates cannot be removed", e.Name, e.Ballots)
	}
	names, err := a.eventNames("candidate", d.Names)
	if err != nil {
		return err
	}
	if err := a.requireAll(e, names, candidateSK, true, func(n string) error {
		return Errorf(CodeNotFound, "%q is not a candidate in %q", n, e.Name)
	}); err != nil {
		return err
	}
	for _, n := range names {
		if err := a.tx.Delete(electionPK(e.Name), candidateSK(n)); err != nil {
			return err
		}
	}
	e.Candidates -= int64(len(names))
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

func applyVotersAdded(a *applier) error {
	d, e, err := managedData[votersAdded](a)
	if err != nil {
		return err
	}
	if err := editable(e); err != nil {
		return err
	}
	if len(d.Voters) == 0 {
		return Errorf(CodeInvalid, "no voters given")
	}
	seen := make(map[string]bool, len(d.Voters))
	names := make([]string, 0, len(d.Voters))
	for _, v := range d.Voters {
		if err := a.checkName("voter name", v.Name); err != nil {
			return err
		}
		if v.Email != "" {
			if _, err := CleanEmail(v.Email); err != nil {
				return Errorf(CodeInvalid, "voter %q: %s", v.Name, ErrorMessage(err))
			}
		}
		k := v.Name
		if a.ev.Signed() {
			k = NameKey(v.Name)
		}
		if seen[k] {
			return Errorf(CodeInvalid, "voter %q is listed twice", v.Name)
		}
		seen[k] = true
		names = append(names, v.Name)
		if _, ok, err := a.tx.Get(electionPK(e.Name), voterSK(v.Name)); err != nil || ok {
			if err != nil {
				return err
			}
			return Errorf(CodeConflict, "%q is already in the poll book of %q", v.Name, e.Name)
		}
	}
	if a.ev.Signed() {
		if err := a.votersFree(e, names); err != nil {
			return err
		}
	}
	for _, v := range d.Voters {
		if err := a.tx.Put(Voter{Election: e.Name, Name: v.Name, Email: v.Email}.item()); err != nil {
			return err
		}
	}
	// The index after the poll book, not entry by entry: an undo record
	// writes each key against the one before it, and keys of one
	// partition after another share most of theirs.
	for _, v := range d.Voters {
		if err := listVoterName(a.tx, e.ID, v.Name); err != nil {
			return err
		}
	}
	e.Voters += int64(len(d.Voters))
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

func applyVotersRemoved(a *applier) error {
	d, e, err := managedData[votersRemoved](a)
	if err != nil {
		return err
	}
	if err := editable(e); err != nil {
		return err
	}
	names, err := a.eventNames("voter", d.Names)
	if err != nil {
		return err
	}
	if err := a.requireAll(e, names, voterSK, true, func(n string) error {
		return Errorf(CodeNotFound, "%q is not in the poll book of %q", n, e.Name)
	}); err != nil {
		return err
	}
	if err := a.requireAll(e, names, ballotSK, false, func(n string) error {
		return Errorf(CodeConflict, "%q has already voted in %q; a voter with a ballot stays in the poll book", n, e.Name)
	}); err != nil {
		return err
	}
	for _, n := range names {
		if err := a.tx.Delete(electionPK(e.Name), voterSK(n)); err != nil {
			return err
		}
	}
	for _, n := range names {
		if err := unlistVoterName(a.tx, e.ID, n); err != nil {
			return err
		}
	}
	e.Voters -= int64(len(names))
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}

// applyVoterLinked links a poll-book entry to the account that may cast
// its ballot as a VOTER, or unlinks it: an official's act (the election's
// managers), never a rename.
func applyVoterLinked(a *applier) error {
	d, e, err := managedData[voterLinked](a)
	if err != nil {
		return err
	}
	if e.Status == StatusFinalized {
		return Errorf(CodeConflict, "election %q is finalized; nothing in it can change", e.Name)
	}
	it, ok, err := a.tx.Get(electionPK(e.Name), voterSK(d.Voter))
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "%q is not in the poll book of %q", d.Voter, e.Name)
	}
	v := voterFromItem(it)
	if d.UserID != "" {
		if _, ok, err := userByID(a.tx, d.UserID); err != nil || !ok {
			if err != nil {
				return err
			}
			return Errorf(CodeNotFound, "no account %s (%s)", d.UserID, d.UserName)
		}
		// Each entry's link compared where it lies, its item not decoded.
		linked := ""
		err := a.tx.QueryAttrs(electionPK(e.Name), prefixVoter, []string{"account_id", "voter_name"}, func(_ []byte, v [][]byte) (bool, error) {
			if string(v[0]) == d.UserID && string(v[1]) != d.Voter {
				linked = string(v[1])
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		if linked != "" {
			return Errorf(CodeConflict, "%s is already linked to voter %q of %q; one account votes for one entry", d.UserName, linked, e.Name)
		}
	}
	v.Account = d.UserID
	if err := a.tx.Put(v.item()); err != nil {
		return err
	}
	e.touch(a.ev.When)
	return putElection(a.tx, e)
}
