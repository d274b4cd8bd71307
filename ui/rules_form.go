package ui

import (
	"errors"
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/tally"
	"votedesk/ui/modal"
)

// ruleField is one of RCTab's rules in the form: its config name (shown
// under the field, and in the error that names a bad value), what it is in
// words, and the widget that holds its value.
type ruleField struct {
	name, label string
	get         func() string
	set         func(string)
	obj         fyne.CanvasObject
}

// RulesForm edits RCTab's counting rules (the "rules" section of an RCTab
// contest config). Each rule and each choice is said in plain words, with
// RCTab's name beside it for those who know RCTab.
type RulesForm struct {
	fields  []ruleField
	Seats   *modal.Entry
	content fyne.CanvasObject
}

// worded is a rule's option that says itself in words.
type worded interface {
	~string
	Words() string
}

// choiceField is a rule with a fixed set of options, listed as "what it
// does (configValue)".
func choiceField[T worded](name, label string, options []T) ruleField {
	labels := make([]string, len(options))
	for i, o := range options {
		labels[i] = fmt.Sprintf("%s (%s)", o.Words(), string(o))
	}
	s := modal.NewSelect(labels, nil)
	return ruleField{name: name, label: label, obj: s,
		get: func() string {
			if i := s.SelectedIndex(); i >= 0 {
				return string(options[i])
			}
			return ""
		},
		set: func(v string) {
			for i, o := range options {
				if string(o) == v {
					s.SetSelectedIndex(i)
					return
				}
			}
			s.ClearSelected()
		}}
}

func textField(name, label, hint string) ruleField {
	e := modal.NewEntry()
	e.SetPlaceHolder(hint)
	return ruleField{name: name, label: label, obj: e, get: func() string { return e.Text }, set: e.SetText}
}

func boolField(name, label string) ruleField {
	c := modal.NewCheck(fmt.Sprintf("%s (%s)", label, name), nil)
	return ruleField{name: name, label: "", obj: c,
		get: func() string { return strconv.FormatBool(c.Checked) },
		set: func(v string) { b, _ := strconv.ParseBool(v); c.SetChecked(b) }}
}

func newRulesForm() *RulesForm {
	f := &RulesForm{}
	seats := textField("numberOfWinners", "Seats", "1")
	f.Seats = seats.obj.(*modal.Entry)
	f.fields = []ruleField{
		seats,
		choiceField("winnerElectionMode", "Winners", tally.WinnerElectionModes),
		textField("multiSeatBottomsUpPercentageThreshold", "Percentage to reach", "1–100, for the last-eliminated percentage mode"),
		choiceField("overvoteRule", "A rank marking several candidates", tally.OvervoteRules),
		choiceField("tiebreakMode", "Ties", tally.TiebreakModes),
		textField("randomSeed", "Random seed", "a whole number, for the random tie-breaks"),
		textField("maxSkippedRanksAllowed", "Skipped ranks allowed", "a number, or unlimited"),
		textField("maxRankingsAllowed", "Rankings counted", "a number, or max"),
		textField("decimalPlacesForVoteArithmetic", "Decimal places", "1–20"),
		textField("minimumVoteThreshold", "Votes needed to stay in", "0"),
		textField("stopTabulationEarlyAfterRound", "Stop after round", "empty: never"),
		boolField("batchElimination", "Eliminate together all who cannot catch up"),
		boolField("continueUntilTwoCandidatesRemain", "Count on until two candidates remain"),
		boolField("exhaustOnDuplicateCandidate", "A ballot ranking a candidate twice is exhausted there"),
		boolField("nonIntegerWinningThreshold", "Threshold not rounded to a whole vote"),
		boolField("hareQuota", "Hare quota instead of Droop"),
		boolField("doesFirstRoundDetermineThreshold", "The first round fixes the threshold"),
	}
	form := widget.NewForm()
	var checks []fyne.CanvasObject
	for _, fl := range f.fields {
		if fl.label == "" {
			checks = append(checks, fl.obj)
			continue
		}
		item := widget.NewFormItem(fl.label, fl.obj)
		item.HintText = fl.name
		form.AppendItem(item)
	}
	f.content = container.NewVBox(form, container.NewVBox(checks...))
	f.Set(nil)
	return f
}

// defaultRuleValues are RCTab's defaults (tally.DefaultRules) as config
// values.
var defaultRuleValues = map[string]string{
	"numberOfWinners":                  "1",
	"winnerElectionMode":               string(tally.SingleWinnerMajority),
	"overvoteRule":                     string(tally.ExhaustImmediately),
	"tiebreakMode":                     string(tally.UseCandidateOrder),
	"maxSkippedRanksAllowed":           "1",
	"maxRankingsAllowed":               "max",
	"decimalPlacesForVoteArithmetic":   "4",
	"minimumVoteThreshold":             "0",
	"batchElimination":                 "false",
	"continueUntilTwoCandidatesRemain": "false",
	"exhaustOnDuplicateCandidate":      "false",
	"nonIntegerWinningThreshold":       "false",
	"hareQuota":                        "false",
	"doesFirstRoundDetermineThreshold": "false",
}

// Set shows RCTab's defaults overridden by rules (an election's stored
// rules).
func (f *RulesForm) Set(rules map[string]string) {
	for _, fl := range f.fields {
		v, ok := rules[fl.name]
		if !ok {
			v = defaultRuleValues[fl.name]
		}
		fl.set(v)
	}
}

// Values returns the rules that differ from RCTab's defaults.
func (f *RulesForm) Values() map[string]string {
	out := map[string]string{}
	for _, fl := range f.fields {
		if v := fl.get(); v != defaultRuleValues[fl.name] && v != "" {
			out[fl.name] = v
		}
	}
	return out
}

// Rules parses the form into tally rules; the error names every bad field.
func (f *RulesForm) Rules() (tally.Rules, error) {
	r := tally.DefaultRules()
	var errs []error
	for _, fl := range f.fields {
		v := fl.get()
		if v == "" && defaultRuleValues[fl.name] != "" {
			v = defaultRuleValues[fl.name]
		}
		s, err := tally.ParseRule(fl.name, v)
		if err != nil {
			errs = append(errs, fmt.Errorf("rule %s: %w", fl.name, errors.Unwrap(err)))
			continue
		}
		s.Apply(&r)
	}
	return r, errors.Join(errs...)
}
