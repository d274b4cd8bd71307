package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
)

//go:embed rla.tmpl
var auditTemplate string

var auditPage = template.Must(template.New("audit").Funcs(htmlFuncs).Funcs(template.FuncMap{
	"inc":  func(i int) int { return i + 1 },
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"where": func(d AuditDraw) string {
		var parts []string
		for _, p := range []string{d.Container, d.Tabulator} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		parts = append(parts, "batch "+d.Batch, fmt.Sprintf("ballot %d", d.Position))
		return strings.Join(parts, " · ")
	},
	"marks": func(ranks []string, missing bool, missingText string) string {
		if missing {
			return missingText
		}
		if len(ranks) == 0 {
			return "—"
		}
		out := make([]string, len(ranks))
		for i, r := range ranks {
			if r == "" {
				r = "(skipped)"
			}
			out[i] = fmt.Sprintf("%d. %s", i+1, r)
		}
		return strings.Join(out, "  ")
	},
	"overs": func(os []float64) string {
		out := make([]string, len(os))
		for i, o := range os {
			out[i] = fmt.Sprintf("#%d: %+g", i+1, o)
		}
		return strings.Join(out, ", ")
	},
}).Parse(auditTemplate))

// auditView is what the audit template shows.
type auditView struct {
	Audit
	KindName, VerdictClass, VerdictLabel, RiskText, LimitText string
	Comparison                                                bool
	Facts                                                     []fact
	TreesSVG                                                  template.HTML
	Discrepant                                                []AuditDraw
	Generated                                                 string
}

// WriteAuditHTML writes the audit's report as one self-contained HTML page
// (inline SVG, no external resources): the verdict, the assertions with
// their risk and discrepancies, the elimination trees, the risk after each
// round, every discrepancy, the sample, and how to check it all.
func WriteAuditHTML(w io.Writer, a Audit) error {
	v := auditView{Audit: a, Comparison: a.Kind == "comparison", Generated: a.Generated.UTC().Format(time.RFC3339),
		RiskText: fmt.Sprintf("%.4f", a.Risk), LimitText: strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", a.RiskLimit*100), "0"), ".") + "%"}
	v.KindName = map[bool]string{true: "ballot-level comparison", false: "ballot polling"}[v.Comparison]
	switch {
	case a.Problem != "":
		v.VerdictClass, v.VerdictLabel = "escalate", "Audit stopped"
	case a.Confirmed:
		v.VerdictClass, v.VerdictLabel = "confirmed", "Outcome confirmed"
	case a.FullHandCount:
		v.VerdictClass, v.VerdictLabel = "escalate", "Full hand count required"
	default:
		v.VerdictClass, v.VerdictLabel = "open", "Audit in progress"
	}
	read := 0
	for _, d := range a.Draws {
		if d.State == "agreed" || d.State == "settled" {
			read++
		}
		if d.Discrepant() {
			v.Discrepant = append(v.Discrepant, d)
		}
	}
	v.Facts = []fact{
		{"Risk limit", v.LimitText},
		{"Rounds", fmt.Sprint(len(a.Rounds))},
		{"Draws", Thousands(fmt.Sprint(len(a.Draws)))},
		{"Read", Thousands(fmt.Sprint(read))},
		{"Manifest ballots", Thousands(fmt.Sprint(a.Ballots))},
		{"Cast vote records", Thousands(fmt.Sprint(a.Records))},
	}
	var svg bytes.Buffer
	if err := WriteEliminationTreesSVG(&svg, a.Trees, a.Candidates, func(i int) string {
		if i < len(a.Assertions) {
			return a.Assertions[i].Explanation
		}
		return ""
	}); err != nil {
		return err
	}
	v.TreesSVG = template.HTML(svg.String())
	return auditPage.Execute(w, v)
}
