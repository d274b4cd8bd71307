package report

import (
	"math/big"
	"strconv"
	"strings"

	"votedesk/tally"
)

// This file is the one way a count's numbers are written for people: every
// screen, report and command formats votes, shares and places here, so the
// GUI, the CLI, the HTML report and RCTab's CSV never disagree in a digit.

// Percent formats votes/total as RCTab's CSV does: divide to 7 significant
// digits rounding half-even (MathContext.DECIMAL32), keep whole hundredths
// of a percent (truncating), and print that as a Java double ("24.13%",
// "25.0%"). A zero total gives "".
func Percent(votes, total tally.Decimal) string {
	if total.IsZero() {
		return ""
	}
	q := new(big.Rat).Quo(votes.Rat(), total.Rat())
	hundredths := int64(0)
	if q.Sign() != 0 {
		hundredths = truncatedHundredths(q)
	}
	s := strconv.FormatFloat(float64(hundredths)/100.0, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s + "%"
}

// ShareDivisor is what a candidate's votes in round i of rounds are a share
// of, as RCTab's reports state it: the round's active ballots where the
// winning threshold is worked out again each round (single-winner majority,
// bottoms-up percentage, without a first-round threshold), else the first
// round's.
func ShareDivisor(r tally.Rules, rounds []tally.Round, i int) tally.Decimal {
	if SharePerRound(r) {
		return rounds[i].Active
	}
	return rounds[0].Active
}

// SharePerRound reports whether shares under rules r are of each round's
// active ballots (else of the first round's); see ShareDivisor.
func SharePerRound(r tally.Rules) bool {
	return (r.WinnerElectionMode == tally.SingleWinnerMajority ||
		r.WinnerElectionMode == tally.BottomsUpUsingPercentageThreshold) &&
		!r.DoesFirstRoundDetermineThreshold
}

// Share formats candidate c's share of round i, as Percent of ShareDivisor;
// "" when c is not counted in the round.
func Share(r tally.Rules, rounds []tally.Round, i, c int) string {
	v, in := rounds[i].VotesOf(c)
	if !in {
		return ""
	}
	return Percent(v, ShareDivisor(r, rounds, i))
}

// Votes writes a tally for people: digits grouped in threes, no trailing
// fractional zeros ("4,821", "1,204.5").
func Votes(d tally.Decimal) string { return Thousands(d.StripZeros(0).String()) }

// Thousands groups the digits of a decimal number's whole part in threes.
func Thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Ordinal writes 1 as "1st", 2 as "2nd", 11 as "11th", 23 as "23rd".
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// truncatedHundredths rounds q to 7 significant digits (half-even) and
// returns trunc(q × 10000).
func truncatedHundredths(q *big.Rat) int64 {
	neg := q.Sign() < 0
	a := new(big.Rat).Abs(q)
	// e is the decimal exponent of a's leading digit: 10^e <= a < 10^(e+1).
	e := len(a.Num().String()) - len(a.Denom().String())
	for pow10Rat(e).Cmp(a) > 0 {
		e--
	}
	for pow10Rat(e+1).Cmp(a) <= 0 {
		e++
	}
	x := new(big.Rat).Mul(a, pow10Rat(6-e))
	m, rem := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	twice := new(big.Int).Mul(rem, big.NewInt(2))
	if c := twice.Cmp(x.Denom()); c > 0 || (c == 0 && m.Bit(0) == 1) {
		m.Add(m, big.NewInt(1))
	}
	// The rounded value is m × 10^(e-6); times 10^4 is m × 10^(e-2).
	var t *big.Int
	if e-2 >= 0 {
		t = new(big.Int).Mul(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e-2)), nil))
	} else {
		t = new(big.Int).Quo(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(2-e)), nil))
	}
	if neg {
		t.Neg(t)
	}
	return t.Int64()
}

func pow10Rat(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e >= 0 {
		return new(big.Rat).SetInt(p)
	}
	return new(big.Rat).SetFrac(big.NewInt(1), p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
