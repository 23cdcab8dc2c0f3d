/* cli: the pure parts of the `hangar` CLI — the command line, ID:path
 * specs, numbers with units, human formatting of times and sizes, exit
 * codes. Nothing here does I/O (usage text aside), so tests/unit/test_cli.c
 * calls it directly. The commands themselves live in commands.c, exec.c
 * and cp.c; the HTTP side in client.c. */
#ifndef HG_CLI_CLI_H
#define HG_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HG_CLI_VERSION "0.1.0"

/* Exit codes. A command run by `exec` passes its own code through. */
#define HG_CLI_EXIT_OK 0
#define HG_CLI_EXIT_ERROR 1      /* the server said no, or it was unreachable */
#define HG_CLI_EXIT_USAGE 2      /* the command line was wrong */
#define HG_CLI_EXIT_TIMEOUT 124  /* exec: the command hit --timeout, as timeout(1) */
#define HG_CLI_EXIT_SIGNAL 128   /* + signal number, as a shell reports a killed child */

#define HG_CLI_ID_MAX 64 /* longest id accepted on the command line */
#define HG_CLI_REPLICAS_MAX 8 /* copies of a generation a sandbox may ask for */

/* Options a command may take: bit HG_OPT(o) of hg_cli_cmd.opts. --url,
 * --key, --json and --help are accepted everywhere. */
enum hg_cli_opt {
  HG_OPT_URL,
  HG_OPT_KEY,
  HG_OPT_JSON,
  HG_OPT_HELP,
  HG_OPT_VERSION, /* only before the command */
  HG_OPT_TEMPLATE,
  HG_OPT_VCPUS,
  HG_OPT_MEMORY,
  HG_OPT_ENV,
  HG_OPT_LABEL,
  HG_OPT_NO_WAIT,
  HG_OPT_WAIT,
  HG_OPT_STATE,
  HG_OPT_CWD,
  HG_OPT_TIMEOUT,
  HG_OPT_INTERACTIVE,
  HG_OPT_GEN,
  HG_OPT_NETWORK,
  HG_OPT_REPLICAS,
  HG_OPT_DURABILITY,
  HG_OPT_NODE,
  HG_OPT_CHECKPOINT_S,
  HG_OPT_COUNT
};
#define HG_OPT(o) (1u << (o))

struct hg_client;
typedef struct hg_cli_args hg_cli_args;

/* One row of the command table (commands.c). */
typedef struct hg_cli_cmd {
  const char *name;
  const char *alias; /* a second name, or NULL */
  /* Returns the process exit code. */
  int (*run)(struct hg_client *c, const hg_cli_args *a);
  unsigned opts;       /* HG_OPT() bits on top of the global ones */
  int min_args;        /* positional arguments */
  int max_args;        /* -1: no limit */
  bool argv_tail;      /* after max_args positionals the rest is a command line (exec) */
  const char *usage;   /* "create [--template T] …", without "hangar " */
  const char *summary; /* one line for `hangar help` */
  const char *details; /* option lines for `hangar <cmd> --help`, or NULL */
} hg_cli_cmd;

struct hg_cli_args {
  const hg_cli_cmd *cmd; /* NULL when no command was given */
  const char *url, *key;
  bool json, help, version;
  bool no_wait, wait, interactive;
  const char *template_name, *state, *cwd;
  const char *network;    /* create: egress policy, JSON text or @FILE */
  const char *durability; /* suspend: "local" or "replicated"; NULL: server default */
  const char *node;       /* resume: on this node; NULL: the server chooses */
  int replicas;   /* create: copies kept in the cluster; 0: server default */
  int vcpus;      /* 0: server default */
  int memory_mib; /* 0: server default */
  int timeout_s;  /* 0: none */
  int64_t gen;    /* -1: not given */
  int64_t checkpoint_s; /* create: -1 not given (the node's default), 0 off */
  const char **env; /* "K=V", pointing into argv */
  size_t n_env;
  const char **labels; /* "k=v" */
  size_t n_labels;
  char **args; /* positional arguments */
  int n_args;
  char **tail; /* exec: the command line, pointing into argv */
  int n_tail;
  char err[256]; /* why parsing failed */
};

/* Parses a whole command line (argv[0] is the program). Returns 0, or
 * -EINVAL with a->err set (exit 2), or -ENOMEM. Free with
 * hg_cli_args_free() in both cases. */
int hg_cli_parse(const hg_cli_cmd *cmds, size_t ncmds, int argc, char **argv,
                 hg_cli_args *a);
void hg_cli_args_free(hg_cli_args *a);

const hg_cli_cmd *hg_cli_find(const hg_cli_cmd *cmds, size_t ncmds, const char *name);
/* The command name closest to a mistyped one, or NULL when none is close. */
const char *hg_cli_suggest(const hg_cli_cmd *cmds, size_t ncmds, const char *name);

void hg_cli_print_usage(FILE *f, const hg_cli_cmd *cmds, size_t ncmds);
void hg_cli_print_cmd_usage(FILE *f, const hg_cli_cmd *cmd);

/* Numbers from the command line; all return 0 or -EINVAL. */
int hg_cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
/* "512", "512M", "512MiB", "2G", "2GiB" -> MiB. */
int hg_cli_parse_mib(const char *s, int *out);
/* "30", "30s", "5m", "2h" -> seconds. */
int hg_cli_parse_seconds(const char *s, int *out);
/* "K=V" with a non-empty K: copies K into key, points *val at V. */
int hg_cli_split_kv(const char *kv, char *key, size_t cap, const char **val);

/* Ids are typed by people and put into URL paths: letters, digits, '.',
 * '_', '-', at most HG_CLI_ID_MAX - 1 characters, not "." or ".."
 * (hg_name_valid). */
bool hg_cli_id_ok(const char *id);

/* A `cp` operand: "ID:/guest/path" names a file in a sandbox; anything
 * else (including "-" and "./a:b", whose ':' comes after a '/') is local. */
typedef struct hg_cli_spec {
  bool remote;
  char id[HG_CLI_ID_MAX];
  const char *path; /* points into the argument */
} hg_cli_spec;
int hg_cli_parse_spec(const char *arg, hg_cli_spec *out);

/* Human formatting; out is always NUL-terminated. */
void hg_cli_fmt_age(int64_t secs, char *out, size_t cap);      /* 45s 12m 3h 5d; "-" if < 0 */
void hg_cli_fmt_bytes(uint64_t bytes, char *out, size_t cap);  /* 512 B, 1.5 KiB, 256 MiB */
void hg_cli_fmt_duration(int64_t ms, char *out, size_t cap);   /* 0.4s 12.3s 2m05s 1h02m */
/* RFC 3339 ("2026-12-02T12:00:00.123Z", "+02:00" offsets) -> Unix ms. */
int hg_cli_parse_time(const char *s, int64_t *ms);

/* Replaces control characters with '?', so strings from the server cannot
 * move the cursor or retitle the terminal. */
void hg_cli_sanitize(char *s);

/* True when the URL's host is this machine (localhost, 127.x, ::1): only
 * then is the daemon's own key file offered to it. */
bool hg_cli_url_is_local(const char *url);

/* The exit code for a finished command: --timeout -> 124, killed by a
 * signal -> 128 + signal, else its own code (out of range -> 255). */
int hg_cli_exit_code(bool exited, int64_t code, int64_t sig, bool timed_out);

#endif
