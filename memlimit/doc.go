// Package memlimit sets the Go runtime's soft memory limit from the memory
// the process may use: the machine's, or less where a control group (a
// container, a systemd service with MemoryMax, a kiosk's slice) limits it.
//
// Without a limit the runtime lets the heap grow to twice what it holds
// live before it collects (GOGC=100), so a command whose live data is half
// of the machine's memory, such as an import of several million ballots in
// one all-or-nothing transaction, is killed for want of memory although it
// would fit. With the limit the collector works harder as the heap nears
// it instead. Measured on 2026-11-28: 6,000,000 cast vote records imported
// in one command inside a control group of 6 GB were killed by the kernel
// after 31 s with no limit, and imported in 52 s with the limit at 4.5 GB
// (55 s on the whole 24 GB machine with no limit, peak RSS 7.7 GB).
//
// The limit is soft: the runtime never fails an allocation because of it,
// and caps the collector's share of the processor when the live data
// itself is larger. A GOMEMLIMIT in the environment is left as it is.
package memlimit
