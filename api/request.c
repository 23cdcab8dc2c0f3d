/* Request validation: JSON bodies, fields, query parameters, guest paths,
 * the create and exec bodies. */
#include "api/api_internal.h"
#include "node/checkpoint.h"

/* ---- request validation ----------------------------------------------------
 * Known fields of the wrong type or out of range are 400 with a message
 * naming the field; unknown fields are ignored; null reads as absent. The
 * helpers write msg (HG_API_MSG bytes) and return -EINVAL. */

int hg__api_bad(char *msg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, HG_API_MSG, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

int hg__api_body_parse(const char *body, size_t len, json_t **out, char *msg) {
  if (len == 0) {
    *out = json_object();
    return *out ? 0 : -ENOMEM;
  }
  if (len > HG_API_MAX_JSON) {
    snprintf(msg, HG_API_MSG, "JSON body larger than %u bytes", HG_API_MAX_JSON);
    return -E2BIG;
  }
  json_error_t je;
  json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
  if (!j)
    return hg__api_bad(msg, "invalid JSON at line %d column %d: %s", je.line, je.column,
                       je.text);
  if (!json_is_object(j)) {
    json_decref(j);
    return hg__api_bad(msg, "the body must be a JSON object");
  }
  *out = j;
  return 0;
}

json_t *hg__api_field(const json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_null(v) ? NULL : v;
}

int hg__api_get_int(const json_t *o, const char *key, int64_t lo, int64_t hi,
                    int64_t *out, char *msg) {
  json_t *v = hg__api_field(o, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
    return hg__api_bad(msg,
                       "field \"%s\": must be an integer from %" PRId64 " to %" PRId64,
                       key, lo, hi);
  *out = json_integer_value(v);
  return 0;
}

int hg__api_get_str(const json_t *o, const char *key, size_t max, const char **out,
                    char *msg) {
  json_t *v = hg__api_field(o, key);
  if (!v) return 0;
  if (!json_is_string(v)) return hg__api_bad(msg, "field \"%s\": must be a string", key);
  if (json_string_length(v) > max)
    return hg__api_bad(msg, "field \"%s\": longer than %zu bytes", key, max);
  *out = json_string_value(v);
  return 0;
}

static int get_bool(const json_t *o, const char *key, bool *out, char *msg) {
  json_t *v = hg__api_field(o, key);
  if (!v) return 0;
  if (!json_is_boolean(v))
    return hg__api_bad(msg, "field \"%s\": must be true or false", key);
  *out = json_is_true(v);
  return 0;
}

static int get_seconds(const json_t *o, const char *key, double max, double *out, char *msg) {
  json_t *v = hg__api_field(o, key);
  if (!v) return 0;
  if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > max)
    return hg__api_bad(msg, "field \"%s\": must be a number of seconds from 0 to %.0f",
                       key, max);
  *out = json_number_value(v);
  return 0;
}

/* An object of strings (env, metadata). env: names without '='. */
static int get_str_map(const json_t *o, const char *key, size_t maxn, bool env, json_t **out,
                       char *msg) {
  json_t *v = hg__api_field(o, key);
  if (!v) return 0;
  if (!json_is_object(v))
    return hg__api_bad(msg, "field \"%s\": must be an object of strings", key);
  if (json_object_size(v) > maxn)
    return hg__api_bad(msg, "field \"%s\": more than %zu entries", key, maxn);
  const char *k;
  json_t *s;
  json_object_foreach(v, k, s) {
    if (!json_is_string(s))
      return hg__api_bad(msg, "field \"%s\": value of \"%.64s\" must be a string", key,
                         k);
    if (!*k || strlen(k) > 256 || (env && strchr(k, '=')))
      return hg__api_bad(msg, "field \"%s\": invalid name \"%.64s\"", key, k);
  }
  *out = v;
  return 0;
}

/* Template references, by the rule of hg_template_name (node/template.c):
 * name[:tag], each part 1-40 of [a-z0-9._-] starting with [a-z0-9]. */
static bool name_part_valid(const char *p, size_t n) {
  if (n == 0 || n > 40) return false;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
          (i > 0 && (ch == '.' || ch == '_' || ch == '-'))))
      return false;
  }
  return true;
}

bool hg__api_name_valid(const char *s) {
  const char *colon = strchr(s, ':');
  if (!colon) return name_part_valid(s, strlen(s));
  return name_part_valid(s, (size_t)(colon - s)) &&
         name_part_valid(colon + 1, strlen(colon + 1));
}

/* Guest paths: absolute, bounded; NUL cannot get here (hg_http_query_get
 * refuses %00).
 * They are only ever sent to the guest agent, never opened on the host. */
int hg__api_path_check(const char *what, const char *p, char *msg) {
  size_t n = strlen(p);
  if (n == 0 || p[0] != '/')
    return hg__api_bad(msg, "%s: must be an absolute guest path", what);
  if (n > HG_API_MAX_PATH)
    return hg__api_bad(msg, "%s: longer than %d bytes", what, HG_API_MAX_PATH);
  return 0;
}

int hg__api_create_parse(const json_t *b, hg_sandbox_spec *s, char *msg) {
  int64_t vcpus = 0, mem = 0, idle = 0, replicas = 0, ckpt = 0;
  const char *idle_action = NULL;
  int rc;
  memset(s, 0, sizeof *s);
  if ((rc = hg__api_get_str(b, "template", 128, &s->template_ref, msg)) < 0 ||
      (rc = hg__api_get_str(b, "idle_action", 16, &idle_action, msg)) < 0 ||
      (rc = hg__api_get_int(b, "vcpus", 1, 64, &vcpus, msg)) < 0 ||
      (rc = hg__api_get_int(b, "memory_mib", 64, 1024 * 1024, &mem, msg)) < 0 ||
      (rc = hg__api_get_int(b, "idle_suspend_s", -1, HG_SB_IDLE_MAX_S, &idle, msg)) <
          0 ||
      (rc = hg__api_get_int(b, "replicas", 1, 8, &replicas, msg)) < 0 ||
      (rc = hg__api_get_int(b, "checkpoint_s", 0, HG_CKPT_MAX_S, &ckpt, msg)) < 0 ||
      (rc = get_str_map(b, "env", HG_API_MAX_ENV, true, &s->env, msg)) < 0 ||
      (rc = get_str_map(b, "metadata", HG_API_MAX_META, false, &s->metadata, msg)) < 0)
    return rc;
  if (s->template_ref && !hg__api_name_valid(s->template_ref))
    return hg__api_bad(msg, "field \"template\": must look like name or name:tag");
  s->vcpus = (unsigned)vcpus;
  s->memory_mib = (unsigned)mem;
  s->idle_suspend_s = idle;
  /* what idle_suspend_s does when it passes: suspend (hangar's), or
   * delete (E2B's timeout without autoPause) */
  if (idle_action && strcmp(idle_action, "suspend") && strcmp(idle_action, "delete"))
    return hg__api_bad(msg, "field \"idle_action\": \"suspend\" or \"delete\"");
  s->idle_delete = idle_action && !strcmp(idle_action, "delete");
  s->replicas = (unsigned)replicas;
  char why[128];
  if (hg_ckpt_interval_check(ckpt, why) < 0) return hg__api_bad(msg, "field \"checkpoint_s\": %s", why);
  /* absent: the node's --checkpoint-s; 0: off */
  s->checkpoint_s = json_is_integer(hg__api_field(b, "checkpoint_s")) && ckpt == 0 ? -1 : ckpt;
  return 0;
}

static int exec_argv(const json_t *b, hg_exec *x, char *msg) {
  json_t *cmd = hg__api_field(b, "cmd");
  if (!cmd) return hg__api_bad(msg, "field \"cmd\": required");
  if (!json_is_array(cmd) || json_array_size(cmd) == 0 ||
      json_array_size(cmd) > HG_API_MAX_ARGS)
    return hg__api_bad(msg, "field \"cmd\": must be an array of 1 to %d strings",
                       HG_API_MAX_ARGS);
  x->argv = calloc(json_array_size(cmd) + 1, sizeof *x->argv);
  if (!x->argv) return -ENOMEM;
  size_t i;
  json_t *v;
  json_array_foreach(cmd, i, v) {
    if (!json_is_string(v))
      return hg__api_bad(msg, "field \"cmd\": element %zu must be a string", i);
    x->argv[i] = json_string_value(v);
  }
  return 0;
}

static int exec_env(const json_t *b, hg_exec *x, char *msg) {
  json_t *env = NULL;
  int rc = get_str_map(b, "env", HG_API_MAX_ENV, true, &env, msg);
  if (rc < 0 || !env) return rc;
  x->env = calloc(json_object_size(env) + 1, sizeof *x->env);
  if (!x->env) return -ENOMEM;
  const char *k;
  json_t *v;
  size_t i = 0;
  json_object_foreach(env, k, v) {
    size_t n = strlen(k) + json_string_length(v) + 2;
    if (!(x->env[i] = malloc(n))) return -ENOMEM;
    snprintf(x->env[i++], n, "%s=%s", k, json_string_value(v));
  }
  return 0;
}

/* POST …/commands body -> x (argv and strings point into b). */
int hg__api_exec_parse(const json_t *b, hg_exec *x, char *msg) {
  const char *cwd = NULL, *in = NULL;
  double timeout = 0;
  bool open = false;
  int rc;
  if ((rc = exec_argv(b, x, msg)) < 0 || (rc = exec_env(b, x, msg)) < 0 ||
      (rc = hg__api_get_str(b, "cwd", HG_API_MAX_PATH, &cwd, msg)) < 0 ||
      (rc = hg__api_get_str(b, "stdin", HG_AGENT_MAX_DATA / 2, &in, msg)) < 0 ||
      (rc = get_bool(b, "stdin_open", &open, msg)) < 0 ||
      (rc = get_seconds(b, "timeout_s", 7 * 86400, &timeout, msg)) < 0)
    return rc;
  if (cwd && (rc = hg__api_path_check("field \"cwd\"", cwd, msg)) < 0) return rc;
  x->req.argv = x->argv;
  x->req.env = (const char *const *)x->env;
  x->req.cwd = cwd;
  x->req.stdin_data = in;
  x->req.stdin_len = in ? strlen(in) : 0;
  x->req.stdin_open = open;
  x->req.timeout_ms = (uint32_t)(timeout * 1000);
  if (timeout > 0 && x->req.timeout_ms == 0) x->req.timeout_ms = 1;
  return 0;
}

/* ---- query parameters ---------------------------------------------------------- */

/* 0, -ENOENT (absent), or -EINVAL with c->msg. */
int hg__api_q_get(hg_call *c, const char *name, char *out, size_t cap) {
  int rc = hg_http_query_get(c->req, name, out, cap);
  if (rc == -ENOENT) return rc;
  /* hg_http refuses bad escapes and NUL bytes (EINVAL) and long values */
  if (rc == -ENOBUFS)
    return hg__api_bad(c->msg, "query parameter \"%s\": too long", name);
  if (rc < 0)
    return hg__api_bad(c->msg, "query parameter \"%s\": bad escape or NUL byte", name);
  return 0;
}

/* Absent reads as "". */
int hg__api_q_opt(hg_call *c, const char *name, char *out, size_t cap) {
  int rc = hg__api_q_get(c, name, out, cap);
  if (rc == -ENOENT) out[0] = '\0';
  return rc == -ENOENT ? 0 : rc;
}

/* Absent leaves *out alone. */
int hg__api_q_u64(hg_call *c, const char *name, uint64_t max, uint64_t *out) {
  char buf[32];
  int rc = hg__api_q_get(c, name, buf, sizeof buf);
  if (rc == -ENOENT) return 0;
  if (rc < 0) return rc;
  uint64_t v;
  if (hg_parse_uint_n(buf, strlen(buf), max, &v) < 0)
    return hg__api_bad(c->msg,
                       "query parameter \"%s\": must be an integer from 0 to %" PRIu64,
                       name, max);
  *out = v;
  return 0;
}

int hg__api_q_bool(hg_call *c, const char *name, bool *out) {
  char buf[8];
  int rc = hg__api_q_get(c, name, buf, sizeof buf);
  if (rc == -ENOENT) return 0;
  if (rc < 0) return rc;
  if (!strcmp(buf, "1") || !strcmp(buf, "true") || !strcmp(buf, ""))
    *out = true;
  else if (!strcmp(buf, "0") || !strcmp(buf, "false")) *out = false;
  else
    return hg__api_bad(c->msg, "query parameter \"%s\": must be 1 or 0", name);
  return 0;
}

int hg__api_q_wait(hg_call *c) {
  uint64_t w = 0;
  int rc = hg__api_q_u64(c, "wait", HG_API_MAX_WAIT_S, &w);
  if (c->e2b && w == 0) w = HG_API_MAX_WAIT_S; /* E2B's calls answer when done */
  c->wait_s = (int)w;
  return rc;
}

int hg__api_q_path(hg_call *c, char *out) {
  int rc = hg__api_q_get(c, "path", out, HG_API_MAX_PATH + 2);
  if (rc == -ENOENT) return hg__api_bad(c->msg, "query parameter \"path\": required");
  if (rc < 0) return rc;
  return hg__api_path_check("query parameter \"path\"", out, c->msg);
}
