/* chaos/runner.h: what the chaos runner's parts share (run.c drives the
 * cluster and the nemesis, workload.c the clients, observe.c the history
 * file and the observers that do not ask hangard). Not a library: one
 * program, chaos/run, is built from these files. */
#ifndef HG_CHAOS_RUNNER_H
#define HG_CHAOS_RUNNER_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define CH_MAX_NODES 5
#define CH_MAX_LANES 16
#define CH_MAX_FAULTS 256

typedef enum {
  F_KILL,
  F_CRASH,
  F_STOP,
  F_PARTITION,
  F_ONEWAY,
  F_LOSS,
  F_RESTART,
  F_BRIDGE,   /* a: sees every node; the others split in two halves */
  F_DISKFULL, /* a: its btrfs full until the heal */
  F_DELAY,    /* a: what other nodes send it held min..max ms each (NFQUEUE) */
  F_KILLRECV, /* a: every btrfs receive it runs SIGKILLed as it starts */
  F_KINDS
} ch_kind;

typedef struct ch_fault {
  int64_t at_ms;  /* start, from the run's start */
  int64_t dur_ms; /* how long the node is down / cut / stopped */
  ch_kind kind;
  int a, b; /* nodes (b: the other side of a partition, 0 otherwise) */
  int pct;  /* loss: percent of packets dropped */
  int min_ms, max_ms; /* delay: each packet's hold */
} ch_fault;

typedef struct ch_run {
  uint64_t seed;
  int nodes, duration_s, lanes;
  unsigned nemesis_mask; /* 1 << ch_kind */
  ch_fault faults[CH_MAX_FAULTS];
  int nfaults;
  char out[4096], cluster_dir[256], prefix[16], subnet[32];
  char tool[4096];      /* tools/cluster */
  char bin[4096];       /* hangard */
  char delayer[4096];   /* hg-chaos-delay */
  char template_dir[4096];
  char key[128];        /* the admin key the cluster's env names */
  volatile int stop_lanes;    /* 1: no new requests */
  volatile int stop_observers;
} ch_run;

extern const char *const ch_kind_names[F_KINDS];

/* ---- observe.c: the history (one JSON object a line, "t": ms since start) */
int ch_hist_open(const char *path);
void ch_hist_close(void);
double ch_now(void);             /* ms since ch_hist_open, monotonic */
double ch_wall0_ms(void);        /* the wall clock (ms since the epoch) at t = 0: log
                                    lines' times map onto the history by it */
void ch_hist(json_t *ev);        /* adds "t" and writes ev (stolen) */
void ch_hist_at(json_t *ev, double t); /* with a given time */
/* Reads at most cap-1 bytes of a small file (a /proc or /sys one) into
 * buf, NUL-terminated: the length, or -errno. */
int ch_read_small(const char *path, char *buf, size_t cap);
/* The watcher and the health probes, one thread each; stopped by
 * run->stop_observers. */
int ch_observers_start(ch_run *run, pthread_t *threads, int *n);
/* The VMM pids of node i (from its sandboxes' shim.json): up to cap. */
int ch_node_vmm_pids(const ch_run *run, int i, int *pids, int cap);

/* ---- inspect.c: the end of a run, seen from the host. Every node's
 * generations (snapshots/, replicas/: subvolume, read-only, received
 * UUID) and staging dir, before the teardown; ... */
void ch_record_generations(const ch_run *run);
/* ... and every process, namespace, link, mount and loop device of the
 * run the teardown left, after it. */
void ch_record_leftovers(const ch_run *run);

/* ---- nodelog.c: the nodes' logs as "vmlog" events (start / stop / fence
 * of a VM, on the history's clock), "member" (gossip's view of each peer)
 * and "repl" (a generation's totals as sent and as received). Every
 * node's hangard.log, before the teardown: */
void ch_record_node_logs(const ch_run *run);
/* The new whole lines of dir/shim.log (node's VM dir of sandbox sb) since
 * the last call for that dir; the watcher's thread only. */
void ch_shimlog_follow(int node, const char *sb, const char *dir);

/* ---- workload.c: one client thread per lane until run->stop_lanes. */
void *ch_lane_main(void *arg); /* arg: ch_lane */
typedef struct ch_lane {
  ch_run *run;
  int id;
  pthread_t th;
} ch_lane;
/* Every sandbox id the lanes created (acknowledged or not), for the final
 * reads after the heal. */
int ch_known_sandboxes(char (*ids)[64], int cap);

/* ---- http (workload.c) */
typedef struct ch_resp {
  long status; /* 0: no answer (timeout, refused) */
  int curl_rc;
  char *body;
  size_t len;
  json_t *json; /* parsed body, or NULL */
} ch_resp;
int ch_http(const ch_run *run, int node, const char *method, const char *path,
            const char *body, long timeout_ms, ch_resp *r);
void ch_resp_free(ch_resp *r);

#endif
