package app

import "maps"

// Settings returns the election's settings as changes that would set them
// all: what an edit is made against (its Base).
func (e Election) Settings() ElectionChanges {
	before, after := "", ""
	if !e.NoVotingBefore.IsZero() {
		before = FormatTime(e.NoVotingBefore)
	}
	if !e.NoVotingAfter.IsZero() {
		after = FormatTime(e.NoVotingAfter)
	}
	rules := maps.Clone(e.Rules)
	if rules == nil {
		rules = map[string]string{}
	}
	retain := e.RetentionMonths()
	return ElectionChanges{Description: &e.Description, Secret: &e.Secret, NoVotingBefore: &before, NoVotingAfter: &after,
		AllowEdit: &e.AllowEdit, AllowRecast: &e.AllowRecast, Method: &e.Method, Rules: &rules, RetainMonths: &retain}
}

// BaseOf returns, for each setting the changes touch, the value it has in
// e: what a signed edit records it was made against.
func (c ElectionChanges) BaseOf(e Election) *ElectionChanges {
	all := e.Settings()
	var base ElectionChanges
	for _, f := range c.fields() {
		f.copy(&base, all)
	}
	return &base
}

// changeField is one setting an edit may change.
type changeField struct {
	name  string
	equal func(a, b ElectionChanges) bool
	copy  func(dst *ElectionChanges, src ElectionChanges)
}

// fields lists the settings the changes touch.
func (c ElectionChanges) fields() []changeField {
	var out []changeField
	add := func(set bool, f changeField) {
		if set {
			out = append(out, f)
		}
	}
	add(c.Description != nil, changeField{"the description", func(a, b ElectionChanges) bool { return eqPtr(a.Description, b.Description) },
		func(d *ElectionChanges, s ElectionChanges) { d.Description = s.Description }})
	add(c.Secret != nil, changeField{"the secret-ballot setting", func(a, b ElectionChanges) bool { return eqPtr(a.Secret, b.Secret) },
		func(d *ElectionChanges, s ElectionChanges) { d.Secret = s.Secret }})
	add(c.NoVotingBefore != nil, changeField{"the opening of the voting window", func(a, b ElectionChanges) bool { return eqPtr(a.NoVotingBefore, b.NoVotingBefore) },
		func(d *ElectionChanges, s ElectionChanges) { d.NoVotingBefore = s.NoVotingBefore }})
	add(c.NoVotingAfter != nil, changeField{"the close of the voting window", func(a, b ElectionChanges) bool { return eqPtr(a.NoVotingAfter, b.NoVotingAfter) },
		func(d *ElectionChanges, s ElectionChanges) { d.NoVotingAfter = s.NoVotingAfter }})
	add(c.AllowEdit != nil, changeField{"allow-edit", func(a, b ElectionChanges) bool { return eqPtr(a.AllowEdit, b.AllowEdit) },
		func(d *ElectionChanges, s ElectionChanges) { d.AllowEdit = s.AllowEdit }})
	add(c.AllowRecast != nil, changeField{"allow-recast", func(a, b ElectionChanges) bool { return eqPtr(a.AllowRecast, b.AllowRecast) },
		func(d *ElectionChanges, s ElectionChanges) { d.AllowRecast = s.AllowRecast }})
	add(c.Method != nil, changeField{"the counting method", func(a, b ElectionChanges) bool { return eqPtr(a.Method, b.Method) },
		func(d *ElectionChanges, s ElectionChanges) { d.Method = s.Method }})
	add(c.Rules != nil, changeField{"the counting rules", func(a, b ElectionChanges) bool {
		return a.Rules != nil && b.Rules != nil && maps.Equal(*a.Rules, *b.Rules)
	}, func(d *ElectionChanges, s ElectionChanges) { d.Rules = s.Rules }})
	add(c.RetainMonths != nil, changeField{"the retention period", func(a, b ElectionChanges) bool { return eqPtr(a.RetainMonths, b.RetainMonths) },
		func(d *ElectionChanges, s ElectionChanges) { d.RetainMonths = s.RetainMonths }})
	return out
}

func eqPtr[T comparable](a, b *T) bool { return a != nil && b != nil && *a == *b }
