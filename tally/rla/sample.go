package rla

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Draw is one ballot drawn for the audit.
type Draw struct {
	// Index is the ballot's 0-based index in manifest order.
	Index int
	// Batch is the index of the ballot's batch in Manifest.Batches.
	Batch int
	// Position is the ballot's 1-based position within its batch.
	Position int
	// Ticket is the draw's SHA-256 hash in hexadecimal, for anyone checking
	// the draw: Index is this number modulo the manifest's total.
	Ticket string
}

// SamplerDescription says in words how the draws follow from the seed, for
// reports: enough to reproduce the sample.
const SamplerDescription = "Draw i (1, 2, ...) is ballot 1 + (SHA-256 of the seed, a comma and i in decimal, read as a whole number) mod N of the N ballots in the manifest, counted from 1 in manifest order, as Rivest's sampler.py and ColoradoRLA draw; draws are with replacement, so a ballot can come up twice and counts each time."

// Sample returns the first n draws of the audit's sample: draw i (1, 2,
// ...) is ballot 1 + (SHA-256(seed + "," + i) mod N) of the N in the
// manifest, counted from 1 in manifest order, as in Rivest's sampler.py
// (the method of ColoradoRLA and of Stark's online tool). The seed is used
// as given, less spaces at either end; i is written in decimal. Draws are
// with replacement (a ballot may come up again) and the sample is
// prefix-consistent: Sample(s, m, k) is the start of Sample(s, m, n) for k
// <= n, so each round extends the last. It returns nil for n <= 0 or an
// empty manifest (or one over MaxBallots), and at most MaxBallots draws.
func Sample(seed string, m Manifest, n int) []Draw {
	starts := m.starts
	if len(starts) != len(m.Batches)+1 {
		starts = prefixSums(m.Batches)
	}
	total := starts[len(starts)-1]
	n = min(n, MaxBallots)
	if n <= 0 || total <= 0 || total > MaxBallots {
		return nil
	}
	seed = strings.TrimSpace(seed)
	draws := make([]Draw, 0, min(n, 1<<16))
	buf := make([]byte, 0, len(seed)+21)
	for i := 1; i <= n; i++ {
		buf = strconv.AppendInt(append(append(buf[:0], seed...), ','), int64(i), 10)
		sum := sha256.Sum256(buf)
		// The hash as a big-endian number, reduced modulo total byte by
		// byte (total < 2^27, so nothing overflows).
		r := uint64(0)
		for _, b := range sum {
			r = (r<<8 | uint64(b)) % uint64(total)
		}
		index := int(r)
		batch, pos := locate(starts, index)
		draws = append(draws, Draw{Index: index, Batch: batch, Position: pos, Ticket: hex.EncodeToString(sum[:])})
	}
	return draws
}
