package cvr

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Small files crafted to amplify: each must be refused with a *ParseError
// naming the file and the limit, within a second and without allocating
// more than a small multiple of what it read.

// bounded runs read and fails the test unless it returns an error
// containing want within a second, allocating less than maxAlloc bytes.
func bounded(t *testing.T, maxAlloc uint64, want string, read func() error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	err := read()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error with %q", err, want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File == "" {
		t.Errorf("%v is not a *ParseError naming the file", err)
	}
	if took > time.Second {
		t.Errorf("refused after %v, want within a second", took)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxAlloc {
		t.Errorf("allocated %d MiB before refusing, want under %d MiB", alloc>>20, maxAlloc>>20)
	}
}

// TestWeightBomb: a 50-byte BLT whose weights add up to more ballots than a
// read may hold (the file that made `import cvr` allocate 40 GB). The count
// of a file keeps weights as numbers, so a big weight is fine below the limit.
func TestWeightBomb(t *testing.T) {
	path := writeTemp(t, "bomb.blt", "2 1\n1000000000 1 0\n1000000000 2 0\n0\n\"A\"\n\"B\"\n")
	bounded(t, 8<<20, "bomb.blt: line 3: the file holds more than 1000000000 ballots", func() error {
		_, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
		return err
	})
	bounded(t, 8<<20, "bomb.blt: line 2: the file holds more than 20 ballots", func() error {
		_, err := ReadFile(context.Background(), Source{FilePath: path}, Options{MaxBallots: 20})
		return err
	})
	toi := writeTemp(t, "bomb.toi", "# ALTERNATIVE NAME 1: A\n4000000000: 1\n")
	bounded(t, 8<<20, "bomb.toi: line 2:", func() error {
		_, err := ReadFile(context.Background(), Source{FilePath: toi}, Options{MaxBallots: 1000})
		return err
	})
}

// TestNotARegularFile: /dev/zero and a named pipe as a CVR file (an RCTab
// config's filePath can name either) are refused before reading, in every
// format, including when the format must be detected.
func TestNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		for _, format := range []Format{"", FormatCDF, FormatGenericCSV, FormatClearBallot, FormatESS, FormatBLT, FormatPrefLib, FormatVoteDesk} {
			src := Source{Provider: format, FilePath: path, ContestID: "c", FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2}
			bounded(t, 8<<20, "is not a regular file", func() error {
				if format == "" {
					_, err := ReadFile(context.Background(), src, Options{})
					return err
				}
				_, err := Read(context.Background(), src, IndexCandidates("A"), newSet(), Options{})
				return err
			})
		}
	}
}

// TestLongLine: a line with no end (a file of one 16 MiB line) is refused
// at MaxLineBytes in the line-based formats, and so is a CSV quoted field
// that never closes.
func TestLongLine(t *testing.T) {
	dir := t.TempDir()
	long := bytes.Repeat([]byte("1 "), 8<<20)
	for _, tc := range []struct {
		name, head string
		format     Format
	}{
		{"long.blt", "2 1\n1 ", FormatBLT},
		{"long.csv", "id,r1\n1,", FormatGenericCSV},
		{"long.toi", "# ALTERNATIVE NAME 1: A\n1: ", FormatPrefLib},
		{"quoted.csv", "id,r1\n1,\"", FormatGenericCSV},
	} {
		path := filepath.Join(dir, tc.name)
		data := append([]byte(tc.head), long...)
		if tc.name == "quoted.csv" {
			data = append([]byte(tc.head), bytes.Repeat([]byte("A\n"), 8<<20)...)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Run(tc.name, func(t *testing.T) {
			src := Source{Provider: tc.format, FilePath: path, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2}
			bounded(t, 6*MaxLineBytes, tc.name+": ", func() error {
				_, err := Read(context.Background(), src, IndexCandidates("A"), newSet(), Options{})
				if err != nil && !strings.Contains(err.Error(), "4 MiB") {
					return errors.New("not the line limit: " + err.Error())
				}
				return err
			})
		})
	}
}

// TestXLSXZipBomb: an ES&S spreadsheet whose sheet declares 3 GiB is
// refused before anything is decompressed; one that declares a small size
// but inflates to more is refused by the zip reader's size check.
func TestXLSXZipBomb(t *testing.T) {
	good, err := os.ReadFile(shared(t, "rctab/exhaust_if_multiple_continuing/exhaust_if_multiple_continuing_cvr.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	zeros := bytes.Repeat([]byte{'0'}, 24<<20)
	var packed bytes.Buffer
	w, _ := flate.NewWriter(&packed, flate.BestCompression)
	w.Write(zeros)
	w.Close()
	for _, tc := range []struct {
		name     string
		declared uint64
		want     string
	}{
		{"declared.xlsx", 3 << 30, "would decompress to more than 64 MiB"},
		{"lying.xlsx", 1000, "the first sheet has no rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			if err := os.WriteFile(path, rezip(t, good, "xl/worksheets/sheet1.xml", packed.Bytes(), crc32.ChecksumIEEE(zeros), tc.declared), 0o600); err != nil {
				t.Fatal(err)
			}
			src := Source{Provider: FormatESS, FilePath: path, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2}
			bounded(t, 64<<20, tc.want, func() error {
				_, err := Read(context.Background(), src, IndexCandidates("A"), newSet(), Options{})
				return err
			})
		})
	}
}

// rezip copies a zip archive, replacing one entry's content with raw deflated
// bytes that claim the given CRC and uncompressed size.
func rezip(t *testing.T, archive []byte, name string, raw []byte, crc uint32, size uint64) []byte {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range r.File {
		if f.Name == name {
			h := f.FileHeader
			h.CRC32, h.CompressedSize64, h.UncompressedSize64 = crc, uint64(len(raw)), size
			w, err := zw.CreateRaw(&h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(raw)
			continue
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(w, rc)
		rc.Close()
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
