// Package cloudsync syncs a VoteDesk database with DynamoDB.
package cloudsync
