/* chaos/observe.c: the history file, and the observers that never take
 * hangard's word: a watcher that samples every node's VMM processes from
 * /proc and the node's data dir, and one health prober per node. */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CH_WATCH_MS 200  /* five samples a second */
#define CH_HEALTH_MS 500
#define CH_HEALTH_TIMEOUT_MS 2000
#define CH_MAX_VMS 64

static FILE *hist_f;
static pthread_mutex_t hist_mu = PTHREAD_MUTEX_INITIALIZER;
static struct timespec t0;
static double wall0_ms; /* CLOCK_REALTIME at t0, in ms */

int ch_hist_open(const char *path) {
  struct timespec w;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  clock_gettime(CLOCK_REALTIME, &w);
  wall0_ms = (double)w.tv_sec * 1e3 + (double)w.tv_nsec / 1e6;
  hist_f = fopen(path, "w");
  return hist_f ? 0 : -errno;
}

void ch_hist_close(void) {
  pthread_mutex_lock(&hist_mu);
  if (hist_f) fclose(hist_f);
  hist_f = NULL;
  pthread_mutex_unlock(&hist_mu);
}

double ch_wall0_ms(void) { return wall0_ms; }

double ch_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0.tv_sec) * 1e3 + (double)(t.tv_nsec - t0.tv_nsec) / 1e6;
}

void ch_hist_at(json_t *ev, double t) {
  json_object_set_new(ev, "t", json_real((double)(int64_t)(t * 10) / 10));
  char *line = json_dumps(ev, JSON_COMPACT);
  json_decref(ev);
  if (!line) return;
  pthread_mutex_lock(&hist_mu);
  if (hist_f) {
    fputs(line, hist_f);
    fputc('\n', hist_f);
    fflush(hist_f);
  }
  pthread_mutex_unlock(&hist_mu);
  free(line);
}

void ch_hist(json_t *ev) { ch_hist_at(ev, ch_now()); }

/* ---- the watcher ----------------------------------------------------------- */

int ch_read_small(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) return -errno;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = '\0';
  return (int)n;
}

/* The state letter of /proc/pid/stat, 0 when the process is gone. */
static char proc_state(int pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  if (ch_read_small(path, buf, sizeof buf) <= 0) return 0;
  const char *rp = strrchr(buf, ')');
  return rp && rp[1] == ' ' ? rp[2] : '?';
}

/* The VMM pid a sandbox's shim.json names, when that process is a VMM
 * (not a reused pid): its command line names the sandbox's directory or
 * qemu. */
static int shim_vmm_pid(const char *sbdir) {
  char path[4200], buf[8192];
  snprintf(path, sizeof path, "%s/shim.json", sbdir);
  if (ch_read_small(path, buf, sizeof buf) <= 0) return 0;
  json_t *j = json_loads(buf, 0, NULL);
  int pid = (int)json_integer_value(json_object_get(j, "vmm_pid"));
  json_decref(j);
  if (pid <= 0) return 0;
  char cl[4096];
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  int n = ch_read_small(path, cl, sizeof cl);
  if (n <= 0) return 0;
  for (int k = 0; k < n; k++)
    if (cl[k] == '\0') cl[k] = ' ';
  return strstr(cl, "qemu") || strstr(cl, sbdir) ? pid : 0;
}

int ch_node_vmm_pids(const ch_run *run, int i, int *pids, int cap) {
  char d[512];
  snprintf(d, sizeof d, "%s/n%d/data/sandboxes", run->cluster_dir, i);
  DIR *dir = opendir(d);
  if (!dir) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dir)) && n < cap) {
    if (strncmp(e->d_name, "sb-", 3) != 0) continue;
    char sbdir[1024];
    snprintf(sbdir, sizeof sbdir, "%s/%s", d, e->d_name);
    int pid = shim_vmm_pid(sbdir);
    if (pid > 0) pids[n++] = pid;
  }
  closedir(dir);
  return n;
}

/* The live VMMs under one node's sandboxes/<id>/ or orphans/<id>/<epoch>/
 * (a copy set aside after a move keeps its shim.json; its VMM should be
 * gone, and the watcher looks rather than trusts that). */
static void scan_dir(const char *d, const char *sb, int node, json_t *vms, int depth) {
  DIR *dir = opendir(d);
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (e->d_name[0] == '.' || strlen(e->d_name) > 63) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", d, e->d_name);
    const char *id = sb ? sb : e->d_name;
    if (!sb && strncmp(e->d_name, "sb-", 3) != 0) continue;
    if (depth > 0) {
      scan_dir(sub, id, node, vms, depth - 1);
      continue;
    }
    ch_shimlog_follow(node, id, sub);
    int pid = shim_vmm_pid(sub);
    if (pid <= 0) continue;
    char st = proc_state(pid);
    if (st == 0 || st == 'Z' || st == 'X') continue;
    json_array_append_new(vms, json_pack("{s:i,s:s,s:i,s:s}", "node", node, "sb", id, "pid", pid,
                                         "st", st == 'T' || st == 't' ? "stop" : "run"));
  }
  closedir(dir);
}

/* One sample: every node's sandboxes with a live VMM, running ('run') or
 * stopped by a signal ('stop', the shim's fence or our SIGSTOP). */
static void watch_sample(const ch_run *run) {
  json_t *vms = json_array();
  for (int i = 1; i <= run->nodes; i++) {
    char d[512];
    snprintf(d, sizeof d, "%s/n%d/data/sandboxes", run->cluster_dir, i);
    scan_dir(d, NULL, i, vms, 0);
    snprintf(d, sizeof d, "%s/n%d/data/orphans", run->cluster_dir, i);
    scan_dir(d, NULL, i, vms, 1);
  }
  ch_hist(json_pack("{s:s,s:o}", "ev", "sample", "vms", vms));
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *watch_main(void *arg) {
  ch_run *run = arg;
  while (!run->stop_observers) {
    double t = ch_now();
    watch_sample(run);
    double left = CH_WATCH_MS - (ch_now() - t);
    if (left > 0) sleep_ms((int)left);
  }
  return NULL;
}

/* ---- health probes: GET /healthz on one node, twice a second ------------ */

typedef struct probe {
  ch_run *run;
  int node;
} probe;

static void *health_main(void *arg) {
  probe *p = arg;
  while (!p->run->stop_observers) {
    double t = ch_now();
    ch_resp r;
    ch_http(p->run, p->node, "GET", "/healthz", NULL, CH_HEALTH_TIMEOUT_MS, &r);
    double ms = ch_now() - t;
    ch_hist_at(json_pack("{s:s,s:i,s:b,s:i,s:f}", "ev", "health", "node", p->node, "ok",
                         r.status == 200, "status", (int)r.status, "ms", ms), t);
    ch_resp_free(&r);
    double left = CH_HEALTH_MS - (ch_now() - t);
    if (left > 0) sleep_ms((int)left);
  }
  free(p);
  return NULL;
}

int ch_observers_start(ch_run *run, pthread_t *threads, int *n) {
  *n = 0;
  if (pthread_create(&threads[(*n)++], NULL, watch_main, run) != 0) return -EAGAIN;
  for (int i = 1; i <= run->nodes; i++) {
    probe *p = malloc(sizeof *p);
    if (!p) return -ENOMEM;
    *p = (probe){run, i};
    if (pthread_create(&threads[*n], NULL, health_main, p) != 0) {
      free(p);
      return -EAGAIN;
    }
    (*n)++;
  }
  return 0;
}
