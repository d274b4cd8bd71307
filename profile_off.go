//go:build !profile

package main

// startProfile does nothing: profiling is built in with `-tags profile`
// (profile_on.go).
func startProfile() func() { return func() {} }
