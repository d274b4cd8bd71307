// Package relaunch is the desktop app's life over one database file where
// it needs more than one process: Fyne runs one app per process, so after
// the user agrees to create a database (a question asked in a window of
// its own), and after a backup is restored over the database, VoteDesk
// starts itself again.
//
// GUI.Run asks before creating a database named on the command line,
// runs the app, and when the app asks for a backup to be restored, lets it
// close the database, restores the backup (localstore checks it again
// first and keeps the database it replaces) and starts again with a notice
// of what happened. What the next process must know travels in one
// environment variable (VOTEDESK_CREATE_DB, VOTEDESK_NOTICE), read and
// removed at its start.
//
// Restart starts the program again with the same arguments and
// environment plus that variable. On Unix the new program replaces the
// process (syscall.Exec): the same process id, terminal and parent, which
// sees the new program's exit status. Windows has no exec (syscall.Exec
// returns EWINDOWS there), so the new program is started as a process of
// its own (os/exec) with the same standard streams, and this one exits.
package relaunch
