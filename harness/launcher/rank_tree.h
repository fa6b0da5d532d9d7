/*
 * A rank's process tree while it runs, for perfzero-rank (rank_main.c): the method and everything it
 * started, found through /proc/PID/task/TID/children from the method's process, summed. wait4 gives
 * the largest single process's peak at the end; this gives the whole tree's, as the harness's own
 * process-tree sampler does for a local method.
 */
#ifndef PERFZERO_RANK_TREE_H
#define PERFZERO_RANK_TREE_H

#include <sys/types.h>

struct rank_tree {
  pid_t root;                       /* the method's process; 0 until it is started */
  unsigned long long max_rss_bytes; /* the largest sum of resident memory over the tree */
  long max_processes;
  long max_threads;
  long samples;
};

/* One look at the tree; nothing when it is gone. */
void rank_tree_sample(struct rank_tree* t);

#endif
