package rctab

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"votedesk/tally"
	"votedesk/tally/cvr"
)

// UndeclaredWriteIns is the name RCTab gives the undeclared write-in entry.
const UndeclaredWriteIns = "Undeclared Write-ins"

// Contest returns the contest the config describes: its candidates in
// config order, then the undeclared write-in entry when any source labels
// undeclared write-ins.
func (c *Config) Contest() tally.Contest {
	ct := tally.Contest{Name: c.OutputSettings.ContestName}
	for _, cand := range c.Candidates {
		ct.Candidates = append(ct.Candidates, tally.Candidate{
			Name: strings.TrimSpace(cand.Name), Code: cand.Code, Excluded: cand.Excluded,
		})
	}
	for _, s := range c.CVRFileSources {
		if s.UndeclaredWriteInLabel != "" || s.TreatBlankAsUndeclaredWriteIn {
			ct.Candidates = append(ct.Candidates, tally.Candidate{Name: UndeclaredWriteIns, UndeclaredWriteIn: true})
			break
		}
	}
	return ct
}

// Lookup maps a name, code or alias as written in a CVR to a candidate
// number of the config's contest.
func (c *Config) Lookup() map[string]uint16 {
	m := map[string]uint16{}
	for i, cand := range c.Candidates {
		for _, n := range append([]string{cand.Name, cand.Code}, cand.Aliases...) {
			if n = strings.TrimSpace(n); n != "" {
				m[n] = uint16(i)
			}
		}
	}
	return m
}

// ignoredRules are rules-section fields that do not affect counting
// (descriptive text, or settings RCTab moved to each CVR source).
var ignoredRules = map[string]bool{
	"rulesDescription": true, "treatBlankAsUndeclaredWriteIn": true, "overvoteLabel": true,
	"undervoteLabel": true, "undeclaredWriteInLabel": true,
}

// unsupportedRules are rules of newer RCTab versions that change the count
// and that VoteDesk does not implement: set to anything but off, the config
// is refused rather than counted differently from RCTab.
var unsupportedRules = map[string]bool{"cutoffElimination": true}

// Rules returns the counting rules of the config's "rules" section on top
// of RCTab's defaults, checked as RCTab checks them. Errors name the field.
func (c *Config) Rules() (tally.Rules, error) {
	r := tally.DefaultRules()
	names := make([]string, 0, len(c.RawRules))
	for n := range c.RawRules {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		if ignoredRules[name] {
			continue
		}
		if !tally.IsRuleName(name) {
			if unsupportedRules[name] {
				var v text
				if json.Unmarshal(c.RawRules[name], &v) == nil && (v == "" || strings.EqualFold(string(v), "false")) {
					continue // off: counts as without it
				}
				errs = append(errs, fmt.Errorf("rules.%s is set, and VoteDesk does not count under it yet; count this contest with RCTab, or remove the rule if it should not apply", name))
			}
			continue // RCTab ignores fields it does not know
		}
		var v text
		if err := json.Unmarshal(c.RawRules[name], &v); err != nil {
			errs = append(errs, fmt.Errorf("rules.%s: %w", name, err))
			continue
		}
		s, err := tally.ParseRule(name, string(v))
		if err != nil {
			var bad *tally.RuleValueError
			if errors.As(err, &bad) {
				err = fmt.Errorf("rules.%s: %w", name, bad.Err)
			}
			errs = append(errs, err)
			continue
		}
		s.Apply(&r)
	}
	if err := errors.Join(errs...); err != nil {
		return r, errorf("config %s: %w", c.Path, err)
	}
	if err := c.checkRules(r); err != nil {
		return r, errorf("config %s: %w", c.Path, err)
	}
	return r, nil
}

// checkRules adds the checks that tie rules to the rest of the config.
func (c *Config) checkRules(r tally.Rules) error {
	var errs []error
	if r.NeedsRandomSeed() {
		if raw, ok := c.RawRules["randomSeed"]; !ok || strings.Trim(string(raw), `" `) == "" {
			errs = append(errs, fmt.Errorf("rules.randomSeed is required when tiebreakMode is %s", r.TiebreakMode))
		}
	}
	for i, s := range c.CVRFileSources {
		if s.OvervoteLabel != "" && r.OvervoteRule == tally.ExhaustIfMultipleContinuing {
			errs = append(errs, fmt.Errorf("cvrFileSources[%d].overvoteLabel: with an overvote label, overvoteRule must be %s or %s",
				i, tally.ExhaustImmediately, tally.AlwaysSkipToNextRank))
		}
	}
	if c.OutputSettings.TabulateByPrecinct {
		for i, s := range c.CVRFileSources {
			if s.Provider == cvr.FormatCDF {
				errs = append(errs, fmt.Errorf("outputSettings.tabulateByPrecinct can't be used with CDF source cvrFileSources[%d]", i))
			}
		}
	}
	if err := r.Validate(c.Contest().DeclaredCount()); err != nil {
		errs = append(errs, fmt.Errorf("rules: %w", err))
	}
	return errors.Join(errs...)
}
