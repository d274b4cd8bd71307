package app

func applyCandidatesAdded(a *applier) error {
	d, e, err := managedData[candidatesChanged](a)
	if err != nil {
		return err
	}
	if err := candidatesEditable(e); err != nil {
		return err
	}
	names, err := cleanNames("candidate", d.Names)
	if err != nil {
		return err
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
	return a.tx.Put(e.item())
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
	names, err := cleanNames("candidate", d.Names)
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
	return a.tx.Put(e.item())
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
	for _, v := range d.Voters {
		if _, err := CleanName("voter name", v.Name); err != nil {
			return err
		}
		if v.Email != "" {
			if _, err := CleanEmail(v.Email); err != nil {
				return Errorf(CodeInvalid, "voter %q: %s", v.Name, ErrorMessage(err))
			}
		}
		if seen[v.Name] {
			return Errorf(CodeInvalid, "voter %q is listed twice", v.Name)
		}
		seen[v.Name] = true
		if _, ok, err := a.tx.Get(electionPK(e.Name), voterSK(v.Name)); err != nil || ok {
			if err != nil {
				return err
			}
			return Errorf(CodeConflict, "%q is already in the poll book of %q", v.Name, e.Name)
		}
	}
	for _, v := range d.Voters {
		if err := a.tx.Put(Voter{Election: e.Name, Name: v.Name, Email: v.Email}.item()); err != nil {
			return err
		}
	}
	e.Voters += int64(len(d.Voters))
	e.touch(a.ev.When)
	return a.tx.Put(e.item())
}

func applyVotersRemoved(a *applier) error {
	d, e, err := managedData[votersRemoved](a)
	if err != nil {
		return err
	}
	if err := editable(e); err != nil {
		return err
	}
	names, err := cleanNames("voter", d.Names)
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
	e.Voters -= int64(len(names))
	e.touch(a.ev.When)
	return a.tx.Put(e.item())
}
