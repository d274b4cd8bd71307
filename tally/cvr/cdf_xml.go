package cvr

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
)

// readCDFXML reads a CDF report in XML, in the two passes readCDF describes.
func readCDFXML(j *job, f *os.File) error {
	var elections []cdfElection
	var gpUnits []cdfGpUnit
	hasCVR := false
	err := walkXMLReport(j, f, func(se xml.StartElement, dec *xml.Decoder) error {
		switch se.Name.Local {
		case "Election":
			var e cdfElection
			if err := dec.DecodeElement(&e, &se); err != nil {
				return err
			}
			elections = append(elections, e)
			return nil
		case "GpUnit":
			var g cdfGpUnit
			if err := dec.DecodeElement(&g, &se); err != nil {
				return err
			}
			gpUnits = append(gpUnits, g)
			return nil
		case "CVR":
			hasCVR = true
		}
		return dec.Skip()
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
	k := 0
	return walkXMLReport(j, f, func(se xml.StartElement, dec *xml.Decoder) error {
		if se.Name.Local != "CVR" {
			return dec.Skip()
		}
		k++
		line, _ := dec.InputPos()
		var c cdfCVR
		if err := dec.DecodeElement(&c, &se); err != nil {
			return xmlError(j, line, k, err)
		}
		if err := r.cvr(&c); err != nil {
			return xmlError(j, line, k, err)
		}
		return nil
	})
}

// walkXMLReport calls child for each element inside the report's root element.
func walkXMLReport(j *job, f *os.File, child func(se xml.StartElement, dec *xml.Decoder) error) error {
	dec := xml.NewDecoder(bufio.NewReaderSize(j.counting(f), readBufferSize))
	depth := 0
	for {
		t, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if depth != 0 {
				return xmlError(j, 0, 0, io.ErrUnexpectedEOF)
			}
			return nil
		}
		if err != nil {
			line, _ := dec.InputPos()
			return xmlError(j, line, 0, err)
		}
		switch t := t.(type) {
		case xml.StartElement:
			if depth == 0 {
				depth++
				continue
			}
			line, _ := dec.InputPos()
			if err := child(t, dec); err != nil {
				return xmlError(j, line, 0, err)
			}
		case xml.EndElement:
			depth--
		}
	}
}

// xmlError places an error at a line of the XML file.
func xmlError(j *job, line, record int, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return err
	}
	if ctxErr := j.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return err
	}
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		line = syntax.Line
		err = fmt.Errorf("malformed XML: %s", syntax.Msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("the file ends in the middle of the XML")
	}
	return &ParseError{File: j.file, Line: line, Record: record, Err: err}
}
