/* test_chaos_check: the chaos checker (chaos/checker.h) on hand-made
 * histories: a clean one passes, each invariant violated once is caught
 * and named, and unknown outcomes are never taken as done or as not done. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "checker.h"

/* A clean run: two nodes, one sandbox created, appended to, suspended,
 * resumed through the other node, read with the append in it; healthy
 * probes; both nodes agree after the heal. */
#define META "{\"ev\":\"meta\",\"t\":0,\"seed\":7,\"nodes\":2,\"duration\":10,\"schedule\":[]}\n"
#define CREATE                                                                              \
  "{\"ev\":\"invoke\",\"t\":10,\"req\":1,\"lane\":0,\"op\":\"create\",\"sb\":\"\",\"node\":1}\n" \
  "{\"ev\":\"ok\",\"t\":500,\"req\":1,\"status\":201,\"sb\":\"sb-a\",\"epoch\":1,\"owner\":\"n1\"}\n"
#define APPEND                                                                                  \
  "{\"ev\":\"invoke\",\"t\":600,\"req\":2,\"lane\":0,\"op\":\"exec\",\"sb\":\"sb-a\",\"node\":2,\"value\":42}\n" \
  "{\"ev\":\"ok\",\"t\":700,\"req\":2,\"status\":201,\"ledger\":[42]}\n"
#define SUSPEND                                                                                 \
  "{\"ev\":\"invoke\",\"t\":800,\"req\":3,\"lane\":0,\"op\":\"suspend\",\"sb\":\"sb-a\",\"node\":1}\n"
#define SUSPEND_OK "{\"ev\":\"ok\",\"t\":900,\"req\":3,\"status\":200}\n"
#define RESUME                                                                                  \
  "{\"ev\":\"invoke\",\"t\":1000,\"req\":4,\"lane\":0,\"op\":\"resume\",\"sb\":\"sb-a\",\"node\":2,\"target\":2}\n" \
  "{\"ev\":\"ok\",\"t\":1500,\"req\":4,\"status\":200}\n"
#define READ_INV                                                                                \
  "{\"ev\":\"invoke\",\"t\":1600,\"req\":5,\"lane\":0,\"op\":\"read\",\"sb\":\"sb-a\",\"node\":1}\n"
#define GET_EPOCH2                                                                              \
  "{\"ev\":\"invoke\",\"t\":1800,\"req\":6,\"lane\":0,\"op\":\"get\",\"sb\":\"sb-a\",\"node\":1}\n" \
  "{\"ev\":\"ok\",\"t\":1850,\"req\":6,\"status\":200,\"epoch\":2,\"owner\":\"n2\",\"state\":\"running\"}\n"
#define SAMPLES                                                                                 \
  "{\"ev\":\"sample\",\"t\":550,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"}]}\n" \
  "{\"ev\":\"sample\",\"t\":1400,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"stop\"},"     \
  "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"
#define HEALTHY                                                                                 \
  "{\"ev\":\"health\",\"t\":100,\"node\":1,\"ok\":true,\"ms\":2}\n"                               \
  "{\"ev\":\"health\",\"t\":100,\"node\":2,\"ok\":true,\"ms\":2}\n"
#define FINAL                                                                                   \
  "{\"ev\":\"final_dir\",\"t\":3000,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":"      \
  "{\"sb-a\":{\"owner\":\"n2\",\"state\":\"running\",\"epoch\":2}}}\n"                            \
  "{\"ev\":\"final_dir\",\"t\":3000,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":"      \
  "{\"sb-a\":{\"owner\":\"n2\",\"state\":\"running\",\"epoch\":2}}}\n"                            \
  "{\"ev\":\"final_sb\",\"t\":3100,\"node\":1,\"sb\":\"sb-a\",\"status\":200,\"owner\":\"n2\",\"state\":\"running\"}\n" \
  "{\"ev\":\"final_sb\",\"t\":3100,\"node\":2,\"sb\":\"sb-a\",\"status\":200,\"owner\":\"n2\",\"state\":\"running\"}\n"

/* Writes text to a temporary history and loads it. */
static json_t *load_text(const char *text) {
  char path[] = "/tmp/test_chaos_check.XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  json_t *events = NULL;
  int rc = hg_chaos_load(path, &events);
  unlink(path);
  assert_int_equal(rc, 0);
  return events;
}

/* Loads text and checks it. Returns the report; *n the number of
 * violations. */
static json_t *check_text(const char *text, int *n) {
  json_t *events = load_text(text), *report = NULL;
  *n = hg_chaos_check(events, &report);
  assert_true(*n >= 0);
  json_decref(events);
  return report;
}

/* The page of report over events, as text (one static buffer). */
static const char *page_of(const json_t *report, const json_t *events) {
  char path[] = "/tmp/test_chaos_report.XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(hg_chaos_report_html(report, events, path), 0);
  FILE *f = fopen(path, "r");
  static char buf[65536];
  size_t len = fread(buf, 1, sizeof buf - 1, f);
  buf[len] = '\0';
  fclose(f);
  unlink(path);
  return buf;
}

/* The one invariant every violation names, or NULL when they differ. */
static const char *only_invariant(json_t *report) {
  json_t *v = json_object_get(report, "violations"), *x;
  const char *inv = NULL;
  size_t i;
  json_array_foreach(v, i, x) {
    const char *s = json_string_value(json_object_get(x, "invariant"));
    if (inv && strcmp(inv, s) != 0) return NULL;
    inv = s;
  }
  return inv;
}

static void expect_only(const char *text, const char *invariant) {
  int n;
  json_t *r = check_text(text, &n);
  if (n == 0 || !only_invariant(r) || strcmp(only_invariant(r), invariant) != 0) {
    char *d = json_dumps(json_object_get(r, "violations"), JSON_INDENT(1));
    fprintf(stderr, "wanted only %s, got %s\n", invariant, d);
    free(d);
    fail();
  }
  json_decref(r);
}

static void clean_history_passes(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE APPEND SUSPEND SUSPEND_OK RESUME READ_INV
                         "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[42]}\n"
                         GET_EPOCH2 SAMPLES HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  assert_int_equal(json_integer_value(json_object_get(r, "seed")), 7);
  json_t *reqs = json_object_get(r, "requests");
  assert_int_equal(json_integer_value(json_object_get(reqs, "ok")), 6);
  /* the append made durable by the suspend was judged */
  assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "checked"), "lost_state")), 1);
  json_decref(r);
}

static void lost_append_after_a_suspend_is_lost_state(void **state) {
  (void)state;
  expect_only(META CREATE APPEND SUSPEND SUSPEND_OK RESUME READ_INV
              "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[]}\n" HEALTHY FINAL,
              "lost_state");
}

static void append_missing_without_an_acknowledged_suspend_is_allowed(void **state) {
  (void)state;
  int n;
  /* the suspend's outcome is unknown: the append was never made durable */
  json_t *r = check_text(META CREATE APPEND SUSPEND
                         "{\"ev\":\"unknown\",\"t\":900,\"req\":3,\"status\":0}\n" RESUME READ_INV
                         "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[]}\n"
                         HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

static void an_append_lost_to_a_failover_before_any_suspend_is_allowed(void **state) {
  (void)state;
  int n;
  /* the owner died after the append; a resume elsewhere started from the
   * generation before it; the suspend after that saved the other line */
  json_t *r = check_text(META CREATE APPEND
                         "{\"ev\":\"invoke\",\"t\":750,\"req\":9,\"lane\":0,\"op\":\"resume\",\"sb\":\"sb-a\",\"node\":2,\"target\":2}\n"
                         "{\"ev\":\"ok\",\"t\":780,\"req\":9,\"status\":200}\n"
                         SUSPEND SUSPEND_OK READ_INV
                         "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[]}\n"
                         HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* The memory counter: the append's exec saw counter 5, a suspend after it
 * was acknowledged; an exec after the resume sees MEM. */
#define APPEND_MEM5                                                                             \
  "{\"ev\":\"invoke\",\"t\":600,\"req\":2,\"lane\":0,\"op\":\"exec\",\"sb\":\"sb-a\",\"node\":2,\"value\":42}\n" \
  "{\"ev\":\"ok\",\"t\":700,\"req\":2,\"status\":201,\"ledger\":[42],\"seq\":5,\"mem\":5}\n"
#define EXEC_AFTER(mem)                                                                         \
  "{\"ev\":\"invoke\",\"t\":1600,\"req\":5,\"lane\":0,\"op\":\"exec\",\"sb\":\"sb-a\",\"node\":1,\"value\":43}\n" \
  "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":201,\"ledger\":[42,43],\"mem\":" mem "}\n"

static void a_counter_below_a_suspended_one_is_lost_memory(void **state) {
  (void)state;
  expect_only(META CREATE APPEND_MEM5 SUSPEND SUSPEND_OK RESUME EXEC_AFTER("3") HEALTHY FINAL,
              "lost_memory");
}

static void a_counter_gone_after_a_suspend_is_lost_memory(void **state) {
  (void)state;
  expect_only(META CREATE APPEND_MEM5 SUSPEND SUSPEND_OK RESUME EXEC_AFTER("null") HEALTHY FINAL,
              "lost_memory");
}

static void a_counter_at_or_past_a_suspended_one_is_kept_memory(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE APPEND_MEM5 SUSPEND SUSPEND_OK RESUME EXEC_AFTER("5")
                         HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
  r = check_text(META CREATE APPEND_MEM5 SUSPEND SUSPEND_OK RESUME EXEC_AFTER("9") HEALTHY FINAL,
                 &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

static void a_counter_never_made_durable_may_go_back(void **state) {
  (void)state;
  int n;
  /* the suspend's outcome is unknown */
  json_t *r = check_text(META CREATE APPEND_MEM5 SUSPEND
                         "{\"ev\":\"unknown\",\"t\":900,\"req\":3,\"status\":0}\n" RESUME
                         EXEC_AFTER("2") HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
  /* a resume (maybe from an older generation) came between the read and
   * the suspend: the suspend may have saved another line */
  r = check_text(META CREATE APPEND_MEM5
                 "{\"ev\":\"invoke\",\"t\":750,\"req\":9,\"lane\":0,\"op\":\"resume\",\"sb\":\"sb-a\",\"node\":2}\n"
                 "{\"ev\":\"unknown\",\"t\":780,\"req\":9,\"status\":0}\n"
                 SUSPEND SUSPEND_OK RESUME EXEC_AFTER("2") HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* A checkpoint (the sandbox runs on) in the suspend's place, then a read
 * with no resume at all: what a failover from that checkpoint must keep. */
#define CHECKPOINT_OK                                                                           \
  "{\"ev\":\"invoke\",\"t\":800,\"req\":3,\"lane\":0,\"op\":\"checkpoint\",\"sb\":\"sb-a\",\"node\":1}\n" \
  "{\"ev\":\"ok\",\"t\":900,\"req\":3,\"status\":200,\"gen\":2}\n"
#define FAILOVER_SAMPLES                                                                        \
  "{\"ev\":\"sample\",\"t\":550,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"}]}\n" \
  "{\"ev\":\"sample\",\"t\":1400,\"vms\":[{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"

static void an_append_a_checkpoint_held_then_missing_is_lost_state(void **state) {
  (void)state;
  /* n1 died after the checkpoint; n2 runs it again (a failover): it must
   * start from that checkpoint or a newer one */
  expect_only(META CREATE APPEND CHECKPOINT_OK FAILOVER_SAMPLES READ_INV
              "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[]}\n"
              HEALTHY FINAL, "lost_state");
  expect_only(META CREATE APPEND_MEM5 CHECKPOINT_OK FAILOVER_SAMPLES EXEC_AFTER("4") HEALTHY FINAL,
              "lost_memory");
}

static void a_checkpoint_after_an_unasked_restart_may_miss_an_append(void **state) {
  (void)state;
  int n;
  /* the watcher saw a new VMM of sb-a (a failover from an older
   * generation) between the append and the checkpoint: the checkpoint
   * saved that line, without the append */
  json_t *r = check_text(META CREATE APPEND
                         "{\"ev\":\"sample\",\"t\":750,\"vms\":[{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"
                         CHECKPOINT_OK READ_INV
                         "{\"ev\":\"ok\",\"t\":1700,\"req\":5,\"status\":200,\"ledger\":[]}\n"
                         HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
  /* and a checkpoint whose outcome is unknown made nothing durable */
  r = check_text(META CREATE APPEND_MEM5
                 "{\"ev\":\"invoke\",\"t\":800,\"req\":3,\"lane\":0,\"op\":\"checkpoint\",\"sb\":\"sb-a\",\"node\":1}\n"
                 "{\"ev\":\"unknown\",\"t\":900,\"req\":3,\"status\":500}\n"
                 FAILOVER_SAMPLES EXEC_AFTER("2") HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* A fork acknowledged with its child's id, never deleted, gone after the
 * heal; and the same fork deleted afterwards. */
#define FORK_OK                                                                                 \
  "{\"ev\":\"invoke\",\"t\":800,\"req\":3,\"lane\":0,\"op\":\"fork\",\"sb\":\"sb-a\",\"node\":1}\n" \
  "{\"ev\":\"ok\",\"t\":900,\"req\":3,\"status\":200,\"child\":\"sb-f\"}\n"
#define FORK_GONE                                                                               \
  "{\"ev\":\"final_sb\",\"t\":3100,\"node\":1,\"sb\":\"sb-f\",\"status\":404}\n"            \
  "{\"ev\":\"final_sb\",\"t\":3100,\"node\":2,\"sb\":\"sb-f\",\"status\":404}\n"

static void an_acknowledged_fork_gone_everywhere_is_lost_sandbox(void **state) {
  (void)state;
  expect_only(META CREATE FORK_OK HEALTHY FINAL FORK_GONE, "lost_sandbox");
  int n;
  json_t *r = check_text(META CREATE FORK_OK
                         "{\"ev\":\"invoke\",\"t\":1000,\"req\":4,\"lane\":0,\"op\":\"delete\",\"sb\":\"sb-f\",\"node\":2}\n"
                         "{\"ev\":\"ok\",\"t\":1200,\"req\":4,\"status\":200}\n"
                         HEALTHY FINAL FORK_GONE, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* What the runner saw on n1's disk at the end: a generation, a replica. */
#define GEN(where, gen, sub, ro, received)                                                      \
  "{\"ev\":\"generation\",\"t\":3200,\"node\":1,\"where\":\"" where "\",\"sb\":\"sb-a\",\"gen\":\"" gen \
  "\",\"subvol\":" sub ",\"ro\":" ro received "}\n"
#define RECEIVED ",\"received\":\"9d1f5fee-d217-bc44-99fa-64bf14394ce0\""
#define STAGING(entries) "{\"ev\":\"staging\",\"t\":3300,\"node\":1,\"entries\":[" entries "]}\n"

static void a_writable_or_unreceived_generation_is_bad_generation(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY FINAL GEN("snapshots", "1", "true", "false", ""),
              "bad_generation");
  expect_only(META CREATE HEALTHY FINAL GEN("replicas", "2", "true", "true", ""),
              "bad_generation");
  expect_only(META CREATE HEALTHY FINAL GEN("replicas", "2", "false", "false", ""),
              "bad_generation");
  /* a receive's remains in staging after the heal */
  expect_only(META CREATE HEALTHY FINAL STAGING("\"4f2a\""), "bad_generation");
}

static void read_only_generations_received_whole_pass(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL GEN("snapshots", "1", "true", "true", "")
                         GEN("replicas", "2", "true", "true", RECEIVED) STAGING(""), &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* What n1 logged as sent of sb-a's generation 2 to n2, and what n2 logged
 * as received from n1. */
#define REPL(dir, node, peer, raw, zstd)                                                       \
  "{\"ev\":\"repl\",\"t\":2000,\"node\":" #node ",\"dir\":\"" dir "\",\"sb\":\"sb-a\","   \
  "\"peer\":" #peer ",\"gen\":2,\"parent\":\"gen=1\",\"raw\":" #raw ",\"zstd\":" #zstd      \
  ",\"had\":false}\n"

static void a_generation_received_with_other_totals_than_sent_is_bad_generation(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY FINAL REPL("sent", 1, 2, 4096, 900)
                  REPL("received", 2, 1, 4096, 899),
              "bad_generation");
}

static void a_generation_received_as_sent_passes(void **state) {
  (void)state;
  int n;
  /* the second receive has no send logged (its sender died first): it
   * judges nothing */
  json_t *r = check_text(META CREATE HEALTHY FINAL REPL("sent", 1, 2, 4096, 900)
                             REPL("received", 2, 1, 4096, 900) REPL("received", 1, 2, 4096, 7),
                         &n);
  assert_int_equal(n, 0);
  json_t *checked = json_object_get(r, "checked");
  assert_int_equal(json_integer_value(json_object_get(checked, "bad_generation_totals")), 1);
  json_decref(r);
}

#define TEARDOWN(left) \
  "{\"ev\":\"teardown\",\"t\":4000,\"dir\":\"/tmp/hg-chaos\",\"leftovers\":[" left "]}\n"

static void anything_left_after_the_teardown_is_leftover(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL
                         TEARDOWN("{\"kind\":\"process\",\"what\":\"pid 9: qemu-system-x86_64\"},"
                                  "{\"kind\":\"netns\",\"what\":\"hgch-n1\"},"
                                  "{\"kind\":\"loop\",\"what\":\"/dev/loop3 on /tmp/hg-chaos/n1/disk.img\"}"),
                         &n);
  assert_int_equal(n, 3);
  assert_string_equal(only_invariant(r), "leftover");
  json_decref(r);
  r = check_text(META CREATE HEALTHY FINAL TEARDOWN(""), &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

static void acknowledged_sandbox_404_everywhere_is_lost_sandbox(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
              "{\"ev\":\"final_sb\",\"t\":3100,\"node\":1,\"sb\":\"sb-a\",\"status\":404}\n"
              "{\"ev\":\"final_sb\",\"t\":3100,\"node\":2,\"sb\":\"sb-a\",\"status\":404}\n",
              "lost_sandbox");
}

static void a_delete_of_unknown_outcome_excuses_a_gone_sandbox(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE
                         "{\"ev\":\"invoke\",\"t\":600,\"req\":2,\"lane\":0,\"op\":\"delete\",\"sb\":\"sb-a\",\"node\":2}\n"
                         "{\"ev\":\"unknown\",\"t\":9000,\"req\":2,\"status\":0}\n" HEALTHY
                         "{\"ev\":\"final_dir\",\"t\":9100,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
                         "{\"ev\":\"final_dir\",\"t\":9100,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
                         "{\"ev\":\"final_sb\",\"t\":9200,\"node\":1,\"sb\":\"sb-a\",\"status\":404}\n"
                         "{\"ev\":\"final_sb\",\"t\":9200,\"node\":2,\"sb\":\"sb-a\",\"status\":404}\n",
                         &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

static void a_delete_that_failed_does_not_excuse_a_gone_sandbox(void **state) {
  (void)state;
  expect_only(META CREATE
              "{\"ev\":\"invoke\",\"t\":600,\"req\":2,\"lane\":0,\"op\":\"delete\",\"sb\":\"sb-a\",\"node\":2}\n"
              "{\"ev\":\"fail\",\"t\":601,\"req\":2,\"status\":0,\"curl\":7}\n" HEALTHY
              "{\"ev\":\"final_dir\",\"t\":9100,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
              "{\"ev\":\"final_dir\",\"t\":9100,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":{}}\n"
              "{\"ev\":\"final_sb\",\"t\":9200,\"node\":1,\"sb\":\"sb-a\",\"status\":404}\n"
              "{\"ev\":\"final_sb\",\"t\":9200,\"node\":2,\"sb\":\"sb-a\",\"status\":404}\n",
              "lost_sandbox");
}

static void two_running_vms_at_one_sample_is_double_run(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY FINAL
              "{\"ev\":\"sample\",\"t\":1200,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
              "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"
              "{\"ev\":\"sample\",\"t\":1400,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
              "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n",
              "double_run");
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL
                         "{\"ev\":\"sample\",\"t\":1200,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
                         "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"
                         "{\"ev\":\"sample\",\"t\":1400,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
                         "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n", &n);
  assert_int_equal(n, 1); /* one episode, one violation */
  json_decref(r);
}

/* Not an invariant: how long after a crash of its node the watcher sees
 * each sandbox running again, and where; null when it never did. */
static void a_crash_is_timed_until_each_of_its_sandboxes_runs_again(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(
      META CREATE HEALTHY FINAL
      "{\"ev\":\"sample\",\"t\":550,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
      "{\"node\":1,\"sb\":\"sb-b\",\"pid\":11,\"st\":\"run\"},"
      "{\"node\":2,\"sb\":\"sb-c\",\"pid\":12,\"st\":\"run\"}]}\n"
      "{\"ev\":\"fault\",\"t\":1000,\"id\":0,\"phase\":\"start\",\"kind\":\"crash\",\"a\":1,"
      "\"at\":1000,\"dur\":3000}\n"
      "{\"ev\":\"sample\",\"t\":1200,\"vms\":[{\"node\":2,\"sb\":\"sb-c\",\"pid\":12,\"st\":\"run\"}]}\n"
      "{\"ev\":\"sample\",\"t\":3400,\"vms\":[{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"},"
      "{\"node\":2,\"sb\":\"sb-c\",\"pid\":12,\"st\":\"run\"}]}\n",
      &n);
  json_t *rec = json_object_get(r, "recoveries"), *a = NULL, *b = NULL, *x;
  size_t i;
  assert_int_equal(json_array_size(rec), 2); /* sb-c ran elsewhere: not the crash's */
  json_array_foreach(rec, i, x) {
    if (!strcmp(json_string_value(json_object_get(x, "sb")), "sb-a")) a = x;
    if (!strcmp(json_string_value(json_object_get(x, "sb")), "sb-b")) b = x;
  }
  assert_non_null(a);
  assert_non_null(b);
  assert_int_equal(json_integer_value(json_object_get(a, "crashed")), 1);
  assert_int_equal(json_integer_value(json_object_get(a, "on")), 2);
  assert_true(json_number_value(json_object_get(a, "ms")) == 2400.0);
  assert_true(json_is_null(json_object_get(b, "ms")));
  json_decref(r);
}

static void a_fenced_copy_beside_a_running_one_is_not_double_run(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL SAMPLES, &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

/* The node logs: sb-a's VM starts on n1 (pid 10) at 600; n2 restores it
 * (pid 20) at 1000; END is what ends n1's. */
#define VMLOG(t, node, what, pid)                                                                \
  "{\"ev\":\"vmlog\",\"t\":" t ",\"node\":" node ",\"sb\":\"sb-a\",\"what\":\"" what "\"" pid "}\n"
#define LOGGED_RUNS(end)                                                                         \
  VMLOG("600", "1", "start", ",\"pid\":10") end VMLOG("1000", "2", "start", ",\"pid\":20")

static void overlapping_runs_in_the_node_logs_are_double_run(void **state) {
  (void)state;
  /* n1's VM stopped only at 1500: half a second the samples never saw */
  expect_only(META CREATE LOGGED_RUNS(VMLOG("1500", "1", "stop", ",\"pid\":10")) HEALTHY FINAL,
              "double_run");
  /* n1's never stopped at all */
  expect_only(META CREATE LOGGED_RUNS("") HEALTHY FINAL, "double_run");
  /* one episode the watcher saw too is named once */
  int n;
  json_t *r = check_text(META CREATE LOGGED_RUNS(VMLOG("1500", "1", "stop", ",\"pid\":10"))
                         "{\"ev\":\"sample\",\"t\":1200,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"},"
                         "{\"node\":2,\"sb\":\"sb-a\",\"pid\":20,\"st\":\"run\"}]}\n"
                         HEALTHY FINAL, &n);
  assert_int_equal(n, 1);
  json_decref(r);
}

static void runs_the_logs_end_before_the_next_starts_are_one_at_a_time(void **state) {
  (void)state;
  int n;
  const char *ends[] = {
      VMLOG("900", "1", "fence", ",\"pid\":10"),  /* shim.fenced */
      VMLOG("900", "1", "fence", ""),              /* lease.lost: every VM of sb-a on n1 */
      VMLOG("1050", "1", "stop", ",\"pid\":10"),  /* within the logs' margin */
      "{\"ev\":\"fault\",\"t\":800,\"id\":0,\"phase\":\"start\",\"kind\":\"crash\",\"a\":1,\"dur\":3000}\n",
  };
  /* a restore n1 logged while the crash command ran (after the crash began,
   * before it was applied) died with the crash */
  json_t *r = check_text(META CREATE
                         "{\"ev\":\"fault\",\"t\":500,\"id\":0,\"phase\":\"start\",\"kind\":\"crash\",\"a\":1,\"dur\":3000}\n"
                         VMLOG("600", "1", "start", ",\"pid\":10")
                         "{\"ev\":\"fault\",\"t\":700,\"id\":0,\"phase\":\"applied\",\"kind\":\"crash\",\"a\":1}\n"
                         VMLOG("1000", "2", "start", ",\"pid\":20") HEALTHY FINAL, &n);
  assert_int_equal(n, 0);
  json_decref(r);
  /* no end in the logs (a full disk took the shim's line), but the
   * watcher saw the process gone, then stopped, before n2 started */
  const char *seen[] = {"", "{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"stop\"}"};
  for (size_t k = 0; k < sizeof seen / sizeof *seen; k++) {
    char text[8192];
    snprintf(text, sizeof text, "%s%s{\"ev\":\"sample\",\"t\":900,\"vms\":[{\"node\":1,\"sb\":\"sb-a\",\"pid\":10,\"st\":\"run\"}]}\n"
             "{\"ev\":\"sample\",\"t\":950,\"vms\":[%s]}\n%s%s%s", META CREATE,
             VMLOG("300", "1", "start", ",\"pid\":10"), seen[k],
             VMLOG("1000", "2", "start", ",\"pid\":20"), HEALTHY, FINAL);
    json_t *r = check_text(text, &n);
    assert_int_equal(n, 0);
    json_decref(r);
  }
  for (size_t k = 0; k < sizeof ends / sizeof *ends; k++) {
    char text[8192];
    snprintf(text, sizeof text, "%s%s%s%s%s%s%s", META CREATE, VMLOG("600", "1", "start", ",\"pid\":10"),
             ends[k], VMLOG("1000", "2", "start", ",\"pid\":20"), HEALTHY, FINAL, "");
    json_t *r = check_text(text, &n);
    if (n != 0) fprintf(stderr, "end %zu: %d violations\n", k, n);
    assert_int_equal(n, 0);
    json_decref(r);
  }
}

static void a_lower_epoch_after_a_higher_one_is_epoch_order(void **state) {
  (void)state;
  expect_only(META CREATE GET_EPOCH2 HEALTHY FINAL
              "{\"ev\":\"invoke\",\"t\":1900,\"req\":7,\"lane\":0,\"op\":\"get\",\"sb\":\"sb-a\",\"node\":2}\n"
              "{\"ev\":\"ok\",\"t\":1950,\"req\":7,\"status\":200,\"epoch\":1,\"state\":\"running\"}\n",
              "epoch_order");
}

static void concurrent_reads_may_see_either_epoch(void **state) {
  (void)state;
  int n; /* req 7 began before req 6 answered: either order is linearizable */
  json_t *r = check_text(META CREATE GET_EPOCH2 HEALTHY FINAL
                         "{\"ev\":\"invoke\",\"t\":1820,\"req\":7,\"lane\":1,\"op\":\"get\",\"sb\":\"sb-a\",\"node\":2}\n"
                         "{\"ev\":\"ok\",\"t\":1950,\"req\":7,\"status\":200,\"epoch\":1}\n", &n);
  assert_int_equal(n, 0);
  json_decref(r);
}

#define DOWN_N2                                                                 \
  "{\"ev\":\"health\",\"t\":1000,\"node\":2,\"ok\":false,\"ms\":2000}\n"          \
  "{\"ev\":\"health\",\"t\":3000,\"node\":2,\"ok\":false,\"ms\":2000}\n"          \
  "{\"ev\":\"health\",\"t\":5000,\"node\":2,\"ok\":false,\"ms\":2000}\n"          \
  "{\"ev\":\"health\",\"t\":7000,\"node\":2,\"ok\":true,\"ms\":3}\n"

static void a_silent_node_no_fault_touched_is_api_down(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY FINAL DOWN_N2, "api_down");
}

static void a_node_silent_during_its_own_kill_is_not_api_down(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL DOWN_N2
                         "{\"ev\":\"fault\",\"t\":900,\"id\":0,\"kind\":\"kill\",\"a\":2,\"dur\":3000,\"phase\":\"start\"}\n"
                         "{\"ev\":\"fault\",\"t\":4000,\"id\":0,\"kind\":\"kill\",\"a\":2,\"dur\":3000,\"phase\":\"end\"}\n",
                         &n);
  assert_int_equal(n, 0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "faults"), "kill")), 1);
  json_decref(r);
}

static void nodes_disagreeing_after_heal_is_not_converged(void **state) {
  (void)state;
  expect_only(META CREATE HEALTHY
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":"
              "{\"sb-a\":{\"owner\":\"n1\",\"state\":\"running\",\"epoch\":1}}}\n"
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":"
              "{\"sb-a\":{\"owner\":\"n2\",\"state\":\"running\",\"epoch\":2}}}\n",
              "not_converged");
}

static void a_directory_entry_the_api_calls_unknown_is_not_converged(void **state) {
  (void)state;
  expect_only(META HEALTHY
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":1,\"answered\":true,\"alive\":2,\"sandboxes\":"
              "{\"sb-a\":{\"owner\":\"n2\",\"state\":\"running\",\"epoch\":1}}}\n"
              "{\"ev\":\"final_dir\",\"t\":3000,\"node\":2,\"answered\":true,\"alive\":2,\"sandboxes\":"
              "{\"sb-a\":{\"owner\":\"n2\",\"state\":\"running\",\"epoch\":1}}}\n"
              "{\"ev\":\"final_sb\",\"t\":3100,\"node\":1,\"sb\":\"sb-a\",\"status\":404}\n"
              "{\"ev\":\"final_sb\",\"t\":3100,\"node\":2,\"sb\":\"sb-a\",\"status\":404}\n",
              "not_converged");
}

static void a_malformed_history_is_refused(void **state) {
  (void)state;
  char path[] = "/tmp/test_chaos_check.XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  const char *text = META "not json\n" HEALTHY;
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  json_t *events = NULL;
  assert_int_equal(hg_chaos_load(path, &events), -EINVAL);
  unlink(path);
  assert_null(events);
}

static void the_report_page_names_each_violation(void **state) {
  (void)state;
  int n;
  json_t *r = check_text(META CREATE HEALTHY FINAL DOWN_N2, &n);
  assert_int_equal(n, 1);
  json_t *events = json_array(); /* the page without events still lists */
  const char *page = page_of(r, events);
  assert_non_null(strstr(page, "<svg"));
  assert_non_null(strstr(page, "api_down"));
  json_decref(events);
  json_decref(r);
}

static void the_report_page_shows_what_each_node_thought_of_its_peers(void **state) {
  (void)state;
  int n;
  const char *text = META CREATE HEALTHY FINAL
      "{\"ev\":\"member\",\"t\":100,\"node\":1,\"peer\":2,\"state\":\"alive\"}\n"
      "{\"ev\":\"member\",\"t\":1200,\"node\":1,\"peer\":2,\"state\":\"suspect\"}\n"
      "{\"ev\":\"member\",\"t\":2200,\"node\":1,\"peer\":2,\"state\":\"dead\"}\n";
  json_t *r = check_text(text, &n), *events = load_text(text);
  assert_int_equal(n, 0);
  const char *page = page_of(r, events);
  assert_non_null(strstr(page, "n1 thinks n2 alive 100-1200 ms"));
  assert_non_null(strstr(page, "n1 thinks n2 suspect 1200-2200 ms"));
  assert_non_null(strstr(page, "n1 thinks n2 dead from 2200 ms"));
  json_decref(events);
  json_decref(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(clean_history_passes),
      cmocka_unit_test(lost_append_after_a_suspend_is_lost_state),
      cmocka_unit_test(append_missing_without_an_acknowledged_suspend_is_allowed),
      cmocka_unit_test(an_append_lost_to_a_failover_before_any_suspend_is_allowed),
      cmocka_unit_test(a_counter_below_a_suspended_one_is_lost_memory),
      cmocka_unit_test(a_counter_gone_after_a_suspend_is_lost_memory),
      cmocka_unit_test(a_counter_at_or_past_a_suspended_one_is_kept_memory),
      cmocka_unit_test(a_counter_never_made_durable_may_go_back),
      cmocka_unit_test(an_append_a_checkpoint_held_then_missing_is_lost_state),
      cmocka_unit_test(a_checkpoint_after_an_unasked_restart_may_miss_an_append),
      cmocka_unit_test(an_acknowledged_fork_gone_everywhere_is_lost_sandbox),
      cmocka_unit_test(a_writable_or_unreceived_generation_is_bad_generation),
      cmocka_unit_test(read_only_generations_received_whole_pass),
      cmocka_unit_test(a_generation_received_with_other_totals_than_sent_is_bad_generation),
      cmocka_unit_test(a_generation_received_as_sent_passes),
      cmocka_unit_test(anything_left_after_the_teardown_is_leftover),
      cmocka_unit_test(acknowledged_sandbox_404_everywhere_is_lost_sandbox),
      cmocka_unit_test(a_delete_of_unknown_outcome_excuses_a_gone_sandbox),
      cmocka_unit_test(a_delete_that_failed_does_not_excuse_a_gone_sandbox),
      cmocka_unit_test(two_running_vms_at_one_sample_is_double_run),
      cmocka_unit_test(a_crash_is_timed_until_each_of_its_sandboxes_runs_again),
      cmocka_unit_test(a_fenced_copy_beside_a_running_one_is_not_double_run),
      cmocka_unit_test(overlapping_runs_in_the_node_logs_are_double_run),
      cmocka_unit_test(runs_the_logs_end_before_the_next_starts_are_one_at_a_time),
      cmocka_unit_test(a_lower_epoch_after_a_higher_one_is_epoch_order),
      cmocka_unit_test(concurrent_reads_may_see_either_epoch),
      cmocka_unit_test(a_silent_node_no_fault_touched_is_api_down),
      cmocka_unit_test(a_node_silent_during_its_own_kill_is_not_api_down),
      cmocka_unit_test(nodes_disagreeing_after_heal_is_not_converged),
      cmocka_unit_test(a_directory_entry_the_api_calls_unknown_is_not_converged),
      cmocka_unit_test(a_malformed_history_is_refused),
      cmocka_unit_test(the_report_page_names_each_violation),
      cmocka_unit_test(the_report_page_shows_what_each_node_thought_of_its_peers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
