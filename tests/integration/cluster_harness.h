/* cluster_harness: integration tests of the peer cluster (DESIGN §8) on top
 * of harness.h. It drives tools/cluster, the launcher that runs N hangards,
 * each in a network namespace of its own on one bridge (node i: netns
 * <prefix>-n<i>, API http://<subnet>.<i>:7070, gossip <subnet>.<i>:7946,
 * id n<i>; the host is <subnet>.254 on the same bridge), and reads what
 * every node says about the others. The launcher finds hangard through
 * HANGARD_BIN, which ctest sets.
 *
 * One cluster at a time per process. Once hg_itc_up has been called, the
 * cluster is torn down (tools/cluster down) by hg_itc_down, at exit, on
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT, and when the watchdog (hg_itc_up's deadline)
 * fires, so a failed or interrupted test leaves no namespace, process,
 * mount or loop device behind. hg_itc_down also checks how each hangard
 * stopped (as harness.h's hg_it_node_stop does for one node). */
#ifndef HG_TESTS_CLUSTER_HARNESS_H
#define HG_TESTS_CLUSTER_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tests/integration/harness.h"

#define HG_ITC_MAX 8
#define HG_ITC_API_PORT 7070
#define HG_ITC_GOSSIP_PORT 7946

typedef struct hg_itc {
  int n;         /* nodes 1..n; node[0] unused */
  char dir[256]; /* tools/cluster --dir: env, logs, data */
  char prefix[32];
  char subnet[32];                 /* "A.B.C" */
  char key[256];                   /* HANGAR_KEY: the admin key of every node */
  char cluster_key[512];           /* HANGAR_CLUSTER_KEY: "hex64[,hex64…]" */
  hg_it_node node[HG_ITC_MAX + 1]; /* url (HANGAR_URL_<i>); pid stays 0 */
  bool killed[HG_ITC_MAX + 1];     /* SIGKILLed by the test, not started since */
  bool up;
  bool failed; /* an hg_itc_expect did not get its status: down keeps the logs */
} hg_itc;

typedef struct hg_itc_opts {
  const char *prefix;        /* NULL: env HG_IT_CLUSTER_PREFIX, else "hgit" */
  const char *subnet;        /* NULL: env HG_IT_CLUSTER_SUBNET, else "10.251.73" */
  bool with_template;        /* pass --template-dir HANGAR_TEST_TEMPLATE_DIR */
  unsigned pool_size;        /* --pool-size */
  const char *max_sandboxes; /* --max-sandboxes "M" or "M1,M2,…" (per node), or NULL */
  unsigned ready_timeout_s;  /* `up` waits this long for every node; 0: 300 */
  unsigned deadline_s;       /* watchdog: the cluster goes down after this; 0: 600 */
  const char *const *extra;  /* NULL-terminated hangard flags after "--", or NULL */
} hg_itc_opts;

/* Brings up n nodes (after a `down` of anything left under the same
 * prefix by an earlier run) and reads DIR/env. 0, or a negative errno with
 * the reason on stderr; on failure the cluster is already down. */
int hg_itc_up(hg_itc *c, int n, const hg_itc_opts *o);
/* A test group's setup: libcurl's and jansson's one-time init (before any
 * thread: neither is thread-safe), hg_itc_up, and until every node lists
 * every node alive (60 s). The ms that took after `up`, or < 0. */
int64_t hg_itc_group_up(hg_itc *c, int n, const hg_itc_opts *o);
/* Its teardown: hg_itc_down and libcurl's cleanup; hg_itc_down's result. */
int hg_itc_group_down(hg_itc *c);
/* Stops every running hangard with SIGTERM and waits for its exit status
 * (DIR/n<i>/exit, which tools/cluster writes): each must be 0, hangard's
 * clean stop; a node that is not running must have exited 0 too, unless
 * the test SIGKILLed it (hg_itc_signal) and did not start it again. Every
 * node's log must hold no sanitizer report (hg_it_log_check). Then
 * tools/cluster down; idempotent. 0, or -1 with the reasons on stderr and
 * the nodes' logs kept in /tmp/hg-itc-<prefix>-logs/ (also with HG_IT_KEEP
 * set). */
int hg_itc_down(hg_itc *c);
/* Runs tools/cluster <args…> --dir/--prefix of c (NULL-terminated);
 * returns its exit status (0 ok), or a negative errno. */
int hg_itc_tool(hg_itc *c, ...);

/* Node i's hangard pid, from the pid file tools/cluster keeps
 * (DIR/n<i>/pid), checked against the process's command line; 0 when it
 * is not running. */
pid_t hg_itc_pid(hg_itc *c, int i);
/* Sends sig to node i's hangard straight from here, without the launcher's
 * few hundred milliseconds of bash in between, so the clock of a test
 * starts when the signal lands. 0 or a negative errno. A SIGKILL exempts
 * the node's exit status from hg_itc_down's check until `start` (through
 * hg_itc_tool) runs it again. */
int hg_itc_signal(hg_itc *c, int i, int sig);

/* Node i's gossip address, "A.B.C.i" and its port. */
void hg_itc_gossip_addr(const hg_itc *c, int i, char host[32], int *port);
/* "n<i>": the id tools/cluster gives node i. */
const char *hg_itc_id(int i);

/* One request to node i as token (NULL: the admin key, "": none), bounded
 * by timeout_ms (a stopped node must not stall a poll). */
int hg_itc_http(hg_itc *c, int i, const char *method, const char *path, const char *token,
                const void *body, size_t len, int timeout_ms, hg_it_resp *out);
/* JSON in and out through hg_itc_http; the parsed answer (or NULL) and
 * the status (0 when the request itself failed). */
json_t *hg_itc_json(hg_itc *c, int i, const char *token, const char *method,
                    const char *path, json_t *body, int timeout_ms, long *status);
/* hg_itc_json that expects status want: false (the answer printed) when
 * the status differs. *out gets the answer (may be NULL); out NULL: freed. */
bool hg_itc_expect(hg_itc *c, int i, const char *token, const char *method, const char *path,
                   json_t *body, long want, int timeout_ms, json_t **out);
/* sh -c cmd in sandbox id through node i (?wait): its stdout (free it), or
 * NULL, printed, when it could not run or did not exit 0. */
char *hg_itc_sh(hg_itc *c, int i, const char *token, const char *id, const char *cmd,
                int timeout_ms);
/* GET /metrics of node i (text to free, or NULL). */
char *hg_itc_metrics(hg_itc *c, int i);
/* GET /v1/sandboxes/{id} through node via: the owner's number (node "n<k>"
 * -> k), or 0 when via did not answer 200 or names no owner; epoch and
 * state (may be NULL) get the answer's, or 0 and "". */
int hg_itc_owner(hg_itc *c, int via, const char *id, uint64_t *epoch, char state[16]);
/* The pid of sandbox id's VMM on node i, from its shim's status file
 * (<dir>/n<i>/data/sandboxes/<id>/shim.json), alive or not; 0 when there
 * is no such file or pid. */
int hg_itc_vmm_pid(hg_itc *c, int i, const char *id);
/* VMM processes of sandbox id alive now, over every node: what "never two
 * copies run" is checked against, beside the API's word. */
int hg_itc_vmms(hg_itc *c, const char *id);

/* What node `viewer` says about member `id`. */
typedef struct hg_itc_view {
  bool known;
  char state[16]; /* "alive", "suspect", "dead", "left" */
  uint64_t incarnation;
  json_t *member; /* the member's object (borrowed from the list) */
} hg_itc_view;

/* GET /v1/cluster/members of node i (timeout_ms); the answer, or NULL when
 * the node did not answer 200. */
json_t *hg_itc_members(hg_itc *c, int i, int timeout_ms);
/* The array of members in an answer of hg_itc_members (borrowed). */
json_t *hg_itc_member_list(json_t *answer);
/* Looks id up in an answer of hg_itc_members. */
hg_itc_view hg_itc_lookup(json_t *answer, const char *id);

/* Polls (every poll_ms) until every viewer in mask (bit i = node i) says
 * member `id` is in `state`, or timeout_ms passes. at_ms[i] gets when
 * viewer i was first seen saying so, in ms after t0_ms (-1: never).
 * Returns 0 or -ETIMEDOUT. */
int hg_itc_wait_state(hg_itc *c, unsigned mask, const char *id, const char *state,
                      int64_t t0_ms, int timeout_ms, int poll_ms, int64_t at_ms[]);
/* True when every node in mask lists every node in mask alive. */
bool hg_itc_converged(hg_itc *c, unsigned mask, int timeout_ms);
/* Polls hg_itc_converged until it holds; the time it took in ms, or
 * -ETIMEDOUT (with every node's view printed). */
int64_t hg_itc_wait_converged(hg_itc *c, unsigned mask, int timeout_ms);
/* Prints every node's member list (id state incarnation) to stderr. */
void hg_itc_dump(hg_itc *c, unsigned mask, const char *why);

/* bit mask of nodes 1..n */
static inline unsigned hg_itc_all(const hg_itc *c) {
  return ((1u << (c->n + 1)) - 1) & ~1u;
}

#endif
