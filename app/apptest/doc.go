// Package apptest holds what the tests of several packages share, so each
// builds its fixtures the same way:
//
//   - Clock, a clock the test sets and steps (NewClock, Add, Set), and SeqIDs,
//     ids it can predict: the domain's injected time and id sources.
//   - SharedTestdata, the path of ../shared/testdata (real tabulators' and
//     real elections' files), found from any package's directory.
//   - Template, a database built once per test run and copied into each
//     test's temp dir (Copy), so hundreds of tests start from the same
//     users and elections without building them again; CopyFile copies a
//     file byte for byte.
//
// Production code never imports it.
package apptest
