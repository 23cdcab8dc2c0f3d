#include "node/core/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/parse.h"
#include "node/core/util.h"

#define CONFIG_FILE_MAX (256 * 1024)

static const hg_opt *find(const hg_opt *opts, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++) {
    const char *o = opts[i].name;
    if (strlen(o) != len) continue;
    size_t j = 0;
    /* "max_sandboxes" and "max-sandboxes" name the same option. */
    while (j < len && (o[j] == name[j] || (o[j] == '-' && name[j] == '_'))) j++;
    if (j == len) return &opts[i];
  }
  return NULL;
}

static int set_value(const hg_opt *o, const char *value, const char *from) {
  switch (o->type) {
  case HG_OPT_STR:
    if (strlen(value) >= o->cap) {
      fprintf(stderr, "%s: value of %s is too long\n", from, o->name);
      return -EINVAL;
    }
    strcpy(o->dst, value);
    return 0;
  case HG_OPT_INT: {
    int64_t v;
    if (hg_parse_int(value, INT64_MIN, INT64_MAX, &v) < 0) {
      fprintf(stderr, "%s: %s wants an integer, got \"%s\"\n", from, o->name, value);
      return -EINVAL;
    }
    *(int64_t *)o->dst = v;
    return 0;
  }
  case HG_OPT_FLAG:
    *(int *)o->dst = !(strcmp(value, "0") == 0 || strcmp(value, "false") == 0 ||
                       strcmp(value, "no") == 0);
    return 0;
  }
  return -EINVAL;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

static int load_file(const hg_opt *opts, size_t n, const char *path) {
  char *text;
  int rc = hg_read_file(path, CONFIG_FILE_MAX, &text, NULL);
  if (rc < 0) {
    fprintf(stderr, "config file %s: %s\n", path, strerror(-rc));
    return rc;
  }
  int lineno = 0;
  for (char *save, *line = strtok_r(text, "\n", &save); line && rc == 0;
       line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    line = trim(line);
    if (!*line || *line == '#') continue;
    char *eq = strchr(line, '=');
    char *key = eq ? (*eq = '\0', trim(line)) : line;
    const hg_opt *o = find(opts, n, key, strlen(key));
    char where[4200];
    snprintf(where, sizeof where, "%s:%d", path, lineno);
    if (!eq || !o) {
      fprintf(stderr, "%s: unknown or malformed setting \"%s\"\n", where, key);
      rc = -EINVAL;
    } else {
      rc = set_value(o, trim(eq + 1), where);
    }
  }
  free(text);
  return rc;
}

static int load_env(const hg_opt *opts, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char var[128] = "HANGAR_";
    size_t k = 7;
    for (const char *p = opts[i].name; *p && k < sizeof var - 1; p++)
      var[k++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
    var[k] = '\0';
    const char *v = getenv(var);
    if (v && set_value(&opts[i], v, var) < 0) return -EINVAL;
  }
  return 0;
}

static int load_flags(const hg_opt *opts, size_t n, int argc, char **argv, bool apply) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return 1;
    if (strncmp(a, "--", 2) != 0) {
      fprintf(stderr, "unexpected argument \"%s\" (try --help)\n", a);
      return -EINVAL;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const hg_opt *o = find(opts, n, name, len);
    if (!o) {
      fprintf(stderr, "unknown flag --%.*s (try --help)\n", (int)len, name);
      return -EINVAL;
    }
    const char *value = eq ? eq + 1 : NULL;
    if (!value && o->type == HG_OPT_FLAG) value = "1";
    if (!value && i + 1 < argc) value = argv[++i];
    if (!value) {
      fprintf(stderr, "flag --%s needs a value\n", o->name);
      return -EINVAL;
    }
    if (apply && set_value(o, value, "flag") < 0) return -EINVAL;
  }
  return 0;
}

void hg_config_usage(const hg_opt *opts, size_t n, const char *prog) {
  fprintf(stderr, "usage: %s [flags]\n\nflags (also env HANGAR_<NAME>, or \"name = value\" in --config FILE):\n", prog);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "  --%-18s %s\n", opts[i].name, opts[i].help);
}

int hg_config_load(const hg_opt *opts, size_t n, int argc, char **argv, const char *prog) {
  /* Flags are read twice: first only to find --config, so that the file
   * can sit below env and flags in precedence. */
  int rc = load_flags(opts, n, argc, argv, false);
  if (rc == 1) {
    hg_config_usage(opts, n, prog);
    return 1;
  }
  if (rc < 0) return rc;
  const hg_opt *cfg = find(opts, n, "config", 6);
  if (cfg) {
    char saved[4096] = "";
    if (load_env(opts, n) < 0 || load_flags(opts, n, argc, argv, true) < 0) return -EINVAL;
    snprintf(saved, sizeof saved, "%s", (char *)cfg->dst);
    if (saved[0] && load_file(opts, n, saved) < 0) return -EINVAL;
  }
  if (load_env(opts, n) < 0) return -EINVAL;
  return load_flags(opts, n, argc, argv, true);
}
