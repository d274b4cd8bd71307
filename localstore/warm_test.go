//go:build linux

package localstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"votedesk/app"
)

// fillRaw writes n items of about 400 bytes into partition pk of a fresh
// raw store at path, and closes it.
func fillRaw(t *testing.T, path, pk string, n int) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(context.Background(), func(tx app.Tx) error {
		for i := range n {
			it := app.Item{}
			it.Set(app.AttrPK, app.S(pk))
			it.Set(app.AttrSK, app.S(fmt.Sprintf("ITEM#%08d", i)))
			it.Set("text", app.S(strings.Repeat(fmt.Sprintf("%08d", i), 50)))
			if err := tx.Put(it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// evict drops the file's pages from the page cache; it skips the test where
// the file system keeps them (tmpfs).
func evict(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Skipf("cannot drop the file from the page cache: %v", err)
	}
	if in := cachedShare(t, path); in > 0.5 {
		t.Skipf("the file system keeps %.0f%% of the file in memory after FADV_DONTNEED", 100*in)
	}
}

// cachedShare is the share of the file's pages in the page cache.
func cachedShare(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	cached, release, ok := residency(f, fi.Size())
	if !ok {
		t.Fatal("cannot map the file to look at its pages")
	}
	defer release()
	in, all := 0, 0
	for off := int64(0); off < fi.Size(); off += 4096 {
		all++
		if cached(off, min(4096, fi.Size()-off)) {
			in++
		}
	}
	return float64(in) / float64(all)
}

// A long scan of a file nobody has read since it was written (after a
// reboot) warms the whole file; a short one reads only what it needs.
func TestLongScanWarmsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "votedesk.db")
	fillRaw(t, path, "BIG", 3*warmAfter)
	fillRaw(t, path, "SMALL", 10)
	for _, tc := range []struct {
		pk   string
		want bool
	}{{"SMALL", false}, {"BIG", true}} {
		evict(t, path)
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		walked := 0
		err = s.View(context.Background(), func(tx app.Tx) error {
			return tx.Query(tc.pk, "ITEM#", func(app.Item) (bool, error) { walked++; return true, nil })
		})
		if err != nil {
			t.Fatal(err)
		}
		started := false
		if tc.want {
			select {
			case <-s.warm.done:
				started = true
			case <-time.After(10 * time.Second):
			}
		} else {
			time.Sleep(50 * time.Millisecond)
			select {
			case <-s.warm.done:
				started = true
			default:
			}
		}
		if started != tc.want {
			t.Errorf("scan of %d items: warmer ran = %v, want %v", walked, started, tc.want)
		}
		if share := cachedShare(t, path); tc.want && share < 0.99 {
			t.Errorf("after a scan of %d items %.1f%% of the file is in memory; want all of it", walked, 100*share)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// Closing a store while its warmer reads stops the warmer; closing twice
// is harmless, and a warmer never started never starts after close.
func TestCloseStopsTheWarmer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "votedesk.db")
	fillRaw(t, path, "BIG", warmAfter+1)
	evict(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.warm.start()
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return while the warmer ran")
	}
	s.warm.close()
	w := newWarmer(path)
	w.close()
	w.start() // after close: runs nothing
	select {
	case <-w.done:
	default:
		t.Error("a warmer closed before it started is not done")
	}
}
