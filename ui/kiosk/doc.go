// Package kiosk is VoteDesk's voting station: one window, set to one launched
// election, where voters check in against the poll book and rank the
// candidates themselves one after another, and where officials key in paper
// ballots. It works with no network; ballots sync later.
//
// # Starting
//
// An official (USE_APPLICATION or higher) starts a kiosk with
// `votedesk kiosk ELECTION` (Run) or from the officials' app
// (ShowStartDialog, or New and Start with a Config). ELECTION is a name or
// the election's join code (app.JoinCode, like "KZT-QWP-40813"). The kiosk
// casts every ballot in the official's name, for the poll-book voter who
// checked in (Source kiosk), so the one gate in app authorizes each cast.
//
// # The lock
//
// Start makes the window full screen, asks the window manager to keep it
// above other windows (desktop.Window.RequestAlwaysOnTop: GLFW's floating
// attribute, which X11 window managers, Windows and macOS honour and Wayland
// does not offer), and intercepts the window's close button. Closing the
// window, leaving full screen, and every screen but the voter's (the
// officials' menu, paper entry, sync) need the officer passcode. The
// passcode exists only as an argon2id hash in memory (app.PasscodeLock):
// after 3 wrong tries the kiosk refuses every try for 30 s, then twice as
// long after each further wrong try, up to 15 min. What Fyne cannot stop:
// the window manager's own keys (Alt+Tab, workspace switching, a full-screen
// toggle the window manager offers) and the operating system around the
// window; Fyne tells an application neither that it left full screen nor
// that it lost the top. Run kiosks in a locked-down session (SECURITY.md).
//
// # One voter
//
// Check-in -> ballot -> review -> cast -> receipt -> check-in. Check-in asks
// app.Service.CheckInVoter, which refuses, in words for the voter, a name not
// in the poll book, a voter who already voted (unless the election allows
// re-casting, which the ballot then says), and a closed voting window. A
// ballot always starts empty: the kiosk never reads an earlier ballot, so
// nothing of one shows, secret election or not. Rankings are strict (one
// candidate per rank); the review lists them in words ("1st choice: Kiss")
// and warns about an empty or short ballot before the cast. Cast runs off the
// UI goroutine; app.Service.CastBallot returns only after bbolt's fsync, and
// only then does the receipt with the confirmation code appear. The receipt
// returns to check-in after Config.ReturnAfter (20 s by default) or a press
// of Done or a tap.
//
// # A voter who walks away
//
// After Config.IdleAfter (2 minutes by default) without a key, tap or focus
// move on check-in, the ballot or the review, a warning covers the screen
// and hides the ballot: "Are you still voting?", counting down
// Config.IdleGrace (30 s). Any key or tap brings the ballot back as it was,
// the focus where it was; when the time runs out the unfinished ballot is
// discarded as after a cast, and check-in starts with the default text size
// and contrast. An untouched check-in is not warned about.
//
// # Text size and contrast
//
// Four text sizes (18, 24, 32 and 42 units, targets 48 to 76) and a
// high-contrast theme, chosen separately from the top bar (Smaller text,
// Larger text, High contrast) and reset for every voter. In high contrast
// every text and control is at least 10:1 against what is behind it
// (TestHighContrastTenToOne measures it).
//
// # What is forgotten after each voter
//
// When the receipt appears, and again when the next check-in starts, the
// kiosk wipes and drops everything it held of the voter (Kiosk.forgetVoter):
// the session (name, re-cast flag, ranking: overwritten, then set to nil);
// the check-in field (emptied, and a new field is made for the next voter, so
// no undo history survives); every label and button of the ballot and
// review screens (emptied, then the screens are dropped); the receipt's
// confirmation code (emptied when the receipt ends); a check-in refusal
// message (emptied when the next person types, or after ReturnAfter). The
// text size and contrast go back to the kiosk's default. Fields take no copy,
// cut, paste, undo or redo and have no context menu, so nothing typed reaches
// the clipboard. Go does not zero freed memory: the dropped strings are
// unreachable from the kiosk and the window, not erased from RAM.
//
// # Keyboard
//
// Everything works without a mouse. Tab and Shift+Tab, or the arrow keys,
// move the focus (drawn as a two-band ring, the ring colour outside and
// white or black inside, so that it shows on the blue or yellow buttons too;
// TestFocusIsVisible compares the pixels); Enter or Space press the focused
// button; Enter in a text field submits it. On the ballot, the number keys
// 1-9 rank candidate 1-9 next and Backspace removes the last choice. Escape
// leaves the passcode screen. Paper entry: see paperScreen.
//
// # Sync
//
// Config.Sync, when set, is asked every 30 s and after every cast how much is
// not yet synced (shown in the top bar), and the officials' menu has Sync
// now. Without it, those parts are hidden.
package kiosk
