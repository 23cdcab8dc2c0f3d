/* The pure parts of the hangar CLI: command lines, ID:path specs, numbers
 * with units, tables, human formatting, exit codes, the config file. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <curl/curl.h>

#include "node/core/buf.h"
#include "node/core/util.h"
#include "tools/cli/cli.h"
#include "tools/cli/client.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/commands.h"
#include "tools/cli/replicas.h"
#include "tools/cli/orphans.h"
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

static void create_takes_a_network_policy(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "create", "--network", "{\"allow\": [\"pypi.org\"]}"), 0);
  assert_string_equal(a.network, "{\"allow\": [\"pypi.org\"]}");
  hg_cli_args_free(&a);
  assert_int_not_equal(PARSE(&a, "ls", "--network", "{}"), 0); /* create only */
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

static void replication_options_belong_to_their_commands(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "create", "--replicas", "3"), 0);
  assert_int_equal(a.replicas, 3);
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "create"), 0);
  assert_int_equal(a.replicas, 0); /* not sent: the node's --replicas applies */
  hg_cli_args_free(&a);

  assert_int_equal(PARSE(&a, "suspend", "sb-1", "--durability=local", "sb-2"), 0);
  assert_string_equal(a.durability, "local");
  assert_int_equal(a.n_args, 2);
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "suspend", "--durability", "replicated", "sb-1"), 0);
  assert_string_equal(a.durability, "replicated");
  hg_cli_args_free(&a);

  assert_int_equal(PARSE(&a, "resume", "sb-1", "--node", "n2"), 0);
  assert_string_equal(a.node, "n2");
  assert_null(a.durability);
  hg_cli_args_free(&a);

  assert_int_equal(PARSE(&a, "replicas", "sb-1", "--json"), 0);
  assert_string_equal(a.cmd->name, "replicas");
  assert_true(a.json);
  hg_cli_args_free(&a);
}

static void checkpoint_options_belong_to_their_commands(void **state) {
  hg_cli_args a;
  assert_int_equal(PARSE(&a, "create", "--checkpoint-s", "30"), 0);
  assert_int_equal(a.checkpoint_s, 30);
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "create", "--checkpoint-s=0"), 0);
  assert_int_equal(a.checkpoint_s, 0); /* sent: off for this one */
  hg_cli_args_free(&a);
  assert_int_equal(PARSE(&a, "create"), 0);
  assert_int_equal(a.checkpoint_s, -1); /* not sent: the node's --checkpoint-s */
  hg_cli_args_free(&a);
  assert_int_not_equal(PARSE(&a, "create", "--checkpoint-s", "86401"), 0);
  hg_cli_args_free(&a);
  assert_int_not_equal(PARSE(&a, "suspend", "sb-1", "--checkpoint-s", "5"), 0);
  hg_cli_args_free(&a);

  assert_int_equal(PARSE(&a, "checkpoint", "sb-1", "sb-2", "--no-wait"), 0);
  assert_string_equal(a.cmd->name, "checkpoint");
  assert_int_equal(a.n_args, 2);
  assert_true(a.no_wait);
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
      {{"create", "--replicas", "0"}, 3, "--replicas wants a number from 1 to 8"},
      {{"create", "--replicas", "9"}, 3, "--replicas wants a number from 1 to 8"},
      {{"suspend", "sb-1", "--durability", "fast"}, 4, "--durability wants local or replicated"},
      {{"resume", "sb-1", "--durability", "local"}, 4, "unknown option '--durability'"},
      {{"suspend", "sb-1", "--node", "n2"}, 4, "unknown option '--node'"},
      {{"resume", "sb-1", "--node", "n2/../x"}, 4, "--node wants a node id"},
      {{"replicas"}, 1, "missing argument"},
      {{"replicas", "a", "b"}, 3, "too many arguments"},
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

/* ---- cluster verbs, against a fake server ------------------------------------------ */

/* One canned answer per path; anything else is a 404 like hangard's. */
typedef struct fake_route {
  const char *path;
  int status;
  const char *body;
} fake_route;

typedef struct fake_server {
  int fd, port;
  pthread_t thread;
  const fake_route *routes;
  size_t nroutes;
  volatile int stop;
  int requests;
  char log[8192]; /* "METHOD PATH BODY\n" per request, read after fake_stop */
} fake_server;

/* Reads the rest of a request's body (Content-Length) into req. */
static void fake_read_body(int conn, char *req, size_t *len, size_t cap) {
  const char *end = strstr(req, "\r\n\r\n");
  const char *cl = strcasestr(req, "\r\ncontent-length:");
  if (!end || !cl || cl > end) return;
  size_t want = (size_t)(end + 4 - req) + strtoul(cl + 17, NULL, 10);
  while (*len < want && *len < cap - 1) {
    ssize_t r = read(conn, req + *len, cap - 1 - *len);
    if (r <= 0) return;
    *len += (size_t)r;
    req[*len] = '\0';
  }
}

static void fake_log(fake_server *s, const char *req, const char *path) {
  char method[16] = "";
  const char *end = strstr(req, "\r\n\r\n");
  size_t n = strlen(s->log);
  sscanf(req, "%15s", method);
  snprintf(s->log + n, sizeof s->log - n, "%s %s %s\n", method, path, end ? end + 4 : "");
}

static void fake_answer(fake_server *s, int conn) {
  char req[16384];
  size_t len = 0;
  while (len < sizeof req - 1) {
    ssize_t r = read(conn, req + len, sizeof req - 1 - len);
    if (r <= 0) return;
    len += (size_t)r;
    req[len] = '\0';
    if (strstr(req, "\r\n\r\n")) break;
  }
  fake_read_body(conn, req, &len, sizeof req);
  char path[1024] = "";
  sscanf(req, "%*s %1023s", path);
  fake_log(s, req, path);
  int status = 404;
  const char *body = "{\"error\":{\"code\":\"not_found\",\"message\":\"no such route\"}}";
  for (size_t i = 0; i < s->nroutes; i++)
    if (strcmp(s->routes[i].path, path) == 0) {
      status = s->routes[i].status;
      body = s->routes[i].body;
    }
  char head[256];
  int n = snprintf(head, sizeof head,
                   "HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
                   "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                   status, strlen(body));
  if (write(conn, head, (size_t)n) < 0 || write(conn, body, strlen(body)) < 0) return;
  s->requests++;
}

static void *fake_main(void *arg) {
  fake_server *s = arg;
  while (!s->stop) {
    struct pollfd p = {.fd = s->fd, .events = POLLIN};
    if (poll(&p, 1, 20) <= 0) continue;
    int conn = accept(s->fd, NULL, NULL);
    if (conn < 0) continue;
    fake_answer(s, conn);
    close(conn);
  }
  return NULL;
}

static void fake_start(fake_server *s, const fake_route *routes, size_t n) {
  memset(s, 0, sizeof *s);
  s->routes = routes;
  s->nroutes = n;
  s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(s->fd >= 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t sl = sizeof sa;
  assert_int_equal(bind(s->fd, (struct sockaddr *)&sa, sizeof sa), 0);
  assert_int_equal(listen(s->fd, 16), 0);
  assert_int_equal(getsockname(s->fd, (struct sockaddr *)&sa, &sl), 0);
  s->port = ntohs(sa.sin_port);
  assert_int_equal(pthread_create(&s->thread, NULL, fake_main, s), 0);
}

static void fake_stop(fake_server *s) {
  s->stop = 1;
  pthread_join(s->thread, NULL);
  close(s->fd);
}

/* Output of one command: what it wrote to stdout and to stderr. */
typedef struct ran {
  int code;
  char out[16384];
  char err[4096];
} ran;

static void slurp(FILE *f, char *buf, size_t cap) {
  rewind(f);
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static void run_words(fake_server *s, ran *r, int n, const char *const *words) {
  hg_cli_args a;
  assert_int_equal(parse(&a, n, words), 0);
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%d", s->port);
  hg_client c;
  assert_int_equal(hg_client_init(&c, url, "test-key"), 0);
  c.json = a.json;
  FILE *out = tmpfile(), *err = tmpfile();
  assert_non_null(out);
  assert_non_null(err);
  fflush(stdout);
  fflush(stderr);
  int saved_out = dup(1), saved_err = dup(2);
  dup2(fileno(out), 1);
  dup2(fileno(err), 2);
  r->code = a.cmd->run(&c, &a);
  hg_client_end_line(&c);
  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  slurp(out, r->out, sizeof r->out);
  slurp(err, r->err, sizeof r->err);
  hg_client_free(&c);
  hg_cli_args_free(&a);
}

/* One command against a fake server of its own that answers routes: r
 * holds what the command printed, s->log what it asked. */
static void run_on(fake_server *s, const fake_route *routes, size_t nroutes, ran *r,
                   int n, const char *const *words) {
  fake_start(s, routes, nroutes);
  run_words(s, r, n, words);
  fake_stop(s);
}

#define RUN_ON(s, routes, nroutes, r, ...)                                          \
  run_on(s, routes, nroutes, r, (int)(sizeof(WORDS(__VA_ARGS__)) / sizeof(char *)), \
         WORDS(__VA_ARGS__))

/* As hg_cluster_members_json writes them, inside the API's {"members": …}. */
#define MEMBER(id, state, extra, api, zone, draining, vcpus, mem, disk, vused, mused, total) \
  "{\"id\":\"" id "\",\"state\":\"" state "\",\"incarnation\":2" extra                    \
  ",\"addresses\":{\"api\":\"" api "\",\"gossip\":\"\",\"replication\":\"\"},"            \
  "\"zone\":\"" zone "\",\"draining\":" draining ","                                    \
  "\"vmm\":{\"kind\":\"qemu\",\"version\":\"7.2.22\",\"cpu_class\":\"tcg\"},"             \
  "\"capacity\":{\"vcpus\":" vcpus ",\"memory_mib\":" mem ",\"disk_free_mib\":" disk      \
  ",\"max_sandboxes\":0},\"load\":{\"vcpus_used\":" vused ",\"memory_used_mib\":" mused   \
  ",\"sandboxes\":{\"running\":0,\"paused\":0,\"suspended\":0,\"total\":" total "}},"     \
  "\"templates\":[],\"labels\":[],\"roster\":true,\"self\":false}"

static const char members_json[] =
    "{\"members\":["
    MEMBER("n1", "alive", ",\"health\":0", "10.88.0.1:7070", "a", "false", "2", "24576",
           "71680", "1", "1536", "3") ","
    MEMBER("n2", "alive", ",\"health\":2", "10.88.0.2:7070", "b", "true", "2", "2048",
           "512", "0", "0", "0") ","
    MEMBER("n3", "dead", ",\"since\":\"2026-12-02T12:00:00Z\"", "10.88.0.3:7070",
           "\\u001b[2Jx", "false", "0", "0", "0", "0", "0", "0") "]}";

static const char directory_json[] =
    "{\"sandboxes\":["
    "{\"sandbox\":\"sb-0000000000000001\",\"owner\":\"n1\",\"state\":\"running\"},"
    "{\"sandbox\":\"sb-0000000000000002\",\"owner\":\"n1\",\"state\":\"running\"},"
    "{\"sandbox\":\"sb-0000000000000003\",\"owner\":\"n3\",\"state\":\"suspended\"},"
    "{\"sandbox\":\"sb-0000000000000004\",\"owner\":\"n2\",\"state\":\"deleted\"}]}";

static const fake_route cluster_routes[] = {
    {"/healthz", 200, "{\"status\":\"ok\",\"node\":\"n1\",\"version\":\"dev\"}"},
    {"/v1/sandboxes", 200, "{\"sandboxes\":[{\"id\":\"sb-0000000000000001\",\"state\":\"running\"}]}"},
    {"/v1/templates", 200, "{\"templates\":[{\"name\":\"default:latest\"}]}"},
    {"/v1/node", 200, "{\"id\":\"n1\",\"accel\":{\"name\":\"tcg\",\"reason\":"
                      "\"/dev/kvm opens, but a kernel did not boot under it; using TCG\"}}"},
    {"/v1/cluster/members", 200, members_json},
    {"/v1/cluster/sandboxes", 200, directory_json},
};

/* The line of out that starts with prefix, for asserting one row. */
static const char *line_of(const char *out, const char *prefix, char *buf, size_t cap) {
  for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (strncmp(p, prefix, strlen(prefix)) == 0) {
      snprintf(buf, cap, "%.*s", (int)strcspn(p, "\n"), p);
      return buf;
    }
  fail_msg("no line starting with '%s' in:\n%s", prefix, out);
  return NULL;
}

static void members_prints_one_row_per_node(void **state) {
  fake_server s;
  ran r;
  char line[512];
  RUN_ON(&s, cluster_routes, HG_ARRAY_SIZE(cluster_routes), &r, "members");
  assert_int_equal(r.code, 0);
  line_of(r.out, "ID", line, sizeof line);
  const char *cols[] = {"STATE", "ZONE", "API", "SANDBOXES", "VCPUS", "MEM-USED/TOTAL",
                        "DISK-FREE", "HEALTH"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(cols); i++) assert_non_null(strstr(line, cols[i]));
  /* Numbers found one object down (capacity, load), shown as used/total. */
  line_of(r.out, "n1 ", line, sizeof line);
  assert_non_null(strstr(line, "alive "));
  assert_non_null(strstr(line, "10.88.0.1:7070"));
  assert_non_null(strstr(line, " 3 "));
  assert_non_null(strstr(line, "1/2"));
  assert_non_null(strstr(line, "1.5 GiB/24 GiB"));
  assert_non_null(strstr(line, "70 GiB"));
  assert_non_null(strstr(line, "ok"));
  line_of(r.out, "n2 ", line, sizeof line);
  assert_non_null(strstr(line, "alive,draining"));
  assert_non_null(strstr(line, "0 B/2 GiB"));
  assert_non_null(strstr(line, "slow (2)"));
  /* What a dead node no longer tells is "-", and its strings cannot drive
   * the terminal. */
  line_of(r.out, "n3 ", line, sizeof line);
  assert_non_null(strstr(line, "dead"));
  assert_non_null(strstr(line, "?[2Jx"));
  assert_null(strchr(line, '\x1b'));
  assert_non_null(strstr(line, "unreachable"));
  assert_int_equal(strlen(r.err), 0);
}

static void members_json_is_the_servers_answer(void **state) {
  fake_server s;
  ran r;
  RUN_ON(&s, cluster_routes, HG_ARRAY_SIZE(cluster_routes), &r, "--json", "members");
  assert_int_equal(r.code, 0);
  json_t *j = json_loads(r.out, 0, NULL);
  assert_non_null(j);
  assert_int_equal(json_array_size(json_object_get(j, "members")), 3);
  json_t *n2 = json_array_get(json_object_get(j, "members"), 1);
  assert_string_equal(hg_json_str(n2, "id"), "n2");
  assert_string_equal(hg_json_str(json_object_get(n2, "vmm"), "version"), "7.2.22");
  json_decref(j);
}

/* hg_cluster_members_json's own array, unwrapped, reads the same. */
static void members_reads_a_bare_array(void **state) {
  static char bare[sizeof members_json];
  snprintf(bare, sizeof bare, "%s", strchr(members_json, '['));
  bare[strlen(bare) - 1] = '\0'; /* the wrapper's closing brace */
  const fake_route routes[] = {{"/v1/cluster/members", 200, bare}};
  fake_server s;
  ran r;
  char line[512];
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "members");
  assert_int_equal(r.code, 0);
  line_of(r.out, "n2 ", line, sizeof line);
  assert_non_null(strstr(line, "10.88.0.2:7070"));
}

static void members_of_a_lone_node_says_there_is_no_cluster(void **state) {
  static const fake_route lone[] = {{"/healthz", 200, "{\"status\":\"ok\"}"}};
  fake_server s;
  ran r;
  RUN_ON(&s, lone, HG_ARRAY_SIZE(lone), &r, "members");
  assert_int_equal(r.code, HG_CLI_EXIT_ERROR);
  assert_int_equal(strlen(r.out), 0);
  assert_non_null(strstr(r.err, "not in a cluster"));
}

static void members_reports_the_servers_refusal(void **state) {
  static const fake_route denied[] = {
      {"/v1/cluster/members", 401, "{\"error\":{\"code\":\"unauthorized\",\"message\":\"bad key\"}}"}};
  fake_server s;
  ran r;
  RUN_ON(&s, denied, HG_ARRAY_SIZE(denied), &r, "members");
  assert_int_equal(r.code, HG_CLI_EXIT_ERROR);
  assert_non_null(strstr(r.err, "unauthorized"));
}

static void status_sums_up_the_cluster(void **state) {
  fake_server s;
  ran r;
  char line[512];
  RUN_ON(&s, cluster_routes, HG_ARRAY_SIZE(cluster_routes), &r, "status");
  assert_int_equal(r.code, 0);
  line_of(r.out, "hangard", line, sizeof line);
  assert_non_null(strstr(line, "ok (node n1)"));
  line_of(r.out, "accelerator", line, sizeof line);
  assert_non_null(strstr(line, "tcg (/dev/kvm opens, but a kernel did not boot under it; "
                               "using TCG)"));
  line_of(r.out, "cluster ", line, sizeof line);
  assert_non_null(strstr(line, "3: 2 alive, 1 dead nodes"));
  /* deleted entries are history, not sandboxes */
  line_of(r.out, "in cluster", line, sizeof line);
  assert_non_null(strstr(line, "3: 2 running, 1 suspended"));
  /* capacity counts alive nodes only: n1 + n2 */
  line_of(r.out, "capacity", line, sizeof line);
  assert_non_null(strstr(line, "vcpus 1/4, memory 1.5 GiB/26 GiB, disk free 70 GiB"));
  line_of(r.out, "unreachable", line, sizeof line);
  assert_non_null(strstr(line, "n3 (dead "));
}

static void status_json_carries_the_cluster(void **state) {
  fake_server s;
  ran r;
  RUN_ON(&s, cluster_routes, HG_ARRAY_SIZE(cluster_routes), &r, "status", "--json");
  assert_int_equal(r.code, 0);
  json_t *j = json_loads(r.out, 0, NULL);
  assert_non_null(j);
  assert_string_equal(hg_json_str(json_object_get(j, "accel"), "name"), "tcg");
  json_t *cl = json_object_get(j, "cluster");
  assert_int_equal(hg_json_int(cl, "members", -1), 3);
  assert_int_equal(hg_json_int(json_object_get(cl, "by_state"), "alive", -1), 2);
  assert_int_equal(hg_json_int(json_object_get(cl, "sandboxes"), "total", -1), 3);
  assert_int_equal(hg_json_int(json_object_get(cl, "capacity"), "memory_total_mib", -1), 26624);
  json_t *down = json_object_get(cl, "unreachable");
  assert_int_equal(json_array_size(down), 1);
  assert_string_equal(hg_json_str(json_array_get(down, 0), "id"), "n3");
  json_decref(j);
}

/* hangard without --gossip lists itself alone (and a server older than
 * clusters has no such route): status shows no cluster either way. */
static void status_of_a_lone_node_has_no_cluster_lines(void **state) {
  const fake_route lone[] = {
      cluster_routes[0], cluster_routes[1], cluster_routes[2], cluster_routes[3],
      {"/v1/cluster/members", 200, "{\"members\":[{\"id\":\"n-1\",\"state\":\"alive\","
                                   "\"self\":true}]}"},
      {"/v1/cluster/sandboxes", 200, "{\"sandboxes\":[]}"}};
  for (size_t nroutes = 4; nroutes <= HG_ARRAY_SIZE(lone); nroutes += 2) {
    fake_server s;
    ran r;
    RUN_ON(&s, lone, nroutes, &r, "status");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "sandboxes"));
    assert_null(strstr(r.out, "cluster"));
    assert_null(strstr(r.out, "unreachable"));
    assert_int_equal(strlen(r.err), 0);
  }
}

/* ---- replication: the suspend report, the replicas table ------------------------ */

static json_t *load(const char *text) {
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  if (!j) fail_msg("bad canned JSON: %s", e.text);
  return j;
}

static void peer_lines_tell_bytes_parent_and_time(void **state) {
  static const struct {
    const char *peer;
    const char *line;
  } cases[] = {
      {"{\"node\":\"n2\",\"parent\":\"gen 3\",\"raw_bytes\":125952,\"zstd_bytes\":46080,"
       "\"ratio\":2.73,\"ms\":120.1}",
       "replicated gen 4 to n2: 45 KiB (zstd, 2.7x of 123 KiB) against gen 3 in 120 ms"},
      {"{\"node\":\"n3\",\"parent\":\"template\",\"raw_bytes\":56623104,"
       "\"zstd_bytes\":10485760,\"ms\":2400}", /* no ratio given: computed */
       "replicated gen 4 to n3: 10 MiB (zstd, 5.4x of 54 MiB) against the template in 2.4 s"},
      {"{\"node\":\"n2\",\"parent\":\"full\",\"raw_bytes\":2048,\"zstd_bytes\":512,"
       "\"ratio\":4,\"ms\":0.4}",
       "replicated gen 4 to n2: 512 B (zstd, 4.0x of 2 KiB) as a full stream in 0 ms"},
      {"{\"node\":\"n2\",\"parent\":\"had\",\"raw_bytes\":0,\"zstd_bytes\":0,\"ms\":3}",
       "replicated gen 4 to n2: already there, nothing sent (3 ms)"},
      {"{\"node\":\"n3\",\"parent\":\"gen 3\",\"ms\":31,\"error\":{\"code\":"
       "\"insufficient_capacity\",\"message\":\"no space left on n3\"}}",
       "failed to replicate gen 4 to n3: insufficient_capacity: no space left on n3 (after 31 ms)"},
      {"{\"node\":\"n3\",\"error\":{\"message\":\"connection refused\"}}",
       "failed to replicate gen 4 to n3: connection refused"},
      /* Numbers no real stream has are clamped, not undefined behaviour. */
      {"{\"node\":\"n2\",\"parent\":\"gen 3\",\"raw_bytes\":1e300,\"zstd_bytes\":1e299,"
       "\"ms\":-1}",
       "replicated gen 4 to n2: 8192 PiB (zstd, 10.0x of 8192 PiB) against gen 3"},
      {"{\"node\":\"n2\",\"parent\":\"gen 3\",\"raw_bytes\":2048}", /* no zstd figure */
       "replicated gen 4 to n2: 2 KiB against gen 3"},
      /* A peer's name and message cannot drive the terminal. */
      {"{\"node\":\"n\\u001b[2J\",\"error\":{\"code\":\"x\",\"message\":\"a\\nb\"}}",
       "failed to replicate gen 4 to n?[2J: x: a?b"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(cases); i++) {
    json_t *p = load(cases[i].peer);
    char line[512];
    hg_repl_peer_line(p, 4, line, sizeof line);
    if (strcmp(line, cases[i].line) != 0)
      fail_msg("case %zu:\n got  '%s'\n want '%s'", i, line, cases[i].line);
    json_decref(p);
  }
}

static void repl_report_has_a_line_per_peer_or_none(void **state) {
  json_t *op = load(
      "{\"status\":\"succeeded\",\"result\":{\"gen\":7,\"durability\":\"replicated\","
      "\"replication\":{\"wanted\":2,\"acked\":2,\"ms\":130,\"peers\":["
      "{\"node\":\"n2\",\"parent\":\"gen 6\",\"raw_bytes\":4096,\"zstd_bytes\":1024,\"ms\":80},"
      "{\"node\":\"n3\",\"parent\":\"had\",\"ms\":5}]}}}");
  hg_buf b;
  hg_buf_init(&b, 1 << 16);
  assert_int_equal(hg_repl_report(op, NULL, &b), 0);
  assert_string_equal(b.data,
                      "replicated gen 7 to n2: 1 KiB (zstd, 4.0x of 4 KiB) against gen 6 "
                      "in 80 ms\n"
                      "replicated gen 7 to n3: already there, nothing sent (5 ms)\n");
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_report(op, "sb-1", &b), 0);
  assert_int_equal(strncmp(b.data, "sb-1: replicated gen 7 to n2", 28), 0);
  json_decref(op);

  /* local durability, or a node alone: nothing to tell */
  hg_buf_reset(&b);
  op = load("{\"status\":\"succeeded\",\"result\":{\"gen\":7,\"durability\":\"local\"}}");
  assert_int_equal(hg_repl_report(op, NULL, &b), 0);
  assert_int_equal(b.len, 0);
  json_decref(op);
  hg_buf_free(&b);
}

/* As the contract in docs/api.md has it: n1 owns, n2 is a replica, n3 was
 * asked and did not answer. Generations arrive in no particular order. */
static const char replicas_json[] =
    "{\"sandbox\":\"sb-00000000000000a1\",\"owner\":\"n1\",\"epoch\":2,\"gen\":4,\"replicas\":3,"
    "\"holders\":["
    "{\"node\":\"n2\",\"owner\":false,\"state\":\"alive\",\"epoch\":2,\"generations\":["
    "{\"gen\":3,\"bytes\":1048576,\"created_at\":\"2026-12-02T22:30:00Z\",\"age_s\":612},"
    "{\"gen\":4,\"bytes\":1572864,\"created_at\":\"2026-12-02T22:40:00Z\",\"age_s\":12}]},"
    "{\"node\":\"n1\",\"owner\":true,\"state\":\"alive\",\"epoch\":2,\"generations\":["
    "{\"gen\":2,\"bytes\":900,\"created_at\":\"2026-12-02T20:40:00Z\",\"age_s\":7212},"
    "{\"gen\":4,\"bytes\":1572864,\"created_at\":\"2026-12-02T22:40:00Z\",\"age_s\":12},"
    "{\"gen\":3,\"bytes\":1048576,\"created_at\":\"2026-12-02T22:30:00Z\",\"age_s\":612}]},"
    "{\"node\":\"n3\",\"owner\":false,\"state\":\"unreachable\",\"epoch\":1,"
    "\"generations\":[],\"error\":\"connect: Connection refused\"}]}";

/* The rows of a rendered table, each cut to its first n words. */
static void row_words(const char *line, int n, char *out, size_t cap) {
  char copy[512], *save = NULL;
  snprintf(copy, sizeof copy, "%s", line);
  out[0] = '\0';
  int i = 0;
  for (char *w = strtok_r(copy, " ", &save); w && i < n; w = strtok_r(NULL, " ", &save), i++) {
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%s", i ? " " : "", w);
  }
}

static void orphans_table_names_what_was_fenced(void **state) {
  static const char answer[] =
      "{\"orphans\":[{\"name\":\"sb-00000000000000a1/5\",\"id\":\"sb-00000000000000a1\","
      "\"epoch\":5,\"state\":\"running\",\"template\":\"default:latest\","
      "\"reason\":\"lease lost\\u001b[2J\"},"
      "{\"name\":\"sb-00000000000000a1/5.1\",\"record\":\"unreadable\"}]}";
  json_t *j = load(answer);
  hg_buf out;
  hg_buf_init(&out, 1 << 16);
  assert_int_equal(hg_orphans_render(j, &out), 0);
  json_decref(j);
  const char *want[] = {"NAME WAS TEMPLATE AGE REASON",
                        "sb-00000000000000a1/5 running default:latest - lease lost?[2J",
                        "sb-00000000000000a1/5.1 - - - -"};
  char *save = NULL, got[512];
  size_t i = 0;
  for (char *line = strtok_r(out.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    assert_true(i < HG_ARRAY_SIZE(want));
    row_words(line, 16, got, sizeof got);
    if (strcmp(got, want[i]) != 0) fail_msg("row %zu: '%s', want '%s'", i, got, want[i]);
    i++;
  }
  assert_int_equal(i, HG_ARRAY_SIZE(want));
  hg_buf_free(&out);
}

/* hg_replicas_render of the answer text; the caller frees out and notes. */
static void render_replicas(const char *answer, hg_buf *out, hg_buf *notes) {
  json_t *j = load(answer);
  hg_buf_init(out, 1 << 16);
  hg_buf_init(notes, 1 << 16);
  assert_int_equal(hg_replicas_render(j, out, notes), 0);
  json_decref(j);
}

static void replicas_table_lists_owner_first_newest_first(void **state) {
  hg_buf out, notes;
  render_replicas(replicas_json, &out, &notes);
  const char *want[] = {
      "sb-00000000000000a1: owner n1 (epoch 2), gen 4 on 2 nodes of 3 wanted",
      "NODE ROLE STATE GEN SIZE AGE",
      "n1 owner alive 4 1.5 MiB 12s",
      "n1 owner alive 3 1 MiB 10m",
      "n1 owner alive 2 900 B 2h",
      "n2 replica alive 4 1.5 MiB 12s",
      "n2 replica alive 3 1 MiB 10m",
      "n3 replica unreachable - - -",
  };
  char *save = NULL, got[512];
  size_t i = 0;
  for (char *line = strtok_r(out.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    assert_true(i < HG_ARRAY_SIZE(want));
    if (i == 0) {
      assert_string_equal(line, want[0]);
    } else {
      row_words(line, 16, got, sizeof got);
      if (strcmp(got, want[i]) != 0) fail_msg("row %zu: '%s', want '%s'", i, got, want[i]);
    }
    i++;
  }
  assert_int_equal(i, HG_ARRAY_SIZE(want));
  assert_string_equal(notes.data, "n3: could not be asked: connect: Connection refused\n");
  hg_buf_free(&out);
  hg_buf_free(&notes);
}

static void replicas_table_columns_line_up(void **state) {
  hg_buf out, notes;
  render_replicas(replicas_json, &out, &notes);
  /* Right-aligned GEN: its last digit sits under the header's N. */
  const char *head = strstr(out.data, "NODE");
  const char *row = strstr(out.data, "\nn1 ");
  assert_non_null(head);
  assert_non_null(row);
  row++;
  size_t gen_end = (size_t)(strstr(head, "GEN") - head) + 2;
  assert_int_equal(row[gen_end], '4');
  assert_int_equal(row[gen_end + 1], ' ');
  hg_buf_free(&out);
  hg_buf_free(&notes);
}

static void replicas_of_a_sandbox_without_generations(void **state) {
  hg_buf out, notes;
  render_replicas("{\"sandbox\":\"sb-00000000000000a1\",\"owner\":\"n1\",\"epoch\":1,"
                  "\"replicas\":2,\"holders\":[{\"node\":\"n1\",\"owner\":true,"
                  "\"state\":\"alive\",\"generations\":[]}]}",
                  &out, &notes);
  char line[512], got[512];
  line_of(out.data, "sb-", line, sizeof line);
  assert_string_equal(line, "sb-00000000000000a1: owner n1 (epoch 1), no generation yet");
  line_of(out.data, "n1 ", line, sizeof line);
  row_words(line, 16, got, sizeof got);
  assert_string_equal(got, "n1 owner alive - - -");
  assert_int_equal(notes.len, 0);
  hg_buf_free(&out);
  hg_buf_free(&notes);
}

#define SB1 "sb-00000000000000a1"
#define OP1 "op-00000000000000b1"

static const char suspend_done_json[] =
    "{\"id\":\"" OP1 "\",\"kind\":\"suspend\",\"sandbox\":\"" SB1 "\","
    "\"status\":\"succeeded\",\"duration_ms\":140.5,\"result\":{\"gen\":4,"
    "\"durability\":\"replicated\",\"replication\":{\"wanted\":1,\"acked\":1,\"ms\":123.4,"
    "\"peers\":[{\"node\":\"n2\",\"parent\":\"gen 3\",\"raw_bytes\":125952,"
    "\"zstd_bytes\":46080,\"ratio\":2.73,\"ms\":120.1}]}}}";

static void suspend_passes_durability_and_prints_each_peer(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes/" SB1 "/suspend?durability=local", 202, "{\"operation\":\"" OP1 "\"}"},
      {"/v1/operations/" OP1 "?wait=10", 200, suspend_done_json},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "suspend", SB1, "--durability", "local");
  assert_int_equal(r.code, 0);
  assert_string_equal(r.out, "replicated gen 4 to n2: 45 KiB (zstd, 2.7x of 123 KiB) "
                             "against gen 3 in 120 ms\n");
  assert_non_null(strstr(r.err, "done"));
  assert_non_null(strstr(s.log, "POST /v1/sandboxes/" SB1 "/suspend?durability=local"));
}

static void suspend_json_prints_the_operation_not_lines(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes/" SB1 "/suspend", 202, "{\"operation\":\"" OP1 "\"}"},
      {"/v1/operations/" OP1 "?wait=10", 200, suspend_done_json},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "--json", "suspend", SB1);
  assert_int_equal(r.code, 0);
  json_t *j = json_loads(r.out, 0, NULL);
  assert_non_null(j);
  json_t *repl = json_object_get(json_object_get(j, "result"), "replication");
  assert_int_equal(hg_json_int(repl, "acked", -1), 1);
  json_decref(j);
  assert_null(strstr(r.out, "replicated gen"));
  /* without --durability the server chooses: no query */
  assert_non_null(strstr(s.log, "POST /v1/sandboxes/" SB1 "/suspend \n"));
}

/* replication_incomplete: the error, the peer that failed, and what state
 * that leaves, all on stderr; exit 1. */
static void suspend_short_of_copies_says_which_peer_failed(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes/" SB1 "/suspend?durability=replicated", 202,
       "{\"operation\":\"" OP1 "\"}"},
      {"/v1/operations/" OP1 "?wait=10", 200,
       "{\"id\":\"" OP1 "\",\"kind\":\"suspend\",\"sandbox\":\"" SB1 "\",\"status\":\"failed\","
       "\"duration_ms\":30050,\"error\":{\"code\":\"replication_incomplete\",\"message\":"
       "\"0 of 1 peers acknowledged gen 4\"},\"result\":{\"gen\":4,\"replication\":"
       "{\"wanted\":1,\"acked\":0,\"peers\":[{\"node\":\"n2\",\"parent\":\"gen 3\",\"ms\":"
       "30000,\"error\":{\"code\":\"timeout\",\"message\":\"no progress for 30 s\"}}]}}}"},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "suspend", SB1, "--durability",
         "replicated");
  assert_int_equal(r.code, HG_CLI_EXIT_ERROR);
  assert_int_equal(strlen(r.out), 0);
  assert_non_null(strstr(r.err, "replication_incomplete: 0 of 1 peers acknowledged gen 4"));
  assert_non_null(strstr(r.err, "failed to replicate gen 4 to n2: timeout: no progress for 30 s "
                                "(after 30.0 s)\n"));
  assert_non_null(strstr(r.err, "hangar replicas " SB1));
}

static void resume_passes_the_node(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes/" SB1 "/resume?node=n2", 202, "{\"operation\":\"" OP1 "\"}"},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "resume", SB1, "--node", "n2",
         "--no-wait");
  assert_int_equal(r.code, 0);
  assert_string_equal(r.out, OP1 "\n");
}

static void resume_elsewhere_refused_shows_the_code(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes/" SB1 "/resume?node=n3", 409,
       "{\"error\":{\"code\":\"not_a_holder\",\"message\":\"n3 does not hold gen 4\"}}"},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "resume", SB1, "--node", "n3");
  assert_int_equal(r.code, HG_CLI_EXIT_ERROR);
  assert_non_null(strstr(r.err, "not_a_holder: n3 does not hold gen 4"));
}

static void create_sends_replicas(void **state) {
  const fake_route routes[] = {
      {"/v1/sandboxes", 202,
       "{\"id\":\"" SB1 "\",\"token\":\"t\",\"operation\":\"" OP1 "\"}"},
  };
  fake_server s;
  ran r;
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "create", "--replicas", "3", "--no-wait");
  assert_int_equal(r.code, 0);
  assert_string_equal(r.out, SB1 "\n");
  const char *body = strstr(s.log, "POST /v1/sandboxes ");
  assert_non_null(body);
  json_t *j = json_loads(body + strlen("POST /v1/sandboxes "), JSON_DISABLE_EOF_CHECK, NULL);
  assert_non_null(j);
  assert_int_equal(hg_json_int(j, "replicas", -1), 3);
  json_decref(j);
}

static void replicas_prints_the_table_or_the_answer(void **state) {
  const fake_route routes[] = {{"/v1/sandboxes/" SB1 "/replicas", 200, replicas_json}};
  fake_server s;
  ran r;
  char line[512];
  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "replicas", SB1);
  assert_int_equal(r.code, 0);
  line_of(r.out, "NODE", line, sizeof line);
  line_of(r.out, "n2 ", line, sizeof line);
  assert_non_null(strstr(line, "replica"));
  assert_non_null(strstr(r.err, "n3: could not be asked"));

  RUN_ON(&s, routes, HG_ARRAY_SIZE(routes), &r, "replicas", SB1, "--json");
  assert_int_equal(r.code, 0);
  json_t *j = json_loads(r.out, 0, NULL);
  assert_non_null(j);
  assert_int_equal(json_array_size(json_object_get(j, "holders")), 3);
  assert_int_equal(hg_json_int(j, "epoch", -1), 2);
  json_decref(j);
}

static void replicas_of_an_unknown_sandbox_fails(void **state) {
  fake_server s;
  ran r;
  RUN_ON(&s, NULL, 0, &r, "replicas", SB1);
  assert_int_equal(r.code, HG_CLI_EXIT_ERROR);
  assert_int_equal(strlen(r.out), 0);
  assert_non_null(strstr(r.err, "not_found"));
}

static int curl_setup(void **state) { return curl_global_init(CURL_GLOBAL_DEFAULT) ? -1 : 0; }
static int curl_teardown(void **state) {
  curl_global_cleanup();
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_collects_options_env_and_labels),
      cmocka_unit_test(create_takes_a_network_policy),
      cmocka_unit_test(global_options_go_before_or_after_the_command),
      cmocka_unit_test(options_may_follow_positionals),
      cmocka_unit_test(replication_options_belong_to_their_commands),
      cmocka_unit_test(checkpoint_options_belong_to_their_commands),
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
      cmocka_unit_test(members_prints_one_row_per_node),
      cmocka_unit_test(members_json_is_the_servers_answer),
      cmocka_unit_test(members_reads_a_bare_array),
      cmocka_unit_test(members_of_a_lone_node_says_there_is_no_cluster),
      cmocka_unit_test(members_reports_the_servers_refusal),
      cmocka_unit_test(status_sums_up_the_cluster),
      cmocka_unit_test(status_json_carries_the_cluster),
      cmocka_unit_test(status_of_a_lone_node_has_no_cluster_lines),
      cmocka_unit_test(peer_lines_tell_bytes_parent_and_time),
      cmocka_unit_test(repl_report_has_a_line_per_peer_or_none),
      cmocka_unit_test(replicas_table_lists_owner_first_newest_first),
      cmocka_unit_test(orphans_table_names_what_was_fenced),
      cmocka_unit_test(replicas_table_columns_line_up),
      cmocka_unit_test(replicas_of_a_sandbox_without_generations),
      cmocka_unit_test(suspend_passes_durability_and_prints_each_peer),
      cmocka_unit_test(suspend_json_prints_the_operation_not_lines),
      cmocka_unit_test(suspend_short_of_copies_says_which_peer_failed),
      cmocka_unit_test(resume_passes_the_node),
      cmocka_unit_test(resume_elsewhere_refused_shows_the_code),
      cmocka_unit_test(create_sends_replicas),
      cmocka_unit_test(replicas_prints_the_table_or_the_answer),
      cmocka_unit_test(replicas_of_an_unknown_sandbox_fails),
  };
  return cmocka_run_group_tests(tests, curl_setup, curl_teardown);
}
