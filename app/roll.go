package app

import (
	"cmp"
	"slices"
)

// Candidate is one choice on an election's ballot. Order is the position in
// which it was added, which tie-breaks by candidate order use.
type Candidate struct {
	Election string
	Name     string
	Order    int64
}

func (c Candidate) item() Item {
	it := newItem(electionPK(c.Election), candidateSK(c.Name), "CANDIDATE")
	it.Set("election_name", S(c.Election))
	it.Set("candidate_name", S(c.Name))
	it.Set("order", N(c.Order))
	return it
}

func candidateFromItem(it Item) Candidate {
	return Candidate{Election: it.Str("election_name"), Name: it.Str("candidate_name"), Order: it.Int("order")}
}

// Voter is one entry of an election's poll book: someone eligible to vote.
type Voter struct {
	Election string
	Name     string
	Email    string
	Voted    bool
	// Account is the account linked to this entry, which may cast its
	// ballot as a VOTER ("" for none).
	Account string
}

func (v Voter) item() Item {
	it := newItem(electionPK(v.Election), voterSK(v.Name), "VOTER")
	it.Set("election_name", S(v.Election))
	it.Set("voter_name", S(v.Name))
	if v.Email != "" {
		it.Set("email", S(v.Email))
	}
	if v.Account != "" {
		it.Set("account_id", S(v.Account))
	}
	return it
}

func voterFromItem(it Item) Voter {
	return Voter{Election: it.Str("election_name"), Name: it.Str("voter_name"), Email: it.Str("email"), Account: it.Str("account_id")}
}

// candidatesOf lists an election's candidates in the order they were added.
func candidatesOf(tx Tx, election string) ([]Candidate, error) {
	var out []Candidate
	err := tx.Query(electionPK(election), prefixCand, func(it Item) (bool, error) {
		out = append(out, candidateFromItem(it))
		return true, nil
	})
	sortCandidates(out)
	return out, err
}

func sortCandidates(c []Candidate) {
	slices.SortFunc(c, func(a, b Candidate) int {
		if a.Order != b.Order {
			return cmp.Compare(a.Order, b.Order)
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
