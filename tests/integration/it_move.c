/* Integration: moving a sandbox between nodes, the manager's side
 * (hg_sandbox_disown, hg_sandbox_adopt). One manager in this process on a
 * real btrfs loop image, real microVMs restored from the test template. A
 * received replica is simulated with a read-only snapshot of a generation
 * into replicas/<id>/<gen> (the wire is replication's tests' business): a
 * move is then disown here at the new epoch, adopt from the replica, resume. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/sandbox.h"
#include "node/store.h"
#include "tests/integration/harness.h"

#define MAX_CHANGES 256

/* What on_change said, in order. */
typedef struct change {
  char id[HG_ID_MAX];
  char state[16];
  uint64_t gen, epoch;
} change;

static struct {
  hg_it_node node; /* only for its cleanup: kills our VMs, unmounts, removes the dir */
  hg_store *st;
  hg_manager *m;
  pthread_mutex_t mu;
  change changes[MAX_CHANGES];
  unsigned nchanges;
  char a[HG_ID_MAX]; /* the sandbox moved by the first test, used by the last */
  char a_token[65];
} fx = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void on_change(void *ud, const hg_sb_change *ch) {
  (void)ud;
  pthread_mutex_lock(&fx.mu);
  if (fx.nchanges < MAX_CHANGES) {
    change *c = &fx.changes[fx.nchanges++];
    snprintf(c->id, sizeof c->id, "%s", ch->id);
    snprintf(c->state, sizeof c->state, "%s", ch->state);
    c->gen = ch->gen;
    c->epoch = ch->epoch;
  }
  pthread_mutex_unlock(&fx.mu);
}

/* The last change reported for id (zeroed when none); *count gets how many. */
static change last_change(const char *id, unsigned *count) {
  change last;
  memset(&last, 0, sizeof last);
  unsigned n = 0;
  pthread_mutex_lock(&fx.mu);
  for (unsigned i = 0; i < fx.nchanges; i++)
    if (strcmp(fx.changes[i].id, id) == 0) {
      last = fx.changes[i];
      n++;
    }
  pthread_mutex_unlock(&fx.mu);
  if (count) *count = n;
  return last;
}

/* accel: what the node runs under (NULL: TCG, as the template was made). */
static int manager_open_under(const char *accel) {
  hg_manager_config cfg = {.store = fx.st,
                           .vmm = &hg_vmm_qemu,
                           .shim_path = HG_SHIM_PATH,
                           .accel = accel,
                           .on_change = on_change,
                           .default_replicas = 3};
  return hg_manager_open(&cfg, &fx.m);
}

static int manager_open(void) { return manager_open_under(NULL); }

static int setup(void **state) {
  (void)state;
  const char *tpl_dir = getenv("HANGAR_TEST_TEMPLATE_DIR");
  if (!tpl_dir) {
    fprintf(stderr,
            "it_move: HANGAR_TEST_TEMPLATE_DIR must be set (tools/test builds it)\n");
    return -1;
  }
  hg_log_set_level(HG_LOG_WARN);
  hg_it_node *n = &fx.node;
  snprintf(n->dir, sizeof n->dir, "/tmp/hgmv-XXXXXX");
  if (!mkdtemp(n->dir)) return -1;
  snprintf(n->data, sizeof n->data, "%s/data", n->dir);
  hg_store_options so = {.image_size = 8ull << 30};
  hg_template_info tpl;
  int rc = hg_store_open(n->data, &so, &fx.st);
  if (rc == 0)
    rc = hg_template_build(
        &(hg_template_build_args){.store = fx.st, .vmm = &hg_vmm_qemu, .shim_path = HG_SHIM_PATH},
        "default", tpl_dir, &tpl, NULL);
  if (rc == 0) rc = manager_open();
  if (rc < 0) fprintf(stderr, "it_move: setup: %s\n", strerror(-rc));
  return rc < 0 ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  hg_manager_close(fx.m);
  if (fx.st) hg_store_close(fx.st, false);
  return hg_it_node_stop(&fx.node); /* no hangard here: its dir and data */
}

/* --- helpers ------------------------------------------------------------------- */

static bool exists(const char *fmt, const char *id) {
  char rel[128], path[4096];
  struct stat st;
  snprintf(rel, sizeof rel, fmt, id);
  assert_int_equal(hg_store_abs(fx.st, rel, path, sizeof path), 0);
  return lstat(path, &st) == 0;
}

/* Whether adopted/ holds a record of id, in whichever file (adopted.c). */
static bool adoption_recorded(const char *id) {
  char dir[4096], path[4096 + 256], want[64], *text;
  assert_int_equal(hg_store_abs(fx.st, "adopted", dir, sizeof dir), 0);
  snprintf(want, sizeof want, "\"%s\"", id);
  bool found = false;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && !found && (e = readdir(d))) {
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || hg_read_file(path, 1u << 20, &text, NULL) < 0) continue;
    found = strstr(text, want) != NULL;
    free(text);
  }
  if (d) closedir(d);
  return found;
}

static void snapshot(const char *src_fmt, const char *src_id, const char *dst_fmt,
                     const char *dst_id, bool readonly) {
  char src[128], dst[128];
  snprintf(src, sizeof src, src_fmt, src_id);
  snprintf(dst, sizeof dst, dst_fmt, dst_id);
  assert_int_equal(hg_store_snapshot(fx.st, src, dst, readonly), 0);
}

static uint64_t described_int(const char *id, const char *key) {
  json_t *j;
  assert_int_equal(hg_sandbox_describe(fx.m, id, &j), 0);
  json_t *v = json_object_get(j, key);
  assert_true(json_is_integer(v));
  uint64_t n = (uint64_t)json_integer_value(v);
  json_decref(j);
  return n;
}

/* Reads what command cid wrote to stdout so far. */
static char *output(const char *id, uint64_t cid) {
  hg_agent *a;
  hg_buf b;
  hg_read_res res;
  assert_int_equal(hg_sandbox_agent_get(fx.m, id, &a), 0);
  hg_buf_init(&b, 1u << 20);
  int rc = hg_agent_read(a, cid, 1, 0, 1u << 20, 0, &b, &res);
  hg_sandbox_agent_put(fx.m, id);
  assert_int_equal(rc, 0);
  char *text = strndup(b.data ? b.data : "", b.len);
  hg_buf_free(&b);
  return text;
}

static uint64_t start(const char *id, const char *sh, int *pid) {
  const char *argv[] = {"sh", "-c", sh, NULL};
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  assert_int_equal(hg_sandbox_exec(fx.m, id, &req, &cid, pid), 0);
  return cid;
}

/* A command of a sandbox whose output a counter wait reads. */
typedef struct counting {
  const char *id;
  uint64_t cid;
} counting;

static char *counter_output(void *ud) {
  counting *c = ud;
  return output(c->id, c->cid);
}

/* Runs sh to completion; returns its stdout (free it). */
static char *run(const char *id, const char *sh) {
  int pid;
  hg_agent *a;
  hg_cmd_status st;
  uint64_t cid = start(id, sh, &pid);
  assert_int_equal(hg_sandbox_agent_get(fx.m, id, &a), 0);
  int rc = hg_agent_wait(a, cid, 60000, &st);
  hg_sandbox_agent_put(fx.m, id);
  assert_int_equal(rc, 0);
  assert_true(st.exited);
  assert_int_equal(st.code, 0);
  return output(id, cid);
}

/* Writes a generation subvolume by hand (no VM): a read-only
 * replicas/<id>/<gen> holding a sandbox.json that says record_id, and the
 * files a restore opens. */
static void fake_generation(const char *id, unsigned gen, const char *record_id,
                            unsigned record_gen, bool readonly) {
  char rel[128], dir[4096], path[4200];
  snprintf(rel, sizeof rel, "replicas/%s/%u", id, gen);
  assert_int_equal(hg_store_abs(fx.st, rel, dir, sizeof dir), 0);
  assert_int_equal(hg_store_subvol_create(fx.st, rel), 0);
  static const char *const files[] = {"vmstate", "mem", "rootfs.img", "vmlinuz",
                                      "initrd.img"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(files); i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    assert_int_equal(hg_write_file_atomic(path, "x", 1), 0);
  }
  json_t *j = json_pack(
      "{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I, s:s, s:s, s:s, s:[{s:I, s:s}]}",
      "id", record_id, "state", "suspending", "pending", "saving", "template",
      "default:latest", "template_digest",
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "vcpus", 1,
      "memory_mib", 128, "gen", (json_int_t)record_gen, "epoch", (json_int_t)4, "token",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "hostname",
      record_id, "machine_id", "0123456789abcdef0123456789abcdef", "generations", "gen",
      (json_int_t)record_gen, "kind", "suspend");
  char *text = json_dumps(j, 0);
  json_decref(j);
  snprintf(path, sizeof path, "%s/sandbox.json", dir);
  assert_int_equal(hg_write_file_atomic(path, text, strlen(text)), 0);
  free(text);
  if (readonly) assert_int_equal(hg_store_set_readonly(fx.st, rel, true), 0);
}

/* Closes the manager and opens it again: sandbox id is back, suspended
 * at gen and epoch. */
static void reopen_finds_suspended(const char *id, uint64_t gen, uint64_t epoch) {
  hg_sb_info info;
  hg_manager_close(fx.m);
  fx.m = NULL;
  assert_int_equal(manager_open(), 0);
  assert_int_equal(hg_sandbox_info(fx.m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  assert_int_equal(info.gen, gen);
  assert_int_equal(info.epoch, epoch);
}

/* --- tests --------------------------------------------------------------------- */

/* The whole manual move on one node: suspend (gen 1), a replica of gen 1,
 * disown at epoch 2, adopt from the replica at epoch 2, resume. The guest
 * goes on where it stopped: files, and the very process that was counting. */
static void moved_sandbox_resumes_its_process_and_files(void **state) {
  (void)state;
  char *out, *a = fx.a;
  hg_sandbox_spec spec = {0};
  spec.replicas = 9;
  assert_int_equal(hg_sandbox_create_begin(fx.m, &spec, a, fx.a_token), -EINVAL);
  spec.replicas = 0;
  assert_int_equal(hg_sandbox_create_begin(fx.m, &spec, a, fx.a_token), 0);
  assert_int_equal(hg_sandbox_create_finish(fx.m, a), 0);
  assert_int_equal(described_int(a, "epoch"), 1);
  assert_int_equal(described_int(a, "replicas"), 3); /* the manager's default */
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(fx.m, a, &info), 0);
  assert_int_equal(info.state, HG_SB_RUNNING);
  assert_int_equal(info.epoch, 1);
  assert_int_equal(info.replicas, 3);
  assert_string_equal(info.template_ref, "default:latest");
  assert_int_equal(strncmp(info.tpl_dir, "default:latest@", 15), 0);
  assert_int_equal(strlen(info.tpl_dir), 15 + 16);
  char tpl_rel[160];
  snprintf(tpl_rel, sizeof tpl_rel, "templates/%s", info.tpl_dir);
  assert_true(hg_store_is_subvol(fx.st, tpl_rel));

  free(run(a, "echo kept > /root/file; sync"));
  int pid;
  uint64_t cid = start(a, HG_IT_COUNTER, &pid);
  char stat_cmd[96];
  snprintf(stat_cmd, sizeof stat_cmd, "cut -d' ' -f22 /proc/%d/stat", pid);
  char *started = run(a, stat_cmd);
  counting cnt = {a, cid};
  long before = hg_it_wait_counter(counter_output, &cnt, 3, 120000);
  assert_true(before >= 3);
  uint64_t gen;
  assert_int_equal(hg_sandbox_suspend(fx.m, a, &gen), 0);
  assert_int_equal(gen, 1);
  change last = last_change(a, NULL);
  assert_string_equal(last.state, "suspended");
  assert_int_equal(last.epoch, 1);
  assert_int_equal(last.gen, 1);
  /* What replication would have received on the new owner. */
  snapshot("snapshots/%s/1", a, "replicas/%s/1", a, true);

  assert_int_equal(hg_sandbox_disown(fx.m, a, 1), -ESTALE);
  unsigned reported;
  last_change(a, &reported);
  assert_int_equal(hg_sandbox_disown(fx.m, a, 2), 0);
  json_t *j;
  assert_int_equal(hg_sandbox_describe(fx.m, a, &j), -ENOENT);
  assert_false(hg_sandbox_token_ok(fx.m, a, fx.a_token));
  assert_int_equal(hg_sandbox_info(fx.m, a, &info), -ENOENT);
  assert_false(exists("sandboxes/%s", a));
  assert_false(exists("snapshots/%s", a));
  assert_true(exists("replicas/%s/1", a));
  unsigned now;
  last_change(a, &now);
  assert_int_equal(now, reported); /* a disowned sandbox is not reported */

  /* A crash halfway through an adopt that snapshotted straight into place
   * leaves the replica's record ("suspending", "saving"): recovery lands
   * on suspended from the generation, which exists here only as a replica. */
  snapshot("replicas/%s/1", a, "sandboxes/%s", a, false);
  reopen_finds_suspended(a, 1, 1);

  /* The move proper: the stale epoch-1 sandbox is disowned on the way. */
  assert_int_equal(hg_sandbox_adopt(fx.m, a, "replicas/sb-ffffffffffffffff/1", 2),
                   -ENOENT);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, "replicas/../sandboxes", 2), -EINVAL);
  char from[96];
  snprintf(from, sizeof from, "replicas/%s/1", a);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 1), -EEXIST);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 2), 0);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 2), -EEXIST);
  assert_int_equal(described_int(a, "epoch"), 2);
  assert_int_equal(described_int(a, "gen"), 1);
  assert_int_equal(described_int(a, "replicas"), 3);
  last = last_change(a, NULL);
  assert_string_equal(last.state, "suspended");
  assert_int_equal(last.epoch, 2);
  assert_int_equal(last.gen, 1);
  assert_true(hg_sandbox_token_ok(fx.m, a, fx.a_token));
  assert_false(exists("staging/adopt-%s", a));
  /* Adopted lazily: a record says so, the copy waits for the first call;
   * a restart in between adopts it again from the record. */
  assert_true(adoption_recorded(a));
  assert_false(exists("sandboxes/%s", a));
  reopen_finds_suspended(a, 1, 2);
  assert_true(hg_sandbox_token_ok(fx.m, a, fx.a_token));

  assert_int_equal(hg_sandbox_resume(fx.m, a), 0);
  assert_true(exists("sandboxes/%s", a));
  assert_false(adoption_recorded(a));
  assert_int_equal(last_change(a, NULL).epoch, 2);
  /* it goes on from where it stood, unbroken */
  long after = hg_it_wait_counter(counter_output, &cnt, before + 3, 120000);
  assert_true(after >= before + 3);
  char *started_again = run(a, stat_cmd);
  assert_string_equal(started_again, started); /* the same process, not a new one */
  free(started_again);
  free(started);
  out = run(a, "cat /root/file");
  assert_string_equal(out, "kept\n");
  free(out);

  /* Fencing stops a running sandbox, not disown; and epochs only go up. */
  assert_int_equal(hg_sandbox_disown(fx.m, a, 3), -EBUSY);
  assert_int_equal(hg_sandbox_disown(fx.m, a, 2), -ESTALE);
  assert_int_equal(hg_sandbox_disown(fx.m, "sb-ffffffffffffffff", 9), -ENOENT);
  assert_int_equal(hg_sandbox_info(fx.m, a, &info), 0);
  assert_int_equal(info.state, HG_SB_RUNNING);
}

/* A fork may start from a generation held here only as a replica; a
 * second move carries the generations taken since (gen 2) and clears a
 * leftover sandboxes/<id>; delete removes the replicas too. */
static void replica_generations_fork_move_again_and_go_with_delete(void **state) {
  (void)state;
  char *a = fx.a, child[HG_ID_MAX], child_token[65], *out;
  assert_true(hg_id_valid("sb", a));
  assert_false(exists("snapshots/%s/1", a));
  assert_int_equal(hg_sandbox_fork(fx.m, a, 1, NULL, child, child_token), 0);
  out = run(child, "cat /root/file");
  assert_string_equal(out, "kept\n");
  free(out);
  assert_int_equal(described_int(child, "epoch"), 1);
  assert_int_equal(described_int(child, "replicas"), 3);
  assert_int_equal(hg_sandbox_delete(fx.m, child), 0);

  free(run(a, "echo two > /root/two; sync"));
  uint64_t gen;
  assert_int_equal(hg_sandbox_suspend(fx.m, a, &gen), 0);
  assert_int_equal(gen, 2);
  assert_int_equal(hg_sandbox_disown(fx.m, a, 3), 0);
  assert_true(exists("replicas/%s/1", a));
  assert_true(exists("replicas/%s/2", a)); /* moved from snapshots/ */
  assert_false(exists("snapshots/%s", a));
  /* Left by an adopt that crashed before this node restarted: not ours. */
  snapshot("replicas/%s/1", a, "sandboxes/%s", a, false);
  char from[96];
  snprintf(from, sizeof from, "replicas/%s/2", a);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 3), 0);
  assert_int_equal(described_int(a, "gen"), 2);
  assert_int_equal(described_int(a, "epoch"), 3);
  assert_int_equal(hg_sandbox_resume(fx.m, a), 0);
  out = run(a, "cat /root/file /root/two");
  assert_string_equal(out, "kept\ntwo\n");
  free(out);

  assert_int_equal(hg_sandbox_delete(fx.m, a), 0);
  assert_false(exists("replicas/%s", a));
  assert_false(exists("snapshots/%s", a));
  assert_false(exists("sandboxes/%s", a));
  change last = last_change(a, NULL);
  assert_string_equal(last.state, "deleted");
  assert_int_equal(last.epoch, 3);
  assert_int_equal(hg_it_count_vms(&fx.node), 0);
}

/* Hand-made generations (no VM): adopt takes only a read-only generation
 * of this very sandbox whose files are its own. */
static void adopt_refuses_what_is_not_this_sandboxs_generation(void **state) {
  (void)state;
  const char *x = "sb-00000000000000aa", *y = "sb-00000000000000bb";
  char from[96];
  fake_generation(x, 1, y, 1, true);
  snprintf(from, sizeof from, "replicas/%s/1", x);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 5), -EPROTO); /* names another */
  fake_generation(x, 2, x, 1, true);
  snprintf(from, sizeof from, "replicas/%s/2", x);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 5), -EPROTO); /* says gen 1 */
  fake_generation(x, 3, x, 3, false);
  snprintf(from, sizeof from, "replicas/%s/3", x);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 5), -EPROTO); /* writable */
  fake_generation(x, 4, x, 4, false);
  char path[4096], target[4200];
  snprintf(from, sizeof from, "replicas/%s/4", x);
  assert_int_equal(hg_store_abs(fx.st, from, path, sizeof path), 0);
  snprintf(target, sizeof target, "%s/mem", path);
  assert_int_equal(unlink(target), 0);
  assert_int_equal(symlink("/etc/passwd", target), 0);
  assert_int_equal(hg_store_set_readonly(fx.st, from, true), 0);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 5), -EPROTO); /* a host file */
  assert_int_equal(hg_sandbox_adopt(fx.m, "not-an-id", from, 5), -EINVAL);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 0), -EINVAL);
  assert_false(exists("sandboxes/%s", x));
  assert_false(exists("staging/adopt-%s", x));
  unsigned n;
  last_change(x, &n);
  assert_int_equal(n, 0);

  /* A good one: suspended at its generation and our epoch; the record's
   * replica count (absent) is the manager's default. */
  fake_generation(x, 5, x, 5, true);
  snprintf(from, sizeof from, "replicas/%s/5", x);
  assert_int_equal(hg_sandbox_adopt(fx.m, x, from, 5), 0);
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(fx.m, x, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  assert_int_equal(info.gen, 5);
  assert_int_equal(info.epoch, 5);
  assert_int_equal(info.replicas, 3);
  assert_string_equal(info.tpl_dir, "default:latest@0123456789abcdef");
  assert_true(adoption_recorded(x));
  assert_int_equal(hg_sandbox_delete(fx.m, x), 0); /* never copied into place */
  assert_false(exists("replicas/%s", x));
  assert_false(exists("sandboxes/%s", x));
  assert_false(adoption_recorded(x));
}

/* A failover adopts hundreds of sandboxes at once: adopts of different
 * sandboxes run side by side and all land; racing adopts of one sandbox
 * at one epoch land once, the others see it there. */
#define RACE_IDS 24
#define RACE_THREADS 8

typedef struct adopt_race {
  char ids[RACE_IDS][HG_ID_MAX];
  unsigned next; /* the index the next thread takes, under fx.mu */
  int rc[RACE_IDS * RACE_THREADS];
  unsigned nrc;
  bool one_id; /* every thread adopts ids[0] */
} adopt_race;

static void *adopt_racer(void *arg) {
  adopt_race *r = arg;
  for (;;) {
    pthread_mutex_lock(&fx.mu);
    unsigned k = r->next++;
    pthread_mutex_unlock(&fx.mu);
    if (k >= (r->one_id ? RACE_THREADS : RACE_IDS)) return NULL;
    const char *id = r->ids[r->one_id ? 0 : k];
    char from[96];
    snprintf(from, sizeof from, "replicas/%s/1", id);
    int rc = hg_sandbox_adopt(fx.m, id, from, 6);
    pthread_mutex_lock(&fx.mu);
    r->rc[r->nrc++] = rc;
    pthread_mutex_unlock(&fx.mu);
  }
}

static void adopt_race_run(adopt_race *r) {
  pthread_t t[RACE_THREADS];
  r->next = r->nrc = 0;
  for (unsigned i = 0; i < RACE_THREADS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, adopt_racer, r), 0);
  for (unsigned i = 0; i < RACE_THREADS; i++) pthread_join(t[i], NULL);
}

static void adopts_run_side_by_side_and_one_sandbox_lands_once(void **state) {
  (void)state;
  static adopt_race r;
  hg_sb_info info;
  memset(&r, 0, sizeof r);
  for (unsigned i = 0; i < RACE_IDS; i++) {
    snprintf(r.ids[i], HG_ID_MAX, "sb-00000000000001%02x", i);
    fake_generation(r.ids[i], 1, r.ids[i], 1, true);
  }
  adopt_race_run(&r);
  assert_int_equal(r.nrc, RACE_IDS);
  for (unsigned i = 0; i < RACE_IDS; i++) {
    assert_int_equal(r.rc[i], 0);
    assert_int_equal(hg_sandbox_info(fx.m, r.ids[i], &info), 0);
    assert_int_equal(info.state, HG_SB_SUSPENDED);
    assert_int_equal(info.epoch, 6);
    assert_false(exists("staging/adopt-%s", r.ids[i]));
  }
  /* One adopted lazily and moved on before its copy: its generation stays
   * a replica, the adoption record goes. */
  assert_int_equal(hg_sandbox_disown(fx.m, r.ids[1], 7), 0);
  assert_int_equal(hg_sandbox_info(fx.m, r.ids[1], &info), -ENOENT);
  assert_true(exists("replicas/%s/1", r.ids[1]));
  assert_false(adoption_recorded(r.ids[1]));
  assert_false(exists("sandboxes/%s", r.ids[1]));
  assert_int_equal(hg_sandbox_adopt(fx.m, r.ids[1], "replicas/sb-0000000000000101/1", 8), 0);
  for (unsigned i = 0; i < RACE_IDS; i++) assert_int_equal(hg_sandbox_delete(fx.m, r.ids[i]), 0);

  fake_generation(r.ids[0], 1, r.ids[0], 1, true);
  r.one_id = true;
  adopt_race_run(&r);
  unsigned landed = 0, there = 0;
  for (unsigned i = 0; i < r.nrc; i++) {
    landed += r.rc[i] == 0;
    there += r.rc[i] == -EEXIST;
  }
  assert_int_equal(landed, 1);
  assert_int_equal(there, RACE_THREADS - 1);
  assert_int_equal(hg_sandbox_info(fx.m, r.ids[0], &info), 0);
  assert_int_equal(info.epoch, 6);
  assert_false(exists("staging/adopt-%s", r.ids[0]));
  assert_int_equal(hg_sandbox_delete(fx.m, r.ids[0]), 0);
}

/* A generation saved under TCG on a node that now runs KVM (or the
 * reverse) is refused with its own error before QEMU sees it, and stays
 * whole: under the right accelerator it resumes. */
static void a_generation_saved_under_another_accelerator_is_refused(void **state) {
  (void)state;
  char id[HG_ID_MAX], token[65];
  hg_sandbox_spec spec = {0};
  assert_int_equal(hg_sandbox_create_begin(fx.m, &spec, id, token), 0);
  assert_int_equal(hg_sandbox_create_finish(fx.m, id), 0);
  free(run(id, "echo kept > /root/accel; sync"));
  uint64_t gen;
  assert_int_equal(hg_sandbox_suspend(fx.m, id, &gen), 0);
  hg_manager_close(fx.m);
  assert_int_equal(manager_open_under("kvm"), 0);
  assert_int_equal(hg_sandbox_resume(fx.m, id), -EXDEV);
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(fx.m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  hg_manager_close(fx.m);
  assert_int_equal(manager_open(), 0);
  assert_int_equal(hg_sandbox_resume(fx.m, id), 0);
  char *out = run(id, "cat /root/accel");
  assert_string_equal(out, "kept\n");
  free(out);
  assert_int_equal(hg_sandbox_delete(fx.m, id), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(moved_sandbox_resumes_its_process_and_files),
      cmocka_unit_test(replica_generations_fork_move_again_and_go_with_delete),
      cmocka_unit_test(adopt_refuses_what_is_not_this_sandboxs_generation),
      cmocka_unit_test(adopts_run_side_by_side_and_one_sandbox_lands_once),
      cmocka_unit_test(a_generation_saved_under_another_accelerator_is_refused),
  };
  return hg_it_run_group(tests, setup, teardown);
}
