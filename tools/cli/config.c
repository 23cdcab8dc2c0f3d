#include "tools/cli/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/util.h"

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

static bool has_control(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return true;
  return false;
}

/* Applies one "name = value" line; returns a complaint, or NULL. */
static const char *apply_line(char *line, hg_cli_conf *conf) {
  char *eq = strchr(line, '=');
  if (!eq) return "expected `name = value`";
  *eq = '\0';
  char *name = trim(line), *value = trim(eq + 1);
  size_t n = strlen(value);
  if (n >= 2 && value[0] == '"' && value[n - 1] == '"') { /* url = "http://…" */
    value[n - 1] = '\0';
    value++;
  }
  if (has_control(value)) return "value holds control characters";
  char *dst;
  size_t cap;
  if (strcmp(name, "url") == 0) {
    dst = conf->url;
    cap = sizeof conf->url;
  } else if (strcmp(name, "key") == 0) {
    dst = conf->key;
    cap = sizeof conf->key;
  } else {
    return "unknown setting (known: url, key)";
  }
  if (strlen(value) >= cap) return "value too long";
  strcpy(dst, value);
  return NULL;
}

int hg_cli_conf_parse(const char *text, hg_cli_conf *conf, char *err, size_t errcap) {
  int rc = 0, lineno = 0;
  const char *p = text;
  if (errcap) err[0] = '\0';
  while (*p) {
    size_t len = strcspn(p, "\n");
    char line[2048];
    lineno++;
    if (len >= sizeof line) {
      if (rc == 0) snprintf(err, errcap, "line %d: too long", lineno);
      rc = -EINVAL;
    } else {
      memcpy(line, p, len);
      line[len] = '\0';
      char *s = trim(line);
      const char *why = (*s && *s != '#') ? apply_line(s, conf) : NULL;
      if (why && rc == 0) {
        snprintf(err, errcap, "line %d: %s", lineno, why);
        rc = -EINVAL;
      }
    }
    p += len;
    if (*p == '\n') p++;
  }
  return rc;
}

static int config_path(char *out, size_t cap) {
  const char *env = getenv("HANGAR_CONFIG");
  if (env && *env) return hg_path(out, cap, "%s", env);
  const char *xdg = getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return hg_path(out, cap, "%s/hangar/config", xdg);
  const char *home = getenv("HOME");
  if (!home || !*home) return -ENOENT;
  return hg_path(out, cap, "%s/.config/hangar/config", home);
}

static void load_config(hg_cli_conf *conf) {
  char path[4096], *text, err[256];
  size_t len;
  if (config_path(path, sizeof path) < 0) return;
  int rc = hg_read_file(path, HG_CLI_CONFIG_MAX, &text, &len);
  if (rc == -ENOENT) return;
  if (rc < 0) {
    fprintf(stderr, "hangar: warning: cannot read %s: %s\n", path, strerror(-rc));
    return;
  }
  if (hg_cli_conf_parse(text, conf, err, sizeof err) < 0)
    fprintf(stderr, "hangar: warning: %s: %s (line ignored)\n", path, err);
  free(text);
  struct stat st;
  if (conf->key[0] && stat(path, &st) == 0 && (st.st_mode & 077))
    fprintf(stderr, "hangar: warning: %s holds a key and others can read it; chmod 600 it\n",
            path);
}

/* The daemon's key, if this user may read it. Whitespace around it is not
 * part of the key (the file usually ends with a newline). */
static char *daemon_key(void) {
  char *text;
  size_t len;
  if (access(HG_CLI_DAEMON_KEY_FILE, R_OK) != 0) return NULL;
  if (hg_read_file(HG_CLI_DAEMON_KEY_FILE, 4096, &text, &len) < 0) return NULL;
  char *k = trim(text);
  char *key = (*k && !has_control(k)) ? strdup(k) : NULL;
  free(text);
  return key;
}

static const char *first(const char *a, const char *b, const char *c) {
  if (a && *a) return a;
  if (b && *b) return b;
  if (c && *c) return c;
  return NULL;
}

int hg_cli_conf_resolve(const hg_cli_args *a, char **url, char **key) {
  hg_cli_conf conf = {{0}, {0}};
  load_config(&conf);
  const char *u = first(a->url, getenv("HANGAR_URL"), conf.url);
  *url = strdup(u ? u : HG_CLI_DEFAULT_URL);
  if (!*url) return -ENOMEM;
  size_t n = strlen(*url);
  while (n > 0 && (*url)[n - 1] == '/') (*url)[--n] = '\0'; /* we append "/v1/…" */

  const char *k = first(a->key, getenv("HANGAR_API_KEY"), conf.key);
  if (k && has_control(k)) {
    fprintf(stderr, "hangar: the API key holds control characters; ignoring it\n");
    k = NULL;
  }
  *key = k ? strdup(k) : hg_cli_url_is_local(*url) ? daemon_key() : NULL;
  return 0;
}
