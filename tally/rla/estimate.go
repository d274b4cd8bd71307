package rla

import "math"

// InitialSampleSize returns the first round's size: the fewest draws after
// which every assertion's risk would be at most the risk limit if the
// sample's log growth were what it is expected to be when draws show the
// discrepancy rates e (comparison) or the reported shares (polling); see
// the package documentation. It is at most the manifest's size, which it
// returns when no smaller sample is likely to confirm the outcome.
func (au *Audit) InitialSampleSize(e Expect) int {
	need := 0
	for _, as := range au.assertions {
		t := &test{x: as.x, rule: as.rule}
		p := planningRates(e)
		if au.kind == Polling {
			p = t.rule.shares(t) // the reported shares
		}
		n := au.drawsToConfirm(t, p, au.ballots)
		if n < 0 {
			return au.ballots
		}
		need = max(need, n)
	}
	return min(need, au.ballots)
}

// exactDraws is how far a projection goes draw by draw; beyond it, it
// goes on at the growth of its last draw.
const exactDraws = 100_000

// drawsToConfirm returns how many more draws bring test t's risk to the
// risk limit if their outcomes come in the shares p, by the expected log
// growth: each draw multiplies T by the bet's expected log factor under p,
// and the counts the next bet is chosen from advance by p. Past
// exactDraws it extrapolates at the last draw's growth. It returns -1 when
// that takes more than limit draws, or when the bet the rule settles on
// for p does not gain.
func (au *Audit) drawsToConfirm(t *test, p [maxOutcomes]float64, limit int) int {
	if t.risk() <= au.alpha {
		return 0
	}
	x, shares := t.x, p[:len(t.x)]
	if g := growth(x, shares, t.rule.settled(x, shares)); !(g > 0) {
		return -1
	}
	sim := *t
	for j := 1; j <= limit; j++ {
		before := sim.logT
		sim.expect(shares)
		if sim.risk() <= au.alpha {
			return j
		}
		if j == exactDraws {
			g := sim.logT - before
			rest := math.Ceil((math.Log(1/au.alpha) - sim.logT) / g)
			if !(g > 0) || float64(j)+rest > float64(limit) {
				return -1
			}
			return j + int(rest)
		}
	}
	return -1
}
