package report

import (
	"math/big"
	"strconv"
	"strings"

	"votedesk/tally"
)

// percent formats votes/total as RCTab's CSV does: divide to 7 significant
// digits rounding half-even (MathContext.DECIMAL32), keep whole hundredths
// of a percent (truncating), and print that as a Java double ("24.13%",
// "25.0%").
func percent(votes, total tally.Decimal) string {
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
