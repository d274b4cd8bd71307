// Package modal gives every dialog of VoteDesk the same keys and the same
// way of refusing: Escape closes the dialog on top (as its dismiss button
// does) or any other pop-up over the window (a calendar, a menu), Enter
// confirms it (closes a message), and a form whose confirm is refused keeps
// its fields and says why inside itself.
//
// Fyne's dialogs handle no keys, and a key typed while a control has the
// focus never reaches the window's key handler: Fyne's buttons take only
// Space, its check boxes and drop-downs swallow Escape and Enter. So the
// dialogs are built here (Dialog: messages, questions, forms, custom
// content) from controls that hand the keys on (Button, Check, Select,
// Entry, PasswordEntry, DateEntry: each a KeyPasser), and every dialog is
// shown through Show. Package ui checks both: its sources make no Fyne
// dialog or Fyne button, and every control in every dialog its tests open
// is a KeyPasser.
package modal
