// Command votedesk is VoteDesk: with no arguments it opens the desktop app,
// with arguments it runs the command line. This file only wires the parts
// together.
package main

import (
	"os"
	"path/filepath"

	"votedesk/app"
	"votedesk/assets"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/ui"
	"votedesk/ui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Deps{
		Open:      openBackend,
		GUI:       runGUI,
		DefaultDB: defaultDB,
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}))
}

// openBackend opens the database file and builds the services over it.
func openBackend(path string) (*cli.Backend, error) {
	st, err := localstore.Open(path)
	if err != nil {
		return nil, err
	}
	cloud := func(o app.CloudOptions) app.Syncer {
		return cloudsync.New(st, cloudsync.Config{Endpoint: o.Endpoint, TablePrefix: o.TablePrefix})
	}
	return &cli.Backend{Service: app.NewService(st, nil, nil), Store: st, Cloud: cloud}, nil
}

// runGUI opens the desktop app on the database at path.
func runGUI(path string) error {
	b, err := openBackend(path)
	if err != nil {
		return err
	}
	defer b.Store.Close()
	return ui.Run(ui.Config{Service: b.Service, DBPath: path, Icon: assets.Icon})
}

// defaultDB is votedesk.db in the user's configuration folder.
func defaultDB() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "votedesk", "votedesk.db"), nil
}
