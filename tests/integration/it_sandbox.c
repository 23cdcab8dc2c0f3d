/* Integration: one real hangard, real microVMs restored from the real
 * template, driven over the HTTP API the way a user drives it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/harness.h"
#include "tests/unit/proc_util.h"

static hg_it_node node;

/* A lease longer than the outage below: "a daemon restart faster than
 * the lease keeps its VMs running" (it_lease shows a longer one fencing
 * them until the grant). */
static const char *const node_flags[] = {"--lease-ms", "20000", "--lease-margin-ms", "1000",
                                         NULL};
static int setup(void **state) { return hg_it_node_start_with(&node, node_flags) == 0 ? 0 : -1; }

static int teardown(void **state) { return hg_it_node_stop(&node); }

/* --- helpers ------------------------------------------------------------------- */

static void lifecycle(const char *id, const char *verb, long want) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/%s?wait=120", id, verb);
  json_t *j = hg_it_json(&node, "POST", path, NULL, &status);
  if (status != want) {
    char *d = j ? json_dumps(j, 0) : NULL;
    fprintf(stderr, "%s %s: %ld %s\n", verb, id, status, d ? d : "");
    free(d);
  }
  assert_int_equal(status, want);
  json_decref(j);
}

static const char *state_of(const char *id, char out[32]) {
  char path[96];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s", id);
  json_t *j = hg_it_json(&node, "GET", path, NULL, &status);
  const char *s = json_string_value(json_object_get(j, "state"));
  snprintf(out, 32, "%s", s ? s : "?");
  json_decref(j);
  return out;
}

/* Starts a command without waiting; returns its id. */
static void start_cmd(const char *id, const char *sh, char cid[32]) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", id);
  json_t *req = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", sh);
  json_t *j = hg_it_json(&node, "POST", path, req, &status);
  json_decref(req);
  assert_int_equal(status, 201);
  snprintf(cid, 32, "%s", json_string_value(json_object_get(j, "id")));
  json_decref(j);
}

/* Reads what a command has written to stdout so far, from offset 0. */
static char *read_output(const char *id, const char *cid, long *dropped) {
  char path[160];
  hg_it_resp r;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output?offset=0", id, cid);
  /* A command that has ended: follow to its end, whatever the ring kept. */
  if (dropped) strcat(path, "&follow=1");
  assert_int_equal(hg_it_http(&node, "GET", path, NULL, NULL, 0, &r), 0);
  assert_int_equal(r.status, 200);
  if (dropped) {
    const char *h = strcasestr(r.headers, "X-Hangar-Dropped:");
    *dropped = h ? atol(h + 17) : -1;
  }
  char *out = strndup(r.body.data ? r.body.data : "", r.body.len);
  hg_it_resp_free(&r);
  return out;
}

/* --- tests --------------------------------------------------------------------- */

static void commands_report_output_and_exit_codes(void **state) {
  char id[32], *out;
  int code;
  assert_int_equal(hg_it_create(&node, id), 0);
  assert_int_equal(hg_it_run(&node, id, "echo hi", NULL, &out, &code), 0);
  assert_string_equal(out, "hi\n");
  assert_int_equal(code, 0);
  free(out);
  assert_int_equal(hg_it_run(&node, id, "echo oops >&2; exit 3", NULL, &out, &code), 0);
  assert_int_equal(code, 3);
  free(out);
  assert_int_equal(hg_it_run(&node, id, "tr a-z A-Z", "hello stdin", &out, &code), 0);
  assert_string_equal(out, "HELLO STDIN");
  free(out);
}

/* Polls the command's status until it has exited (bounded: a loaded TCG
 * guest can take seconds to push megabytes through a pipe). */
static void wait_exited(const char *id, const char *cid) {
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s", id, cid);
  bool exited = false;
  for (int64_t end = hg_now_ms() + 120000; !exited && hg_now_ms() < end;) {
    long status;
    json_t *j = hg_it_json(&node, "GET", path, NULL, &status);
    exited = status == 200 && json_is_true(json_object_get(j, "exited"));
    json_decref(j);
    if (!exited) usleep(100000);
  }
  assert_true(exited);
}

static void output_beyond_the_ring_reports_dropped_bytes(void **state) {
  char id[32], cid[32], *out;
  long dropped;
  assert_int_equal(hg_it_create(&node, id), 0);
  /* 3 MiB through a 1 MiB ring. */
  start_cmd(id, "head -c 3145728 /dev/zero | tr '\\0' x; echo; echo done", cid);
  wait_exited(id, cid);
  out = read_output(id, cid, &dropped);
  assert_true(dropped >= 3145728 - 1048576 - 16);
  assert_non_null(strstr(out, "done\n"));
  free(out);
}

static void file_of_10_mib_round_trips_byte_exact(void **state) {
  char id[32], path[160];
  assert_int_equal(hg_it_create(&node, id), 0);
  size_t len = 10u << 20;
  char *data = malloc(len);
  assert_int_equal(hg_random_bytes(data, len), 0);
  hg_it_resp r;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/root/blob.bin", id);
  assert_int_equal(hg_it_http(&node, "PUT", path, NULL, data, len, &r), 0);
  assert_true(r.status == 204 || r.status == 200);
  hg_it_resp_free(&r);
  assert_int_equal(hg_it_http(&node, "GET", path, NULL, NULL, 0, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, len);
  assert_memory_equal(r.body.data, data, len);
  hg_it_resp_free(&r);
  free(data);
}

typedef struct command {
  const char *id, *cid;
} command;

static char *command_output(void *ud) {
  command *c = ud;
  return read_output(c->id, c->cid, NULL);
}

/* Waits until the counter (HG_IT_COUNTER) of command cid has printed at
 * least min, unbroken; returns the last number. */
static long wait_count(const char *id, const char *cid, long min) {
  long last = hg_it_wait_counter(command_output, &(command){id, cid}, min, 120000);
  assert_true(last >= min);
  return last;
}

static void suspend_resume_keeps_memory_files_and_output(void **state) {
  char id[32], cid[32], st[32], *out;
  int code;
  assert_int_equal(hg_it_create(&node, id), 0);
  assert_int_equal(hg_it_run(&node, id, "echo kept > /root/file", NULL, &out, &code), 0);
  free(out);
  start_cmd(id, HG_IT_COUNTER, cid);
  long before = wait_count(id, cid, 3);
  int vms = hg_it_count_vms(&node);
  lifecycle(id, "suspend", 200);
  assert_string_equal(state_of(id, st), "suspended");
  assert_int_equal(hg_it_count_vms(&node), vms - 1);
  lifecycle(id, "resume", 200);
  assert_string_equal(state_of(id, st), "running");
  /* The same process goes on counting: no reboot, no lost output (the
   * output so far still runs 1, 2, 3, … unbroken). */
  wait_count(id, cid, before + 3);
  assert_int_equal(hg_it_run(&node, id, "cat /root/file", NULL, &out, &code), 0);
  assert_string_equal(out, "kept\n");
  free(out);
}

static void fork_gives_independent_sandboxes_with_fresh_rng(void **state) {
  char id[32], path[128], child[32], *a, *b;
  int code;
  long status;
  assert_int_equal(hg_it_create(&node, id), 0);
  assert_int_equal(hg_it_run(&node, id, "echo base > /root/who", NULL, &a, &code), 0);
  free(a);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/fork?wait=120", id);
  json_t *j = hg_it_json(&node, "POST", path, NULL, &status);
  assert_int_equal(status, 200);
  const char *cid = json_string_value(json_object_get(json_object_get(j, "result"), "id"));
  if (!cid) cid = json_string_value(json_object_get(j, "id"));
  assert_non_null(cid);
  snprintf(child, sizeof child, "%s", cid);
  json_decref(j);
  assert_int_equal(hg_it_run(&node, child, "cat /root/who", NULL, &a, &code), 0);
  assert_string_equal(a, "base\n");
  free(a);
  assert_int_equal(hg_it_run(&node, id, "echo parent > /root/who", NULL, &a, &code), 0);
  free(a);
  assert_int_equal(hg_it_run(&node, child, "echo child > /root/who", NULL, &a, &code), 0);
  free(a);
  assert_int_equal(hg_it_run(&node, id, "cat /root/who", NULL, &a, &code), 0);
  assert_int_equal(hg_it_run(&node, child, "cat /root/who", NULL, &b, &code), 0);
  assert_string_equal(a, "parent\n");
  assert_string_equal(b, "child\n");
  free(a);
  free(b);
  const char *rng = "head -c 16 /dev/urandom | od -An -tx1";
  assert_int_equal(hg_it_run(&node, id, rng, NULL, &a, &code), 0);
  assert_int_equal(hg_it_run(&node, child, rng, NULL, &b, &code), 0);
  assert_string_not_equal(a, b);
  free(a);
  free(b);
  assert_int_equal(hg_it_run(&node, child, "hostname", NULL, &a, &code), 0);
  assert_int_equal(strncmp(a, child, strlen(child)), 0);
  free(a);
}

static void disk_snapshot_then_fork_boots_that_disk(void **state) {
  char id[32], path[128], child[64], *out;
  int code;
  long status;
  assert_int_equal(hg_it_create(&node, id), 0);
  assert_int_equal(hg_it_run(&node, id, "echo v1 > /root/state", NULL, &out, &code), 0);
  free(out);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/snapshot?wait=120", id);
  json_t *j = hg_it_json(&node, "POST", path, NULL, &status);
  assert_int_equal(status, 200);
  const char *snap = json_string_value(json_object_get(json_object_get(j, "result"), "snapshot"));
  assert_non_null(snap);
  json_t *req = json_pack("{s:s}", "snapshot", snap);
  json_decref(j);
  /* The sandbox keeps running through the snapshot, and moves on. */
  assert_int_equal(hg_it_run(&node, id, "echo v2 > /root/state", NULL, &out, &code), 0);
  free(out);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/fork?wait=300", id);
  j = hg_it_json(&node, "POST", path, req, &status);
  json_decref(req);
  assert_int_equal(status, 200);
  snprintf(child, sizeof child, "%s", json_string_value(json_object_get(j, "id")));
  json_decref(j);
  assert_int_equal(hg_it_run(&node, child, "cat /root/state; hostname", NULL, &out, &code), 0);
  char want[96];
  snprintf(want, sizeof want, "v1\n%s\n", child);
  assert_string_equal(out, want);
  free(out);
  assert_int_equal(hg_it_run(&node, id, "cat /root/state", NULL, &out, &code), 0);
  assert_string_equal(out, "v2\n");
  free(out);
}

/* A guest process that appends "<n> <guest uptime in s>" to /root/ticks
 * ten times a second: n counts 1, 2, 3, … and the uptime is the guest's own
 * clock (/proc/uptime), which QEMU advances with the host's clock while
 * the guest runs and stops while it does not. */
#define TICKER                                                                     \
  "i=0; while :; do i=$((i+1)); read up rest < /proc/uptime; echo \"$i $up\" >> " \
  "/root/ticks; sleep 0.1; done"

typedef struct ticks {
  long n, last;        /* lines; the last tick number (== n when unbroken) */
  double first_up, up; /* guest uptime of the first and last line */
} ticks;

/* Parses /root/ticks; counts only the ticks with guest uptime in (lo, hi)
 * into *in (when given). Fails when the numbers do not run 1, 2, 3, …
 * (the ticker restarted: the guest was rebooted). */
static ticks parse_ticks(const char *text, double lo, double hi, ticks *in) {
  ticks all = {0};
  if (in) *in = (ticks){0};
  for (const char *p = text; *p;) {
    long k;
    double up;
    int used = 0;
    if (sscanf(p, "%ld %lf%n", &k, &up, &used) != 2) break;
    if (k != all.last + 1) fprintf(stderr, "ticks broken at line %ld: %ld\n", all.n + 1, k);
    assert_int_equal(k, all.last + 1);
    if (!all.n) all.first_up = up;
    all.n++, all.last = k, all.up = up;
    if (in && up > lo && up < hi) {
      if (!in->n) in->first_up = up;
      in->n++, in->last = k, in->up = up;
    }
    p += used;
    while (*p == '\n') p++;
  }
  return all;
}

static ticks read_ticks(const char *id, double lo, double hi, ticks *in) {
  char *out;
  int code;
  /* before the ticker's first line there is no file yet: no ticks */
  assert_int_equal(
      hg_it_run(&node, id, "[ ! -e /root/ticks ] || cat /root/ticks", NULL, &out, &code), 0);
  assert_int_equal(code, 0);
  ticks all = parse_ticks(out, lo, hi, in);
  free(out);
  return all;
}

/* hangard dies by SIGKILL, stays dead a few seconds, and comes back: the
 * guest ran all the while it was dead (not only after its return), and the
 * new hangard adopts its VM. The proof is the guest's own record: ticks
 * whose guest uptime lies inside the outage. The host's and the guest's
 * clocks are tied by one reading of the guest's uptime through the API
 * before the kill, taken at a host time known to within that request. */
static void daemon_kill9_guest_runs_through_the_outage_and_restart_adopts_it(
    void **state) {
  char id[32], *out;
  int code;
  assert_int_equal(hg_it_create(&node, id), 0);
  char cid[32];
  start_cmd(id, TICKER, cid);
  for (int64_t end = hg_now_ms() + 120000; read_ticks(id, 0, 0, NULL).n < 5;
       usleep(200000))
    assert_true(hg_now_ms() < end);
  int vms = hg_it_count_vms(&node);
  assert_true(vms >= 1);

  /* The guest's uptime u0 at some host time in [h0s, h0e]. */
  int64_t h0s = hg_now_ms();
  assert_int_equal(hg_it_run(&node, id, "cut -d' ' -f1 /proc/uptime", NULL, &out, &code), 0);
  int64_t h0e = hg_now_ms();
  double u0 = strtod(out, NULL);
  free(out);
  assert_true(u0 > 0);

  int64_t hk = hg_now_ms();
  hg_it_node_kill(&node, SIGKILL);
  /* The outage itself: 3 s of guest time certainly inside it, whatever the
   * request above took. */
  int64_t outage_ms = 3000 + (h0e - h0s);
  usleep((useconds_t)outage_ms * 1000);
  assert_int_equal(hg_it_count_vms(&node), vms); /* VMs outlive hangard */
  int64_t hr = hg_now_ms();
  assert_int_equal(hg_it_node_restart(&node), 0);
  assert_int_equal(hg_it_count_vms(&node), vms);

  /* In guest time the kill came at most u0 + (hk - h0s) and the restart at
   * least u0 + (hr - h0e): every tick between was written with no hangard. */
  double lo = u0 + (double)(hk - h0s) / 1000, hi = u0 + (double)(hr - h0e) / 1000;
  ticks in, all;
  /* until the guest has ticked past the restart: it goes on under the new
   * hangard too */
  for (int64_t end = hg_now_ms() + 60000; (all = read_ticks(id, lo, hi, &in)).up <= hi;
       usleep(200000))
    assert_true(hg_now_ms() < end);
  fprintf(stderr,
          "outage: %lld ms on the host, guest window %.2f..%.2f s: %ld ticks in it "
          "(%.2f..%.2f), %ld in all, the guest at %.2f s\n",
          (long long)(hr - hk), lo, hi, in.n, in.first_up, in.up, all.n, all.up);
  /* 30 ticks at 10 a second; a TCG guest on a loaded host keeps fewer, so
   * at least one a second of the window, spread over at least half of it
   * (not a burst at one edge). */
  assert_true(in.n >= 3);
  assert_true(in.up - in.first_up >= (hi - lo) / 2);

  assert_int_equal(hg_it_run(&node, id, "echo back", NULL, &out, &code), 0);
  assert_string_equal(out, "back\n");
  free(out);
}

static void vm_lost_in_an_outage_goes_back_a_generation_keeping_its_files_aside(void **state) {
  char id[32], st[32], *out;
  int code;
  assert_int_equal(hg_it_create(&node, id), 0);
  assert_int_equal(hg_it_run(&node, id, "echo a > /root/a; sync", NULL, &out, &code), 0);
  free(out);
  lifecycle(id, "suspend", 200);
  lifecycle(id, "resume", 200);
  assert_int_equal(hg_it_run(&node, id, "echo b > /root/b; sync", NULL, &out, &code), 0);
  free(out);
  hg_it_node_kill(&node, SIGKILL);
  assert_int_equal(hg_it_kill_vm(&node, id), 1);
  assert_int_equal(hg_it_node_restart(&node), 0);
  /* Only generation 1 was ever acknowledged as durable: it comes back. */
  assert_string_equal(state_of(id, st), "suspended");
  /* What it wrote after generation 1 is kept aside for the operator:
   * orphans/<id>/<epoch>, listed by the API as the copy that ran. */
  long status = 0;
  json_t *list = hg_it_json(&node, "GET", "/v1/orphans", NULL, &status);
  assert_int_equal(status, 200);
  size_t i, found = 0;
  json_t *o;
  json_array_foreach(json_object_get(list, "orphans"), i, o) {
    if (strcmp(hg_it_str(o, "id"), id) != 0) continue;
    found++;
    assert_string_equal(hg_it_str(o, "state"), "running");
    assert_int_equal(json_integer_value(json_object_get(o, "gen")), 1);
    assert_non_null(strstr(hg_it_str(o, "reason"), "went back to generation 1"));
  }
  json_decref(list);
  assert_int_equal(found, 1);
  lifecycle(id, "resume", 200);
  assert_int_equal(hg_it_run(&node, id, "cat /root/a; ls /root", NULL, &out, &code), 0);
  assert_string_equal(out, "a\na\n");
  free(out);
}

static void bad_requests_get_clear_errors(void **state) {
  long status;
  json_t *req = json_pack("{s:s}", "template", "no-such-template");
  json_t *j = hg_it_json(&node, "POST", "/v1/sandboxes", req, &status);
  json_decref(req);
  assert_int_equal(status, 404);
  assert_non_null(json_object_get(json_object_get(j, "error"), "message"));
  json_decref(j);
  j = hg_it_json(&node, "GET", "/v1/sandboxes/sb-0000000000000000", NULL, &status);
  assert_int_equal(status, 404);
  json_decref(j);
  j = hg_it_json(&node, "GET", "/v1/sandboxes/not-an-id", NULL, &status);
  assert_true(status == 404 || status == 400);
  json_decref(j);
}

/* Garbles the suspended sandbox's device state; its resume must fail. */
static void resume_with_corrupt_vmstate(const char *id) {
  char path[512], p[128];
  snprintf(path, sizeof path, "%s/sandboxes/%s/vmstate", node.data, id);
  FILE *f = fopen(path, "r+");
  assert_non_null(f);
  fseek(f, 64, SEEK_SET);
  fwrite("garbage garbage garbage", 1, 23, f);
  fclose(f);
  long status;
  snprintf(p, sizeof p, "/v1/sandboxes/%s/resume?wait=120", id);
  json_t *j = hg_it_json(&node, "POST", p, NULL, &status);
  assert_true(status >= 400);
  json_decref(j);
}

static void corrupt_vmstate_fails_resume_cleanly(void **state) {
  char id[32], st[32];
  assert_int_equal(hg_it_create(&node, id), 0);
  lifecycle(id, "suspend", 200);
  int vms = hg_it_count_vms(&node);
  resume_with_corrupt_vmstate(id);
  assert_string_equal(state_of(id, st), "suspended");
  assert_int_equal(hg_it_count_vms(&node), vms);
}

static off_t size_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Every line of hangard's log that holds needle; fails on a line that
 * holds it outside a vmm.console_tail record (a line the guest forged),
 * and on any ESC or C1 CSI byte (the guest speaking to a terminal).
 * Returns how many console_tail lines hold it. */
static int console_lines_with(const char *needle) {
  char path[512], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/hangard.log", node.dir);
  assert_int_equal(hg_read_file(path, 256 << 20, &text, &len), 0);
  assert_null(memchr(text, 0x1b, len));
  assert_null(memchr(text, 0x9b, len));
  int n = 0;
  for (char *line = text, *nl; line < text + len; line = nl + 1) {
    nl = memchr(line, '\n', (size_t)(text + len - line));
    if (!nl) nl = text + len;
    *nl = '\0';
    if (!strstr(line, needle)) continue;
    if (!strstr(line, "vmm.console_tail")) fprintf(stderr, "forged: %s\n", line);
    assert_non_null(strstr(line, "vmm.console_tail"));
    n++;
  }
  free(text);
  return n;
}

/* The guest, as root, floods its serial console: the node keeps at most
 * 2 x 512 KiB of it at any moment, in consoles/ and not in the sandbox's
 * subvolume (so never in a generation or a replica), and the guest keeps
 * working all the while. Then it writes lines meant to forge hangard log
 * records and terminal escapes, and a failed resume quotes the console's
 * tail in hangard's log: one escaped line, no forged record, no escape. */
static void console_flood_is_capped_outside_the_subvolume(void **state) {
  char id[32], cid[32], *out, path[512], old_path[520], sbpath[512];
  int code;
  assert_int_equal(hg_it_create(&node, id), 0);
  start_cmd(id, "cat /dev/urandom > /dev/ttyS0", cid);
  snprintf(path, sizeof path, "%s/consoles/%s.log", node.data, id);
  snprintf(old_path, sizeof old_path, "%s.1", path);
  /* Until 4 parts went by (2x the cap), the files checked every 100 ms. */
  int64_t t0 = hg_now_ms();
  off_t last = 0, total = 0;
  int rotations = 0;
  while (rotations < 4) {
    off_t cur = size_of(path), old = size_of(old_path);
    assert_true(cur <= 512 * 1024 && old <= 512 * 1024);
    if (cur < last) {
      rotations++;
      total += 512 * 1024 - last;
      last = 0;
    }
    total += cur - last;
    last = cur;
    assert_true(hg_now_ms() - t0 < 600000);
    usleep(100000);
  }
  fprintf(stderr, "console flood: %lld bytes in %lld ms, %d rotations\n",
          (long long)total, (long long)(hg_now_ms() - t0), rotations);
  assert_true(total > 2 * 1024 * 1024);
  snprintf(sbpath, sizeof sbpath, "%s/sandboxes/%s/console.log", node.data, id);
  assert_int_equal(size_of(sbpath), -1);
  /* The guest answers during the flood. */
  assert_int_equal(hg_it_run(&node, id, "echo alive", NULL, &out, &code), 0);
  assert_string_equal(out, "alive\n");
  free(out);
  assert_int_equal(hg_it_run(&node, id, "killall cat; echo stopped", NULL, &out, &code),
                   0);
  free(out);
  assert_int_equal(
      hg_it_run(
          &node, id,
          "printf '\\nhg-for''ged level=error event=x\\n\\033[2J\\302\\233\\\\\\\"q\\n' "
          "> /dev/ttyS0",
          NULL, &out, &code),
      0);
  free(out);
  lifecycle(id, "suspend", 200);
  snprintf(sbpath, sizeof sbpath, "%s/snapshots/%s/1/console.log", node.data, id);
  assert_int_equal(size_of(sbpath), -1);
  resume_with_corrupt_vmstate(id);
  assert_true(console_lines_with("hg-forged") >= 1);
}

/* The VMM of a sandbox, as its shim recorded it: pid and uid. */
static void vmm_of(const char *id, int *pid, unsigned *uid) {
  char path[512], *text = NULL;
  snprintf(path, sizeof path, "%s/sandboxes/%s/shim.json", node.data, id);
  assert_int_equal(hg_read_file(path, 65536, &text, NULL), 0);
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  assert_non_null(j);
  *pid = (int)json_integer_value(json_object_get(j, "vmm_pid"));
  *uid = (unsigned)json_integer_value(json_object_get(j, "vmm_uid"));
  json_decref(j);
  assert_true(*pid > 0);
}

/* The names in dir, sorted, space-separated. */
static void list_dir(const char *dir, char *out, size_t cap) {
  struct dirent **names;
  int n = scandir(dir, &names, NULL, alphasort);
  assert_true(n >= 0);
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (names[i]->d_name[0] != '.') {
      if (out[0]) strncat(out, " ", cap - strlen(out) - 1);
      strncat(out, names[i]->d_name, cap - strlen(out) - 1);
    }
    free(names[i]);
  }
  free(names);
}

/* Seen from outside, each VMM runs as a uid of its own (not root), under
 * seccomp with no_new_privs and no capabilities, in a cgroup of its own
 * with a memory limit, and its root shows only the jail: its sandbox's dir
 * (nothing else of the data dir: no other sandbox, no snapshots, no node
 * state), QEMU's libraries and firmware, a few devices. */
static void vmm_runs_jailed_and_sees_only_its_sandbox(void **state) {
  char a[32], b[32], *out, v[256], path[1024], list[4096];
  int code, pa, pb;
  unsigned ua, ub;
  assert_int_equal(hg_it_create(&node, a), 0);
  assert_int_equal(hg_it_create(&node, b), 0);
  vmm_of(a, &pa, &ua);
  vmm_of(b, &pb, &ub);
  fprintf(stderr, "vmm %d uid %u, vmm %d uid %u\n", pa, ua, pb, ub);
  assert_true(ua != 0 && ub != 0 && ua != ub);

  assert_int_equal(proc_status_field(pa, "Uid", v, sizeof v), 0);
  char want[64];
  snprintf(want, sizeof want, "%u\t%u\t%u\t%u", ua, ua, ua, ua);
  assert_string_equal(v, want);
  assert_int_equal(proc_status_field(pa, "Gid", v, sizeof v), 0);
  assert_string_equal(v, want);
  assert_int_equal(proc_status_field(pa, "Groups", v, sizeof v), 0);
  assert_string_equal(v, "");
  assert_int_equal(proc_status_field(pa, "CapEff", v, sizeof v), 0);
  assert_string_equal(v, "0000000000000000");
  assert_int_equal(proc_status_field(pa, "CapPrm", v, sizeof v), 0);
  assert_string_equal(v, "0000000000000000");
  assert_int_equal(proc_status_field(pa, "NoNewPrivs", v, sizeof v), 0);
  assert_string_equal(v, "1");
  assert_int_equal(proc_status_field(pa, "Seccomp", v, sizeof v), 0);
  assert_string_equal(v, "2"); /* SECCOMP_MODE_FILTER: QEMU's -sandbox */

  /* The jail's root: nothing of the host's but these. */
  snprintf(path, sizeof path, "/proc/%d/root", pa);
  list_dir(path, list, sizeof list);
  fprintf(stderr, "the VMM's /: %s\n", list);
  char top[64];
  snprintf(top, sizeof top, "%.*s", (int)strcspn(node.data + 1, "/"), node.data + 1);
  for (char *save, *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    bool ok = !strcmp(t, "dev") || !strcmp(t, "etc") || !strcmp(t, "lib") ||
              !strcmp(t, "lib64") || !strcmp(t, "proc") || !strcmp(t, "usr") ||
              !strcmp(t, top);
    if (!ok) fprintf(stderr, "unexpected in the jail: /%s\n", t);
    assert_true(ok);
  }
  snprintf(path, sizeof path, "/proc/%d/root/usr", pa);
  list_dir(path, list, sizeof list);
  fprintf(stderr, "the VMM's /usr: %s\n", list);
  assert_string_equal(list, "bin lib lib64 share");
  snprintf(path, sizeof path, "/proc/%d/root/usr/bin", pa);
  list_dir(path, list, sizeof list);
  assert_string_equal(list, "qemu-system-x86_64");
  snprintf(path, sizeof path, "/proc/%d/root/etc", pa);
  list_dir(path, list, sizeof list);
  assert_string_equal(list, "ld.so.cache");
  snprintf(path, sizeof path, "/proc/%d/root/dev", pa);
  list_dir(path, list, sizeof list);
  assert_string_equal(list, "null random urandom zero");
  snprintf(path, sizeof path, "/proc/%d/root%s", pa, node.data);
  list_dir(path, list, sizeof list);
  assert_string_equal(list, "sandboxes"); /* no snapshots, replicas, state, ... */
  snprintf(path, sizeof path, "/proc/%d/root%s/sandboxes", pa, node.data);
  list_dir(path, list, sizeof list);
  assert_string_equal(list, a);
  /* The other sandbox's files are not there, though they are outside. */
  snprintf(path, sizeof path, "/proc/%d/root%s/sandboxes/%s/mem", pa, node.data, b);
  assert_int_equal(access(path, F_OK), -1);
  snprintf(path, sizeof path, "%s/sandboxes/%s/mem", node.data, b);
  assert_int_equal(access(path, F_OK), 0);
  /* Its own files are its uid's; the dir is not its to list or change. */
  struct stat st;
  snprintf(path, sizeof path, "/proc/%d/root%s/sandboxes/%s/mem", pa, node.data, a);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_uid, ua);
  snprintf(path, sizeof path, "%s/sandboxes/%s", node.data, a);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_uid, 0);
  assert_int_equal(st.st_mode & 0777, 0711);

  /* Its cgroup: its own, with the memory limit (guest RAM + overhead). */
  snprintf(path, sizeof path, "/proc/%d/cgroup", pa);
  char *cg = NULL;
  assert_int_equal(hg_read_file(path, 65536, &cg, NULL), 0);
  fprintf(stderr, "the VMM's cgroups:\n%s", cg);
  char name[64];
  snprintf(name, sizeof name, "hangar-vmm-%u", ua);
  char *line = strstr(cg, ":memory:");
  if (!line) line = strstr(cg, "0::");
  assert_non_null(line);
  assert_non_null(strstr(line, name));
  /* And a limit: cgroup v1 here (memory.limit_in_bytes), or v2's memory.max. */
  char limit[1024], *val = NULL;
  int n = (int)strcspn(strchr(line, '/'), "\n");
  if (strncmp(line, "0::", 3) == 0)
    snprintf(limit, sizeof limit, "/sys/fs/cgroup%.*s/memory.max", n, strchr(line, '/'));
  else
    snprintf(limit, sizeof limit, "/sys/fs/cgroup/memory%.*s/memory.limit_in_bytes", n,
             strchr(line, '/'));
  assert_int_equal(hg_read_file(limit, 64, &val, NULL), 0);
  fprintf(stderr, "%s: %s", limit, val);
  unsigned long long bytes = strtoull(val, NULL, 10);
  assert_true(bytes >= 512ull << 20 && bytes <= 64ull << 30);
  free(val);
  free(cg);

  assert_int_equal(hg_it_run(&node, a, "echo jailed", NULL, &out, &code), 0);
  assert_string_equal(out, "jailed\n");
  free(out);
  assert_int_equal(hg_it_delete(&node, a), 0);
  assert_int_equal(hg_it_delete(&node, b), 0);
  /* The uid and cgroup went with the VMM. */
  snprintf(path, sizeof path, "/proc/%d", pa);
  assert_int_equal(access(path, F_OK), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(commands_report_output_and_exit_codes),
      cmocka_unit_test(output_beyond_the_ring_reports_dropped_bytes),
      cmocka_unit_test(file_of_10_mib_round_trips_byte_exact),
      cmocka_unit_test(suspend_resume_keeps_memory_files_and_output),
      cmocka_unit_test(fork_gives_independent_sandboxes_with_fresh_rng),
      cmocka_unit_test(disk_snapshot_then_fork_boots_that_disk),
      cmocka_unit_test(vm_lost_in_an_outage_goes_back_a_generation_keeping_its_files_aside),
      cmocka_unit_test(bad_requests_get_clear_errors),
      cmocka_unit_test(corrupt_vmstate_fails_resume_cleanly),
      cmocka_unit_test(console_flood_is_capped_outside_the_subvolume),
      cmocka_unit_test(vmm_runs_jailed_and_sees_only_its_sandbox),
      cmocka_unit_test(daemon_kill9_guest_runs_through_the_outage_and_restart_adopts_it),
  };
  if (getenv("HG_IT_FILTER")) cmocka_set_test_filter(getenv("HG_IT_FILTER"));
  return hg_it_run_group(tests, setup, teardown);
}
