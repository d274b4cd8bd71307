package tally

import (
	"math"
	"math/big"
	"testing"
)

// TestDecimalString checks Java BigDecimal.toString's plain and scientific
// forms.
func TestDecimalString(t *testing.T) {
	cases := []struct {
		name string
		d    Decimal
		want string
	}{
		{"WholeNumber", DecimalInt(29), "29"},
		{"TrailingZerosKept", NewDecimal(30000, 4), "3.0000"},
		{"ZeroWithScale", NewDecimal(0, 4), "0.0000"},
		{"Negative", NewDecimal(-7499, 4), "-0.7499"},
		{"LeadingZeros", NewDecimal(3, 4), "0.0003"},
		{"SixZerosStillPlain", NewDecimal(1, 7), "1E-7"},
		{"AdjustedMinusSixPlain", NewDecimal(1, 6), "0.000001"},
		{"ZeroPastSixPlaces", NewDecimal(0, 8), "0E-8"},
		{"ScientificWithFraction", NewDecimal(12, 9), "1.2E-8"},
		{"NegativeScale", NewDecimal(5, -2), "5E+2"},
		{"Big", NewDecimal(math.MaxInt64, 0).Add(DecimalInt(1)), "9223372036854775808"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDecimalArithmetic checks the scale rules and rounding RCTab relies on.
func TestDecimalArithmetic(t *testing.T) {
	cases := []struct {
		name string
		got  Decimal
		want string
	}{
		{"AddKeepsLargerScale", DecimalInt(8).Add(NewDecimal(0, 4)), "8.0000"},
		{"SubTakesLargerScale", NewDecimal(72501, 4).Sub(DecimalInt(8)), "-0.7499"},
		{"MulAddsScales", NewDecimal(2499, 4).Mul(NewDecimal(3999, 4)), "0.09993501"},
		{"SetScaleTruncates", NewDecimal(9993501, 8).SetScale(4, RoundDown), "0.0999"},
		{"SetScaleNegativeTruncatesTowardZero", NewDecimal(-9993501, 8).SetScale(4, RoundDown), "-0.0999"},
		{"DivDown", NewDecimal(14996, 4).Div(NewDecimal(37497, 4), 4, RoundDown), "0.3999"},
		{"DivDownWhole", DecimalInt(29).Div(DecimalInt(4), 0, RoundDown), "7"},
		{"DivUp", DecimalInt(29).Div(DecimalInt(3), 0, RoundUp), "10"},
		{"DivUpExactStays", DecimalInt(30).Div(DecimalInt(3), 0, RoundUp), "10"},
		{"DivNonInteger", DecimalInt(29).Div(DecimalInt(4), 4, RoundDown), "7.2500"},
		{"StripZerosToMin", NewDecimal(1500, 4).StripZeros(0), "0.15"},
		{"StripZerosWhole", NewDecimal(100, 2).StripZeros(0), "1"},
		{"OverflowToBig", DecimalInt(math.MaxInt64).Mul(DecimalInt(10)), "92233720368547758070"},
		{"BigBackToSmall", DecimalInt(math.MaxInt64).Mul(DecimalInt(10)).Sub(DecimalInt(math.MaxInt64).Mul(DecimalInt(9))), "9223372036854775807"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if s := tc.got.String(); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}

// TestParseDecimal checks parsing and its errors.
func TestParseDecimal(t *testing.T) {
	for _, ok := range []string{"15", "-0.25", "7.2501", "+3", ".5"} {
		t.Run("Parses "+ok, func(t *testing.T) {
			if _, err := ParseDecimal(ok); err != nil {
				t.Error(err)
			}
		})
	}
	for _, bad := range []string{"", "x", "1.2.3", "1e5", "-"} {
		t.Run("Refuses "+bad, func(t *testing.T) {
			if _, err := ParseDecimal(bad); err == nil {
				t.Errorf("%q parsed", bad)
			}
		})
	}
}

// FuzzDecimalArithmetic checks Add, Sub, Mul, Cmp and Div against exact
// rational arithmetic.
func FuzzDecimalArithmetic(f *testing.F) {
	f.Add(int64(72501), int8(4), int64(8), int8(0), uint8(4))
	f.Add(int64(math.MaxInt64), int8(0), int64(math.MinInt64), int8(3), uint8(20))
	f.Fuzz(func(t *testing.T, a int64, as int8, b int64, bs int8, scale uint8) {
		x, y := NewDecimal(a, int32(as%20)), NewDecimal(b, int32(bs%20))
		rx, ry := x.Rat(), y.Rat()
		if got, want := x.Add(y).Rat(), new(big.Rat).Add(rx, ry); got.Cmp(want) != 0 {
			t.Errorf("%s + %s = %s", x, y, got)
		}
		if got, want := x.Sub(y).Rat(), new(big.Rat).Sub(rx, ry); got.Cmp(want) != 0 {
			t.Errorf("%s - %s = %s", x, y, got)
		}
		if got, want := x.Mul(y).Rat(), new(big.Rat).Mul(rx, ry); got.Cmp(want) != 0 {
			t.Errorf("%s * %s = %s", x, y, got)
		}
		if got, want := x.Cmp(y), rx.Cmp(ry); got != want {
			t.Errorf("Cmp(%s, %s) = %d", x, y, got)
		}
		for _, mode := range []RoundingMode{RoundDown, RoundUp} {
			s := int32(scale % 21)
			got := x.SetScale(s, mode)
			want := x.Div(DecimalInt(1), s, mode)
			if got.Cmp(want) != 0 || got.Scale() != s {
				t.Errorf("%s.SetScale(%d, %d) = %s, want %s", x, s, mode, got, want)
			}
		}
		if y.IsZero() {
			return
		}
		s := int32(scale % 21)
		q := x.Div(y, s, RoundDown)
		exact := new(big.Rat).Quo(rx, ry)
		// |q| <= |exact| < |q| + 10^-s, with q's sign
		step := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
		diff := new(big.Rat).Sub(exact, q.Rat())
		if diff.Sign()*exact.Sign() < 0 || new(big.Rat).Abs(diff).Cmp(step) >= 0 || q.Scale() != s {
			t.Errorf("%s / %s to %d places = %s, exact %s", x, y, s, q, exact.FloatString(25))
		}
	})
}

// TestJavaRandom checks java.util.Random's documented sequences.
func TestJavaRandom(t *testing.T) {
	t.Run("NextDoubleSeed42", func(t *testing.T) {
		r := NewJavaRandom(42)
		for _, want := range []float64{0.7275636800328681, 0.6832234717598454} {
			if got := r.NextDouble(); got != want {
				t.Errorf("nextDouble = %v, want %v", got, want)
			}
		}
	})
	t.Run("NextDoubleSeed0", func(t *testing.T) {
		if got := NewJavaRandom(0).NextDouble(); got != 0.730967787376657 {
			t.Errorf("nextDouble = %v", got)
		}
	})
	t.Run("NextIntSeed42", func(t *testing.T) {
		if got := NewJavaRandom(42).next(32); got != -1170105035 {
			t.Errorf("nextInt() = %d, want -1170105035", got)
		}
		if got := NewJavaRandom(42).NextInt(10); got != 0 {
			t.Errorf("nextInt(10) = %d, want 0", got)
		}
	})
	t.Run("NextIntStaysInBound", func(t *testing.T) {
		r := NewJavaRandom(-140737488355328)
		for range 1000 {
			if v := r.NextInt(7); v < 0 || v >= 7 {
				t.Fatalf("nextInt(7) = %d", v)
			}
		}
	})
}

// TestJavaHash checks Java's String.hashCode and HashMap iteration order.
func TestJavaHash(t *testing.T) {
	if got := JavaStringHash("hello"); got != 99162322 {
		t.Errorf(`"hello".hashCode() = %d, want 99162322`, got)
	}
	if got := JavaStringHash("Undeclared Write-ins"); got == 0 {
		t.Error("hash of a long name is 0")
	}
	order := JavaHashOrder([]string{"G", "D", "F", "E"}, 16)
	if want := []int{1, 3, 2, 0}; !equalInts(order, want) {
		t.Errorf("HashMap order of G D F E = %v, want %v (D E F G)", order, want)
	}
	if JavaGrownCapacity(12) != 16 || JavaGrownCapacity(13) != 32 || JavaCopyCapacity(13) != 32 || JavaCopyCapacity(2) != 16 {
		t.Error("HashMap capacities differ from Java's")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
