/*
 * What perfzero-rank (rank_main.c) writes for the harness in <trial>/ranks/: where the rank runs
 * (rank-N.start.json, before the method starts) and how it ended (rank-N.json), each with the host's
 * facts. The harness reads them back in child_results/rank_reports.cpp.
 */
#ifndef PERFZERO_RANK_RECORD_H
#define PERFZERO_RANK_RECORD_H

#include <sys/resource.h>
#include <sys/types.h>

#include "rank_gpus.h"
#include "rank_load.h"
#include "rank_tree.h"

/* Who the rank is, as every record names it; `host` is already safe for JSON (json_safe). */
struct rank_identity {
  long rank, world, local;
  char host[256];
};

/* How the rank's method ended, as wait4 and the agent saw it. */
struct rank_end {
  pid_t pid;
  int status; /* wait4's */
  struct rusage usage;
  double wall;        /* seconds from the fork to the method's end */
  int exec_errno;     /* why the command could not start; 0 when it did */
  long tmp_leftovers; /* files the method left in its TMPDIR */
};

/* Text as a JSON string body: host names and the other host facts are plain ASCII; anything else
 * becomes '?'. */
void json_safe(char* text);

/* Where the rank runs, before its command starts: a rank killed with no chance to report (SIGKILL
 * after a time-out, a lost host) is still named with its host. */
void write_start(const char* ranks_dir, const struct rank_identity* id);

/* How the rank ended; `load` and `gpus` are NULL where this rank did not watch the host. */
void write_report(const char* ranks_dir, const struct rank_identity* id, const struct rank_end* end,
                  const struct host_load* load, struct rank_gpus* gpus, const struct rank_tree* tree);

#endif
