/* gateway policy: an egress policy parsed and validated from JSON (allow
 * entries, credentials), back to JSON, and its file under the gateway's
 * state dir. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/dns.h"
#include "gateway/gateway_internal.h"
#include "gateway/gw.h"
#include "gateway/names.h"
#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

static int policy_path(const hg_gateway *gw, const char *name, char *out, size_t cap) {
  return hg_path(out, cap, "%s/%s.json", gw->state_dir, name);
}

/* ---- policies ---------------------------------------------------------------- */

static int perr(char err[256], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int perr(char err[256], const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, 256, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* A piece of the client's input fit to quote in an error: printable ASCII
 * only, and short. */
static const char *quote(const char *s, size_t len, char out[48]) {
  size_t n = 0;
  for (size_t i = 0; i < len && n < 40; i++)
    out[n++] = (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"') ? s[i] : '?';
  if (len > 40) {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = '\0';
  return out;
}

/* The heuristic of hg_allow_add: CIDR:port entries start with a digit and
 * hold a ':'; no hostname does. */
static bool is_addr_entry(const char *s, size_t len) {
  return len > 0 && s[0] >= '0' && s[0] <= '9' && memchr(s, ':', len);
}

static bool is_tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Headers that frame the message or the connection: a credential must not
 * be able to set them (request smuggling, Host confusion). */
static bool header_reserved(const char *h) {
  static const char *const reserved[] = {
      "host", "content-length", "transfer-encoding", "connection",       "upgrade",
      "te",   "trailer",        "keep-alive",        "proxy-connection", "expect",
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(reserved); i++)
    if (strcasecmp(h, reserved[i]) == 0) return true;
  return false;
}

static bool keys_known(const json_t *o, const char *const *keys, size_t n,
                       const char **bad) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)o, key, v) {
    size_t i = 0;
    while (i < n && strcmp(key, keys[i]) != 0) i++;
    if (i == n) {
      *bad = key;
      return false;
    }
  }
  return true;
}

/* Reads a string member into out (cap includes the NUL). */
static int get_string(const json_t *o, const char *key, const char *where, size_t min,
                      size_t max, char *out, char err[256]) {
  json_t *v = json_object_get(o, key);
  if (!v) return perr(err, "%s: \"%s\" is required", where, key);
  if (!json_is_string(v)) return perr(err, "%s: \"%s\" must be a string", where, key);
  size_t len = json_string_length(v);
  if (len < min || len > max)
    return perr(err, "%s: \"%s\" must be %zu to %zu bytes", where, key, min, max);
  memcpy(out, json_string_value(v), len);
  out[len] = '\0';
  return (int)len;
}

static int parse_allow(hg_policy *p, const json_t *arr, json_t *src, char err[256]) {
  char q[48];
  size_t i;
  json_t *v;
  if (!json_is_array(arr)) return perr(err, "\"allow\" must be an array of strings");
  if (json_array_size(arr) > HG_ALLOW_MAX)
    return perr(err, "\"allow\" has more than %d entries", HG_ALLOW_MAX);
  json_array_foreach(arr, i, v) {
    if (!json_is_string(v)) return perr(err, "allow[%zu] must be a string", i);
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    int rc = len <= GW_POLICY_ENTRY_MAX ? hg_allow_add(p->allow, s, len) : -EINVAL;
    if (rc == -ENOSPC)
      return perr(err, "\"allow\" has more than %d entries", HG_ALLOW_MAX);
    if (rc < 0)
      return perr(err,
                  "allow[%zu] \"%s\" is not a hostname, *.domain or CIDR:port "
                  "(IP literals need a port)",
                  i, quote(s, len, q));
    if (is_addr_entry(s, len)) {
      if (hg_nft_allow_parse(s, &p->nft[p->nnft]) < 0)
        return perr(err, "allow[%zu] \"%s\" is not a CIDR:port entry", i,
                    quote(s, len, q));
      p->nnft++;
    }
    if (json_array_append_new(src, json_stringn(s, len)) < 0) return -ENOMEM;
  }
  return 0;
}

static int parse_cred(hg_policy_cred *c, size_t i, const json_t *o, json_t *src,
                      char err[256]) {
  static const char *const keys[] = {"hosts", "header", "value", "placeholder",
                                     "upgrade"};
  char where[48], q[48];
  const char *bad;
  snprintf(where, sizeof where, "credentials[%zu]", i);
  if (!json_is_object(o)) return perr(err, "%s must be an object", where);
  if (!keys_known(o, keys, HG_ARRAY_SIZE(keys), &bad))
    return perr(err,
                "%s: unknown key \"%s\" (expected hosts, header, value, placeholder, "
                "upgrade)",
                where, quote(bad, strlen(bad), q));

  json_t *hosts = json_object_get(o, "hosts");
  if (!json_is_array(hosts) || json_array_size(hosts) == 0)
    return perr(err, "%s: \"hosts\" must be a non-empty array of names", where);
  if (json_array_size(hosts) > HG_ALLOW_MAX)
    return perr(err, "%s: \"hosts\" has more than %d entries", where, HG_ALLOW_MAX);
  int rc = hg_allow_new(&c->hosts);
  if (rc < 0) return rc;
  json_t *src_hosts = json_array();
  if (!src_hosts || json_object_set_new(src, "hosts", src_hosts) < 0) return -ENOMEM;
  size_t k;
  json_t *h;
  json_array_foreach(hosts, k, h) {
    if (!json_is_string(h)) return perr(err, "%s: hosts[%zu] must be a string", where, k);
    const char *s = json_string_value(h);
    size_t len = json_string_length(h);
    rc = len <= GW_POLICY_ENTRY_MAX && !is_addr_entry(s, len)
             ? hg_allow_add(c->hosts, s, len)
             : -EINVAL;
    if (rc < 0)
      return perr(err, "%s: hosts[%zu] \"%s\" is not a hostname or *.domain", where, k,
                  quote(s, len, q));
    if (json_array_append_new(src_hosts, json_stringn(s, len)) < 0) return -ENOMEM;
  }

  rc = get_string(o, "header", where, 1, HG_GW_HEADER_MAX - 1, c->header, err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++)
    if (!is_tchar(c->header[n]))
      return perr(err, "%s: \"header\" must be an HTTP field name (token characters)",
                  where);
  if (header_reserved(c->header))
    return perr(err, "%s: \"header\" %s cannot carry a credential", where, c->header);

  rc = get_string(o, "value", where, 1, HG_GW_SECRET_MAX - 1, c->value, err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++) {
    unsigned char ch = (unsigned char)c->value[n];
    if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
      return perr(err, "%s: \"value\" must not hold control characters (CR, LF, NUL...)",
                  where);
  }

  rc = get_string(o, "placeholder", where, 4, HG_GW_PLACEHOLDER_MAX - 1, c->placeholder,
                  err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++) {
    char ch = c->placeholder[n];
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'))
      return perr(err, "%s: \"placeholder\" must be 4 to 63 of A-Z, 0-9 and _", where);
  }

  json_t *up = json_object_get(o, "upgrade");
  if (up && !json_is_boolean(up))
    return perr(err, "%s: \"upgrade\" must be a boolean", where);
  c->upgrade = up && json_is_true(up);

  if (json_object_set_new(src, "header", json_string(c->header)) < 0 ||
      json_object_set_new(src, "value", json_string(c->value)) < 0 ||
      json_object_set_new(src, "placeholder", json_string(c->placeholder)) < 0 ||
      json_object_set_new(src, "upgrade", json_boolean(c->upgrade)) < 0)
    return -ENOMEM;
  return 0;
}

/* One placeholder inside another would make substitution depend on the
 * order the proxy scans them in. */
static int check_placeholders(const hg_policy *p, char err[256]) {
  for (size_t i = 0; i < p->ncreds; i++)
    for (size_t k = 0; k < p->ncreds; k++) {
      if (i == k) continue;
      const char *a = p->creds[i].placeholder, *b = p->creds[k].placeholder;
      if (strcmp(a, b) == 0)
        return perr(err, "credentials[%zu] and [%zu] use the same placeholder %s", i, k,
                    a);
      if (strstr(a, b))
        return perr(err,
                    "placeholder %s of credentials[%zu] contains %s of credentials[%zu]",
                    a, i, b, k);
    }
  return 0;
}

void hg_policy_free(hg_policy *p) {
  if (!p) return;
  hg_allow_free(p->allow);
  for (size_t i = 0; i < HG_GW_CREDS_MAX; i++) hg_allow_free(p->creds[i].hosts);
  json_decref(p->src);
  explicit_bzero(p, sizeof *p);
  free(p);
}

static int policy_parse(const json_t *j, hg_policy **out, char err[256]) {
  static const char *const keys[] = {"allow", "credentials"};
  char q[48];
  const char *bad;
  if (!json_is_object(j)) return perr(err, "the network policy must be a JSON object");
  if (!keys_known(j, keys, HG_ARRAY_SIZE(keys), &bad))
    return perr(err,
                "unknown key \"%s\" in the network policy (expected allow, credentials)",
                quote(bad, strlen(bad), q));
  hg_policy *p = calloc(1, sizeof *p);
  if (!p) return -ENOMEM;
  int rc = hg_allow_new(&p->allow);
  json_t *src_allow = json_array(), *src_creds = json_array();
  if (rc == 0 && (!(p->src = json_object()) || !src_allow || !src_creds ||
                  json_object_set(p->src, "allow", src_allow) < 0 ||
                  json_object_set(p->src, "credentials", src_creds) < 0))
    rc = -ENOMEM;
  json_t *allow = json_object_get(j, "allow");
  if (rc == 0 && allow) rc = parse_allow(p, allow, src_allow, err);
  json_t *creds = json_object_get(j, "credentials");
  if (rc == 0 && creds) {
    if (!json_is_array(creds))
      rc = perr(err, "\"credentials\" must be an array of objects");
    else if (json_array_size(creds) > HG_GW_CREDS_MAX)
      rc = perr(err, "\"credentials\" has more than %d entries", HG_GW_CREDS_MAX);
    size_t i;
    json_t *c;
    json_array_foreach(creds, i, c) {
      if (rc < 0) break;
      json_t *src = json_object();
      if (!src || json_array_append_new(src_creds, src) < 0) {
        rc = -ENOMEM;
        break;
      }
      rc = parse_cred(&p->creds[i], i, c, src, err);
      p->ncreds = i + 1;
    }
  }
  if (rc == 0) rc = check_placeholders(p, err);
  json_decref(src_allow);
  json_decref(src_creds);
  if (rc < 0) {
    if (rc == -ENOMEM) snprintf(err, 256, "out of memory");
    hg_policy_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

int hg_policy_parse(const json_t *j, hg_policy **out, char err[256]) {
  char scratch[256];
  if (!err) err = scratch;
  err[0] = '\0';
  if (!out) return -EINVAL;
  return policy_parse(j, out, err);
}

json_t *hg_policy_json(const hg_policy *p, bool redact) {
  if (!p || !p->src) return json_null();
  json_t *j = json_deep_copy(p->src);
  if (!j || !redact) return j;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(j, "credentials"), i, c) {
    json_object_set_new(c, "value", json_string("***"));
  }
  return j;
}

/* The gateway's own copy of a caller's policy. */
int hg__gateway_policy_copy(const hg_policy *p, hg_policy **out) {
  char err[256];
  if (!p || !p->src) return -EINVAL;
  return policy_parse(p->src, out, err);
}

/* state_dir/<name>.json, 0600: it holds the credentials. NULL removes it. */
int hg__gateway_policy_save(hg_gateway *gw, const char *name, const hg_policy *p) {
  char path[PATH_MAX];
  int rc = policy_path(gw, name, path, sizeof path);
  if (rc < 0) return rc;
  if (!p) return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
  json_t *j = hg_policy_json(p, false);
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  if (!text) return -ENOMEM;
  size_t len = strlen(text);
  rc = hg_write_file_atomic(path, text, len);
  if (rc == 0 && chmod(path, 0600) < 0) rc = -errno;
  explicit_bzero(text, len);
  free(text);
  if (rc < 0)
    hg_log_error("gateway.hg__gateway_policy_save", "sandbox=%s err=%s", name,
                 hg_err_str(rc));
  return rc;
}

int hg__gateway_policy_load(hg_gateway *gw, const char *name, hg_policy **out) {
  char path[PATH_MAX], *text = NULL, err[256] = "";
  size_t len = 0;
  int rc = policy_path(gw, name, path, sizeof path);
  if (rc == 0) rc = hg_read_file(path, GW_POLICY_FILE_MAX, &text, &len);
  if (rc < 0) return rc;
  json_error_t jerr;
  json_t *j = json_loadb(text, len, 0, &jerr);
  explicit_bzero(text, len);
  free(text);
  rc = j ? policy_parse(j, out, err) : -EINVAL;
  json_decref(j);
  if (rc < 0)
    hg_log_error("gateway.hg__gateway_policy_load",
                 "sandbox=%s path=%s err=%s msg=\"%s\"", name, path, hg_err_str(rc),
                 j ? err : jerr.text);
  return rc;
}
