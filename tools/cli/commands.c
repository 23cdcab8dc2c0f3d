#include "tools/cli/commands.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/buf.h"
#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/members.h"
#include "tools/cli/orphans.h"
#include "tools/cli/replicas.h"
#include "tools/cli/table.h"

/* "5m ago" for a timestamp field, "-" when absent. */
static void age_of(const json_t *obj, const char *key, char *out, size_t cap) {
  int64_t t = hg_json_time_ms(obj, key);
  hg_cli_fmt_age(t < 0 ? -1 : (hg_wall_ns() / 1000000 - t) / 1000, out, cap);
}

static void mib_str(int64_t mib, char *out, size_t cap) {
  if (mib < 0)
    snprintf(out, cap, "-");
  else
    hg_cli_fmt_bytes((uint64_t)mib << 20, out, cap);
}

static void int_str(const json_t *obj, const char *key, char *out, size_t cap) {
  int64_t v = hg_json_int(obj, key, -1);
  if (v < 0)
    snprintf(out, cap, "-");
  else
    snprintf(out, cap, "%lld", (long long)v);
}

static int print_table(hg_table *t) {
  int rc = t ? hg_table_print(t, stdout) : -ENOMEM;
  hg_table_free(t);
  if (rc < 0) fprintf(stderr, "hangar: cannot print the table: %s\n", strerror(-rc));
  return rc;
}

/* "key    value" lines for `show` and `op`. */
static void field(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void field(const char *key, const char *fmt, ...) {
  char val[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(val, sizeof val, fmt, ap);
  va_end(ap);
  hg_cli_sanitize(val);
  printf("%-12s %s\n", key, val);
}

static void time_field(const char *label, const json_t *obj, const char *key) {
  const json_t *v = json_object_get(obj, key);
  if (!v || json_is_null(v)) return;
  char age[32], raw[64];
  age_of(obj, key, age, sizeof age);
  if (json_is_string(v))
    snprintf(raw, sizeof raw, "%s", json_string_value(v));
  else
    snprintf(raw, sizeof raw, "%lld", (long long)hg_json_int(obj, key, 0));
  field(label, "%s (%s ago)", raw, age);
}

static void str_field(const char *label, const json_t *obj, const char *key) {
  const char *s = hg_json_str(obj, key);
  if (s) field(label, "%s", s);
}

/* Members nobody named above still get shown, so a newer server's fields
 * are not hidden by an older CLI. */
static void rest_fields(const json_t *obj, const char *const *known, size_t nknown) {
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)obj, k, v) {
    bool seen = false;
    for (size_t i = 0; i < nknown && !seen; i++) seen = strcmp(known[i], k) == 0;
    if (seen || json_is_null(v)) continue;
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) continue;
    if (json_is_string(v))
      field(k, "%s", json_string_value(v));
    else
      field(k, "%s", s);
    free(s);
  }
}

/* ---- create, fork ----------------------------------------------------------- */

/* After create or fork: wait unless --no-wait, then print the id, or with
 * --json the sandbox with the token only this answer carries. */
static int report_new_sandbox(hg_client *c, const hg_cli_args *a, const char *verb,
                              const char *source, const json_t *resp, int64_t t0) {
  const char *id = hg_json_str(resp, "id"), *op = hg_json_str(resp, "operation");
  if (!id || !hg_cli_id_ok(id)) {
    fprintf(stderr, "hangar: the server's answer names no sandbox\n");
    return -EPROTO;
  }
  char target[160];
  if (source)
    snprintf(target, sizeof target, "%s -> %s", source, id);
  else
    snprintf(target, sizeof target, "%s", id);
  int rc = 0;
  if (!a->no_wait && op) rc = hg_client_wait_op(c, verb, target, op, t0, NULL);
  if (rc < 0) return rc;
  if (!c->json) {
    printf("%s\n", id);
    return 0;
  }
  char path[128];
  json_t *sb = NULL;
  hg_path(path, sizeof path, "/v1/sandboxes/%s", id);
  if ((rc = hg_client_json(c, "GET", path, NULL, &sb)) < 0) return rc;
  const char *extra[] = {"token", "operation"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(extra); i++) {
    json_t *v = json_object_get(resp, extra[i]);
    if (v && json_is_object(sb)) json_object_set(sb, extra[i], v);
  }
  rc = hg_json_print(sb);
  json_decref(sb);
  return rc;
}

static json_t *create_body(const hg_cli_args *a) {
  json_t *req = json_object();
  if (a->template_name) json_object_set_new(req, "template", json_string(a->template_name));
  if (a->vcpus) json_object_set_new(req, "vcpus", json_integer(a->vcpus));
  if (a->memory_mib) json_object_set_new(req, "memory_mib", json_integer(a->memory_mib));
  if (a->replicas) json_object_set_new(req, "replicas", json_integer(a->replicas));
  if (a->checkpoint_s >= 0)
    json_object_set_new(req, "checkpoint_s", json_integer(a->checkpoint_s));
  const struct {
    const char *name;
    const char *const *kvs;
    size_t n;
  } maps[] = {{"env", a->env, a->n_env}, {"metadata", a->labels, a->n_labels}};
  for (size_t i = 0; req && i < HG_ARRAY_SIZE(maps); i++) {
    if (!maps[i].n) continue;
    json_t *o = hg_cmd_kv_object(maps[i].kvs, maps[i].n);
    if (!o) {
      json_decref(req);
      return NULL;
    }
    json_object_set_new(req, maps[i].name, o);
  }
  if (req && a->network) {
    json_error_t err;
    json_t *net = a->network[0] == '@' ? json_load_file(a->network + 1, 0, &err)
                                       : json_loads(a->network, 0, &err);
    if (!json_is_object(net)) {
      fprintf(stderr, "hangar: --network: %s\n", net ? "want a JSON object" : err.text);
      json_decref(net);
      json_decref(req);
      return NULL;
    }
    json_object_set_new(req, "network", net);
  }
  return req;
}

static int cmd_create(hg_client *c, const hg_cli_args *a) {
  json_t *req = create_body(a), *resp = NULL;
  if (!req) return HG_CLI_EXIT_USAGE;
  int64_t t0 = hg_now_ms();
  int rc = hg_client_json(c, "POST", "/v1/sandboxes", req, &resp);
  json_decref(req);
  if (rc == 0) rc = report_new_sandbox(c, a, "create", NULL, resp, t0);
  json_decref(resp);
  return hg_cmd_exit(rc);
}

static int cmd_fork(hg_client *c, const hg_cli_args *a) {
  char id[HG_CLI_ID_MAX], path[128];
  int rc = hg_cmd_sandbox_id(c, a->args[0], id);
  if (rc < 0) return hg_cmd_exit(rc);
  json_t *req = json_object(), *resp = NULL;
  if (a->gen >= 0) json_object_set_new(req, "gen", json_integer(a->gen));
  hg_path(path, sizeof path, "/v1/sandboxes/%s/fork", id);
  int64_t t0 = hg_now_ms();
  rc = hg_client_json(c, "POST", path, req, &resp);
  json_decref(req);
  if (rc == 0) rc = report_new_sandbox(c, a, "fork", id, resp, t0);
  json_decref(resp);
  return hg_cmd_exit(rc);
}

/* ---- ls, show ------------------------------------------------------------------ */

static int append_query(hg_client *c, hg_buf *b, const char *name, const char *value) {
  char *v = hg_client_escape(c, value);
  if (!v) return -ENOMEM;
  int rc = hg_buf_printf(b, "%c%s=%s", strchr(b->data, '?') ? '&' : '?', name, v);
  curl_free(v);
  return rc;
}

static int sandboxes_table(const json_t *list) {
  const char *const head[] = {"ID", "STATE", "TEMPLATE", "VCPUS", "MEM", "AGE"};
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (t) {
    hg_table_right(t, 3);
    hg_table_right(t, 4);
    hg_table_right(t, 5);
  }
  size_t i;
  json_t *sb;
  json_array_foreach(list, i, sb) {
    char vcpus[24], mem[32], age[32];
    int_str(sb, "vcpus", vcpus, sizeof vcpus);
    mib_str(hg_json_int(sb, "memory_mib", -1), mem, sizeof mem);
    age_of(sb, "created_at", age, sizeof age);
    const char *row[] = {hg_json_str(sb, "id"), hg_json_str(sb, "state"),
                         hg_json_str(sb, "template"), vcpus, mem, age};
    if (t && hg_table_add(t, row) < 0) {
      hg_table_free(t);
      t = NULL;
    }
  }
  return print_table(t);
}

static int cmd_ls(hg_client *c, const hg_cli_args *a) {
  hg_buf path;
  hg_buf_init(&path, 8192);
  int rc = hg_buf_printf(&path, "/v1/sandboxes");
  if (rc == 0 && a->state) rc = append_query(c, &path, "state", a->state);
  for (size_t i = 0; rc == 0 && i < a->n_labels; i++)
    rc = append_query(c, &path, "label", a->labels[i]);
  json_t *j = NULL;
  if (rc == -ENOBUFS) fprintf(stderr, "hangar: ls: the filter is too long\n");
  if (rc == 0) rc = hg_client_json(c, "GET", path.data, NULL, &j);
  hg_buf_free(&path);
  const json_t *list = json_object_get(j, "sandboxes");
  if (rc == 0 && c->json) {
    rc = hg_json_print(j);
  } else if (rc == 0 && json_array_size(list) == 0) {
    fprintf(stderr, (a->state || a->n_labels) ? "no sandboxes match\n"
                                               : "no sandboxes yet (hangar create makes one)\n");
  } else if (rc == 0) {
    rc = sandboxes_table(list);
  }
  json_decref(j);
  return hg_cmd_exit(rc);
}

static void kv_field(const char *label, const json_t *obj) {
  hg_buf b;
  hg_buf_init(&b, 4096);
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)obj, k, v) {
    const char *s = json_string_value(v);
    if (hg_buf_printf(&b, "%s%s=%s", b.len ? ", " : "", k, s ? s : "?") < 0) break;
  }
  if (b.len) field(label, "%s", b.data);
  hg_buf_free(&b);
}

static void generations_field(const json_t *gens) {
  size_t n = json_array_size(gens);
  if (!n) return;
  hg_buf b;
  hg_buf_init(&b, 4096);
  hg_buf_printf(&b, "%zu%s", n, n > 5 ? ", last 5:" : ":");
  for (size_t i = n > 5 ? n - 5 : 0; i < n; i++) {
    const json_t *g = json_array_get(gens, i);
    const char *kind = hg_json_str(g, "kind");
    char age[32];
    age_of(g, "at", age, sizeof age);
    hg_buf_printf(&b, " %lld (%s%s%s ago)", (long long)hg_json_int(g, "gen", -1),
                  kind ? kind : "", kind ? ", " : "", age);
  }
  field("generations", "%s", b.data);
  hg_buf_free(&b);
}

static void snapshots_field(const json_t *snaps) {
  hg_buf b;
  hg_buf_init(&b, 4096);
  size_t i;
  json_t *s;
  json_array_foreach(snaps, i, s) {
    char age[32];
    const char *name = hg_json_str(s, "name");
    age_of(s, "at", age, sizeof age);
    hg_buf_printf(&b, "%s%s (%s ago)", b.len ? ", " : "", name ? name : "?", age);
  }
  if (b.len) field("snapshots", "%s", b.data);
  hg_buf_free(&b);
}

/* "every 2 s; gen 5 (3 s ago, paused 80 ms), gen 4 (…)": newest first. */
static void checkpoints_field(const json_t *sb) {
  int64_t every = hg_json_int(sb, "checkpoint_s", 0);
  const json_t *list = json_object_get(sb, "checkpoints");
  size_t n = json_array_size(list);
  if (every <= 0 && n == 0) return;
  hg_buf b;
  hg_buf_init(&b, 4096);
  if (every > 0) hg_buf_printf(&b, "every %lld s", (long long)every);
  else hg_buf_printf(&b, "off");
  for (size_t i = n; i-- > 0;) {
    const json_t *c = json_array_get(list, i);
    char age[32];
    age_of(c, "at", age, sizeof age);
    hg_buf_printf(&b, "%s gen %lld (%s ago", i == n - 1 ? ";" : ",",
                  (long long)hg_json_int(c, "gen", -1), age);
    const json_t *p = json_object_get(c, "pause_ms");
    if (json_is_number(p)) hg_buf_printf(&b, ", paused %.0f ms", json_number_value(p));
    hg_buf_printf(&b, ")");
  }
  field("checkpoints", "%s", b.data);
  hg_buf_free(&b);
}

static void show_sandbox(const json_t *sb) {
  static const char *const known[] = {"id", "state", "template", "node", "vcpus",
                                      "memory_mib", "created_at", "updated_at", "metadata",
                                      "generations", "snapshots", "checkpoint_s",
                                      "checkpoints"};
  char mem[32];
  str_field("id", sb, "id");
  str_field("state", sb, "state");
  str_field("template", sb, "template");
  str_field("node", sb, "node");
  int64_t vcpus = hg_json_int(sb, "vcpus", -1);
  if (vcpus >= 0) field("vcpus", "%lld", (long long)vcpus);
  mib_str(hg_json_int(sb, "memory_mib", -1), mem, sizeof mem);
  field("memory", "%s", mem);
  time_field("created", sb, "created_at");
  time_field("updated", sb, "updated_at");
  kv_field("labels", json_object_get(sb, "metadata"));
  generations_field(json_object_get(sb, "generations"));
  snapshots_field(json_object_get(sb, "snapshots"));
  checkpoints_field(sb);
  rest_fields(sb, known, HG_ARRAY_SIZE(known));
}

static int cmd_show(hg_client *c, const hg_cli_args *a) {
  json_t *sb = NULL;
  int rc = hg_cmd_sandbox_get(c, a->args[0], "", &sb);
  if (rc == 0 && c->json)
    rc = hg_json_print(sb);
  else if (rc == 0)
    show_sandbox(sb);
  json_decref(sb);
  return hg_cmd_exit(rc);
}

/* ---- pause, resume, suspend, snapshot, rm ------------------------------------ */

typedef struct pending_op {
  char id[HG_CLI_ID_MAX];
  char op[HG_CLI_ID_MAX];
  int64_t t0;
} pending_op;

/* "?durability=local", "?node=n2": the options a verb passes on. Both
 * values were checked by the parser (a fixed word, an id of URL-safe
 * characters), so they need no escaping. */
static void lifecycle_query(const hg_cli_args *a, const char *verb, char *out, size_t cap) {
  if (strcmp(verb, "suspend") == 0 && a->durability)
    snprintf(out, cap, "?durability=%s", a->durability);
  else if (strcmp(verb, "resume") == 0 && a->node)
    snprintf(out, cap, "?node=%s", a->node);
  else
    out[0] = '\0';
}

/* Sends one lifecycle request; the operation id goes into p->op. */
static int start_op(hg_client *c, const hg_cli_args *a, const char *verb, const char *arg,
                    pending_op *p, json_t *out) {
  char path[256], query[HG_CLI_ID_MAX + 32];
  json_t *resp = NULL;
  int rc = hg_cmd_sandbox_id(c, arg, p->id);
  if (rc < 0) return rc;
  bool rm = strcmp(verb, "rm") == 0;
  lifecycle_query(a, verb, query, sizeof query);
  hg_path(path, sizeof path, rm ? "/v1/sandboxes/%s" : "/v1/sandboxes/%s/%s%s", p->id, verb,
          query);
  p->t0 = hg_now_ms();
  rc = hg_client_json(c, rm ? "DELETE" : "POST", path, NULL, &resp);
  const char *op = hg_json_str(resp, "operation");
  if (rc == 0 && (!op || !hg_cli_id_ok(op))) {
    fprintf(stderr, "hangar: %s %s: the server's answer names no operation\n", verb, p->id);
    rc = -EPROTO;
  }
  if (rc == 0) {
    snprintf(p->op, sizeof p->op, "%s", op);
    json_array_append(out, resp);
  }
  json_decref(resp);
  return rc;
}

/* A suspend's copies, one line per peer: on stdout when it succeeded, on
 * stderr under the error when it did not. With several sandboxes each line
 * names its own. */
static void print_replication(const hg_cli_args *a, const char *id, const json_t *op,
                              FILE *f) {
  hg_buf b;
  hg_buf_init(&b, 1u << 20);
  if (hg_repl_report(op, a->n_args > 1 ? id : NULL, &b) == 0 && b.len)
    fwrite(b.data, 1, b.len, f);
  hg_buf_free(&b);
}

/* A suspend that kept its generation but not enough copies of it: say what
 * state that leaves, and where to watch the rest happen. */
static void replication_hint(const char *id, const json_t *op) {
  const char *code = hg_json_str(json_object_get(op, "error"), "code");
  if (!code || strcmp(code, "replication_incomplete") != 0) return;
  fprintf(stderr,
          "hangar: %s is suspended and safe on its node, which keeps copying it "
          "to peers (see hangar replicas %s)\n",
          id, id);
}

/* What a person wants after the wait: a snapshot's name, a suspend's copies,
 * a checkpoint's gen and pause (then its copies). */
static void print_result(const hg_cli_args *a, const char *verb, const char *id,
                         const json_t *op, int rc) {
  const json_t *res = json_object_get(op, "result");
  if (strcmp(verb, "checkpoint") == 0 && rc == 0 && json_is_number(json_object_get(res, "pause_ms")))
    printf("%s%sgen %lld, paused %.1f ms\n", a->n_args > 1 ? id : "", a->n_args > 1 ? ": " : "",
           (long long)hg_json_int(res, "gen", -1),
           json_number_value(json_object_get(res, "pause_ms")));
  if (strcmp(verb, "checkpoint") == 0 && op) {
    print_replication(a, id, op, rc == 0 ? stdout : stderr);
    return;
  }
  if (strcmp(verb, "suspend") == 0 && op) {
    print_replication(a, id, op, rc == 0 ? stdout : stderr);
    if (rc < 0) replication_hint(id, op);
    return;
  }
  const char *snap = hg_json_str(json_object_get(op, "result"), "snapshot");
  if (rc == 0 && strcmp(verb, "snapshot") == 0 && snap) printf("%s\n", snap);
}

static int print_ops(hg_client *c, const json_t *list) {
  if (json_array_size(list) == 0) return 0;
  return hg_json_print(json_array_size(list) == 1 ? json_array_get(list, 0) : list);
}

/* Starts every request first, then waits for each in turn: n sandboxes
 * take as long as the slowest, not the sum. One failure does not stop the
 * others; the exit code tells there was one. */
static int lifecycle(hg_client *c, const hg_cli_args *a, const char *verb) {
  pending_op *p = calloc((size_t)a->n_args, sizeof *p);
  json_t *started = json_array(), *finished = json_array();
  int worst = 0, n = 0;
  if (!p || !started || !finished) {
    worst = -ENOMEM;
    goto out;
  }
  for (int i = 0; i < a->n_args; i++) {
    int rc = start_op(c, a, verb, a->args[i], &p[n], started);
    if (rc == 0) n++;
    if (rc < 0 && worst != -EINVAL) worst = rc;
  }
  if (a->no_wait) {
    for (int i = 0; i < n && !c->json; i++) printf("%s\n", p[i].op);
    if (c->json) print_ops(c, started);
    goto out;
  }
  for (int i = 0; i < n; i++) {
    json_t *op = NULL;
    int rc = hg_client_wait_op(c, verb, p[i].id, p[i].op, p[i].t0, &op);
    if (rc < 0 && worst != -EINVAL) worst = rc;
    if (!c->json) print_result(a, verb, p[i].id, op, rc);
    if (rc == 0) json_array_append(finished, op);
    json_decref(op);
  }
  if (c->json) print_ops(c, finished);
out:
  json_decref(started);
  json_decref(finished);
  free(p);
  if (worst == -ENOMEM) fprintf(stderr, "hangar: out of memory\n");
  return hg_cmd_exit(worst);
}

static int cmd_pause(hg_client *c, const hg_cli_args *a) { return lifecycle(c, a, "pause"); }
static int cmd_resume(hg_client *c, const hg_cli_args *a) { return lifecycle(c, a, "resume"); }
static int cmd_suspend(hg_client *c, const hg_cli_args *a) { return lifecycle(c, a, "suspend"); }
static int cmd_snapshot(hg_client *c, const hg_cli_args *a) { return lifecycle(c, a, "snapshot"); }
static int cmd_checkpoint(hg_client *c, const hg_cli_args *a) {
  return lifecycle(c, a, "checkpoint");
}
static int cmd_rm(hg_client *c, const hg_cli_args *a) { return lifecycle(c, a, "rm"); }

/* ---- ops, op ------------------------------------------------------------------ */

static void op_status(const json_t *op, char *out, size_t cap) {
  const char *status = hg_json_str(op, "status");
  const char *code = hg_json_str(json_object_get(op, "error"), "code");
  if (code)
    snprintf(out, cap, "%s (%s)", status ? status : "?", code);
  else
    snprintf(out, cap, "%s", status ? status : "-");
}

/* How long it took, or has taken so far. */
static void op_duration(const json_t *op, char *out, size_t cap) {
  int64_t ms = hg_json_int(op, "duration_ms", -1);
  int64_t started = hg_json_time_ms(op, "started_at");
  if (ms < 0 && started >= 0 && !json_object_get(op, "finished_at"))
    ms = hg_wall_ns() / 1000000 - started;
  if (ms < 0)
    snprintf(out, cap, "-");
  else
    hg_cli_fmt_duration(ms, out, cap);
}

static int ops_table(const json_t *list) {
  const char *const head[] = {"OPERATION", "KIND", "SANDBOX", "STATUS", "TOOK", "AGE"};
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (t) {
    hg_table_right(t, 4);
    hg_table_right(t, 5);
  }
  size_t i;
  json_t *op;
  json_array_foreach(list, i, op) {
    char status[96], took[32], age[32];
    op_status(op, status, sizeof status);
    op_duration(op, took, sizeof took);
    age_of(op, "started_at", age, sizeof age);
    const char *row[] = {hg_json_str(op, "id"), hg_json_str(op, "kind"),
                         hg_json_str(op, "sandbox"), status, took, age};
    if (t && hg_table_add(t, row) < 0) {
      hg_table_free(t);
      t = NULL;
    }
  }
  return print_table(t);
}

static int cmd_ops(hg_client *c, const hg_cli_args *a) {
  char path[160], id[HG_CLI_ID_MAX];
  int rc = 0;
  if (a->n_args == 1 && (rc = hg_cmd_sandbox_id(c, a->args[0], id)) == 0)
    hg_path(path, sizeof path, "/v1/operations?sandbox=%s", id);
  else
    hg_path(path, sizeof path, "/v1/operations");
  json_t *j = NULL;
  if (rc == 0) rc = hg_client_json(c, "GET", path, NULL, &j);
  const json_t *list = json_object_get(j, "operations");
  if (rc == 0 && c->json)
    rc = hg_json_print(j);
  else if (rc == 0 && json_array_size(list) == 0)
    fprintf(stderr, "no operations\n");
  else if (rc == 0)
    rc = ops_table(list);
  json_decref(j);
  return hg_cmd_exit(rc);
}

static void show_op(const json_t *op) {
  static const char *const known[] = {"id", "kind", "sandbox", "status", "progress",
                                      "started_at", "finished_at", "duration_ms", "result",
                                      "error"};
  char status[96], took[32];
  op_status(op, status, sizeof status);
  op_duration(op, took, sizeof took);
  str_field("id", op, "id");
  str_field("kind", op, "kind");
  str_field("sandbox", op, "sandbox");
  field("status", "%s", status);
  str_field("progress", op, "progress");
  time_field("started", op, "started_at");
  time_field("finished", op, "finished_at");
  field("took", "%s", took);
  const json_t *err = json_object_get(op, "error");
  const char *msg = hg_json_str(err, "message");
  if (msg) field("error", "%s", msg);
  json_t *result = json_object_get(op, "result");
  if (json_object_size(result)) {
    char *s = json_dumps(result, JSON_COMPACT);
    if (s) field("result", "%s", s);
    free(s);
  }
  rest_fields(op, known, HG_ARRAY_SIZE(known));
}

/* `op OPID --wait` joins the wait where it stands: the clock starts at the
 * operation's start, not at ours. */
static int follow_op(hg_client *c, const char *id, json_t **op) {
  const char *status = hg_json_str(*op, "status");
  if (status && strcmp(status, "running") != 0) return 0;
  const char *kind = hg_json_str(*op, "kind"), *sb = hg_json_str(*op, "sandbox");
  char verb[32], target[HG_CLI_ID_MAX];
  snprintf(verb, sizeof verb, "%s", kind ? kind : "op");
  snprintf(target, sizeof target, "%s", sb ? sb : id);
  hg_cli_sanitize(verb);
  hg_cli_sanitize(target);
  int64_t started = hg_json_time_ms(*op, "started_at"), now = hg_now_ms();
  int64_t t0 = started >= 0 ? now - (hg_wall_ns() / 1000000 - started) : now;
  json_t *final = NULL;
  int rc = hg_client_wait_op(c, verb, target, id, t0, &final);
  if (rc == 0) {
    json_decref(*op);
    *op = final;
  } else {
    json_decref(final);
  }
  return rc;
}

static int cmd_op(hg_client *c, const hg_cli_args *a) {
  const char *id = a->args[0];
  char path[160];
  if (!hg_cli_id_ok(id)) {
    fprintf(stderr, "hangar: '%s' is not an operation id\n", id);
    return HG_CLI_EXIT_USAGE;
  }
  hg_path(path, sizeof path, "/v1/operations/%s", id);
  json_t *op = NULL;
  int rc = hg_client_json(c, "GET", path, NULL, &op);
  if (rc == 0 && a->wait) rc = follow_op(c, id, &op);
  if (rc == 0 && c->json)
    rc = hg_json_print(op);
  else if (rc == 0)
    show_op(op);
  json_decref(op);
  return hg_cmd_exit(rc);
}

/* ---- templates, status, help -------------------------------------------------- */

static void short_digest(const char *d, char *out, size_t cap) {
  if (!d) {
    snprintf(out, cap, "-");
    return;
  }
  const char *colon = strchr(d, ':');
  snprintf(out, cap, "%.12s", colon ? colon + 1 : d); /* as docker shows image ids */
}

static int templates_table(const json_t *list) {
  const char *const head[] = {"NAME", "DIGEST", "MEM", "AGE"};
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (t) {
    hg_table_right(t, 2);
    hg_table_right(t, 3);
  }
  size_t i;
  json_t *tp;
  json_array_foreach(list, i, tp) {
    char digest[16], mem[32], age[32];
    short_digest(hg_json_str(tp, "digest"), digest, sizeof digest);
    mib_str(hg_json_int(tp, "memory_mib", -1), mem, sizeof mem);
    age_of(tp, "created_at", age, sizeof age);
    const char *row[] = {hg_json_str(tp, "name"), digest, mem, age};
    if (t && hg_table_add(t, row) < 0) {
      hg_table_free(t);
      t = NULL;
    }
  }
  return print_table(t);
}

static int cmd_templates(hg_client *c, const hg_cli_args *a) {
  json_t *j = NULL;
  int rc = hg_client_json(c, "GET", "/v1/templates", NULL, &j);
  const json_t *list = json_object_get(j, "templates");
  if (rc == 0 && c->json)
    rc = hg_json_print(j);
  else if (rc == 0 && json_array_size(list) == 0)
    fprintf(stderr, "no templates (build one with tools/mkimage)\n");
  else if (rc == 0)
    rc = templates_table(list);
  json_decref(j);
  return hg_cmd_exit(rc);
}

/* {"running": 3, "paused": 1, …} in the order states first appear. */
static json_t *count_states(const json_t *list) {
  json_t *counts = json_object();
  size_t i;
  json_t *sb;
  json_array_foreach(list, i, sb) {
    const char *state = hg_json_str(sb, "state");
    state = state ? state : "unknown";
    json_object_set_new(counts, state,
                        json_integer(hg_json_int(counts, state, 0) + 1));
  }
  return counts;
}

static json_t *template_names(const json_t *list) {
  json_t *names = json_array();
  size_t i;
  json_t *tp;
  json_array_foreach(list, i, tp)
    if (hg_json_str(tp, "name")) json_array_append_new(names, json_string(hg_json_str(tp, "name")));
  return names;
}

/* Fetches an admin-only list for `status`. A failure leaves *out NULL, so
 * the rest of the report still appears; it is printed unless the previous
 * list failed the same way (one "unauthorized" is enough). */
static int status_list(hg_client *c, const char *path, const char *member, long *last_error,
                       json_t **out) {
  json_t *j = NULL;
  long status = 0;
  *out = NULL;
  int rc = hg_client_try_json(c, "GET", path, NULL, &status, &j);
  if (rc == 0 && status != 200) {
    if (status != *last_error) hg_client_print_error(c, status, j);
    *last_error = status;
    rc = -EPROTO;
  }
  if (rc == 0) *out = json_incref(member ? json_object_get(j, member) : j);
  json_decref(j);
  return rc;
}

/* "on: 2 restored, 0 failed, 0 restoring, 0 queued" and the sandboxes of
 * dead nodes that no live node holds (stranded) or whose take here failed
 * and waits for its retry, one line each. */
static void print_failover(const json_t *f) {
  if (!f) return;
  if (!json_is_true(json_object_get(f, "on"))) {
    field("failover", "off (%s)", hg_json_str(f, "why") ? hg_json_str(f, "why") : "");
    return;
  }
  field("failover", "on: %lld restored, %lld failed, %lld restoring, %lld queued, %lld stranded",
        (long long)json_integer_value(json_object_get(f, "restored")),
        (long long)json_integer_value(json_object_get(f, "failed")),
        (long long)json_integer_value(json_object_get(f, "restoring")),
        (long long)json_integer_value(json_object_get(f, "queued")),
        (long long)json_integer_value(json_object_get(f, "stranded_count")));
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(f, "stranded"), i, s)
    field("stranded", "%s (owner %s dead, gen %lld held by no live node, since %s)",
          hg_json_str(s, "sandbox") ? hg_json_str(s, "sandbox") : "?",
          hg_json_str(s, "owner") ? hg_json_str(s, "owner") : "?",
          (long long)json_integer_value(json_object_get(s, "gen")),
          hg_json_str(s, "since") ? hg_json_str(s, "since") : "?");
  json_array_foreach(json_object_get(f, "retrying"), i, s)
    field("retrying", "%s (%s failed: %s)",
          hg_json_str(s, "sandbox") ? hg_json_str(s, "sandbox") : "?",
          hg_json_str(s, "step") ? hg_json_str(s, "step") : "?",
          hg_json_str(s, "message") && hg_json_str(s, "message")[0] ? hg_json_str(s, "message")
          : hg_json_str(s, "error") ? hg_json_str(s, "error") : "?");
}

/* "3 held, 0 fenced, 1 orphan; fail-over: no (why)" */
static void print_leases(const json_t *node) {
  const json_t *l = json_object_get(node, "leases");
  if (!l) return;
  long long orphans = (long long)json_integer_value(json_object_get(node, "orphans"));
  bool fo = json_is_true(json_object_get(l, "can_fail_over"));
  field("leases", "%lld held, %lld fenced, %lld orphan%s",
        (long long)json_integer_value(json_object_get(l, "held")),
        (long long)json_integer_value(json_object_get(l, "fenced")), orphans,
        orphans == 1 ? "" : "s");
  field("fail-over", "%s (%s)", fo ? "yes" : "no", hg_json_str(l, "why") ? hg_json_str(l, "why") : "");
  print_failover(json_object_get(l, "failover"));
}

static void print_status(hg_client *c, const json_t *health, const json_t *node_info,
                         const json_t *states, const json_t *names, size_t nsandboxes) {
  const json_t *accel = json_object_get(node_info, "accel");
  const char *node = hg_json_str(health, "node");
  const char *st = hg_json_str(health, "status");
  field("hangard", "%s%s%s%s at %s", st ? st : "?", node ? " (node " : "", node ? node : "",
        node ? ")" : "", c->url);
  const char *an = hg_json_str(accel, "name"), *why = hg_json_str(accel, "reason");
  if (an) field("accelerator", "%s%s%s%s", an, why && *why ? " (" : "", why ? why : "",
                why && *why ? ")" : "");
  if (states) {
    hg_buf b;
    hg_buf_init(&b, 4096);
    const char *k;
    json_t *v;
    int i = 0;
    hg_buf_printf(&b, "%zu", nsandboxes);
    json_object_foreach((json_t *)states, k, v)
      hg_buf_printf(&b, "%s%lld %s", i++ ? ", " : ": ", (long long)json_integer_value(v), k);
    field("sandboxes", "%s", b.data);
    hg_buf_free(&b);
  }
  if (names) {
    hg_buf b;
    hg_buf_init(&b, 4096);
    size_t i;
    json_t *n;
    hg_buf_printf(&b, "%zu", json_array_size(names));
    json_array_foreach(names, i, n)
      hg_buf_printf(&b, "%s%s", i ? ", " : ": ", json_string_value(n));
    field("templates", "%s", b.data);
    hg_buf_free(&b);
  }
  print_leases(node_info);
}

static int cmd_status(hg_client *c, const hg_cli_args *a) {
  json_t *health = NULL, *list = NULL, *tpls = NULL, *cluster = NULL, *accel = NULL; /* accel: GET /v1/node */
  long code = 0;
  int rc = hg_client_try_json(c, "GET", "/healthz", NULL, &code, &health);
  if (rc < 0) return HG_CLI_EXIT_ERROR;
  if (code != 200) {
    hg_client_print_error(c, code, health);
    rc = -EPROTO;
  }
  long last_error = 0;
  int rc2 = status_list(c, "/v1/sandboxes", "sandboxes", &last_error, &list);
  int rc3 = status_list(c, "/v1/templates", "templates", &last_error, &tpls);
  int rc5 = status_list(c, "/v1/node", NULL, &last_error, &accel);
  int rc4 = hg_cluster_summary(c, &last_error, &cluster);
  json_t *states = list ? count_states(list) : NULL;
  json_t *names = tpls ? template_names(tpls) : NULL;
  if (c->json) {
    json_t *sandboxes = states ? json_pack("{s:I,s:O}", "total",
                                           (json_int_t)json_array_size(list), "by_state", states)
                               : NULL;
    json_t *out = json_pack("{s:s,s:O?,s:O?,s:O?,s:o?,s:O?,s:O?}", "url", c->url, "health",
                            health, "accel", json_object_get(accel, "accel"), "leases",
                            json_object_get(accel, "leases"), "sandboxes", sandboxes,
                            "templates", names, "cluster", cluster);
    if (out) hg_json_print(out);
    json_decref(out);
  } else {
    print_status(c, health, accel, states, names, json_array_size(list));
    if (cluster) hg_cluster_summary_print(cluster);
  }
  json_decref(cluster);
  json_decref(health);
  json_decref(list);
  json_decref(tpls);
  json_decref(accel);
  json_decref(states);
  json_decref(names);
  return rc || rc2 || rc3 || rc4 || rc5 ? HG_CLI_EXIT_ERROR : HG_CLI_EXIT_OK;
}

static int cmd_help(hg_client *c, const hg_cli_args *a) {
  if (a->n_args == 0) {
    hg_cli_print_usage(stdout, hg_cli_commands, hg_cli_ncommands);
    return HG_CLI_EXIT_OK;
  }
  const hg_cli_cmd *cmd = hg_cli_find(hg_cli_commands, hg_cli_ncommands, a->args[0]);
  if (!cmd) {
    fprintf(stderr, "hangar: no command '%s' (see 'hangar help')\n", a->args[0]);
    return HG_CLI_EXIT_USAGE;
  }
  hg_cli_print_cmd_usage(stdout, cmd);
  return HG_CLI_EXIT_OK;
}

/* ---- the table ------------------------------------------------------------------ */

#define O(x) HG_OPT(HG_OPT_##x)

const hg_cli_cmd hg_cli_commands[] = {
    {"create", NULL, cmd_create,
     O(TEMPLATE) | O(VCPUS) | O(MEMORY) | O(ENV) | O(LABEL) | O(NETWORK) | O(REPLICAS) |
         O(CHECKPOINT_S) | O(NO_WAIT),
     0, 0, false,
     "create [--template T] [--vcpus N] [--memory MiB] [--env K=V]... [--label k=v]... "
     "[--network JSON|@FILE] [--replicas N] [--checkpoint-s N] [--no-wait]",
     "create a sandbox and print its id, once it runs",
     "  --template T       template (default: the server's `default`)\n"
     "  --vcpus N          virtual CPUs\n"
     "  --memory M         guest memory in MiB, or with a unit: 512M, 2G\n"
     "  -e, --env K=V      environment for commands run in it (repeatable)\n"
     "  -l, --label k=v    metadata, to find it with `ls --label` (repeatable)\n"
     "  --network P        egress policy, JSON or @FILE: {\"allow\": [...], \"credentials\": [...]}\n"
"                     (without it the sandbox reaches nothing)\n"
     "  --replicas N       copies of each generation kept in the cluster, its own\n"
     "                     node's included, 1-8 (default: the node's --replicas, 2)\n"
     "  --checkpoint-s N   take a checkpoint of it every N s while it runs, 2-86400\n"
     "                     (0: none; default: the node's --checkpoint-s)\n"
     "  --no-wait          print the id at once, without waiting until it runs\n"
     "  --json             print the sandbox as JSON, with its access token\n"},
    {"ls", "list", cmd_ls, O(STATE) | O(LABEL), 0, 0, false, "ls [--state S] [--label k=v]...",
     "list sandboxes",
     "  --state S          only sandboxes in state S (running, paused, suspended, …)\n"
     "  -l, --label k=v    only sandboxes with this label (repeatable)\n"},
    {"show", NULL, cmd_show, 0, 1, 1, false, "show ID", "show a sandbox", NULL},
    {"exec", NULL, hg_cmd_exec, O(ENV) | O(CWD) | O(TIMEOUT) | O(INTERACTIVE), 1, 1, true,
     "exec [--env K=V]... [--cwd DIR] [--timeout S] [-i] ID -- CMD [ARGS...]",
     "run a command in a sandbox, its output streaming live",
     "  -e, --env K=V      environment (repeatable)\n"
     "  -w, --cwd DIR      working directory in the guest\n"
     "  --timeout S        kill it after S seconds (30, 5m, 1h); exit code 124\n"
     "  -i, --interactive  forward stdin even from a terminal (it is forwarded\n"
     "                     anyway when it is a pipe or a file)\n"
     "exit code: the command's; 128+N if signal N killed it; 124 on --timeout.\n"
     "^C is passed on to the command as SIGINT; a third ^C detaches.\n"},
    {"cp", NULL, hg_cmd_cp, 0, 2, 2, false, "cp SRC DST",
     "copy a file into or out of a sandbox",
     "  one side is ID:/guest/path, the other a local path or - (stdin/stdout):\n"
     "    hangar cp notes.txt sb-3f2a:/work/      upload (into a directory)\n"
     "    hangar cp sb-3f2a:/work/out.csv .       download\n"
     "    tar c src | hangar cp - sb-3f2a:/src.tar\n"},
    {"pause", NULL, cmd_pause, O(NO_WAIT), 1, -1, false, "pause ID... [--no-wait]",
     "pause sandboxes (memory stays on the node)", NULL},
    {"resume", NULL, cmd_resume, O(NODE) | O(NO_WAIT), 1, -1, false,
     "resume ID... [--node N] [--no-wait]", "resume paused or suspended sandboxes",
     "  --node N           resume on node N, which must hold the newest generation\n"
     "                     (see `hangar replicas ID`); the sandbox moves there.\n"
     "                     Default: its node while that is alive, else a node that\n"
     "                     holds the newest generation\n"},
    {"suspend", NULL, cmd_suspend, O(DURABILITY) | O(NO_WAIT), 1, -1, false,
     "suspend ID... [--durability local|replicated] [--no-wait]",
     "save sandboxes to disk (and peers) and free their memory",
     "  --durability D     replicated: done once its copies are on the peers that\n"
     "                     keep them (the default in a cluster); local: done once\n"
     "                     it is on this node's disk, the copies follow\n"
     "after the wait, one line per peer: what was sent, against which parent,\n"
     "how long it took, or why it failed.\n"},
    {"checkpoint", NULL, cmd_checkpoint, O(NO_WAIT), 1, -1, false,
     "checkpoint ID... [--no-wait]",
     "take a generation of running sandboxes without stopping them",
     "  the guest pauses while its memory and devices are saved, then runs on;\n"
     "  the generation goes to the sandbox's holders as a suspend's does.\n"
     "after the wait: its gen and the pause, then one line per peer.\n"
     "  (create with \"checkpoint_s\": N, or hangard --checkpoint-s N, to take one\n"
     "  every N s)\n"},
    {"snapshot", NULL, cmd_snapshot, O(NO_WAIT), 1, -1, false, "snapshot ID... [--no-wait]",
     "take a disk snapshot and print its name; the sandbox keeps running", NULL},
    {"fork", NULL, cmd_fork, O(GEN) | O(NO_WAIT), 1, 1, false, "fork ID [--gen N] [--no-wait]",
     "start a copy of a sandbox and print its id",
     "  --gen N            from generation N (default: a new one, taken now)\n"},
    {"rm", "delete", cmd_rm, O(NO_WAIT), 1, -1, false, "rm ID... [--no-wait]",
     "delete sandboxes", NULL},
    {"replicas", NULL, hg_cmd_replicas, 0, 1, 1, false, "replicas ID",
     "show which nodes hold a sandbox's generations",
     "  one row per generation per node, the owner first and newest first:\n"
     "  ROLE owner or replica, STATE how the cluster sees that node (alive,\n"
     "  suspect, unreachable), GEN, SIZE on disk, AGE. Any node answers.\n"},
    {"ops", NULL, cmd_ops, 0, 0, 1, false, "ops [ID]", "list operations, all or one sandbox's",
     NULL},
    {"op", NULL, cmd_op, O(WAIT), 1, 1, false, "op OPID [--wait]", "show an operation",
     "  --wait             follow it until it ends\n"},
    {"templates", NULL, cmd_templates, 0, 0, 0, false, "templates", "list templates", NULL},
    {"status", NULL, cmd_status, 0, 0, 0, false, "status",
     "check the daemon: health, sandboxes per state, templates, and its cluster",
     "  in a cluster it adds: members by state, sandboxes across the cluster by\n"
     "  state, the alive nodes' capacity, and the nodes it cannot reach\n"},
    {"members", NULL, hg_cmd_members, 0, 0, 0, false, "members",
     "list the cluster's nodes with their state, load and capacity",
     "  as the node at --url sees them (gossip): STATE alive, suspect, dead or left;\n"
     "  SANDBOXES on that node; VCPUS and MEM given to its live guests / its total;\n"
     "  HEALTH its Lifeguard score (ok, or slow (N) when it answers probes late)\n"},
    {"orphans", NULL, hg_cmd_orphans, 0, 0, -1, false, "orphans [rm NAME...]",
     "list this node's orphans (copies fenced by a newer owner), or delete them",
     "  an orphan is what was left here of a sandbox another node took over at a\n"
     "  higher epoch: its VM was stopped and its disk, memory and generations kept\n"
     "  read-only under the name <sandbox id>/<epoch>, until deleted. NAME WAS\n"
     "  (its state when fenced) TEMPLATE AGE REASON; only the node at --url's.\n"
     "  rm NAME...         delete these orphans and everything in them\n"},
    {"help", NULL, cmd_help, 0, 0, 1, false, "help [COMMAND]", "show help", NULL},
};

const size_t hg_cli_ncommands = HG_ARRAY_SIZE(hg_cli_commands);
