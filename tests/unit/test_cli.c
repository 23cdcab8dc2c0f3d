/* The pure parts of the hangar CLI: command lines, ID:path specs, numbers
 * with units, tables, human formatting, exit codes, the config file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "node/core/buf.h"
#include "node/core/util.h"
#include "tools/cli/cli.h"
#include "tools/cli/commands.h"
#include "tools/cli/config.h"
#include "tools/cli/table.h"

/* Parses a command line given as words, against the real command table.
 * argv outlives the call, as a real one does: args and tail point into it. */
static char *argv[32];

static int parse(hg_cli_args *a, int n, const char *const *words) {
  assert_true(n < 31);
  argv[0] = "hangar";
  for (int i = 0; i < n; i++) argv[i + 1] = (char *)words[i];
  argv[n + 1] = NULL;
  return hg_cli_parse(hg_cli_commands, hg_cli_ncommands, n + 1, argv, a);
}

#define WORDS(...) ((const char *[]){__VA_ARGS__})
#define PARSE(a, ...) \
  parse(a, (int)(sizeof(WORDS(__VA_ARGS__)) / sizeof(char *)), WORDS(__VA_ARGS__))

/* ---- argument parsing ------------------------------------------------------- */

static void create_collects_options_env_and_labels(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "create", "--template", "py:3", "--vcpus=2", "--memory", "2G",
                         "-e", "A=1", "--env", "B=x=y", "-l", "team=ml", "--no-wait"),
                   0);
  assert_string_equal(a.cmd->name, "create");
  assert_string_equal(a.template_name, "py:3");
  assert_int_equal(a.vcpus, 2);
  assert_int_equal(a.memory_mib, 2048);
  assert_int_equal(a.n_env, 2);
  assert_string_equal(a.env[0], "A=1");
  assert_string_equal(a.env[1], "B=x=y");
  assert_int_equal(a.n_labels, 1);
  assert_string_equal(a.labels[0], "team=ml");
  assert_true(a.no_wait);
  assert_int_equal(a.n_args, 0);
  hg_cli_args_free(&a);
}

static void global_options_go_before_or_after_the_command(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "--url", "http://n1:7070", "--json", "ls", "--key=k", "--state",
                         "running"),
                   0);
  assert_string_equal(a.url, "http://n1:7070");
  assert_string_equal(a.key, "k");
  assert_true(a.json);
  assert_string_equal(a.state, "running");
  hg_cli_args_free(&a);
}

static void options_may_follow_positionals(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "fork", "sb-1", "--gen", "4"), 0);
  assert_int_equal(a.n_args, 1);
  assert_string_equal(a.args[0], "sb-1");
  assert_int_equal(a.gen, 4);
  hg_cli_args_free(&a);

  assert_int_equal(PARSE(&a, "rm", "sb-1", "--no-wait", "sb-2", "sb-3"), 0);
  assert_int_equal(a.n_args, 3);
  assert_string_equal(a.args[2], "sb-3");
  assert_true(a.no_wait);
  assert_int_equal(a.gen, -1);
  hg_cli_args_free(&a);
}

static void exec_splits_id_from_command_at_double_dash(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "exec", "-i", "--cwd", "/w", "--timeout", "5m", "-e", "K=V",
                         "sb-1", "--", "ls", "-l", "--json"),
                   0);
  assert_true(a.interactive);
  assert_string_equal(a.cwd, "/w");
  assert_int_equal(a.timeout_s, 300);
  assert_int_equal(a.n_args, 1);
  assert_string_equal(a.args[0], "sb-1");
  assert_int_equal(a.n_tail, 3);
  assert_string_equal(a.tail[0], "ls");
  assert_string_equal(a.tail[1], "-l");
  assert_string_equal(a.tail[2], "--json"); /* the command's, not ours */
  assert_false(a.json);
  hg_cli_args_free(&a);
}

static void exec_without_double_dash_keeps_the_commands_options(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "exec", "sb-1", "ls", "-l", "--help"), 0);
  assert_int_equal(a.n_tail, 3);
  assert_string_equal(a.tail[0], "ls");
  assert_string_equal(a.tail[2], "--help");
  assert_false(a.help);
  hg_cli_args_free(&a);
}

static void exec_without_a_command_is_a_usage_error(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "exec", "sb-1"), -EINVAL);
  assert_non_null(strstr(a.err, "missing command"));
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "exec", "sb-1", "--"), -EINVAL);
  hg_cli_args_free(&a);
}

static void help_skips_argument_counts(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "show", "--help"), 0);
  assert_true(a.help);
  assert_string_equal(a.cmd->name, "show");
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "exec", "-h"), 0);
  assert_true(a.help);
  hg_cli_args_free(&a);
}

static void no_command_parses_to_none(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "--version"), 0);
  assert_null(a.cmd);
  assert_true(a.version);
  hg_cli_args_free(&a);
}

static void aliases_find_their_command(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "list"), 0);
  assert_string_equal(a.cmd->name, "ls");
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "delete", "sb-1"), 0);
  assert_string_equal(a.cmd->name, "rm");
  hg_cli_args_free(&a);
}

static void bad_command_lines_say_why(void **state) {
  static const struct {
    const char *words[4];
    int n;
    const char *says;
  } cases[] = {
      {{"lss"}, 1, "did you mean 'ls'"},
      {{"frobnicate"}, 1, "unknown command 'frobnicate'"},
      {{"ls", "--bogus"}, 2, "unknown option '--bogus'"},
      {{"ls", "--gen", "1"}, 3, "unknown option '--gen'"}, /* real option, wrong command */
      {{"show"}, 1, "missing argument"},
      {{"show", "a", "b"}, 3, "too many arguments"},
      {{"create", "--vcpus"}, 2, "needs a value"},
      {{"create", "--vcpus", "0"}, 3, "--vcpus wants a number"},
      {{"create", "--vcpus", "2x"}, 3, "--vcpus wants a number"},
      {{"create", "--memory", "lots"}, 3, "--memory wants MiB"},
      {{"create", "--env", "NOVALUE"}, 3, "--env wants KEY=VALUE"},
      {{"create", "--env", "=v"}, 3, "--env wants KEY=VALUE"},
      {{"create", "--no-wait=1"}, 2, "takes no value"},
      {{"exec", "--timeout", "soon", "sb-1"}, 4, "--timeout wants seconds"},
      {{"--version", "x"}, 2, "unknown command"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(cases); i++) {
    hg_cli_args a;
    assert_int_equal(parse(&a, cases[i].n, cases[i].words), -EINVAL);
    if (!strstr(a.err, cases[i].says))
      fail_msg("case %zu: '%s' lacks '%s'", i, a.err, cases[i].says);
    hg_cli_args_free(&a);
  }
}

static void every_command_has_usage_and_a_runner(void **state) {
  for (size_t i = 0; i < hg_cli_ncommands; i++) {
    const hg_cli_cmd *c = &hg_cli_commands[i];
    assert_non_null(c->run);
    assert_non_null(c->summary);
    assert_int_equal(strncmp(c->usage, c->name, strlen(c->name)), 0);
    assert_ptr_equal(hg_cli_find(hg_cli_commands, hg_cli_ncommands, c->name), c);
  }
}

static void suggestions_are_close_or_absent(void **state) {
  assert_string_equal(hg_cli_suggest(hg_cli_commands, hg_cli_ncommands, "suspnd"), "suspend");
  assert_string_equal(hg_cli_suggest(hg_cli_commands, hg_cli_ncommands, "temp"), "templates");
  assert_null(hg_cli_suggest(hg_cli_commands, hg_cli_ncommands, "kubernetes"));
}

/* ---- numbers ------------------------------------------------------------------ */

static void numbers_take_units(void **state) {
  int v;
  assert_int_equal(hg_cli_parse_mib("512", &v), 0);
  assert_int_equal(v, 512);
  assert_int_equal(hg_cli_parse_mib("512MiB", &v), 0);
  assert_int_equal(v, 512);
  assert_int_equal(hg_cli_parse_mib("3g", &v), 0);
  assert_int_equal(v, 3072);
  assert_int_equal(hg_cli_parse_mib("0", &v), -EINVAL);
  assert_int_equal(hg_cli_parse_mib("-5", &v), -EINVAL);
  assert_int_equal(hg_cli_parse_mib("1T", &v), -EINVAL);
  assert_int_equal(hg_cli_parse_mib("99999999999G", &v), -EINVAL);

  assert_int_equal(hg_cli_parse_seconds("45", &v), 0);
  assert_int_equal(v, 45);
  assert_int_equal(hg_cli_parse_seconds("2h", &v), 0);
  assert_int_equal(v, 7200);
  assert_int_equal(hg_cli_parse_seconds("1.5s", &v), -EINVAL);
  assert_int_equal(hg_cli_parse_seconds("", &v), -EINVAL);

  int64_t n;
  assert_int_equal(hg_cli_parse_int("12", 0, 100, &n), 0);
  assert_int_equal(n, 12);
  assert_int_equal(hg_cli_parse_int("101", 0, 100, &n), -EINVAL);
  assert_int_equal(hg_cli_parse_int("99999999999999999999", 0, INT64_MAX, &n), -EINVAL);
}

/* ---- ID:path ------------------------------------------------------------------- */

static void specs_tell_remote_from_local(void **state) {
  hg_cli_spec s;
  assert_int_equal(hg_cli_parse_spec("sb-0123456789abcdef:/work/a.txt", &s), 0);
  assert_true(s.remote);
  assert_string_equal(s.id, "sb-0123456789abcdef");
  assert_string_equal(s.path, "/work/a.txt");

  assert_int_equal(hg_cli_parse_spec("3f2a:rel/x:y", &s), 0); /* only the first ':' splits */
  assert_true(s.remote);
  assert_string_equal(s.id, "3f2a");
  assert_string_equal(s.path, "rel/x:y");

  const char *locals[] = {"-", "notes.txt", "./a:b", "/tmp/x:y", ":odd", "dir/sb-1:/x"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(locals); i++) {
    assert_int_equal(hg_cli_parse_spec(locals[i], &s), 0);
    assert_false(s.remote);
    assert_string_equal(s.path, locals[i]);
  }
}

static void malformed_specs_are_rejected(void **state) {
  hg_cli_spec s;
  assert_int_equal(hg_cli_parse_spec("sb-1:", &s), -EINVAL);        /* no path */
  assert_int_equal(hg_cli_parse_spec("sb 1:/x", &s), -EINVAL);      /* not an id */
  char longid[HG_CLI_ID_MAX + 8];
  memset(longid, 'a', sizeof longid - 4);
  strcpy(longid + sizeof longid - 4, ":/x");
  assert_int_equal(hg_cli_parse_spec(longid, &s), -EINVAL);
}

static void ids_are_url_safe(void **state) {
  assert_true(hg_cli_id_ok("sb-0123456789abcdef"));
  assert_true(hg_cli_id_ok("op-1.b_c"));
  assert_false(hg_cli_id_ok(""));
  assert_false(hg_cli_id_ok("../x"));
  assert_false(hg_cli_id_ok("sb-1?x=1"));
  assert_false(hg_cli_id_ok("a b"));
}

/* ---- tables and formatting --------------------------------------------------- */

static char *render(hg_table *t, hg_buf *b) {
  hg_buf_init(b, 1 << 20);
  assert_int_equal(hg_table_render(t, b), 0);
  return b->data;
}

static void tables_align_columns(void **state) {
  const char *const head[] = {"ID", "STATE", "MEM"};
  hg_table *t = hg_table_new(3, head);
  hg_table_right(t, 2);
  assert_int_equal(hg_table_add(t, (const char *const[]){"sb-1", "running", "256 MiB"}), 0);
  assert_int_equal(hg_table_add(t, (const char *const[]){"sb-22", "paused", "1 GiB"}), 0);
  assert_int_equal(hg_table_rows(t), 2);
  hg_buf b;
  assert_string_equal(render(t, &b),
                      "ID      STATE         MEM\n"
                      "sb-1    running   256 MiB\n"
                      "sb-22   paused      1 GiB\n");
  hg_buf_free(&b);
  hg_table_free(t);
}

static void tables_count_utf8_and_clean_control_bytes(void **state) {
  const char *const head[] = {"A", "B"};
  hg_table *t = hg_table_new(2, head);
  assert_int_equal(hg_table_add(t, (const char *const[]){"…", "x"}), 0);
  assert_int_equal(hg_table_add(t, (const char *const[]){"ab", "\x1b]0;pwn\a"}), 0);
  assert_int_equal(hg_table_add(t, (const char *const[]){NULL, "y"}), 0);
  hg_buf b;
  assert_string_equal(render(t, &b),
                      "A    B\n"
                      "…    x\n"
                      "ab   ?]0;pwn?\n"
                      "-    y\n");
  hg_buf_free(&b);
  hg_table_free(t);
}

static void tables_grow_past_their_first_allocation(void **state) {
  const char *const head[] = {"N"};
  hg_table *t = hg_table_new(1, head);
  char cell[16];
  for (int i = 0; i < 1000; i++) {
    snprintf(cell, sizeof cell, "%d", i);
    assert_int_equal(hg_table_add(t, (const char *const[]){cell}), 0);
  }
  hg_buf b;
  render(t, &b);
  assert_non_null(strstr(b.data, "\n999\n"));
  hg_buf_free(&b);
  hg_table_free(t);
}

static void human_ages_sizes_durations(void **state) {
  char s[32];
  static const struct { int64_t v; const char *want; } ages[] = {
      {-1, "-"},    {0, "0s"},    {59, "59s"},       {60, "1m"},
      {3599, "59m"}, {7200, "2h"}, {86400 * 3, "3d"}};
  for (size_t i = 0; i < HG_ARRAY_SIZE(ages); i++) {
    hg_cli_fmt_age(ages[i].v, s, sizeof s);
    assert_string_equal(s, ages[i].want);
  }
  static const struct { uint64_t v; const char *want; } sizes[] = {
      {0, "0 B"}, {1023, "1023 B"}, {1536, "1.5 KiB"}, {256ull << 20, "256 MiB"},
      {1ull << 30, "1 GiB"}, {3ull << 29, "1.5 GiB"}, {30000000, "29 MiB"}};
  for (size_t i = 0; i < HG_ARRAY_SIZE(sizes); i++) {
    hg_cli_fmt_bytes(sizes[i].v, s, sizeof s);
    assert_string_equal(s, sizes[i].want);
  }
  static const struct { int64_t v; const char *want; } durs[] = {
      {400, "0.4s"}, {12345, "12.3s"}, {125000, "2m05s"}, {3720000, "1h02m"}};
  for (size_t i = 0; i < HG_ARRAY_SIZE(durs); i++) {
    hg_cli_fmt_duration(durs[i].v, s, sizeof s);
    assert_string_equal(s, durs[i].want);
  }
}

static void timestamps_parse_rfc3339(void **state) {
  int64_t ms;
  assert_int_equal(hg_cli_parse_time("1970-01-01T00:00:01Z", &ms), 0);
  assert_int_equal(ms, 1000);
  assert_int_equal(hg_cli_parse_time("2026-12-02T12:00:00.123Z", &ms), 0);
  assert_int_equal(ms, 1796212800123LL);
  assert_int_equal(hg_cli_parse_time("2026-12-02T14:00:00.123456+02:00", &ms), 0);
  assert_int_equal(ms, 1796212800123LL);
  assert_int_equal(hg_cli_parse_time("2026-12-02T12:00:00", &ms), -EINVAL); /* no zone */
  assert_int_equal(hg_cli_parse_time("2026-13-02T12:00:00Z", &ms), -EINVAL);
  assert_int_equal(hg_cli_parse_time("yesterday", &ms), -EINVAL);
  assert_int_equal(hg_cli_parse_time("2026-12-02T12:00:00Zjunk", &ms), -EINVAL);
}

/* ---- exit codes, URLs, config ------------------------------------------------ */

static void exit_codes_follow_the_shell(void **state) {
  assert_int_equal(hg_cli_exit_code(true, 0, 0, false), 0);
  assert_int_equal(hg_cli_exit_code(true, 3, 0, false), 3);
  assert_int_equal(hg_cli_exit_code(true, 0, 9, false), 137);    /* SIGKILL */
  assert_int_equal(hg_cli_exit_code(false, 0, 15, false), 143);  /* SIGTERM */
  assert_int_equal(hg_cli_exit_code(true, 0, 9, true), 124);     /* --timeout wins */
  assert_int_equal(hg_cli_exit_code(true, 256, 0, false), 255);  /* never wraps to 0 */
  assert_int_equal(hg_cli_exit_code(true, -1, 0, false), 255);
  assert_int_equal(hg_cli_exit_code(false, 0, 0, false), 1);     /* unknown: an error */
  assert_int_equal(hg_cmd_exit(0), 0);
  assert_int_equal(hg_cmd_exit(-EINVAL), 2);
  assert_int_equal(hg_cmd_exit(-ECONNREFUSED), 1);
}

static void only_local_urls_get_the_daemon_key(void **state) {
  assert_true(hg_cli_url_is_local("http://127.0.0.1:7070"));
  assert_true(hg_cli_url_is_local("http://localhost"));
  assert_true(hg_cli_url_is_local("http://[::1]:7070/"));
  assert_true(hg_cli_url_is_local("127.0.0.2:7070"));
  assert_false(hg_cli_url_is_local("http://node2:7070"));
  assert_false(hg_cli_url_is_local("http://127.0.0.1.evil.com:7070"));
  assert_false(hg_cli_url_is_local("http://localhost.evil.com"));
  assert_false(hg_cli_url_is_local("http://127.0.0.1@evil.com/"));
  assert_false(hg_cli_url_is_local("https://10.0.0.5"));
}

static void config_file_lines(void **state) {
  hg_cli_conf conf = {{0}, {0}};
  char err[128];
  assert_int_equal(hg_cli_conf_parse("# hangar\n\n  url = \"http://n1:7070\"  \nkey=abc\n", &conf,
                                     err, sizeof err),
                   0);
  assert_string_equal(conf.url, "http://n1:7070");
  assert_string_equal(conf.key, "abc");

  hg_cli_conf c2 = {{0}, {0}};
  assert_int_equal(hg_cli_conf_parse("url = http://a\nulr = http://b\nnonsense\nkey = k\n", &c2,
                                     err, sizeof err),
                   -EINVAL);
  assert_string_equal(err, "line 2: unknown setting (known: url, key)"); /* the first bad line */
  assert_string_equal(c2.url, "http://a");
  assert_string_equal(c2.key, "k"); /* good lines still apply */

  hg_cli_conf c3 = {{0}, {0}};
  assert_int_equal(hg_cli_conf_parse("key = a\rb\n", &c3, err, sizeof err), -EINVAL);
  assert_string_equal(c3.key, ""); /* a header-splitting key never gets in */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_collects_options_env_and_labels),
      cmocka_unit_test(global_options_go_before_or_after_the_command),
      cmocka_unit_test(options_may_follow_positionals),
      cmocka_unit_test(exec_splits_id_from_command_at_double_dash),
      cmocka_unit_test(exec_without_double_dash_keeps_the_commands_options),
      cmocka_unit_test(exec_without_a_command_is_a_usage_error),
      cmocka_unit_test(help_skips_argument_counts),
      cmocka_unit_test(no_command_parses_to_none),
      cmocka_unit_test(aliases_find_their_command),
      cmocka_unit_test(bad_command_lines_say_why),
      cmocka_unit_test(every_command_has_usage_and_a_runner),
      cmocka_unit_test(suggestions_are_close_or_absent),
      cmocka_unit_test(numbers_take_units),
      cmocka_unit_test(specs_tell_remote_from_local),
      cmocka_unit_test(malformed_specs_are_rejected),
      cmocka_unit_test(ids_are_url_safe),
      cmocka_unit_test(tables_align_columns),
      cmocka_unit_test(tables_count_utf8_and_clean_control_bytes),
      cmocka_unit_test(tables_grow_past_their_first_allocation),
      cmocka_unit_test(human_ages_sizes_durations),
      cmocka_unit_test(timestamps_parse_rfc3339),
      cmocka_unit_test(exit_codes_follow_the_shell),
      cmocka_unit_test(only_local_urls_get_the_daemon_key),
      cmocka_unit_test(config_file_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
