package memlimit

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

const gb = int64(1) << 30

// tree writes files (path relative to a new folder: content) and returns
// the folder.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestAvailable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		total int64
		want  int64
	}{
		{"V2ServiceLimit", map[string]string{
			"self":                       "0::/system.slice/kiosk.service\n",
			"fs/system.slice/memory.max": "max\n",
			"fs/system.slice/kiosk.service/memory.max": "2147483648\n",
		}, 24 * gb, 2 * gb},
		{"V2ParentLimitHolds", map[string]string{
			"self":                       "0::/system.slice/kiosk.service\n",
			"fs/system.slice/memory.max": "1073741824\n",
			"fs/system.slice/kiosk.service/memory.max": "max\n",
		}, 24 * gb, 1 * gb},
		{"V2ContainerAtItsRoot", map[string]string{
			"self":          "0::/\n",
			"fs/memory.max": "6442450944\n",
		}, 24 * gb, 6 * gb},
		{"V1MemoryController", map[string]string{
			"self":                                   "9:name=systemd:/\n4:memory:/vdtest\n3:cpuset:/\n",
			"fs/memory/memory.limit_in_bytes":        "9223372036854771712\n",
			"fs/memory/vdtest/memory.limit_in_bytes": "6442450944\n",
		}, 24 * gb, 6 * gb},
		{"V1ControllersTogether", map[string]string{
			"self":                              "4:cpu,memory:/x\n",
			"fs/memory/x/memory.limit_in_bytes": "3221225472",
		}, 24 * gb, 3 * gb},
		{"MachineSmallerThanTheGroup", map[string]string{
			"self":          "0::/\n",
			"fs/memory.max": "68719476736\n",
		}, 8 * gb, 8 * gb},
		{"NoLimits", map[string]string{
			"self":          "0::/user.slice\n",
			"fs/memory.max": "max\n",
		}, 24 * gb, 24 * gb},
		{"UnreadableLimitsLimitNothing", map[string]string{
			"self":                              "0::/a\n4:memory:/b\nnot a line\n5:memory:relative\n",
			"fs/a/memory.max":                   "lots\n",
			"fs/memory/b/memory.limit_in_bytes": "-1\n",
		}, 24 * gb, 24 * gb},
		{"NoCgroupFile", map[string]string{}, 24 * gb, 24 * gb},
		{"NothingKnown", map[string]string{"self": "0::/\n"}, 0, 0},
		{"OnlyTheGroupKnown", map[string]string{
			"self":          "0::/\n",
			"fs/memory.max": "2147483648\n",
		}, 0, 2 * gb},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tree(t, tc.files)
			if got := available(filepath.Join(dir, "self"), filepath.Join(dir, "fs"), tc.total); got != tc.want {
				t.Errorf("available = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestLimitFor(t *testing.T) {
	if got := limitFor(6 * gb); got != 6*gb/4*3 {
		t.Errorf("limitFor(6 GB) = %d", got)
	}
	if got := limitFor(0); got != 0 {
		t.Errorf("limitFor(unknown) = %d, want no limit", got)
	}
}

// TestSet: the limit is set unless GOMEMLIMIT is, and is what Set says.
func TestSet(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	limit := Set()
	if physical() > 0 && limit <= 0 {
		t.Fatalf("Set on a machine of %d bytes set no limit", physical())
	}
	if limit > 0 && debug.SetMemoryLimit(-1) != limit {
		t.Errorf("Set says %d, the runtime holds %d", limit, debug.SetMemoryLimit(-1))
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	if got := Set(); got != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, Set set %d", got)
	}
}
