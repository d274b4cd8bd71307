package ui

import (
	"errors"
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/tally"
	"votedesk/tally/rctab"
	"votedesk/ui/modal"
)

// ruleField is one of RCTab's rules in the form: its config name, what it
// is in words, and the widget that holds its value.
type ruleField struct {
	name, label string
	get         func() string
	set         func(string)
	obj         fyne.CanvasObject
}

// RulesForm edits RCTab's counting rules (the "rules" section of an RCTab
// contest config), by their config names.
type RulesForm struct {
	fields  []ruleField
	Seats   *modal.Entry
	content fyne.CanvasObject
}

func choiceField[T ~string](name, label string, options []T) ruleField {
	opts := make([]string, len(options))
	for i, o := range options {
		opts[i] = string(o)
	}
	s := widget.NewSelect(opts, nil)
	return ruleField{name: name, label: label, obj: s, get: func() string { return s.Selected }, set: s.SetSelected}
}

func textField(name, label, hint string) ruleField {
	e := modal.NewEntry()
	e.SetPlaceHolder(hint)
	return ruleField{name: name, label: label, obj: e, get: func() string { return e.Text }, set: e.SetText}
}

func boolField(name, label string) ruleField {
	c := widget.NewCheck(label, nil)
	return ruleField{name: name, label: "", obj: c,
		get: func() string { return strconv.FormatBool(c.Checked) },
		set: func(v string) { b, _ := strconv.ParseBool(v); c.SetChecked(b) }}
}

func newRulesForm() *RulesForm {
	f := &RulesForm{}
	seats := textField("numberOfWinners", "Seats (numberOfWinners)", "1")
	f.Seats = seats.obj.(*modal.Entry)
	f.fields = []ruleField{
		seats,
		choiceField("winnerElectionMode", "Winner election mode", tally.WinnerElectionModes),
		textField("multiSeatBottomsUpPercentageThreshold", "Bottoms-up threshold %", "1–100, bottomsUpUsingPercentageThreshold only"),
		choiceField("overvoteRule", "Overvote rule", tally.OvervoteRules),
		choiceField("tiebreakMode", "Tie-break mode", tally.TiebreakModes),
		textField("randomSeed", "Random seed", "for the random tie-breaks"),
		textField("maxSkippedRanksAllowed", "Max skipped ranks", "a number, or unlimited"),
		textField("maxRankingsAllowed", "Max rankings", "a number, or max"),
		textField("decimalPlacesForVoteArithmetic", "Decimal places", "1–20"),
		textField("minimumVoteThreshold", "Minimum vote threshold", "0"),
		textField("stopTabulationEarlyAfterRound", "Stop after round", "empty: never"),
		boolField("batchElimination", "Batch elimination (batchElimination)"),
		boolField("continueUntilTwoCandidatesRemain", "Continue until two candidates remain"),
		boolField("exhaustOnDuplicateCandidate", "Exhaust on duplicate candidate"),
		boolField("nonIntegerWinningThreshold", "Non-integer winning threshold"),
		boolField("hareQuota", "Hare quota"),
		boolField("doesFirstRoundDetermineThreshold", "First round determines the threshold"),
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
	f.content = container.NewVBox(form, container.NewGridWithColumns(2, checks...))
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
		s, err := rctab.ParseRule(fl.name, v)
		if err != nil {
			errs = append(errs, fmt.Errorf("rule %s: %w", fl.name, errors.Unwrap(err)))
			continue
		}
		s.Apply(&r)
	}
	return r, errors.Join(errs...)
}
