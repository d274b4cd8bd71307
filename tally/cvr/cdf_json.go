package cvr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// readCDFJSON reads a CDF report in JSON, in the two passes readCDF describes.
func readCDFJSON(j *job, f *os.File) error {
	var elections []cdfElection
	var gpUnits []cdfGpUnit
	hasCVR := false
	err := walkJSONReport(j, f, func(key string, dec *json.Decoder) error {
		switch key {
		case "Election":
			return dec.Decode(&elections)
		case "GpUnit":
			return dec.Decode(&gpUnits)
		case "CVR":
			hasCVR = true
		}
		return dec.Decode(&jsonSkip{})
	})
	if err != nil {
		return err
	}
	if !hasCVR {
		return errNoCVRList
	}
	r, err := newCDFContestReader(j, elections, gpUnits)
	if err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return walkJSONReport(j, f, func(key string, dec *json.Decoder) error {
		if key != "CVR" {
			return dec.Decode(&jsonSkip{})
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return jsonError(j, dec.InputOffset(), 0, orError(err, "the CVR list is not an array"))
		}
		for k := 1; dec.More(); k++ {
			offset := dec.InputOffset()
			var c cdfCVR
			if err := dec.Decode(&c); err != nil {
				return jsonError(j, offset, k, err)
			}
			if err := r.cvr(&c); err != nil {
				return jsonError(j, offset, k, err)
			}
		}
		_, err := dec.Token()
		return err
	})
}

// walkJSONReport calls value for each key of the report's top-level object,
// with the decoder positioned at the key's value, which value must consume.
func walkJSONReport(j *job, f *os.File, value func(key string, dec *json.Decoder) error) error {
	dec := json.NewDecoder(bufio.NewReaderSize(j.counting(f), readBufferSize))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return jsonError(j, dec.InputOffset(), 0, orError(err, "the file is not a JSON object"))
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return jsonError(j, dec.InputOffset(), 0, err)
		}
		key, _ := t.(string)
		offset := dec.InputOffset()
		if err := value(key, dec); err != nil {
			return jsonError(j, offset, 0, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return jsonError(j, dec.InputOffset(), 0, err)
	}
	return nil
}

// jsonSkip takes any JSON value and keeps nothing of it.
type jsonSkip struct{}

func (*jsonSkip) UnmarshalJSON([]byte) error { return nil }

// orError returns err, or a new error with text when err is nil.
func orError(err error, text string) error {
	if err != nil {
		return err
	}
	return errors.New(text)
}

// jsonError places an error at the line of a byte offset, using the
// decoder's own offset when it has one, and says what JSON errors mean.
func jsonError(j *job, offset int64, record int, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) || errors.Is(err, j.ctx.Err()) && j.ctx.Err() != nil {
		return err
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
		err = fmt.Errorf("malformed JSON: %s", syntax.Error())
	case errors.As(err, &typ):
		offset = typ.Offset
		err = fmt.Errorf("%s must be a JSON %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		err = errors.New("the file ends in the middle of the JSON")
	}
	return &ParseError{File: j.file, Line: lineAt(j.src.FilePath, offset), Record: record, Err: err}
}

// jsonKind names a Go kind the way a JSON reader would.
func jsonKind(kind string) string {
	switch kind {
	case "slice", "array":
		return "array"
	case "struct", "map":
		return "object"
	case "int", "uint16", "int64":
		return "number"
	}
	return kind
}

// lineAt returns the 1-based line of a byte offset in a file, or 0 if the
// file cannot be read again.
func lineAt(path string, offset int64) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	line := 1
	buf := make([]byte, 64<<10)
	for offset > 0 {
		n, err := f.Read(buf[:min(int64(len(buf)), offset)])
		line += bytes.Count(buf[:n], []byte{'\n'})
		offset -= int64(n)
		if err != nil {
			break
		}
	}
	return line
}
