package cli

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// TestOutPagesWritesWhatOutWrites: a list written a page at a time is, with
// --json, byte for byte the array out writes of the whole list, at every
// length around a page's; as text, each item once, in order.
func TestOutPagesWritesWhatOutWrites(t *testing.T) {
	type item struct {
		N    int    `json:"n"`
		Name string `json:"name,omitempty"`
		Tags []int  `json:"tags"`
	}
	for _, n := range []int{0, 1, 2, 4095, 4096, 4097, 9000} {
		items := make([]item, n)
		for i := range items {
			items[i] = item{N: i, Name: fmt.Sprintf("<item %d & co>", i)[:(i%3)*4], Tags: make([]int, i%3)}
		}
		read := func(from, to int) ([]item, error) { return items[from:min(to, n)], nil }
		var whole, paged bytes.Buffer
		(&call{json: true, deps: Deps{Stdout: &whole}}).out(items, nil)
		err := outPages(&call{json: true, deps: Deps{Stdout: &paged}}, n, read, func(it item) any { return it }, nil)
		if err != nil || !bytes.Equal(whole.Bytes(), paged.Bytes()) {
			t.Errorf("%d items as JSON: %v\npaged %.300q\nwhole %.300q", n, err, paged.String(), whole.String())
		}
		var text bytes.Buffer
		firsts := 0
		err = outPages(&call{deps: Deps{Stdout: &text}}, n, read, nil, func(w io.Writer, first bool, page []item) {
			if first {
				firsts++
			}
			for _, it := range page {
				fmt.Fprintln(w, it.N)
			}
		})
		var want bytes.Buffer
		for i := range n {
			fmt.Fprintln(&want, i)
		}
		if err != nil || !bytes.Equal(text.Bytes(), want.Bytes()) || firsts != min(n, 1) {
			t.Errorf("%d items as text: %v, %d first pages, %d bytes against %d", n, err, firsts, text.Len(), want.Len())
		}
	}
}
