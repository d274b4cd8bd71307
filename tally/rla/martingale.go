package rla

import "math"

// mu is the null hypothesis's mean of every draw: sampling with
// replacement keeps it at 1/2 however many ballots are drawn.
const mu = 0.5

// maxOutcomes is the most kinds of draw a test tells apart: a comparison's
// five (no discrepancy, one- and two-vote over- and understatements).
const maxOutcomes = 5

// test is one assertion's test supermartingale (ALPHA's T, written as a
// bet): after draws X_1..X_n, T_n = Π (1 + λ_i (X_i - mu)), each bet λ_i
// chosen by rule from the draws before it. A draw is one of a few
// outcomes, each with its value in x. Counts are whole numbers for real
// draws; a projection (expect) advances them by fractions.
type test struct {
	x      []float64
	count  [maxOutcomes]float64
	n      float64
	sum    float64 // of the draws' values
	logT   float64 // log T_n
	logMax float64 // log of the largest T_j, j <= n (T_0 = 1)
	bet    float64 // the last bet, where the next search starts
	rule   betRule
}

// betRule chooses the bet for the next draw from the draws so far.
type betRule interface {
	next(t *test) float64
	// settled is the bet the rule settles on when the draws' outcomes
	// come in shares p, each outcome worth x.
	settled(x, p []float64) float64
	// shares is the outcome shares the rule expects of the next draws,
	// from the draws so far.
	shares(t *test) [maxOutcomes]float64
}

// add takes a draw with outcome k.
func (t *test) add(k int) {
	t.bet = t.rule.next(t)
	t.logT += math.Log1p(t.bet * (t.x[k] - mu))
	t.logMax = max(t.logMax, t.logT)
	t.count[k]++
	t.n++
	t.sum += t.x[k]
}

// expect advances the test by one draw whose outcome is k with chance
// p[k]: T grows by the bet's expected log factor, and the counts by p.
func (t *test) expect(p []float64) {
	t.bet = t.rule.next(t)
	t.logT += growth(t.x, p, t.bet)
	t.logMax = max(t.logMax, t.logT)
	for k, pk := range p {
		t.count[k] += pk
		t.sum += pk * t.x[k]
	}
	t.n++
}

// risk is the measured risk, 1/max T_j capped at 1: by Ville's inequality
// the chance that a true null ever brings it to α or below is at most α.
func (t *test) risk() float64 { return min(1, math.Exp(-t.logMax)) }

// estimate returns the outcome shares that the draws so far suggest: the
// observed counts shrunk toward prior with the weight of d draws.
func (t *test) estimate(prior []float64, d float64) [maxOutcomes]float64 {
	var p [maxOutcomes]float64
	for k := range t.x {
		p[k] = (d*prior[k] + t.count[k]) / (d + t.n)
	}
	return p
}
