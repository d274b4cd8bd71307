package dataio

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/rctab"
)

// ContestImport is what importing one RCTab contest did: the election made
// for it and the ballots imported, or why nothing was.
type ContestImport struct {
	Config   string     `json:"config"`
	Contest  string     `json:"contest"`            // the config's contestName
	Election string     `json:"election,omitempty"` // the election made, when one was
	Import   *CVRImport `json:"import,omitempty"`
	Err      error      `json:"-"`
	Error    string     `json:"error,omitempty"`
}

// ContestsProgress says how far ImportContests has got: contest Contest
// (0-based) of Contests, and within it the import's own progress.
type ContestsProgress struct {
	Contest, Contests int
	Config            string
	Progress
}

// ExpandConfigs returns the RCTab contest configs paths name: a folder as
// the configs in it and its subfolders (rctab.FindConfigs), anything else
// as named (a file that cannot be loaded fails as that contest).
func ExpandConfigs(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			out = append(out, p)
			continue
		}
		found, err := rctab.FindConfigs(p)
		if err != nil {
			return nil, &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
		}
		if len(found) == 0 {
			return nil, app.Errorf(app.CodeInvalid, "%s holds no RCTab contest configs (.json files with tabulatorVersion and cvrFileSources)", p)
		}
		out = append(out, found...)
	}
	return out, nil
}

// ImportContests makes a draft election for each RCTab contest config and
// imports the config's cast vote records into it, as a state does with the
// hundreds of ranked contests of one election day: the election is named
// by the config's contestName, gets its candidates (with the undeclared
// write-in entry when a source has its label), its counting method (STV
// for several seats) and its rules, and holds the ballots as the config
// reads them (import cvr --rctab). Each contest is all or nothing: its
// files are read and checked before anything is made, and a contest whose
// name is taken, whose config or files are refused, changes nothing. A
// failed contest does not stop the others; each result says what happened.
func ImportContests(ctx context.Context, svc *app.Service, actor string, configs []string, progress func(ContestsProgress)) []ContestImport {
	out := make([]ContestImport, len(configs))
	for i, path := range configs {
		report := func(p Progress) {
			if progress != nil {
				progress(ContestsProgress{Contest: i, Contests: len(configs), Config: path, Progress: p})
			}
		}
		r := importContest(ctx, svc, actor, path, report)
		if r.Err != nil {
			r.Error = app.ErrorMessage(r.Err)
		}
		out[i] = r
		if ctx.Err() != nil {
			for k := i + 1; k < len(configs); k++ {
				out[k] = ContestImport{Config: configs[k], Err: ctx.Err(), Error: "not imported: stopped"}
			}
			break
		}
	}
	return out
}

// importContest imports one config's contest into a new election.
func importContest(ctx context.Context, svc *app.Service, actor, path string, progress func(Progress)) ContestImport {
	r := ContestImport{Config: path}
	invalid := func(err error) ContestImport {
		r.Err = &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
		return r
	}
	cfg, err := rctab.Load(path)
	if err != nil {
		return invalid(err)
	}
	rules, err := cfg.Rules()
	if err != nil {
		return invalid(err)
	}
	contest := cfg.Contest()
	r.Contest = contest.Name
	name := strings.TrimSpace(contest.Name)
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if name, err = app.CleanName("election name", name); err != nil {
		r.Err = err
		return r
	}
	if _, err := svc.Election(ctx, actor, name); err == nil {
		r.Err = app.Errorf(app.CodeConflict, "an election named %q exists already; rename it or change the config's contestName (nothing was imported from %s)", name, filepath.Base(path))
		return r
	} else if app.ErrorCode(err) != app.CodeNotFound {
		r.Err = err
		return r
	}
	reading := &ContestReading{Names: contest.Names(), RecordID: rctab.RecordID}
	reading.Candidates, reading.Read = cfg.Reader(rules)
	im, err := ReadCVRs(ctx, reading.Names, cfg.CVRFileSources, CVROptions{Contest: reading, Progress: progress})
	if err != nil {
		r.Err = err
		return r
	}
	method := string(tally.IRV)
	if rules.NumberOfWinners > 1 && rules.WinnerElectionMode != tally.MultiPassIRV {
		method = string(tally.STV)
	}
	settings := map[string]string{}
	for _, s := range tally.Settings(rules) {
		settings[s.Name] = s.Value
	}
	description := fmt.Sprintf("Imported from the RCTab contest config %s", filepath.Base(path))
	if err := svc.CreateElection(ctx, actor, name, description, false); err != nil {
		r.Err = withNote(err, "nothing was imported from "+filepath.Base(path))
		return r
	}
	r.Election = name
	// From here the election exists; a failure leaves it a draft without
	// ballots, and says so.
	left := func(err error) ContestImport {
		r.Err = withNote(err, fmt.Sprintf("the draft election %q was made but holds no ballots: delete it, or import into it again", name))
		return r
	}
	// Its candidates, rules and ballots go to the election just made.
	ctx, _, err = svc.HoldElection(ctx, actor, name)
	if err != nil {
		return left(err)
	}
	if err := svc.AddCandidates(ctx, actor, name, reading.Names...); err != nil {
		return left(err)
	}
	if err := svc.UpdateElection(ctx, actor, name, 0, app.ElectionChanges{Method: &method, Rules: &settings}); err != nil {
		return left(err)
	}
	if err := im.Record(ctx, svc, actor, name, progress); err != nil {
		return left(err)
	}
	r.Import = im
	return r
}

// withNote adds a note in brackets to an error's message, keeping its code.
func withNote(err error, note string) error {
	return &app.Error{Code: app.ErrorCode(err), Message: app.ErrorMessage(err) + " (" + note + ")", Err: err}
}
