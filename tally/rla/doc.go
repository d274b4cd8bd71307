// Package rla is the mathematics of risk-limiting audits of IRV contests:
// the ballot manifest, the public seed, the reproducible sample, and the
// risk measurement of RAIRE's assertions (SHANGRLA's assorters tested
// with ALPHA's supermartingale). It uses the standard library only.
//
// # The sample
//
// Sample draws ballots as Rivest's sampler.py does (the method of
// ColoradoRLA and of Stark's online SHA-256 sampler): with N ballots in
// the manifest, draw i = 1, 2, ... is ballot number
//
//	1 + (SHA-256(seed + "," + i) read as a hexadecimal number) mod N
//
// counted from 1 in manifest order (the batches in file order, each
// batch's ballots by position). Anyone can repeat it in a few lines of
// Python:
//
//	import hashlib
//	def draw(seed, i, N):
//	    return 1 + int(hashlib.sha256(f"{seed},{i}".encode()).hexdigest(), 16) % N
//
// Draws are with replacement, and each round's draws extend the last's.
package rla
