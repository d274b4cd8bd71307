package relaunch

import (
	"context"
	"fmt"
	"os"
	"time"

	"votedesk/app"
	"votedesk/localstore"
)

// The variables that tell the next process why it was started: createEnv
// names the database the user agreed to create, noticeEnv carries a notice
// for the app to show (what a restore did). The command line's tests set
// createEnv to start the app on a new database without the question.
const (
	createEnv = "VOTEDESK_CREATE_DB"
	noticeEnv = "VOTEDESK_NOTICE"
)

// GUI runs the desktop app on one database file, starting the program
// again where the app needs a new process.
type GUI struct {
	// AskCreate asks, in a window of its own, whether to create a new
	// database at path.
	AskCreate func(path string) bool
	// RunOnce runs the app on the database at path until it closes,
	// showing notice first if there is one, and returns, with the database
	// closed, the backup the user asked to restore, if any.
	RunOnce func(path, notice string) (restoreFrom string, err error)

	// restart is Restart, but in tests.
	restart func(marker string) error
}

// Run opens the app on the database at path. With ask (a path named on
// the command line where there is no database) it first asks whether to
// create one, and starts again to do so. When the app asks for a backup to
// be restored, the backup is restored over the closed database and the
// program starts again with a notice of what happened, or why nothing was
// restored.
func (g GUI) Run(path string, ask bool) error {
	restart := g.restart
	if restart == nil {
		restart = Restart
	}
	created, notice := os.Getenv(createEnv), os.Getenv(noticeEnv)
	// They are for this process only: not for what it starts.
	os.Unsetenv(createEnv)
	os.Unsetenv(noticeEnv)
	if ask && created != path {
		if !g.AskCreate(path) {
			return app.Errorf(app.CodeNotFound, "no VoteDesk database at %s; nothing was created", path)
		}
		return restart(createEnv + "=" + path)
	}
	restoreFrom, err := g.RunOnce(path, notice)
	if err != nil || restoreFrom == "" {
		return err
	}
	return restart(noticeEnv + "=" + restoreNotice(path, restoreFrom))
}

// restoreNotice restores the backup at from over the database at path and
// says, for the user, what happened.
func restoreNotice(path, from string) string {
	info, err := localstore.Restore(context.Background(), path, from, time.Now(), nil)
	if err != nil {
		return "The restore failed; the database is as it was.\n" + app.ErrorMessage(err)
	}
	return fmt.Sprintf("Restored %d events from %s. The database it replaced is kept as %s.", info.Report.Events, from, info.Kept)
}
