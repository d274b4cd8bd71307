// Package ui is VoteDesk's desktop interface, built with Fyne. Screens are
// built from app services; no election rules live here.
package ui
