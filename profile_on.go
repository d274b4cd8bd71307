//go:build profile

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"votedesk/app/dataio"
)

// startProfile writes a CPU profile of the run to $VOTEDESK_CPUPROFILE, in
// binaries built with `-tags profile` only (see the README's Performance
// section). It returns the function that ends the profile. The profile is
// kept in memory and written at the end through the guarded path every
// named file takes (dataio.WriteFileAtomic: never over a database).
func startProfile() func() {
	path := os.Getenv("VOTEDESK_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	if err := dataio.CheckOutputPath(path); err != nil {
		fmt.Fprintln(os.Stderr, "votedesk: cpu profile:", err)
		return func() {}
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		fmt.Fprintln(os.Stderr, "votedesk: cpu profile:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		err := dataio.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "votedesk: cpu profile:", err)
		}
	}
}
