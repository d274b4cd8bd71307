package rla

import "math"

// maxBet is the largest bet: just under 1/mu, so a draw of value 0 never
// takes the whole stake.
const maxBet = (1 - 1e-6) / mu

// shrinkTrunc is ALPHA's truncated shrinkage estimator of the mean (Stark
// 2023, section 2.5.2), for values in [0, u]: η = the sample mean shrunk
// toward eta0 with the weight of d draws, kept at least mu + c/sqrt(d+n)
// and below u; the bet is λ = (η/mu - 1)/(u - mu). It expects the
// outcomes in the shares prior (whose mean is eta0), shrunk likewise
// toward the draws'.
type shrinkTrunc struct {
	eta0, d, c, u float64
	prior         []float64
}

func (s shrinkTrunc) shares(t *test) [maxOutcomes]float64 { return t.estimate(s.prior, s.d) }

func (s shrinkTrunc) next(t *test) float64 {
	eta := (s.d*s.eta0 + t.sum) / (s.d + t.n)
	eta = max(eta, mu+s.c/math.Sqrt(s.d+t.n))
	eta = min(eta, s.u*(1-1e-6))
	return s.bet(eta)
}

// bet is ALPHA's bet for the estimated mean eta.
func (s shrinkTrunc) bet(eta float64) float64 { return (eta/mu - 1) / (s.u - mu) }

func (s shrinkTrunc) settled(x, p []float64) float64 {
	mean := 0.0
	for k, pk := range p {
		mean += pk * x[k]
	}
	return s.bet(min(max(mean, mu), s.u*(1-1e-6)))
}

// kelly bets what maximizes the expected log growth of T when the draws'
// outcomes come in the shares estimated from the draws so far (the counts
// shrunk toward prior with the weight of d draws): Kelly's bet, as in
// Spertus's COBRA for comparison audits.
type kelly struct {
	prior []float64
	d     float64
}

func (k kelly) shares(t *test) [maxOutcomes]float64 { return t.estimate(k.prior, k.d) }

func (k kelly) next(t *test) float64 {
	p := k.shares(t)
	return bestBet(t.x, p[:len(t.x)], t.bet)
}

func (k kelly) settled(x, p []float64) float64 { return bestBet(x, p, 1) }

// bestBet returns the λ in [0, maxBet] maximizing g(λ) = Σ p_k log(1 +
// λ(x_k - mu)), a concave function: 0 when g falls from the start (the
// shares give a mean of at most mu), else where its slope is zero, found
// by Newton's method from start, kept inside a shrinking bracket.
func bestBet(x, p []float64, start float64) float64 {
	slope := func(l float64) (g1, g2 float64) {
		for k, pk := range p {
			if pk == 0 {
				continue
			}
			d := x[k] - mu
			q := d / (1 + l*d)
			g1 += pk * q
			g2 -= pk * q * q
		}
		return g1, g2
	}
	if g1, _ := slope(0); g1 <= 0 {
		return 0
	}
	if g1, _ := slope(maxBet); g1 >= 0 {
		return maxBet
	}
	lo, hi, l := 0.0, maxBet, start
	if !(l > lo && l < hi) {
		l = hi / 2
	}
	for range 100 {
		g1, g2 := slope(l)
		if g1 > 0 {
			lo = l
		} else {
			hi = l
		}
		next := l - g1/g2
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-l) <= 1e-13 {
			return next
		}
		l = next
	}
	return l
}

// growth is the expected log growth per draw of a bet λ when the outcomes
// come in shares p.
func growth(x, p []float64, l float64) float64 {
	g := 0.0
	for k, pk := range p {
		if pk > 0 {
			g += pk * math.Log1p(l*(x[k]-mu))
		}
	}
	return g
}
