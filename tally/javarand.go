package tally

// JavaRandom reproduces java.util.Random: the same 48-bit linear
// congruential generator and the same nextInt/nextDouble/shuffle algorithms,
// so a seed gives RCTab's tie-break draws exactly.
type JavaRandom struct{ seed int64 }

const (
	javaMultiplier = 0x5DEECE66D
	javaAddend     = 0xB
	javaMask       = (1 << 48) - 1
)

// NewJavaRandom returns a generator seeded as new java.util.Random(seed).
func NewJavaRandom(seed int64) *JavaRandom {
	return &JavaRandom{seed: (seed ^ javaMultiplier) & javaMask}
}

// next advances the generator and returns its top bits (Random.next).
func (r *JavaRandom) next(bits uint) int32 {
	r.seed = (r.seed*javaMultiplier + javaAddend) & javaMask
	return int32(uint64(r.seed) >> (48 - bits))
}

// NextInt returns a uniform int in [0, bound) exactly as Random.nextInt(int)
// does, including its rejection loop. bound must be positive.
func (r *JavaRandom) NextInt(bound int32) int32 {
	rnd := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(rnd)) >> 31)
	}
	for u := rnd; ; u = r.next(31) {
		rnd = u % bound
		if u-rnd+m >= 0 { // Java's overflow test: u - r + m < 0 means retry
			return rnd
		}
	}
}

// NextDouble returns a uniform float64 in [0, 1) as Random.nextDouble does.
func (r *JavaRandom) NextDouble() float64 {
	hi := int64(r.next(26))
	lo := int64(r.next(27))
	return float64((hi<<27)+lo) * (1.0 / (1 << 53))
}

// Shuffle permutes n items as Collections.shuffle(list, random) does for a
// random-access list: for i from n down to 2, swap(i-1, nextInt(i)).
func (r *JavaRandom) Shuffle(n int, swap func(i, j int)) {
	for i := n; i > 1; i-- {
		swap(i-1, int(r.NextInt(int32(i))))
	}
}
