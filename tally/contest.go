package tally

// Candidate is one choice in a contest. Its index in Contest.Candidates is
// the Candidate number used in ballot marks.
type Candidate struct {
	Name string
	// Code is an optional short identifier (RCTab's candidate code).
	Code string
	// Excluded candidates take no part in the count: ballots skip them.
	Excluded bool
	// UndeclaredWriteIn marks the pseudo-candidate that collects write-ins
	// nobody registered; it is eliminated first and can never win.
	UndeclaredWriteIn bool
}

// Contest is what is being counted: the candidates, in the order that the
// useCandidateOrder tie-break uses.
type Contest struct {
	Name       string
	Candidates []Candidate
}

// Validate checks the contest on its own: at least one candidate, names set
// and unique, at most one undeclared write-in entry and MaxCandidates.
func (c Contest) Validate() error {
	if len(c.Candidates) == 0 {
		return errorf("contest has no candidates")
	}
	if len(c.Candidates) > MaxCandidates {
		return errorf("contest has %d candidates, at most %d allowed", len(c.Candidates), MaxCandidates)
	}
	seen := make(map[string]int, len(c.Candidates))
	uwi, live := 0, 0
	for i, cand := range c.Candidates {
		if cand.Name == "" {
			return errorf("candidate %d has no name", i+1)
		}
		if j, dup := seen[cand.Name]; dup {
			return errorf("candidates %d and %d are both named %q", j+1, i+1, cand.Name)
		}
		seen[cand.Name] = i
		if cand.UndeclaredWriteIn {
			uwi++
		}
		if !cand.Excluded && !cand.UndeclaredWriteIn {
			live++
		}
	}
	if uwi > 1 {
		return errorf("more than one undeclared write-in candidate")
	}
	if live == 0 {
		return errorf("every declared candidate is excluded")
	}
	return nil
}

// Names returns the candidate names in contest order.
func (c Contest) Names() []string {
	out := make([]string, len(c.Candidates))
	for i, cand := range c.Candidates {
		out[i] = cand.Name
	}
	return out
}

// DeclaredCount counts the candidates other than the undeclared write-in
// entry (RCTab's getNumDeclaredCandidates).
func (c Contest) DeclaredCount() int {
	n := 0
	for _, cand := range c.Candidates {
		if !cand.UndeclaredWriteIn {
			n++
		}
	}
	return n
}
