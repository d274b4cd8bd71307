package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"votedesk/app"
)

func init() {
	register(
		&command{path: "ballot cast", usage: "ballot cast ELECTION --voter NAME RANKING...   (one argument per rank, first choice first; A|B ties A and B)\n  votedesk ballot cast ELECTION --stdin   (one CSV line per ballot: voter,first,second,...; prints one confirmation code per line)",
			flags: map[string]flagKind{"voter": valueFlag, "stdin": boolFlag}, db: true, auth: true, run: ballotCast},
		&command{path: "ballot list", usage: "ballot list ELECTION", db: true, auth: true, run: ballotList},
		&command{path: "log", usage: "log [--since SEQ]", flags: map[string]flagKind{"since": valueFlag}, db: true, auth: true, run: logList},
	)
}

// parseRanking reads one argument per rank; "A|B" ties candidates at a rank
// and an empty argument skips a rank.
func parseRanking(words []string) []app.Ranking {
	var out []app.Ranking
	for i, w := range words {
		for _, name := range strings.Split(w, "|") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, app.Ranking{Candidate: name, Rank: i + 1})
			}
		}
	}
	return out
}

type receiptJSON struct {
	Election     string    `json:"election"`
	Voter        string    `json:"voter"`
	Confirmation string    `json:"confirmation"`
	WhenCast     time.Time `json:"when_cast"`
	Recast       bool      `json:"recast"`
}

func ballotCast(c *call) error {
	if err := c.args.want(1, -1, "ballot cast ELECTION --voter NAME RANKING..."); err != nil {
		return err
	}
	if c.args.flag("stdin") {
		if len(c.args.pos) != 1 || c.args.given["voter"] {
			return usagef("usage: votedesk ballot cast ELECTION --stdin")
		}
		return castStream(c, c.args.pos[0])
	}
	if c.args.str("voter") == "" {
		return usagef("ballot cast needs --voter NAME")
	}
	r, err := c.backend.Service.CastBallot(c.ctx, c.actor, app.Cast{
		Election: c.args.pos[0], Voter: c.args.str("voter"), Rankings: parseRanking(c.args.pos[1:]),
	})
	if err != nil {
		return err
	}
	return c.out(receiptJSON{Election: r.Election, Voter: r.Voter, Confirmation: r.Confirmation, WhenCast: r.WhenCast, Recast: r.Recast},
		func(w io.Writer) { fmt.Fprintln(w, r.Confirmation) })
}

type rankingJSON struct {
	Candidate string `json:"candidate"`
	Rank      int    `json:"rank"`
}

type ballotJSON struct {
	Confirmation string        `json:"confirmation"`
	Voter        string        `json:"voter,omitempty"`
	WhenCast     *time.Time    `json:"when_cast,omitempty"`
	Source       string        `json:"source,omitempty"`
	Rankings     []rankingJSON `json:"rankings"`
}

func ballotList(c *call) error {
	if err := c.args.want(1, 1, "ballot list ELECTION"); err != nil {
		return err
	}
	// A page at a time: a million ballots read whole took 1.7 GB.
	l, err := c.backend.Service.ListBallots(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	// The columns are as wide as the whole list's widest cells: every page
	// is laid out alike.
	width, voters := len("CONFIRMATION"), max(len("VOTER"), l.VoterWidth())
	for i := range l.Len() {
		width = max(width, len(l.Code(i)))
	}
	return outPages(c, l.Len(), func(from, to int) ([]app.Ballot, error) { return l.Rows(c.ctx, from, to) },
		func(b app.Ballot) any {
			j := ballotJSON{Confirmation: b.Confirmation, Voter: b.Voter, Source: b.Source, Rankings: make([]rankingJSON, len(b.Rankings))}
			if !b.WhenCast.IsZero() {
				t := b.WhenCast
				j.WhenCast = &t
			}
			for k, r := range b.Rankings {
				j.Rankings[k] = rankingJSON{Candidate: r.Candidate, Rank: r.Rank}
			}
			return j
		},
		func(w io.Writer, first bool, page []app.Ballot) {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			if first {
				fmt.Fprintf(tw, "%-*s\t%-*s\tRANKING\n", width, "CONFIRMATION", voters, "VOTER")
			}
			for _, b := range page {
				fmt.Fprintf(tw, "%-*s\t%-*s\t%s\n", width, b.Confirmation, voters, b.Voter, FormatRanking(b.Rankings))
			}
			tw.Flush()
		})
}

// FormatRanking writes rankings for people, as the command line takes them
// ("A > B|C > D"), with what only a cast vote record holds shown as such:
// "A > (skipped) > (overvote) > A".
func FormatRanking(r []app.Ranking) string {
	var b strings.Builder
	rank := 1
	for i, x := range r {
		switch {
		case i > 0 && x.Rank == r[i-1].Rank:
			b.WriteString("|")
		case i > 0:
			b.WriteString(" > ")
		}
		for ; rank < x.Rank; rank++ { // a skipped rank, as cast
			b.WriteString("(skipped) > ")
		}
		b.WriteString(x.Label())
		rank = x.Rank + 1
	}
	return b.String()
}

func logList(c *call) error {
	if err := c.args.want(0, 0, "log [--since SEQ]"); err != nil {
		return err
	}
	since := uint64(1)
	if s := c.args.str("since"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return usagef("--since takes a sequence number, not %q", s)
		}
		since = max(n, 1)
	}
	var tw *tabwriter.Writer
	if !c.json {
		tw = tabwriter.NewWriter(c.deps.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SEQ\tWHEN\tACTOR\tTYPE\tDETAILS")
	}
	err := c.backend.Service.Log(c.ctx, c.actor, since, func(ev *app.Event) error {
		if c.json {
			b, err := app.EncodeEvent(ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(c.deps.Stdout, "%s\n", b)
			return err
		}
		_, err := fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", ev.Seq, ev.When.Local().Format("2006-01-02 15:04:05"), ev.Actor, ev.Type, ev.Display())
		return err
	})
	if tw != nil {
		tw.Flush()
	}
	return err
}

// castStream casts one ballot per CSV line of standard input (voter, then one
// field per rank), printing each confirmation code as soon as the ballot is
// durably stored. A refused line is reported with its line number and the
// others go on; the exit status is 1 if any line was refused.
func castStream(c *call, election string) error {
	if stop, err := c.backend.Store.ServeControl(c.backupGate()); err == nil {
		defer stop()
	}
	// A feed, as from a polling place: each line is cast as it comes and its
	// receipt printed at once (a printed code is a stored ballot), so a
	// line that is not CSV stops the feed after the lines before it.
	r := csv.NewReader(c.deps.Stdin)
	r.FieldsPerRecord = -1
	refused, lines := 0, 0
	for line := 1; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := fmt.Sprintf("standard input, line %d: %v; nothing from it on was cast", line, err)
			if cast := lines - refused; cast > 0 {
				return &partialError{fmt.Sprintf("%s (the %d ballot(s) before it were: their codes are printed)", msg, cast)}
			}
			return app.Errorf(app.CodeInvalid, "%s", msg)
		}
		lines++
		if len(rec) == 0 || strings.TrimSpace(rec[0]) == "" {
			fmt.Fprintf(c.deps.Stderr, "votedesk: line %d: no voter\n", line)
			refused++
			continue
		}
		rc, err := c.backend.Service.CastBallot(c.ctx, c.actor, app.Cast{Election: election, Voter: rec[0], Rankings: parseRanking(rec[1:])})
		if err != nil {
			fmt.Fprintf(c.deps.Stderr, "votedesk: line %d: %s\n", line, app.ErrorMessage(err))
			refused++
			continue
		}
		if c.json {
			b, _ := json.Marshal(receiptJSON{Election: rc.Election, Voter: rc.Voter, Confirmation: rc.Confirmation, WhenCast: rc.WhenCast, Recast: rc.Recast})
			fmt.Fprintf(c.deps.Stdout, "%s\n", b)
		} else {
			fmt.Fprintln(c.deps.Stdout, rc.Confirmation)
		}
	}
	if refused > 0 && refused < lines {
		return &partialError{fmt.Sprintf("%d of %d ballot(s) refused (each named above); the other %d were cast", refused, lines, lines-refused)}
	}
	if refused > 0 {
		return app.Errorf(app.CodeInvalid, "%d ballot(s) refused", refused)
	}
	return nil
}
