// Package dataio moves election data in and out of VoteDesk as files: cast
// vote records and poll books in, ballots, results reports and the event log
// out. The command line and the desktop app both call it; every change goes
// through app.Service, so the same gate authorizes and validates it.
//
// # Cast vote records in
//
// ReadCVRs reads files of any format package cvr reads (the format detected
// from the name and content when not given) against an election's
// candidates, and CVRImport.Record imports the ballots with
// app.Service.ImportBallots, all or nothing; ImportCVRs does both. Names in
// the files are matched to candidates exactly, else by an alias given with
// the import (an RCTab config's candidate codes and aliases, or the command
// line's --alias NAME=CANDIDATE), else ignoring letter case and runs of
// spaces when that leaves exactly one candidate; the summary lists every
// name matched other than exactly. Aliases are not stored with the
// election: they belong to the files, and each import says its own.
//
// A record's id in its file becomes the ballot's source id. Ids must be
// unique across the files of an import and with ballots already imported
// into the election (app refuses a repeat), so importing a file twice is
// refused. A record without an id is given FILEID/N, FILEID being the first
// 12 hex digits of its file's SHA-256 and N its place in the file, and a
// record counted n times (BLT, PrefLib) becomes n ballots ID_1 ... ID_n.
//
// A cast vote record is imported as cast (app.normalizeCast): overvotes,
// an overvote label without candidates (app.OvervoteLabel), skipped ranks
// and candidates ranked again stay on the ballot, and the rules decide what
// they mean when the election is counted, as RCTab decides on the files.
// Progress reports bytes read, then ballots recorded.
package dataio
