package memlimit

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// Set sets the soft memory limit to three quarters of the memory the
// process may use, unless GOMEMLIMIT is set or that memory is unknown, and
// returns the limit it set (0 when none).
func Set() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	limit := limitFor(available("/proc/self/cgroup", "/sys/fs/cgroup", physical()))
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	return limit
}

// limitFor is the limit Set takes for avail bytes of memory: three quarters of
// it, the rest left to the page cache (the database file is read through
// it), the stacks and the runtime's own; 0 for avail unknown.
func limitFor(avail int64) int64 {
	if avail <= 0 {
		return 0
	}
	return avail / 4 * 3
}

// available returns the least of total (the machine's memory; 0 when
// unknown) and the memory limits of the control groups that the file
// cgroups (/proc/self/cgroup) places the process in, and of their
// ancestors, as mounted under root: version 2's memory.max in the unified
// hierarchy, version 1's memory.limit_in_bytes in the memory controller's.
// A limit that cannot be read, or says "max", limits nothing.
func available(cgroups, root string, total int64) int64 {
	b, err := os.ReadFile(cgroups)
	if err != nil {
		return total
	}
	least := total
	// take reads file in the control group p of the hierarchy mounted at
	// base, and in each of its ancestors: a limit on any of them holds.
	take := func(base, p, file string) {
		for {
			if n, ok := readLimit(filepath.Join(base, p, file)); ok && (least <= 0 || n < least) {
				least = n
			}
			if p == "/" {
				return
			}
			p = path.Dir(p)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		fields := strings.SplitN(sc.Text(), ":", 3)
		if len(fields) != 3 || !strings.HasPrefix(fields[2], "/") {
			continue
		}
		p := path.Clean(fields[2])
		switch {
		case fields[0] == "0" && fields[1] == "":
			take(root, p, "memory.max")
		case hasController(fields[1], "memory"):
			take(filepath.Join(root, "memory"), p, "memory.limit_in_bytes")
		}
	}
	return least
}

func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads a control group's memory limit in bytes: ok is false
// for "max", a missing or unreadable file, and anything but a positive
// number.
func readLimit(file string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil && n > 0
}
