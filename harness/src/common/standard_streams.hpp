#pragma once
// Descriptors 0-2 made safe before anything else runs, for every command.
//
// A descriptor that is closed at start is taken by /dev/null opened read-only: the next file the
// harness opens (a run's lock file, its journal) can no longer become "standard output", and a
// write to it still fails (EBADF), as it did when it was closed, so the commands that must deliver
// their output (list, compare) still say they could not.
//
// Standard error is where the harness says what went wrong, so writing to it must never fail a
// command: stderr becomes a stream that writes to descriptor 2 and drops what cannot be written
// (a closed terminal, a reader gone), rather than raise an error inside an error handler.
namespace perfzero::standard_streams {

void make_safe();

}  // namespace perfzero::standard_streams
