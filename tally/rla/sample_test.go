package rla_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"votedesk/tally/rla"
)

// oneBatch is a manifest of one batch of n ballots.
func oneBatch(t testing.TB, n int) rla.Manifest {
	t.Helper()
	m, err := rla.NewManifest([]rla.Batch{{Name: "All", Ballots: n}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSampleRivestVectors draws the published test cases of Rivest's
// sampler.py (github.com/cjerdonek/rivest-sampler-tests, tests.json:
// ballots numbered 1 to total, drawn with duplicates allowed).
func TestSampleRivestVectors(t *testing.T) {
	tests := []struct {
		seed  string
		total int
		want  []int
	}{
		{"0", 1000, []int{905, 573, 160}},
		{"0", 2, []int{1, 1, 2}},
		{"1", 1000, []int{97, 89, 163}},
		{"0000000000", 1000, []int{978, 359, 132}},
		{"999999999999999999999999", 1000, []int{544, 800, 654}},
		{"abcde", 1000, []int{247, 427, 157}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("Seed%sOf%d", tt.seed, tt.total), func(t *testing.T) {
			var got []int
			for _, d := range rla.Sample(tt.seed, oneBatch(t, tt.total), len(tt.want)) {
				got = append(got, d.Index+1)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("drew %v, sampler.py draws %v", got, tt.want)
			}
		})
	}
}

// TestSampleDraws checks every draw against its definition: the ticket is
// SHA-256(seed + "," + i) in hex, the index that number mod N, and the
// batch and position where Locate puts the index.
func TestSampleDraws(t *testing.T) {
	m, err := rla.NewManifest([]rla.Batch{{Name: "A", Ballots: 7}, {Name: "B", Ballots: 0}, {Name: "C", Ballots: 12}, {Name: "D", Ballots: 1}})
	if err != nil {
		t.Fatal(err)
	}
	const seed = "12345678901234567890"
	draws := rla.Sample(" "+seed+" ", m, 200)
	if len(draws) != 200 {
		t.Fatalf("%d draws, want 200", len(draws))
	}
	for i, d := range draws {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s,%d", seed, i+1))
		if d.Ticket != hex.EncodeToString(sum[:]) {
			t.Fatalf("draw %d: ticket %s", i+1, d.Ticket)
		}
		want := new(big.Int).Mod(new(big.Int).SetBytes(sum[:]), big.NewInt(20)).Int64()
		b, p := m.Locate(d.Index)
		if int64(d.Index) != want || d.Batch != b || d.Position != p || m.Batches[b].Ballots == 0 {
			t.Fatalf("draw %d: %+v, want index %d at batch %d position %d", i+1, d, want, b, p)
		}
	}
}

// TestSamplePrefixConsistent: for random manifests, seeds and sizes, a
// shorter sample is the start of a longer one, and the same arguments give
// the same sample.
func TestSamplePrefixConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		batches := make([]rla.Batch, 1+r.IntN(20))
		for i := range batches {
			batches[i] = rla.Batch{Name: fmt.Sprint(i), Ballots: r.IntN(500)}
		}
		batches[0].Ballots++
		m, err := rla.NewManifest(batches)
		if err != nil {
			t.Fatal(err)
		}
		seed := fmt.Sprint(r.Uint64(), r.Uint64())
		n := 1 + r.IntN(300)
		k := r.IntN(n + 1)
		long, short := rla.Sample(seed, m, n), rla.Sample(seed, m, k)
		if !slices.Equal(short, long[:k]) {
			t.Fatalf("seed %s: Sample(%d) is not the start of Sample(%d)", seed, k, n)
		}
		if !slices.Equal(long, rla.Sample(seed, m, n)) {
			t.Fatalf("seed %s: two samples differ", seed)
		}
		if slices.Equal(long, rla.Sample(seed+"1", m, n)) && m.Total() > 1 && n > 5 {
			t.Fatalf("seeds %s and %s1 give the same sample", seed, seed)
		}
	}
}

// TestSampleUniform draws 50,000 ballots from 50 and checks the counts
// with a chi-square statistic (49 degrees of freedom: mean 49, standard
// deviation 9.9), against a loose bound of 100.
func TestSampleUniform(t *testing.T) {
	m, err := rla.NewManifest([]rla.Batch{{Name: "A", Ballots: 20}, {Name: "B", Ballots: 17}, {Name: "C", Ballots: 13}})
	if err != nil {
		t.Fatal(err)
	}
	const draws = 50_000
	counts := make([]int, m.Total())
	for _, d := range rla.Sample("31415926535897932384", m, draws) {
		counts[d.Index]++
	}
	expected := float64(draws) / float64(len(counts))
	chi2 := 0.0
	for _, c := range counts {
		chi2 += (float64(c) - expected) * (float64(c) - expected) / expected
	}
	t.Logf("chi-square %.1f on %d degrees of freedom", chi2, len(counts)-1)
	if chi2 > 100 {
		t.Errorf("chi-square %.1f: the draws are not uniform", chi2)
	}
}

// TestSampleEdges: nothing to draw gives nil.
func TestSampleEdges(t *testing.T) {
	m := oneBatch(t, 10)
	for _, n := range []int{0, -5} {
		if got := rla.Sample("1", m, n); got != nil {
			t.Errorf("Sample(n=%d) = %v, want nil", n, got)
		}
	}
	if got := rla.Sample("1", rla.Manifest{}, 3); got != nil {
		t.Errorf("Sample of an empty manifest = %v, want nil", got)
	}
	if got := rla.Sample("1", rla.Manifest{Batches: []rla.Batch{{Name: "A", Ballots: 1 << 40}}}, 3); got != nil {
		t.Errorf("Sample of a manifest over MaxBallots = %v, want nil", got)
	}
}

// TestCheckSeed accepts 20 or more digits and says what is wrong with
// anything else.
func TestCheckSeed(t *testing.T) {
	tests := []struct{ name, seed, want string }{
		{"Ok20", "01234567890123456789", ""},
		{"OkTrimmed", "  012345678901234567890123 \n", ""},
		{"ErrEmpty", "  ", "rla: the seed is empty: roll at least 20 ten-sided dice in public and enter the digits"},
		{"ErrShort", "1234567890123456789", "rla: the seed has 19 digits; it needs at least 20"},
		{"ErrInnerSpace", "12345 67890 12345 67890", "rla: the seed has ' ' at character 6: it is decimal digits only, with no spaces or signs"},
		{"ErrSign", "-12345678901234567890", "rla: the seed has '-' at character 1: it is decimal digits only, with no spaces or signs"},
		{"ErrOtherDigits", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠", "rla: the seed has '١' at character 1: it is decimal digits only, with no spaces or signs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := rla.CheckSeed(tt.seed)
			if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
				t.Errorf("CheckSeed(%q) = %v, want %q", tt.seed, err, tt.want)
			}
		})
	}
}
