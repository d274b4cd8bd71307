package tally

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Decimal is an exact decimal number, unscaled × 10^-scale, with the value
// and scale semantics of Java's BigDecimal: the scale is part of the value
// (2 and 2.0000 compare equal but print differently), addition keeps the
// larger scale, multiplication adds scales. RCTab counts with BigDecimal, so
// counts printed from a Decimal match RCTab's reports digit for digit.
// The zero value is 0 with scale 0. Small values live in an int64; values
// that outgrow it move to a big.Int, so no operation overflows.
type Decimal struct {
	u     int64
	b     *big.Int // non-nil when the unscaled value does not fit in u
	scale int32
}

// RoundingMode says how a division or rescaling drops digits.
type RoundingMode int

// The rounding modes RCTab uses, with java.math.RoundingMode's meaning.
const (
	RoundDown RoundingMode = iota // toward zero
	RoundUp                       // away from zero
)

var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// NewDecimal returns unscaled × 10^-scale.
func NewDecimal(unscaled int64, scale int32) Decimal { return Decimal{u: unscaled, scale: scale} }

// DecimalInt returns the integer n with scale 0.
func DecimalInt(n int64) Decimal { return Decimal{u: n} }

// ParseDecimal reads a plain decimal string such as "15", "-0.25" or "7.2501".
func ParseDecimal(s string) (Decimal, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	intPart, frac, _ := strings.Cut(t, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return Decimal{}, errorf("%q is not a decimal number", s)
	}
	if neg {
		digits = "-" + digits
	}
	b, _ := new(big.Int).SetString(digits, 10)
	return fromBig(b, int32(len(frac))), nil
}

// Scale returns the number of digits after the decimal point.
func (d Decimal) Scale() int32 { return d.scale }

func (d Decimal) bigInt() *big.Int {
	if d.b != nil {
		return d.b
	}
	return big.NewInt(d.u)
}

func fromBig(b *big.Int, scale int32) Decimal {
	if b.IsInt64() {
		return Decimal{u: b.Int64(), scale: scale}
	}
	return Decimal{b: b, scale: scale}
}

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	if d.b != nil {
		return d.b.Sign()
	}
	switch {
	case d.u < 0:
		return -1
	case d.u > 0:
		return 1
	}
	return 0
}

// IsZero reports whether d is zero at any scale.
func (d Decimal) IsZero() bool { return d.Sign() == 0 }

// rescaleUp returns d's unscaled value at a scale raised by k digits.
func (d Decimal) rescaleUp(k int32) (int64, *big.Int) {
	if d.b == nil && k < int32(len(pow10)) {
		hi, lo := bits.Mul64(abs64(d.u), uint64(pow10[k]))
		if hi == 0 && lo <= math.MaxInt64 {
			if d.u < 0 {
				return -int64(lo), nil
			}
			return int64(lo), nil
		}
	}
	return 0, new(big.Int).Mul(d.bigInt(), bigPow10(k))
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func bigPow10(k int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
}

// align returns the unscaled values of a and b at their common (larger) scale.
func align(a, b Decimal) (au int64, ab *big.Int, bu int64, bb *big.Int, scale int32) {
	scale = max(a.scale, b.scale)
	au, ab = a.u, a.b
	bu, bb = b.u, b.b
	if a.scale < scale {
		au, ab = a.rescaleUp(scale - a.scale)
	}
	if b.scale < scale {
		bu, bb = b.rescaleUp(scale - b.scale)
	}
	return
}

// Add returns d + e with the larger of the two scales.
func (d Decimal) Add(e Decimal) Decimal {
	au, ab, bu, bb, scale := align(d, e)
	if ab == nil && bb == nil {
		s := au + bu
		if (au >= 0) == (bu >= 0) && (s >= 0) != (au >= 0) {
			return fromBig(new(big.Int).Add(big.NewInt(au), big.NewInt(bu)), scale)
		}
		return Decimal{u: s, scale: scale}
	}
	return fromBig(new(big.Int).Add(orBig(au, ab), orBig(bu, bb)), scale)
}

func orBig(u int64, b *big.Int) *big.Int {
	if b != nil {
		return b
	}
	return big.NewInt(u)
}

// Neg returns -d.
func (d Decimal) Neg() Decimal {
	if d.b != nil || d.u == math.MinInt64 {
		return fromBig(new(big.Int).Neg(d.bigInt()), d.scale)
	}
	return Decimal{u: -d.u, scale: d.scale}
}

// Sub returns d - e with the larger of the two scales.
func (d Decimal) Sub(e Decimal) Decimal { return d.Add(e.Neg()) }

// Mul returns the exact product d × e, whose scale is the sum of the scales.
func (d Decimal) Mul(e Decimal) Decimal {
	scale := d.scale + e.scale
	if d.b == nil && e.b == nil {
		hi, lo := bits.Mul64(abs64(d.u), abs64(e.u))
		if hi == 0 && lo <= math.MaxInt64 {
			p := int64(lo)
			if (d.u < 0) != (e.u < 0) {
				p = -p
			}
			return Decimal{u: p, scale: scale}
		}
	}
	return fromBig(new(big.Int).Mul(d.bigInt(), e.bigInt()), scale)
}

// MulInt returns d × n, keeping d's scale.
func (d Decimal) MulInt(n int64) Decimal { return d.Mul(Decimal{u: n}) }

// Cmp compares values (not scales): -1 if d < e, 0 if equal, +1 if d > e.
func (d Decimal) Cmp(e Decimal) int {
	au, ab, bu, bb, _ := align(d, e)
	if ab == nil && bb == nil {
		switch {
		case au < bu:
			return -1
		case au > bu:
			return 1
		}
		return 0
	}
	return orBig(au, ab).Cmp(orBig(bu, bb))
}

// SetScale returns d at the given scale, dropping digits with mode when the
// scale shrinks (BigDecimal.setScale).
func (d Decimal) SetScale(scale int32, mode RoundingMode) Decimal {
	if scale >= d.scale {
		u, b := d.rescaleUp(scale - d.scale)
		return decimalOf(u, b, scale)
	}
	k := d.scale - scale
	if d.b == nil && k < int32(len(pow10)) {
		p := pow10[k]
		q, r := d.u/p, d.u%p
		if mode == RoundUp && r != 0 {
			if d.u < 0 {
				q--
			} else {
				q++
			}
		}
		return Decimal{u: q, scale: scale}
	}
	return divRound(d.bigInt(), bigPow10(k), scale, mode)
}

func decimalOf(u int64, b *big.Int, scale int32) Decimal {
	if b != nil {
		return fromBig(b, scale)
	}
	return Decimal{u: u, scale: scale}
}

// divRound returns num/den rounded with mode, as a Decimal of the given scale
// (num and den are already at the right relative scale).
func divRound(num, den *big.Int, scale int32, mode RoundingMode) Decimal {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if mode == RoundUp && r.Sign() != 0 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return fromBig(q, scale)
}

// Div returns d / e rounded with mode to the given scale
// (BigDecimal.divide(divisor, scale, roundingMode)). It panics if e is zero,
// like integer division; callers check the divisor first.
func (d Decimal) Div(e Decimal, scale int32, mode RoundingMode) Decimal {
	// d/e = (du/10^ds)/(eu/10^es); the result's unscaled value is
	// du × 10^(scale - ds + es) / eu.
	num, den := d.bigInt(), e.bigInt()
	if k := scale - d.scale + e.scale; k >= 0 {
		num = new(big.Int).Mul(num, bigPow10(k))
	} else {
		den = new(big.Int).Mul(den, bigPow10(-k))
	}
	return divRound(num, den, scale, mode)
}

// StripZeros removes trailing fractional zeros while the scale stays at or
// above min; with min 0, 0.1500 becomes 0.15 and 100.00 becomes 100.
func (d Decimal) StripZeros(min int32) Decimal {
	b := new(big.Int).Set(d.bigInt())
	scale := d.scale
	ten, r := big.NewInt(10), new(big.Int)
	for scale > min && b.Sign() != 0 {
		q, rem := new(big.Int).QuoRem(b, ten, r)
		if rem.Sign() != 0 {
			break
		}
		b, scale = q, scale-1
	}
	if b.Sign() == 0 && scale > min {
		scale = min
	}
	return fromBig(b, scale)
}

// String formats d exactly as Java's BigDecimal.toString does: plain notation
// unless the scale is negative or the adjusted exponent is below -6, where it
// switches to scientific notation ("1E-7", "0E-8").
func (d Decimal) String() string {
	coeff := d.bigInt().String()
	neg := strings.HasPrefix(coeff, "-")
	coeff = strings.TrimPrefix(coeff, "-")
	sign := ""
	if neg {
		sign = "-"
	}
	adjusted := -int64(d.scale) + int64(len(coeff)-1)
	if d.scale >= 0 && adjusted >= -6 {
		switch {
		case d.scale == 0:
			return sign + coeff
		case len(coeff) > int(d.scale):
			p := len(coeff) - int(d.scale)
			return sign + coeff[:p] + "." + coeff[p:]
		default:
			return sign + "0." + strings.Repeat("0", int(d.scale)-len(coeff)) + coeff
		}
	}
	var sb strings.Builder
	sb.WriteString(sign)
	sb.WriteString(coeff[:1])
	if len(coeff) > 1 {
		sb.WriteString(".")
		sb.WriteString(coeff[1:])
	}
	if adjusted != 0 {
		sb.WriteString("E")
		if adjusted > 0 {
			sb.WriteString("+")
		}
		fmt.Fprintf(&sb, "%d", adjusted)
	}
	return sb.String()
}

// Rat returns d as an exact rational number.
func (d Decimal) Rat() *big.Rat {
	r := new(big.Rat).SetInt(d.bigInt())
	if d.scale > 0 {
		return r.Quo(r, new(big.Rat).SetInt(bigPow10(d.scale)))
	}
	return r.Mul(r, new(big.Rat).SetInt(bigPow10(-d.scale)))
}

// MarshalText writes d in BigDecimal.toString form.
func (d Decimal) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
