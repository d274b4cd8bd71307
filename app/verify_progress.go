package app

import "context"

// VerifyProgress is told how far a verify of a database is: in which step,
// and done and total counted in events (0 of 0 for VerifyCompare).
type VerifyProgress func(step string, done, total uint64)

// The steps of a verify, in order.
const (
	VerifyChain   = "chain"   // the hash chain, event by event
	VerifyRebuild = "rebuild" // the log replayed into a rebuild of the projection
	VerifyCompare = "compare" // the projection against the rebuild
)

type verifyProgressKey struct{}

// WithVerifyProgress returns ctx carrying report, which a store's verify
// (and the check of a backup) tells how far it is: on a state's database
// it takes tens of seconds.
func WithVerifyProgress(ctx context.Context, report VerifyProgress) context.Context {
	return context.WithValue(ctx, verifyProgressKey{}, report)
}

// VerifyProgressOf returns the report ctx carries, or one that does
// nothing.
func VerifyProgressOf(ctx context.Context) VerifyProgress {
	if report, ok := ctx.Value(verifyProgressKey{}).(VerifyProgress); ok && report != nil {
		return report
	}
	return func(string, uint64, uint64) {}
}
