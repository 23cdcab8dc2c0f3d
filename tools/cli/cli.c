#include "tools/cli/cli.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "node/core/ident.h"
#include "node/core/parse.h"
#include "node/core/util.h"

/* ---- the option table ------------------------------------------------- */

typedef struct opt_spec {
  const char *name; /* long name, without the dashes */
  char short_name;  /* 0: none */
  bool has_value;
} opt_spec;

static const opt_spec opt_specs[HG_OPT_COUNT] = {
    [HG_OPT_URL] = {"url", 0, true},
    [HG_OPT_KEY] = {"key", 0, true},
    [HG_OPT_JSON] = {"json", 0, false},
    [HG_OPT_HELP] = {"help", 'h', false},
    [HG_OPT_VERSION] = {"version", 0, false},
    [HG_OPT_TEMPLATE] = {"template", 0, true},
    [HG_OPT_VCPUS] = {"vcpus", 0, true},
    [HG_OPT_MEMORY] = {"memory", 0, true},
    [HG_OPT_ENV] = {"env", 'e', true},
    [HG_OPT_LABEL] = {"label", 'l', true},
    [HG_OPT_NO_WAIT] = {"no-wait", 0, false},
    [HG_OPT_WAIT] = {"wait", 0, false},
    [HG_OPT_STATE] = {"state", 0, true},
    [HG_OPT_CWD] = {"cwd", 'w', true},
    [HG_OPT_TIMEOUT] = {"timeout", 0, true},
    [HG_OPT_INTERACTIVE] = {"interactive", 'i', false},
    [HG_OPT_GEN] = {"gen", 0, true},
    [HG_OPT_NETWORK] = {"network", 0, true},
    [HG_OPT_REPLICAS] = {"replicas", 0, true},
    [HG_OPT_DURABILITY] = {"durability", 0, true},
    [HG_OPT_NODE] = {"node", 0, true},
    [HG_OPT_CHECKPOINT_S] = {"checkpoint-s", 0, true},
};

#define GLOBAL_OPTS \
  (HG_OPT(HG_OPT_URL) | HG_OPT(HG_OPT_KEY) | HG_OPT(HG_OPT_JSON) | HG_OPT(HG_OPT_HELP))

static int fail(hg_cli_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(hg_cli_args *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a->err, sizeof a->err, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* "create: " before a message about a command's own options. */
static const char *who(const hg_cli_args *a) { return a->cmd ? a->cmd->name : "hangar"; }

/* Finds the option an argument names: "--name", "--name=value" or "-x".
 * *inline_value gets what follows '=', if anything. */
static int lookup_opt(const char *arg, const char **inline_value) {
  *inline_value = NULL;
  if (arg[1] != '-') {
    for (int i = 0; i < HG_OPT_COUNT; i++)
      if (opt_specs[i].short_name && arg[1] == opt_specs[i].short_name && arg[2] == '\0')
        return i;
    return -1;
  }
  const char *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  for (int i = 0; i < HG_OPT_COUNT; i++) {
    if (strlen(opt_specs[i].name) == len && strncmp(opt_specs[i].name, name, len) == 0) {
      if (eq) *inline_value = eq + 1;
      return i;
    }
  }
  return -1;
}

static int kv_arg(hg_cli_args *a, const char *opt, const char *v, const char **list,
                  size_t *n) {
  char key[256];
  const char *val;
  if (hg_cli_split_kv(v, key, sizeof key, &val) < 0)
    return fail(a, "%s: --%s wants KEY=VALUE, got '%s'", who(a), opt, v);
  list[(*n)++] = v;
  return 0;
}

static int int_arg(hg_cli_args *a, const char *opt, const char *v, int64_t min,
                   int64_t max, int64_t *out) {
  if (hg_cli_parse_int(v, min, max, out) < 0)
    return fail(a, "%s: --%s wants a number from %lld to %lld, got '%s'", who(a), opt,
                (long long)min, (long long)max, v);
  return 0;
}

/* Stores one option's value in a. */
static int set_opt(hg_cli_args *a, int id, const char *v) {
  const char *name = opt_specs[id].name;
  int64_t n = 0; /* int_arg writes it on success only; gcc -O3 cannot see fail() is nonzero */
  int rc = 0;
  switch (id) {
  case HG_OPT_URL: a->url = v; break;
  case HG_OPT_KEY: a->key = v; break;
  case HG_OPT_JSON: a->json = true; break;
  case HG_OPT_HELP: a->help = true; break;
  case HG_OPT_VERSION: a->version = true; break;
  case HG_OPT_TEMPLATE: a->template_name = v; break;
  case HG_OPT_NETWORK: a->network = v; break;
  case HG_OPT_STATE: a->state = v; break;
  case HG_OPT_CWD: a->cwd = v; break;
  case HG_OPT_NO_WAIT: a->no_wait = true; break;
  case HG_OPT_WAIT: a->wait = true; break;
  case HG_OPT_INTERACTIVE: a->interactive = true; break;
  case HG_OPT_ENV: return kv_arg(a, name, v, a->env, &a->n_env);
  case HG_OPT_LABEL: return kv_arg(a, name, v, a->labels, &a->n_labels);
  case HG_OPT_VCPUS:
    if ((rc = int_arg(a, name, v, 1, 256, &n)) == 0) a->vcpus = (int)n;
    break;
  case HG_OPT_GEN:
    if ((rc = int_arg(a, name, v, 0, INT64_MAX, &n)) == 0) a->gen = n;
    break;
  case HG_OPT_CHECKPOINT_S: /* the server says which values it takes */
    if ((rc = int_arg(a, name, v, 0, 86400, &n)) == 0) a->checkpoint_s = n;
    break;
  case HG_OPT_REPLICAS:
    if ((rc = int_arg(a, name, v, 1, HG_CLI_REPLICAS_MAX, &n)) == 0) a->replicas = (int)n;
    break;
  case HG_OPT_DURABILITY:
    if (strcmp(v, "local") != 0 && strcmp(v, "replicated") != 0)
      return fail(a, "%s: --durability wants local or replicated, got '%s'", who(a), v);
    a->durability = v;
    break;
  case HG_OPT_NODE:
    if (!hg_cli_id_ok(v)) return fail(a, "%s: --node wants a node id, got '%s'", who(a), v);
    a->node = v;
    break;
  case HG_OPT_MEMORY:
    if (hg_cli_parse_mib(v, &a->memory_mib) < 0)
      return fail(a, "%s: --memory wants MiB (512, 2G), got '%s'", who(a), v);
    break;
  case HG_OPT_TIMEOUT:
    if (hg_cli_parse_seconds(v, &a->timeout_s) < 0)
      return fail(a, "%s: --timeout wants seconds (30, 5m, 1h), got '%s'", who(a), v);
    break;
  }
  return rc;
}

/* Takes the option at argv[*i] (and its value, which may be argv[*i + 1]). */
static int take_opt(hg_cli_args *a, unsigned allowed, int argc, char **argv, int *i) {
  const char *arg = argv[*i], *v;
  int id = lookup_opt(arg, &v);
  if (id < 0 || !(allowed & HG_OPT(id)))
    return fail(a, "%s: unknown option '%s'", who(a), arg);
  if (!opt_specs[id].has_value) {
    if (v) return fail(a, "%s: --%s takes no value", who(a), opt_specs[id].name);
    return set_opt(a, id, NULL);
  }
  if (!v) {
    if (*i + 1 >= argc) return fail(a, "%s: %s needs a value", who(a), arg);
    v = argv[++*i];
  }
  return set_opt(a, id, v);
}

static bool is_opt(const char *s) { return s[0] == '-' && s[1] != '\0'; } /* "-" is stdin */

static int check_counts(hg_cli_args *a) {
  const hg_cli_cmd *cmd = a->cmd;
  if (a->help) return 0;
  if (a->n_args < cmd->min_args)
    return fail(a, "%s: missing argument (usage: hangar %s)", cmd->name, cmd->usage);
  if (cmd->max_args >= 0 && a->n_args > cmd->max_args)
    return fail(a, "%s: too many arguments (usage: hangar %s)", cmd->name, cmd->usage);
  if (cmd->argv_tail && a->n_tail == 0)
    return fail(a, "%s: missing command (usage: hangar %s)", cmd->name, cmd->usage);
  return 0;
}

/* Options may come before the command (global ones) and anywhere after
 * it; "--" ends them. For argv_tail commands (exec), the first word after
 * the positionals starts the command line, so `exec ID ls -l` keeps -l. */
static int parse_cmd(hg_cli_args *a, int argc, char **argv, int i) {
  unsigned allowed = GLOBAL_OPTS | a->cmd->opts;
  bool opts_done = false;
  for (; i < argc; i++) {
    const char *s = argv[i];
    if (!opts_done && strcmp(s, "--") == 0) {
      opts_done = true;
      continue;
    }
    if (a->cmd->argv_tail && a->n_args == a->cmd->max_args) {
      a->tail = argv + i;
      a->n_tail = argc - i;
      break;
    }
    if (!opts_done && is_opt(s)) {
      int rc = take_opt(a, allowed, argc, argv, &i);
      if (rc < 0) return rc;
      continue;
    }
    a->args[a->n_args++] = argv[i];
  }
  return check_counts(a);
}

int hg_cli_parse(const hg_cli_cmd *cmds, size_t ncmds, int argc, char **argv,
                 hg_cli_args *a) {
  memset(a, 0, sizeof *a);
  a->gen = -1;
  a->checkpoint_s = -1;
  size_t slots = argc > 0 ? (size_t)argc : 1;
  a->env = calloc(slots, sizeof *a->env);
  a->labels = calloc(slots, sizeof *a->labels);
  a->args = calloc(slots, sizeof *a->args);
  if (!a->env || !a->labels || !a->args) return -ENOMEM;

  int i = 1;
  for (; i < argc && is_opt(argv[i]); i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    int rc = take_opt(a, GLOBAL_OPTS | HG_OPT(HG_OPT_VERSION), argc, argv, &i);
    if (rc < 0) return rc;
  }
  if (i >= argc) return 0;

  a->cmd = hg_cli_find(cmds, ncmds, argv[i]);
  if (!a->cmd) {
    const char *near = hg_cli_suggest(cmds, ncmds, argv[i]);
    if (near) return fail(a, "unknown command '%s' (did you mean '%s'?)", argv[i], near);
    return fail(a, "unknown command '%s' (see 'hangar help')", argv[i]);
  }
  return parse_cmd(a, argc, argv, i + 1);
}

void hg_cli_args_free(hg_cli_args *a) {
  free(a->env);
  free(a->labels);
  free(a->args);
  a->env = a->labels = NULL;
  a->args = NULL;
}

const hg_cli_cmd *hg_cli_find(const hg_cli_cmd *cmds, size_t ncmds, const char *name) {
  for (size_t i = 0; i < ncmds; i++)
    if (strcmp(cmds[i].name, name) == 0 || (cmds[i].alias && strcmp(cmds[i].alias, name) == 0))
      return &cmds[i];
  return NULL;
}

/* Edit distance, for "did you mean"; names are short, so O(n*m) is nothing. */
static size_t distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 32 || lb > 32) return SIZE_MAX;
  size_t row[33];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (up + 1 < best) best = up + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

const char *hg_cli_suggest(const hg_cli_cmd *cmds, size_t ncmds, const char *name) {
  const char *best = NULL;
  size_t best_d = 3; /* more than two edits away is a different word */
  for (size_t i = 0; i < ncmds; i++) {
    size_t d = distance(name, cmds[i].name);
    if (strncmp(name, cmds[i].name, strlen(name)) == 0 && strlen(name) >= 2) d = 1;
    if (d < best_d) {
      best_d = d;
      best = cmds[i].name;
    }
  }
  return best;
}

void hg_cli_print_usage(FILE *f, const hg_cli_cmd *cmds, size_t ncmds) {
  fputs("usage: hangar [--url URL] [--key KEY] [--json] <command> [args]\n\n", f);
  for (size_t i = 0; i < ncmds; i++) fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
  fputs("\nglobal options:\n"
        "  --url URL   daemon address: --url, $HANGAR_URL, `url =` in the config file,\n"
        "              or http://127.0.0.1:7070\n"
        "  --key KEY   API key: --key, $HANGAR_API_KEY, `key =` in the config file, or\n"
        "              the daemon's /var/lib/hangar/state/api-key when it is readable\n"
        "              and the URL is this machine\n"
        "  --json      print the server's JSON instead of tables (for scripts)\n"
        "\nhttps URLs: the node's certificate is checked against $HANGAR_CA (a PEM\n"
        "file) when set, else the system's CA store.\n"
        "\nconfig file: $HANGAR_CONFIG, else ~/.config/hangar/config, with lines\n"
        "`url = http://node:7070` and `key = …` (keep it chmod 600).\n"
        "'hangar <command> --help' shows a command's options.\n",
        f);
}

void hg_cli_print_cmd_usage(FILE *f, const hg_cli_cmd *cmd) {
  fprintf(f, "usage: hangar %s\n\n%s\n", cmd->usage, cmd->summary);
  if (cmd->details) fprintf(f, "\n%s", cmd->details);
}

/* ---- numbers ------------------------------------------------------------ */

int hg_cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *out) {
  return hg_parse_int(s, min, max, out) < 0 ? -EINVAL : 0;
}

/* Splits "12G" into 12 and "G"; the number must be a whole one. */
static int number_unit(const char *s, int64_t *n, const char **unit) {
  size_t digits = s ? strspn(s, "0123456789") : 0;
  uint64_t v;
  if (hg_parse_uint_n(s, digits, INT64_MAX, &v) < 0) return -EINVAL;
  *n = (int64_t)v;
  *unit = s + digits;
  return 0;
}

int hg_cli_parse_mib(const char *s, int *out) {
  int64_t n;
  const char *u;
  if (number_unit(s, &n, &u) < 0) return -EINVAL;
  int64_t mul;
  if (!*u || !strcasecmp(u, "m") || !strcasecmp(u, "mib") || !strcasecmp(u, "mb"))
    mul = 1;
  else if (!strcasecmp(u, "g") || !strcasecmp(u, "gib") || !strcasecmp(u, "gb"))
    mul = 1024;
  else
    return -EINVAL;
  if (n < 1 || n > (1 << 24) / mul) return -EINVAL; /* up to 16 TiB */
  *out = (int)(n * mul);
  return 0;
}

int hg_cli_parse_seconds(const char *s, int *out) {
  int64_t n;
  const char *u;
  if (number_unit(s, &n, &u) < 0) return -EINVAL;
  int64_t mul;
  if (!*u || !strcmp(u, "s"))
    mul = 1;
  else if (!strcmp(u, "m"))
    mul = 60;
  else if (!strcmp(u, "h"))
    mul = 3600;
  else
    return -EINVAL;
  if (n > INT32_MAX / mul) return -EINVAL;
  *out = (int)(n * mul);
  return 0;
}

int hg_cli_split_kv(const char *kv, char *key, size_t cap, const char **val) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv || (size_t)(eq - kv) >= cap) return -EINVAL;
  memcpy(key, kv, (size_t)(eq - kv));
  key[eq - kv] = '\0';
  *val = eq + 1;
  return 0;
}

bool hg_cli_id_ok(const char *id) {
  return hg_name_valid(id, HG_CLI_ID_MAX);
}

int hg_cli_parse_spec(const char *arg, hg_cli_spec *out) {
  memset(out, 0, sizeof *out);
  const char *colon = strchr(arg, ':');
  const char *slash = strchr(arg, '/');
  if (!colon || colon == arg || (slash && slash < colon)) {
    out->path = arg;
    return 0;
  }
  size_t idlen = (size_t)(colon - arg);
  if (idlen >= sizeof out->id || colon[1] == '\0') return -EINVAL;
  memcpy(out->id, arg, idlen);
  if (!hg_cli_id_ok(out->id)) return -EINVAL;
  out->remote = true;
  out->path = colon + 1;
  return 0;
}

/* ---- human formatting -------------------------------------------------- */

void hg_cli_fmt_age(int64_t secs, char *out, size_t cap) {
  if (secs < 0)
    snprintf(out, cap, "-");
  else if (secs < 60)
    snprintf(out, cap, "%llds", (long long)secs);
  else if (secs < 3600)
    snprintf(out, cap, "%lldm", (long long)(secs / 60));
  else if (secs < 86400)
    snprintf(out, cap, "%lldh", (long long)(secs / 3600));
  else
    snprintf(out, cap, "%lldd", (long long)(secs / 86400));
}

void hg_cli_fmt_bytes(uint64_t bytes, char *out, size_t cap) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) {
    snprintf(out, cap, "%llu B", (unsigned long long)bytes);
    return;
  }
  double v = (double)bytes;
  size_t u = 0;
  while (v >= 1024 && u + 1 < HG_ARRAY_SIZE(units)) {
    v /= 1024;
    u++;
  }
  /* One decimal while it tells something ("1.5 GiB"), none when it does not ("256 MiB"). */
  if (v < 9.95 && (v - (double)(uint64_t)v) >= 0.05)
    snprintf(out, cap, "%.1f %s", v, units[u]);
  else
    snprintf(out, cap, "%.0f %s", v, units[u]);
}

void hg_cli_fmt_duration(int64_t ms, char *out, size_t cap) {
  if (ms < 0) ms = 0;
  int64_t s = ms / 1000;
  if (ms < 60000)
    snprintf(out, cap, "%lld.%llds", (long long)s, (long long)(ms % 1000 / 100));
  else if (s < 3600)
    snprintf(out, cap, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  else
    snprintf(out, cap, "%lldh%02lldm", (long long)(s / 3600), (long long)(s % 3600 / 60));
}

static int digits(const char **p, int n, int *out) {
  int v = 0;
  for (int i = 0; i < n; i++, (*p)++) {
    if (!isdigit((unsigned char)**p)) return -EINVAL;
    v = v * 10 + (**p - '0');
  }
  *out = v;
  return 0;
}

static int expect(const char **p, const char *set) {
  if (!**p || !strchr(set, **p)) return -EINVAL;
  (*p)++;
  return 0;
}

int hg_cli_parse_time(const char *s, int64_t *ms) {
  struct tm tm = {0};
  const char *p = s;
  int y, mo, d, h, mi, sec, frac = 0;
  if (!s || digits(&p, 4, &y) || expect(&p, "-") || digits(&p, 2, &mo) ||
      expect(&p, "-") || digits(&p, 2, &d) || expect(&p, "Tt ") || digits(&p, 2, &h) ||
      expect(&p, ":") || digits(&p, 2, &mi) || expect(&p, ":") || digits(&p, 2, &sec))
    return -EINVAL;
  if (*p == '.') { /* fraction: keep milliseconds, skip the rest */
    p++;
    int scale = 100, n = 0;
    for (; isdigit((unsigned char)*p); p++, n++) {
      frac += (*p - '0') * scale;
      scale /= 10;
    }
    if (n == 0) return -EINVAL;
  }
  int offset_s = 0;
  if (*p == 'Z' || *p == 'z') {
    p++;
  } else if (*p == '+' || *p == '-') {
    int sign = *p++ == '-' ? -1 : 1, oh, om;
    if (digits(&p, 2, &oh) || expect(&p, ":") || digits(&p, 2, &om)) return -EINVAL;
    offset_s = sign * (oh * 3600 + om * 60);
  } else {
    return -EINVAL;
  }
  if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
    return -EINVAL;
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  *ms = ((int64_t)timegm(&tm) - offset_s) * 1000 + frac;
  return 0;
}

void hg_cli_sanitize(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

bool hg_cli_url_is_local(const char *url) {
  const char *p = strstr(url, "://");
  p = p ? p + 3 : url;
  const char *at = strpbrk(p, "@/"); /* skip user:pass@ */
  if (at && *at == '@') p = at + 1;
  char host[256];
  size_t n;
  if (*p == '[') {
    const char *end = strchr(p, ']');
    if (!end) return false;
    n = (size_t)(end - p - 1);
    p++;
  } else {
    n = strcspn(p, ":/?#");
  }
  if (n == 0 || n >= sizeof host) return false;
  memcpy(host, p, n);
  host[n] = '\0';
  /* Addresses are parsed, not prefix-matched: "127.0.0.1.evil.com" is a name. */
  struct in_addr v4;
  struct in6_addr v6;
  if (inet_pton(AF_INET, host, &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  if (inet_pton(AF_INET6, host, &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return strcasecmp(host, "localhost") == 0;
}

int hg_cli_exit_code(bool exited, int64_t code, int64_t sig, bool timed_out) {
  if (timed_out) return HG_CLI_EXIT_TIMEOUT;
  if (sig > 0 && sig < 128) return HG_CLI_EXIT_SIGNAL + (int)sig;
  if (!exited) return HG_CLI_EXIT_ERROR;
  /* A code outside 0..255 cannot pass through exit(); never let it wrap to 0. */
  if (code < 0 || code > 255) return 255;
  return (int)code;
}
