/* A rank's process tree, summed (rank_tree.h). */
#define _GNU_SOURCE
#include "rank_tree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Deep enough for any method's tree; a larger one is counted up to here. */
#define RANK_TREE_MAX 4096

/* Resident pages of one process (statm's second field); 0 when it is gone. */
static unsigned long long resident_pages(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
  FILE* f = fopen(path, "r");
  if (f == NULL) return 0;
  unsigned long long size = 0, resident = 0;
  if (fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
  fclose(f);
  return resident;
}

/* Appends the children of every thread of `pid` to `pids`; returns its thread count. */
static long add_children(pid_t pid, pid_t* pids, int* count) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR* tasks = opendir(path);
  if (tasks == NULL) return 0;
  long threads = 0;
  for (struct dirent* t = readdir(tasks); t != NULL; t = readdir(tasks)) {
    if (t->d_name[0] < '0' || t->d_name[0] > '9') continue;
    ++threads;
    char children[320];
    snprintf(children, sizeof children, "/proc/%d/task/%s/children", (int)pid, t->d_name);
    FILE* f = fopen(children, "r");
    if (f == NULL) continue;
    int child = 0;
    while (*count < RANK_TREE_MAX && fscanf(f, "%d", &child) == 1) pids[(*count)++] = child;
    fclose(f);
  }
  closedir(tasks);
  return threads;
}

void rank_tree_sample(struct rank_tree* t) {
  if (t->root <= 0) return;
  static pid_t pids[RANK_TREE_MAX];
  int count = 1;
  pids[0] = t->root;
  unsigned long long pages = 0;
  long threads = 0;
  for (int i = 0; i < count; ++i) {
    pages += resident_pages(pids[i]);
    threads += add_children(pids[i], pids, &count);
  }
  if (threads == 0) return; /* the tree is gone */
  const unsigned long long bytes = pages * (unsigned long long)sysconf(_SC_PAGESIZE);
  if (bytes > t->max_rss_bytes) t->max_rss_bytes = bytes;
  if (count > t->max_processes) t->max_processes = count;
  if (threads > t->max_threads) t->max_threads = threads;
  ++t->samples;
}
