package app

import "golang.org/x/crypto/argon2"

// argonKey is argon2.IDKey, with the memory it is about to take (m KiB)
// made ready first where the system allows (prefault). Argon2id fills
// 64 MiB that a new process has never touched: faulting it in one 4 KB
// page at a time was about 160 ms of the 190 ms every sign-in took on this
// project's machine (a virtual machine, where each fault is dear), the
// hash itself about 30 ms.
func argonKey(secret, salt []byte, t, m uint32, p uint8, keyLen uint32) []byte {
	prefault(uint64(m) << 10)
	return argon2.IDKey(secret, salt, t, m, p, keyLen)
}
