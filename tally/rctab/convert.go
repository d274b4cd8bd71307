package rctab

import (
	"context"
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"votedesk/tally"
	"votedesk/tally/cvr"
)

// Labels RCTab's CVR-to-CSV conversion writes for a rank without a
// candidate and for an overvote recorded as a label.
const (
	convertedSkipped  = "undervote"
	convertedOvervote = "overvote"
)

// cvrCSVHeader is the first columns of RCTab's converted CSV; "Rank 1".. follow.
var cvrCSVHeader = []string{"Source Filepath", "CVR Provider", "Contest Id", "RCTab CVR Id", "Tabulator Id", "Batch Id", "Vendor Id", "Precinct", "Precinct Portion"}

// WriteCVRCSV converts the config's cast vote records into the one CSV
// RCTab's "convert to CSV" writes, every source in order, a row per record:
// where it came from (the filePath as the config writes it, the provider,
// Dominion's contest id), RCTab's id for it and the vendor's (ES&S
// "FILE-N"; CDF "FILE(ID)"; Dominion "TABULATOR-BATCH-RECORD" with its
// parts), its precinct and precinct portion, then a column per ranking
// allowed (maxRankingsAllowed): the candidates marked there by the config's
// names (several in one cell, one per line, in the config's order; an
// undeclared write-in by the source's label), "undervote" where none is.
// The files are read by the same readers as a count.
func (c *Config) WriteCVRCSV(ctx context.Context, w io.Writer) error {
	rules, err := c.Rules()
	if err != nil {
		return err
	}
	contest := c.Contest()
	cands, opts := c.Reader(rules)
	ranks := opts.MaxRankings
	if ranks <= 0 {
		ranks = contest.DeclaredCount()
	}
	out := csv.NewWriter(w)
	header := slices.Clone(cvrCSVHeader)
	for r := 1; r <= ranks; r++ {
		header = append(header, "Rank "+strconv.Itoa(r))
	}
	if err := out.Write(header); err != nil {
		return err
	}
	for i, src := range c.CVRFileSources {
		var infos []cvr.RecordInfo
		o := opts
		o.Record = func(r cvr.RecordInfo) { infos = append(infos, r) }
		set := &tally.BallotSet{}
		if _, err := cvr.Read(ctx, src, cands, set, o); err != nil {
			return errorf("cvrFileSources[%d]: %w", i, err)
		}
		if len(infos) != set.Len() {
			return errorf("cvrFileSources[%d]: %d records described for %d read", i, len(infos), set.Len())
		}
		uwi := src.UndeclaredWriteInLabel
		if uwi == "" {
			uwi = cvr.UndeclaredWriteIn
		}
		contestID := ""
		if src.Provider == cvr.FormatDominion {
			contestID = src.ContestID
		}
		for n, info := range infos {
			if set.Batches != nil && set.Batches[n] != "" {
				info.Batch = set.Batches[n]
			}
			id, vendor := rctabID(src, n, info)
			row := []string{c.SourcePaths[i], string(src.Provider), contestID, id, info.Tabulator, info.Batch, vendor, info.Precinct, info.PrecinctPortion}
			marks, _ := set.Ballot(n)
			for r := 1; r <= ranks; r++ {
				var at []uint16
				for _, m := range marks {
					if int(m.Rank) == r {
						at = append(at, m.Candidate)
					}
				}
				slices.Sort(at)
				names := make([]string, 0, len(at))
				for _, cand := range at {
					switch {
					case cand == tally.Overvote:
						names = append(names, convertedOvervote)
					case contest.Candidates[cand].UndeclaredWriteIn:
						names = append(names, uwi)
					default:
						names = append(names, contest.Candidates[cand].Name)
					}
				}
				if len(names) == 0 {
					names = append(names, convertedSkipped)
				}
				row = append(row, strings.Join(names, "\n"))
			}
			if err := out.Write(row); err != nil {
				return err
			}
		}
	}
	out.Flush()
	return out.Error()
}
