/* test_envd_process_table: envd's process RPCs without VMs (api/envd_procs.c):
 * the table from E2B pids to hangar's commands (found by pid or tag, a
 * reused pid replacing its entry, bounded in entries and bytes, forgotten
 * with its sandbox), and the decoders of Start's config, Connect's and
 * SendSignal's selectors and signals, SendInput's base64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "tests/unit/envelope_util.h"

static char msg[HG_API_MSG];
#define SB1 "sb-0123456789abcdef"
#define SB2 "sb-fedcba9876543210"

static void table_finds_by_pid_and_tag(void **state) {
  hg_envd_procs t;
  assert_int_equal(hg__envd_procs_init(&t, 8, 4096), 0);
  assert_int_equal(hg__envd_procs_put(&t, SB1, 100, 1, "", "{\"cmd\":\"a\"}"), 0);
  assert_int_equal(hg__envd_procs_put(&t, SB1, 101, 2, "web", "{\"cmd\":\"b\"}"), 0);
  assert_int_equal(hg__envd_procs_put(&t, SB1, 102, 3, "web", "{\"cmd\":\"c\"}"), 0);
  assert_int_equal(hg__envd_procs_put(&t, SB2, 100, 9, "", "{}"), 0);
  hg_envd_proc *e = hg__envd_procs_find(&t, SB1, 100, NULL);
  assert_non_null(e);
  assert_int_equal(e->cid, 1);
  assert_string_equal(e->config, "{\"cmd\":\"a\"}");
  assert_int_equal(hg__envd_procs_find(&t, SB2, 100, NULL)->cid, 9); /* per sandbox */
  assert_int_equal(hg__envd_procs_find(&t, SB1, 0, "web")->cid, 3);  /* the newest */
  assert_null(hg__envd_procs_find(&t, SB1, 103, NULL));
  assert_null(hg__envd_procs_find(&t, SB1, 0, "db"));
  assert_null(hg__envd_procs_find(&t, SB1, 0, "")); /* "" is no tag */
  assert_null(hg__envd_procs_find(&t, SB2, 101, NULL));
  /* the guest reused pid 100: the new command replaces the old */
  assert_int_equal(hg__envd_procs_put(&t, SB1, 100, 7, "", "{\"cmd\":\"d\"}"), 0);
  assert_int_equal(t.n, 4);
  assert_int_equal(hg__envd_procs_find(&t, SB1, 100, NULL)->cid, 7);
  hg__envd_procs_drop(&t, SB1, 100);
  assert_null(hg__envd_procs_find(&t, SB1, 100, NULL));
  hg__envd_procs_forget_sandbox(&t, SB1);
  assert_null(hg__envd_procs_find(&t, SB1, 101, NULL));
  assert_non_null(hg__envd_procs_find(&t, SB2, 100, NULL));
  assert_int_equal(t.n, 1);
  assert_int_equal(t.bytes, 2);
  hg__envd_procs_free(&t);
}

static void table_forgets_the_oldest_past_its_bounds(void **state) {
  hg_envd_procs t;
  assert_int_equal(hg__envd_procs_init(&t, 3, 10), 0);
  for (uint32_t pid = 1; pid <= 4; pid++)
    assert_int_equal(hg__envd_procs_put(&t, SB1, pid, pid, NULL, "{}"), 0);
  assert_int_equal(t.n, 3); /* entries: pid 1 went */
  assert_null(hg__envd_procs_find(&t, SB1, 1, NULL));
  assert_non_null(hg__envd_procs_find(&t, SB1, 4, NULL));
  /* bytes: 6 held, 8 more make 14 > 10: the two oldest go */
  assert_int_equal(hg__envd_procs_put(&t, SB1, 5, 5, NULL, "{\"a\":1}"), 0);
  assert_int_equal(t.bytes, 9);
  assert_null(hg__envd_procs_find(&t, SB1, 2, NULL));
  assert_null(hg__envd_procs_find(&t, SB1, 3, NULL));
  assert_non_null(hg__envd_procs_find(&t, SB1, 4, NULL));
  /* what can never fit, pid 0, a long tag: refused, nothing lost */
  assert_int_equal(hg__envd_procs_put(&t, SB1, 6, 6, NULL, "{\"abcdefgh\":1}"), -EINVAL);
  assert_int_equal(hg__envd_procs_put(&t, SB1, 0, 6, NULL, "{}"), -EINVAL);
  char tag[HG_ENVD_TAG_MAX + 1];
  memset(tag, 't', sizeof tag - 1);
  tag[sizeof tag - 1] = '\0';
  assert_int_equal(hg__envd_procs_put(&t, SB1, 6, 6, tag, "{}"), -EINVAL);
  assert_int_equal(t.n, 2);
  hg__envd_procs_free(&t);
}

static json_t *j(const char *s) {
  json_t *v = json_loads(s, 0, NULL);
  assert_non_null(v);
  return v;
}

static void selectors_name_a_pid_or_a_tag(void **state) {
  uint32_t pid;
  char tag[HG_ENVD_TAG_MAX];
  json_t *r = j("{\"process\":{\"pid\":4242}}");
  assert_int_equal(hg__api_envd_selector(r, &pid, tag, msg), 0);
  assert_int_equal(pid, 4242);
  json_decref(r);
  r = j("{\"process\":{\"pid\":\"17\"}}"); /* proto3 JSON may quote it */
  assert_int_equal(hg__api_envd_selector(r, &pid, tag, msg), 0);
  assert_int_equal(pid, 17);
  json_decref(r);
  r = j("{\"process\":{\"tag\":\"web\"}}");
  assert_int_equal(hg__api_envd_selector(r, &pid, tag, msg), 0);
  assert_int_equal(pid, 0);
  assert_string_equal(tag, "web");
  json_decref(r);
  static const char *const bad[] = {
      "{}", "{\"process\":{}}", "{\"process\":7}", "{\"process\":{\"pid\":0}}",
      "{\"process\":{\"pid\":-1}}", "{\"process\":{\"pid\":4294967296}}",
      "{\"process\":{\"pid\":\"x1\"}}", "{\"process\":{\"pid\":1.5}}",
      "{\"process\":{\"tag\":\"\"}}", "{\"process\":{\"tag\":3}}"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    r = j(bad[i]);
    assert_int_equal(hg__api_envd_selector(r, &pid, tag, msg), -EINVAL);
    assert_non_null(strstr(msg, "process"));
    json_decref(r);
  }
}

static void signals_are_e2b_names_or_numbers(void **state) {
  int sig = 0;
  json_t *r = j("{\"signal\":\"SIGNAL_SIGKILL\"}");
  assert_int_equal(hg__api_envd_signal(r, &sig, msg), 0);
  assert_int_equal(sig, 9);
  json_decref(r);
  r = j("{\"signal\":\"SIGNAL_SIGTERM\"}");
  assert_int_equal(hg__api_envd_signal(r, &sig, msg), 0);
  assert_int_equal(sig, 15);
  json_decref(r);
  r = j("{\"signal\":9}");
  assert_int_equal(hg__api_envd_signal(r, &sig, msg), 0);
  assert_int_equal(sig, 9);
  json_decref(r);
  static const char *const bad[] = {"{}", "{\"signal\":\"SIGNAL_UNSPECIFIED\"}",
                                    "{\"signal\":2}", "{\"signal\":\"SIGKILL\"}"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    r = j(bad[i]);
    assert_int_equal(hg__api_envd_signal(r, &sig, msg), -EINVAL);
    json_decref(r);
  }
}

static void input_is_base64_of_either_alphabet(void **state) {
  hg_buf b;
  hg_buf_init(&b, 64);
  assert_int_equal(hg__api_base64_decode("aGVsbG8K", 8, &b), 0);
  assert_int_equal(b.len, 6);
  assert_memory_equal(b.data, "hello\n", 6);
  hg_buf_reset(&b);
  assert_int_equal(hg__api_base64_decode("-_8", 3, &b), 0); /* URL-safe, unpadded */
  assert_int_equal(b.len, 2);
  assert_memory_equal(b.data, "\xfb\xff", 2);
  hg_buf_reset(&b);
  assert_int_equal(hg__api_base64_decode("", 0, &b), 0);
  assert_int_equal(b.len, 0);
  assert_int_equal(hg__api_base64_decode("a", 1, &b), -EINVAL);
  assert_int_equal(hg__api_base64_decode("ab!d", 4, &b), -EINVAL);
  assert_int_equal(hg__api_base64_decode("ab=d", 4, &b), -EINVAL);
  json_t *r = j("{\"process\":{\"pid\":1},\"input\":{\"stdin\":\"aGk=\"}}");
  hg_buf_reset(&b);
  assert_int_equal(hg__api_envd_input(r, &b, msg), 0);
  assert_int_equal(b.len, 2);
  assert_memory_equal(b.data, "hi", 2);
  json_decref(r);
  r = j("{\"input\":{\"pty\":\"aGk=\"}}");
  hg_buf_reset(&b);
  assert_int_equal(hg__api_envd_input(r, &b, msg), 0);
  assert_int_equal(b.len, 2);
  json_decref(r);
  r = j("{\"input\":{\"stdin\":\"a\"}}");
  assert_int_equal(hg__api_envd_input(r, &b, msg), -EINVAL);
  assert_non_null(strstr(msg, "base64"));
  json_decref(r);
  r = j("{\"input\":{}}");
  assert_int_equal(hg__api_envd_input(r, &b, msg), -EINVAL);
  json_decref(r);
  hg_buf_free(&b);
  hg_buf_init(&b, 2); /* bounded: more than the buffer takes */
  r = j("{\"input\":{\"stdin\":\"aGVsbG8K\"}}");
  assert_int_equal(hg__api_envd_input(r, &b, msg), -ENOBUFS);
  json_decref(r);
  hg_buf_free(&b);
}

static void start_keeps_what_list_shows(void **state) {
  char buf[512], *config = NULL, tag[HG_ENVD_TAG_MAX];
  json_t *h = NULL;
  size_t n = envelope_of(buf, 0, "{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\",\"-c\",\"cat\"],"
                           "\"envs\":{\"A\":\"b\"},\"cwd\":\"/tmp\"},\"stdin\":true,"
                           "\"tag\":\"web\"}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, &config, tag, msg), 0);
  assert_true(json_is_true(json_object_get(h, "stdin_open")));
  assert_string_equal(tag, "web");
  json_t *cf = j(config);
  assert_string_equal(json_string_value(json_object_get(cf, "cmd")), "/bin/bash");
  assert_int_equal(json_array_size(json_object_get(cf, "args")), 3);
  assert_string_equal(json_string_value(json_object_get(json_object_get(cf, "envs"), "A")), "b");
  assert_string_equal(json_string_value(json_object_get(cf, "cwd")), "/tmp");
  json_decref(cf);
  json_decref(h);
  free(config);
  n = envelope_of(buf, 0, "{\"process\":{\"cmd\":\"true\"}}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, &config, tag, msg), 0);
  assert_null(json_object_get(h, "stdin_open")); /* E2B's default: stdin closed */
  assert_string_equal(tag, "");
  assert_string_equal(config, "{\"cmd\":\"true\",\"args\":[],\"envs\":{}}");
  json_decref(h);
  free(config);
  n = envelope_of(buf, 0, "{\"process\":{\"cmd\":\"true\"},\"tag\":7}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, &config, tag, msg), -EINVAL);
  assert_non_null(strstr(msg, "tag"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table_finds_by_pid_and_tag),
      cmocka_unit_test(table_forgets_the_oldest_past_its_bounds),
      cmocka_unit_test(selectors_name_a_pid_or_a_tag),
      cmocka_unit_test(signals_are_e2b_names_or_numbers),
      cmocka_unit_test(input_is_base64_of_either_alphabet),
      cmocka_unit_test(start_keeps_what_list_shows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
