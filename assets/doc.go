// Package assets holds VoteDesk's embedded resources: the app icon and the
// pictures the screens use.
package assets
