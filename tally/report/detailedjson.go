package report

import (
	"io"
	"math/big"
	"strings"

	"votedesk/tally"
)

// WriteDetailedJSON writes RCTab's detailed_report.json for one pass (or one
// slice of it).
func WriteDetailedJSON(w io.Writer, r RCTab) error {
	rounds := r.rounds()
	config := object{
		"generatedBy":  r.Header.GeneratedBy,
		"contest":      r.Header.Contest,
		"jurisdiction": r.Header.Jurisdiction,
		"office":       r.Header.Office,
		"date":         r.Header.Date,
	}
	if r.Slice != nil {
		config[strings.ToLower(r.Slice.Kind)] = r.Slice.ID
	}
	if r.Header.Status != "" {
		config["status"] = r.Header.Status
	}
	last := rounds[len(rounds)-1]
	noRankings := new(big.Int).Quo(rounds[0].Inactive.NoRankings.Rat().Num(), rounds[0].Inactive.NoRankings.Rat().Denom())
	summary := object{
		"finalThreshold":  last.Threshold,
		"numWinners":      r.Rules.NumberOfWinners,
		"numCandidates":   len(r.Contest.Candidates),
		"totalNumBallots": r.totalBallots(),
		"undervotes":      noRankings.Int64(),
	}
	won, lost := r.decisions(elected), r.decisions(eliminated)
	var results array
	for i, rd := range rounds {
		tallies := object{}
		for _, v := range rd.Tally {
			tallies[r.name(v.Candidate)] = v.Votes
		}
		inactive := object{
			"overvotes":        rd.Inactive.Overvotes,
			"skippedRankings":  rd.Inactive.SkippedRankings,
			"exhaustedChoices": rd.Inactive.ExhaustedChoices,
			"repeatedRankings": rd.Inactive.RepeatedRankings,
		}
		if r.usesSurpluses() && i == len(rounds)-1 {
			inactive["finalRoundSurplus"] = rd.Inactive.FinalRoundSurplus
		}
		actions := array{}
		for _, c := range won[i] {
			actions = append(actions, r.action("elected", c, rd))
		}
		for _, c := range lost[i] {
			actions = append(actions, r.action("eliminated", c, rd))
		}
		results = append(results, object{
			"round":           rd.Number,
			"tally":           tallies,
			"tallyResults":    actions,
			"threshold":       rd.Threshold,
			"inactiveBallots": inactive,
		})
	}
	return writeJSON(w, object{
		"jsonFormatVersion": "1",
		"summary":           summary,
		"config":            config,
		"results":           results,
	})
}

// action is one elected/eliminated entry with the transfers of that
// candidate's votes in the next round.
func (r RCTab) action(kind string, c int, rd tally.Round) object {
	transfers := object{}
	for _, t := range rd.Transfers {
		if t.From != c {
			continue
		}
		switch t.To {
		case tally.Exhausted:
			transfers["exhausted"] = t.Votes
		case tally.ResidualSurplus:
			transfers["residual surplus"] = t.Votes
		default:
			transfers[r.name(t.To)] = t.Votes
		}
	}
	return object{kind: r.name(c), "transfers": transfers}
}
