// Package modal gives every dialog of VoteDesk the same keys and the same
// way of refusing: Escape closes the dialog on top (as its dismiss button
// does) or any other pop-up over the window (a calendar, a menu), Enter
// confirms it (closes a message), and a form whose confirm is refused keeps
// its fields and says why inside itself.
//
// Fyne's dialogs handle no keys, and a key typed while a text field has the
// focus never reaches the window's key handler, so the fields used in
// dialogs (Entry, PasswordEntry, DateEntry) hand Escape on. Every dialog is
// shown through Show (a test in package ui checks no screen calls Fyne's
// dialog Show functions directly), so Escape always runs the dialog's own
// dismiss callback.
package modal
