/* harness: integration tests run real hangard processes on a real btrfs
 * loop image and talk to them over HTTP, as a user would. Each node lives
 * in its own temp dir; hg_it_node_stop leaves no process, VM or mount
 * behind, even after a test failed half-way, and checks what hangard left
 * to check: that it stopped cleanly on SIGTERM and that its log holds no
 * sanitizer report. */
#ifndef HG_TESTS_HARNESS_H
#define HG_TESTS_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "node/core/buf.h"

#define HG_IT_KEY "it-admin-key-0123456789"

typedef struct hg_it_node {
  char dir[256];   /* temp dir: data/, hangard.log */
  char data[300];
  char url[64];
  int port;
  pid_t pid;
  const char *const *extra; /* more hangard flags, NULL-terminated; NULL: none */
  char ca[300];             /* with --tls-cert in extra: that (self-signed) cert,
                             * and url is https:// */
  int exit_status;          /* waitpid status once hangard exited by itself */
} hg_it_node;

typedef struct hg_it_resp {
  long status;
  hg_buf body;
  char headers[4096];
} hg_it_resp;

/* Starts hangard with the test template (env HANGAR_TEST_TEMPLATE_DIR) and
 * waits until it serves the API and the default template is ready. */
int hg_it_node_start(hg_it_node *n);
/* The same with more hangard flags (kept for restarts): {"--accel", "tcg", NULL}.
 * -ECHILD when hangard exited before it was ready (n->exit_status says how). */
int hg_it_node_start_with(hg_it_node *n, const char *const *extra);
/* Restarts hangard on the same data dir (after a kill). With n->port 0
 * (a data dir the test filled in-process: n->dir and n->data set, the
 * rest zero) it picks a port and starts hangard there the first time. */
int hg_it_node_restart(hg_it_node *n);
/* Signals hangard and reaps it, whatever its exit status: for a test that
 * kills it on purpose (SIGKILL). Its log is still scanned at the stop. */
void hg_it_node_kill(hg_it_node *n, int sig);
/* Stops hangard with SIGTERM and waits for it; 0 when it exited 0 (its
 * clean stop) and its log (every run of it: restarts append) holds no
 * sanitizer report. Else -1, with the reason and the log's excerpt on
 * stderr, and the node's dir (hangard.log) is kept for a look; the data
 * image goes either way (HG_IT_KEEP=1 keeps the dir always). For a group
 * teardown's return value. */
int hg_it_node_stop(hg_it_node *n);

/* Runs a cmocka group, as cmocka_run_group_tests does, and also fails
 * (returns 1) when the group's teardown failed: cmocka (1.1.5) prints
 * "GROUP TEARDOWN" failed and still exits 0, so an unclean hangard stop
 * or a sanitizer report found at the teardown would pass. */
struct CMUnitTest;
int hg__it_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
                     int (*setup)(void **state), int (*teardown)(void **state));
#define hg_it_run_group(tests, setup, teardown) \
  hg__it_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

/* How long a SIGTERMed hangard may take to exit: the HTTP drain (5 s), the
 * cluster's leave, and LeakSanitizer's scan at exit on a loaded machine. */
#define HG_IT_STOP_TIMEOUT_MS 120000
/* Scans a hangard log for sanitizer reports (AddressSanitizer,
 * LeakSanitizer, UBSan's "runtime error:", any "SUMMARY: "); prints the
 * report, prefixed with who, and returns -1 when there is one; 0 when the
 * log is clean or absent (no hangard ever wrote it). */
int hg_it_log_check(const char *path, const char *who);
/* Prints the last lines of a log to stderr (why a daemon did not stop). */
void hg_it_log_tail(const char *path, int lines);
/* Prints to stderr the last `lines` lines of a hangard.log that contain
 * needle: what the daemon said about a sandbox whose request failed, in
 * the test's output (CI keeps nothing else). */
void hg_it_log_about(const char *path, const char *needle, int lines);
/* SIGTERM to hangard, a child of this process, and its exit status within
 * HG_IT_STOP_TIMEOUT_MS (then SIGKILL): 0 when it exited 0, else -1 with
 * who and the status on stderr. Reaps it either way. */
int hg_it_stop_child(pid_t pid, const char *who);
/* Appends detect_leaks=1 to ASAN_OPTIONS in this process's environment,
 * for the hangards it starts (directly or through tools/cluster):
 * LeakSanitizer runs when they exit, and a leak makes their exit status
 * nonzero. */
void hg_it_sanitizer_env(void);

/* One HTTP request with the admin key (or token if given; "" sends no
 * credentials). The path goes out as written ("/../" and "%00" included). */
int hg_it_http(hg_it_node *n, const char *method, const char *path, const char *token,
               const void *body, size_t len, hg_it_resp *out);
/* The same on a client of one's own: curl is a CURL * that the caller keeps
 * (one per thread), so its connection is reused between requests; NULL
 * takes a fresh one for this request. */
int hg_it_http_on(void *curl, hg_it_node *n, const char *method, const char *path,
                  const char *token, const void *body, size_t len, hg_it_resp *out);
/* A request with exactly these header lines ("Name: value", NULL-terminated)
 * and no credentials of its own: what a peer, or someone posing as one, sends. */
int hg_it_http_hdrs(hg_it_node *n, const char *method, const char *path,
                    const char *const *hdrs, const void *body, size_t len, hg_it_resp *out);
void hg_it_resp_free(hg_it_resp *r);
/* A string field of a JSON object, or "" when absent or not a string. */
const char *hg_it_str(const json_t *j, const char *key);
/* JSON in and out; returns the parsed body (or NULL) and the status. */
json_t *hg_it_json(hg_it_node *n, const char *method, const char *path, json_t *body,
                   long *status);
/* The same with a token (NULL: the admin key) on a client (NULL: a fresh one). */
json_t *hg_it_json_on(void *curl, hg_it_node *n, const char *token, const char *method,
                      const char *path, json_t *body, long *status);

/* A plain TCP connection to the node, for what libcurl will not send
 * (half requests, trickled heads). Returns the fd or a negative errno. */
int hg_it_connect(hg_it_node *n);

/* GET /metrics (no credentials); returns the text (free it) or NULL. */
char *hg_it_metrics(hg_it_node *n);
/* Value of one series in Prometheus text, named exactly as printed, labels
 * and all (`hangar_sandboxes{state="running"}`); 0 when it is absent, as an
 * unset counter reads. */
double hg_it_metric(const char *text, const char *series);

/* Creates a sandbox and waits for it; returns its id (static buffer per call site). */
int hg_it_create(hg_it_node *n, char id[32]);
/* Deletes a sandbox through DELETE ?wait; 0 when it is gone. */
int hg_it_delete(hg_it_node *n, const char *id);
/* Runs argv to completion through ?wait; fills stdout and exit code. */
int hg_it_run(hg_it_node *n, const char *id, const char *sh_cmd, const char *stdin_text,
              char **out_stdout, int *exit_code);
/* SIGKILLs the VMM of one sandbox; returns how many processes it hit. */
int hg_it_kill_vm(hg_it_node *n, const char *id);
/* Number of qemu processes whose command line mentions the node's dir. */
int hg_it_count_vms(hg_it_node *n);

/* A guest command that prints 1, 2, 3, … one a line, five a second: a
 * process whose progress shows whether it kept running. */
#define HG_IT_COUNTER "i=0; while :; do i=$((i+1)); echo $i; sleep 0.2; done"
/* The last number a counter printed (0 for none); -1, and the text on
 * stderr, when the numbers do not run 1, 2, 3, … unbroken. */
long hg_it_counter_last(const char *text);
/* Polls a counter's output (read returns it, malloc'd, or NULL) until its
 * last number is at least min, at most timeout_ms (a TCG guest on a loaded
 * host is slow); returns the last number, -1 when the output broke, or
 * what it reached (< min, printed) when the time ran out. */
long hg_it_wait_counter(char *(*read)(void *ud), void *ud, long min, int timeout_ms);

#endif
