package app

import (
	"runtime/debug"
	"syscall"
	"testing"

	"golang.org/x/crypto/argon2"
)

// TestPrefaultSavesFaults: after prefault, Argon2id's 64 MiB are taken
// from pages already in place; without it, from a fresh page per fault.
// (Faults are counted for the process, so other goroutines add a few.)
func TestPrefaultSavesFaults(t *testing.T) {
	if noPopulate.Load() {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	salt := []byte("0123456789abcdef")
	measure := func(pre bool) int64 {
		debug.FreeOSMemory() // no freed pages left in place
		if pre {
			prefault(argonMemory << 10)
		}
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		key := argon2.IDKey([]byte("correct horse battery"), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		if len(key) != argonKeyLen {
			t.Fatal("no key")
		}
		return ru1.Minflt - ru0.Minflt
	}
	without, with := measure(false), measure(true)
	if noPopulate.Load() {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	t.Logf("minor faults of one Argon2id: %d without prefault, %d after it", without, with)
	pages := int64(argonMemory << 10 / syscall.Getpagesize())
	if without < pages/2 {
		t.Fatalf("without prefault Argon2id faulted only %d of its %d pages: the test measures nothing", without, pages)
	}
	if with > pages/8 {
		t.Fatalf("after prefault Argon2id still faulted %d of its %d pages", with, pages)
	}
}

// TestArgonKeyIsArgon2id: the prefault changes nothing in the hash.
func TestArgonKeyIsArgon2id(t *testing.T) {
	salt := []byte("0123456789abcdef")
	for _, pw := range []string{"", "correct horse battery", "pässwörd"} {
		got := argonKey([]byte(pw), salt, 1, 1024, 2, 32)
		want := argon2.IDKey([]byte(pw), salt, 1, 1024, 2, 32)
		if string(got) != string(want) {
			t.Fatalf("argonKey(%q) differs from argon2.IDKey", pw)
		}
	}
}
