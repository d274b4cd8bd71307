package report

import (
	_ "embed"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"votedesk/tally"
)

// HTML is everything a results report for people shows: the count, what it
// was counted from and how, and where to check it.
type HTML struct {
	Header      Header
	Description string
	// Preliminary, when set, says why the results are not final (the
	// election is still open, say); the report carries it as a banner
	// headed StandingLabel ("Unofficial", say; "Preliminary" when empty).
	Preliminary, StandingLabel string
	Generated                  time.Time
	Contest                    tally.Contest
	Rules                      tally.Rules
	Result                     tally.Result
	// Ballots is the number of ballots counted.
	Ballots uint64
	// RuleSettings are the rules as "name=value" lines (RuleText), and
	// Inputs the digests of what was counted.
	RuleSettings string
	Inputs       []Input
	// LogSeq and LogHash are the position in the event log the count
	// reflects.
	LogSeq  uint64
	LogHash string
}

// Input is one thing a count was computed from and its SHA-256.
type Input struct {
	Name   string
	SHA256 string
	// Detail says exactly which bytes were hashed, so anyone can check,
	// and Command, when set, is the command that writes them.
	Detail  string
	Command string
}

//go:embed html.tmpl
var htmlTemplate string

// reportCSS is the style every HTML report shares.
//
//go:embed report.css
var reportCSS string

// htmlFuncs are the functions the HTML reports' templates use.
var htmlFuncs = template.FuncMap{
	"thousands": Thousands,
	"css":       func() template.CSS { return template.CSS(reportCSS) },
}

var htmlPage = template.Must(template.New("report").Funcs(htmlFuncs).Parse(htmlTemplate))

// WriteHTML writes a results report as one self-contained HTML page (no
// external fonts, scripts or images: charts are inline SVG) that reads well
// on screen and prints as a document: the winners, the facts of the count,
// round by round with a bar chart per round and the flow of transferred
// votes (ranked-choice methods), or the places, scores and pairwise
// preferences (the others), the rules used, and the digests and log
// position that let anyone check it.
func WriteHTML(w io.Writer, h HTML) error {
	return htmlPage.Execute(w, newPage(h))
}

// page is what the template shows.
type page struct {
	HTML
	Title       string
	MethodName  string
	Winners     []string
	WinnerLabel string
	Facts       []fact
	Passes      []passView
	Places      []placeView
	Scores      template.HTML
	Matrix      *matrixView
	RuleRows    []fact
	TieBreaks   []string
	Generated   string
}

type fact struct{ Label, Value string }

// RuleText writes a method and rules as the lines a report states and
// hashes: "method=M", then every rule as "name=value" (RCTab names), sorted.
func RuleText(m tally.Method, settings [][2]string) string {
	var b strings.Builder
	b.WriteString("method=" + string(m) + "\n")
	sorted := append([][2]string(nil), settings...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i][0] < sorted[j][0] })
	for _, s := range sorted {
		b.WriteString(s[0] + "=" + s[1] + "\n")
	}
	return b.String()
}

func newPage(h HTML) page {
	p := page{HTML: h, Title: h.Header.Contest, MethodName: MethodName(h.Result.Method)}
	if p.Title == "" {
		p.Title = h.Contest.Name
	}
	if !h.Generated.IsZero() {
		p.Generated = h.Generated.UTC().Format("2 January 2006, 15:04 MST")
	}
	name := func(c int) string { return h.Contest.Candidates[c].Name }
	for _, c := range h.Result.Winners {
		p.Winners = append(p.Winners, name(c))
	}
	p.WinnerLabel = "Winner"
	if len(p.Winners) > 1 {
		p.WinnerLabel = "Winners"
	}
	p.Facts = append(p.Facts, fact{"Ballots counted", Thousands(strconv.FormatUint(h.Ballots, 10))})
	p.Facts = append(p.Facts, fact{"Candidates", strconv.Itoa(len(h.Contest.Candidates))})
	if n := h.Rules.NumberOfWinners; len(h.Result.Passes) > 0 && n > 1 {
		p.Facts = append(p.Facts, fact{"Seats", strconv.Itoa(n)})
	}
	for i, pass := range h.Result.Passes {
		p.Passes = append(p.Passes, newPassView(h, i, pass))
	}
	if len(p.Passes) == 1 {
		pv := p.Passes[0]
		p.Facts = append(p.Facts, fact{"Rounds", strconv.Itoa(len(pv.Rounds))})
		if pv.FirstActive != "" {
			p.Facts = append(p.Facts, fact{"Votes in round 1", pv.FirstActive})
		}
		if pv.NoRankings != "" && pv.NoRankings != "0" {
			p.Facts = append(p.Facts, fact{"Ballots with no rankings", pv.NoRankings})
		}
		p.Facts = append(p.Facts, fact{"Final threshold", pv.FinalThreshold})
	}
	if len(h.Result.Passes) == 0 {
		p.Places, p.Scores, p.Matrix = placesView(h)
	}
	for _, s := range strings.Split(strings.TrimSpace(h.RuleSettings), "\n") {
		if k, v, ok := strings.Cut(s, "="); ok && k != "method" {
			if v == "" {
				v = "(none)"
			}
			p.RuleRows = append(p.RuleRows, fact{k, v})
		}
	}
	for _, tb := range h.Result.TieBreaks {
		p.TieBreaks = append(p.TieBreaks, tb.Text(name))
	}
	return p
}

// MethodName is a counting method's name as a report prints it.
func MethodName(m tally.Method) string {
	switch m {
	case tally.IRV:
		return "Instant-runoff voting (IRV)"
	case tally.STV:
		return "Single transferable vote (STV)"
	case tally.Schulze:
		return "Schulze method"
	case tally.RankedPairs:
		return "Ranked pairs (winning votes)"
	case tally.RankedPairsMargin:
		return "Ranked pairs (margins)"
	case tally.Copeland:
		return "Copeland method"
	case tally.Minimax:
		return "Minimax (winning votes)"
	case tally.MinimaxMargin:
		return "Minimax (margins)"
	case tally.MinimaxOpposition:
		return "Minimax (pairwise opposition)"
	case tally.Kemeny:
		return "Kemeny–Young method"
	case tally.Borda:
		return "Borda count"
	case tally.Dowdall:
		return "Dowdall (Nauru) count"
	case tally.Plurality:
		return "Plurality"
	}
	return string(m)
}

// toFloat is a decimal as a float, for drawing.
func toFloat(d tally.Decimal) float64 {
	f, _ := d.Rat().Float64()
	return f
}
