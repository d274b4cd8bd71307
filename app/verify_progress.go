package app

import "context"

// VerifyProgress is told how far a verify of a database is: step is
// "chain" (the hash chain, event by event), "rebuild" (the log replayed
// into a rebuild of the projection) or "compare" (the projection against
// the rebuild), done and total counted in events (0 of 0 for compare).
type VerifyProgress func(step string, done, total uint64)

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
