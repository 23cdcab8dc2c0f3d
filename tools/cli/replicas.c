/* replicas: where a sandbox's generations are — `hangar replicas ID` from
 * GET /v1/sandboxes/{id}/replicas — and the per-peer report a suspend
 * prints from its operation's result.replication (docs/api.md,
 * Replication). Everything in these answers comes from the server, and
 * holders' errors from other nodes: cells and lines are sanitized. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/buf.h"
#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/replicas.h"
#include "tools/cli/table.h"

/* ---- the suspend report -------------------------------------------------------- */

/* "120 ms" below a second, "2.4 s" above: a replication's latency is what a
 * person compares against the 300 ms target, so 0.1 s steps are too coarse. */
static void ms_str(double ms, char *out, size_t cap) {
  if (ms < 0)
    snprintf(out, cap, "-");
  else if (ms < 1000)
    snprintf(out, cap, "%.0f ms", ms);
  else
    snprintf(out, cap, "%.1f s", ms / 1000);
}

static double num(const json_t *obj, const char *key, double dflt) {
  const json_t *v = json_object_get(obj, key);
  return json_is_number(v) ? json_number_value(v) : dflt;
}

/* A byte count from the server as a double; converting one beyond
 * uint64_t would be undefined, so absurd values are clamped. */
static uint64_t byte_count(double v) {
  if (!(v > 0)) return 0;
  return v >= 0x1p63 ? UINT64_C(1) << 63 : (uint64_t)v;
}

/* " against gen 3", " against the template", " as a full stream". */
static void parent_str(const char *parent, char *out, size_t cap) {
  if (!parent || !*parent)
    out[0] = '\0';
  else if (strcmp(parent, "full") == 0)
    snprintf(out, cap, " as a full stream");
  else if (strcmp(parent, "template") == 0)
    snprintf(out, cap, " against the template");
  else
    snprintf(out, cap, " against %s", parent);
}

/* "45 KiB (zstd, 2.7x of 123 KiB)". */
static void sent_str(const json_t *peer, char *out, size_t cap) {
  double raw = num(peer, "raw_bytes", -1), z = num(peer, "zstd_bytes", -1);
  double ratio = num(peer, "ratio", -1);
  char zs[32], rs[32];
  if (z < 0) {
    hg_cli_fmt_bytes(byte_count(raw), rs, sizeof rs);
    snprintf(out, cap, "%s", rs);
    return;
  }
  if (ratio <= 0 && z > 0 && raw >= 0) ratio = raw / z;
  hg_cli_fmt_bytes(byte_count(z), zs, sizeof zs);
  hg_cli_fmt_bytes(byte_count(raw), rs, sizeof rs);
  if (ratio > 0)
    snprintf(out, cap, "%s (zstd, %.1fx of %s)", zs, ratio, rs);
  else
    snprintf(out, cap, "%s (zstd, of %s)", zs, rs);
}

void hg_repl_peer_line(const json_t *peer, int64_t gen, char *out, size_t cap) {
  const char *node = hg_json_str(peer, "node"), *parent = hg_json_str(peer, "parent");
  const json_t *err = json_object_get(peer, "error");
  char g[32], ms[32], took[48], what[128], from[64];
  node = node ? node : "?";
  if (gen >= 0)
    snprintf(g, sizeof g, "gen %lld", (long long)gen);
  else
    snprintf(g, sizeof g, "the generation");
  ms_str(num(peer, "ms", -1), ms, sizeof ms);
  bool timed = strcmp(ms, "-") != 0;
  took[0] = '\0';
  if (err && !json_is_null(err)) {
    const char *code = hg_json_str(err, "code");
    const char *msg =
        json_is_string(err) ? json_string_value(err) : hg_json_str(err, "message");
    char why[512];
    if (code && msg)
      snprintf(why, sizeof why, "%s: %s", code, msg);
    else
      snprintf(why, sizeof why, "%s", code ? code : msg ? msg : "failed");
    if (timed) snprintf(took, sizeof took, " (after %s)", ms);
    snprintf(out, cap, "failed to replicate %s to %s: %s%s", g, node, why, took);
  } else if (parent && strcmp(parent, "had") == 0) {
    if (timed) snprintf(took, sizeof took, " (%s)", ms);
    snprintf(out, cap, "replicated %s to %s: already there, nothing sent%s", g, node,
             took);
  } else {
    sent_str(peer, what, sizeof what);
    parent_str(parent, from, sizeof from);
    if (timed) snprintf(took, sizeof took, " in %s", ms);
    snprintf(out, cap, "replicated %s to %s: %s%s%s", g, node, what, from, took);
  }
  hg_cli_sanitize(out);
}

int hg_repl_report(const json_t *op, const char *prefix, hg_buf *out) {
  const json_t *result = json_object_get(op, "result");
  const json_t *repl = json_object_get(result, "replication");
  const json_t *peers = json_object_get(repl, "peers"), *p;
  int64_t gen = hg_json_int(result, "gen", -1);
  size_t i;
  json_array_foreach(peers, i, p) {
    char line[1024];
    hg_repl_peer_line(p, gen, line, sizeof line);
    int rc =
        hg_buf_printf(out, "%s%s%s\n", prefix ? prefix : "", prefix ? ": " : "", line);
    if (rc < 0) return rc;
  }
  return 0;
}

/* ---- the replicas table --------------------------------------------------------- */

static int by_gen_desc(const void *a, const void *b) {
  int64_t x = hg_json_int(*(const json_t *const *)a, "gen", -1);
  int64_t y = hg_json_int(*(const json_t *const *)b, "gen", -1);
  return (x < y) - (x > y);
}

/* The server's age_s (its own clock) when given, else from created_at. */
static void gen_age(const json_t *g, char *out, size_t cap) {
  int64_t age = hg_json_int(g, "age_s", -1);
  if (age < 0) {
    int64_t t = hg_json_time_ms(g, "created_at");
    age = t < 0 ? -1 : (hg_wall_ns() / 1000000 - t) / 1000;
  }
  hg_cli_fmt_age(age, out, cap);
}

static bool is_owner(const json_t *answer, const json_t *h) {
  const json_t *o = json_object_get(h, "owner");
  if (json_is_boolean(o)) return json_is_true(o);
  const char *node = hg_json_str(h, "node"), *owner = hg_json_str(answer, "owner");
  return node && owner && strcmp(node, owner) == 0;
}

/* One row per generation the holder has, newest first; one row of "-" when
 * it has none (or could not be asked). */
static int holder_rows(hg_table *t, const json_t *answer, const json_t *h) {
  const json_t *gens = json_object_get(h, "generations");
  size_t n = json_array_size(gens);
  const char *role = is_owner(answer, h) ? "owner" : "replica";
  const char *node = hg_json_str(h, "node"), *state = hg_json_str(h, "state");
  if (n == 0) {
    const char *row[] = {node, role, state, NULL, NULL, NULL};
    return hg_table_add(t, row);
  }
  const json_t **sorted = malloc(n * sizeof *sorted);
  if (!sorted) return -ENOMEM;
  for (size_t i = 0; i < n; i++) sorted[i] = json_array_get(gens, i);
  qsort(sorted, n, sizeof *sorted, by_gen_desc);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    char gen[24], size[32], age[32];
    int64_t g = hg_json_int(sorted[i], "gen", -1),
            bytes = hg_json_int(sorted[i], "bytes", -1);
    if (g < 0)
      snprintf(gen, sizeof gen, "-");
    else
      snprintf(gen, sizeof gen, "%lld", (long long)g);
    if (bytes < 0)
      snprintf(size, sizeof size, "-");
    else
      hg_cli_fmt_bytes((uint64_t)bytes, size, sizeof size);
    gen_age(sorted[i], age, sizeof age);
    const char *row[] = {node, role, state, gen, size, age};
    rc = hg_table_add(t, row);
  }
  free(sorted);
  return rc;
}

static bool holds_gen(const json_t *h, int64_t gen) {
  size_t i;
  const json_t *g;
  json_array_foreach(json_object_get(h, "generations"), i, g) {
    if (hg_json_int(g, "gen", -1) == gen) return true;
  }
  return false;
}

/* "sb-…: owner n1 (epoch 1), gen 4 on 2 nodes of 2 wanted" */
static int summary_line(const json_t *answer, hg_buf *out) {
  const json_t *holders = json_object_get(answer, "holders"), *h;
  int64_t gen = hg_json_int(answer, "gen", -1),
          wanted = hg_json_int(answer, "replicas", -1);
  const char *id = hg_json_str(answer, "sandbox"), *owner = hg_json_str(answer, "owner");
  size_t i, have = 0;
  json_array_foreach(holders, i, h) {
    have += gen >= 0 && holds_gen(h, gen);
  }
  hg_buf line;
  hg_buf_init(&line, 4096);
  int rc = hg_buf_printf(&line, "%s: owner %s (epoch %lld)", id ? id : "?",
                         owner ? owner : "?", (long long)hg_json_int(answer, "epoch", 0));
  if (rc == 0 && gen < 0) rc = hg_buf_printf(&line, ", no generation yet");
  if (rc == 0 && gen >= 0) {
    rc = hg_buf_printf(&line, ", gen %lld on %zu node%s", (long long)gen, have,
                       have == 1 ? "" : "s");
    if (rc == 0 && wanted > 0)
      rc = hg_buf_printf(&line, " of %lld wanted", (long long)wanted);
  }
  if (rc == 0) {
    hg_cli_sanitize(line.data);
    rc = hg_buf_printf(out, "%s\n", line.data);
  }
  hg_buf_free(&line);
  return rc;
}

/* Holders that could not be asked: "n3: could not be asked: …". */
static int holder_notes(const json_t *holders, hg_buf *notes) {
  size_t i;
  const json_t *h;
  json_array_foreach(holders, i, h) {
    const char *err = hg_json_str(h, "error"), *node = hg_json_str(h, "node");
    if (!err) continue;
    char line[1024];
    snprintf(line, sizeof line, "%s: could not be asked: %s", node ? node : "?", err);
    hg_cli_sanitize(line);
    int rc = hg_buf_printf(notes, "%s\n", line);
    if (rc < 0) return rc;
  }
  return 0;
}

int hg_replicas_render(const json_t *answer, hg_buf *out, hg_buf *notes) {
  const char *const head[] = {"NODE", "ROLE", "STATE", "GEN", "SIZE", "AGE"};
  const json_t *holders = json_object_get(answer, "holders"), *h;
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (!t) return -ENOMEM;
  for (size_t col = 3; col <= 5; col++) hg_table_right(t, col);
  int rc = summary_line(answer, out);
  size_t i;
  /* The owner first: it is where a plain resume goes while it is alive. */
  for (int pass = 0; pass < 2 && rc == 0; pass++) {
    json_array_foreach(holders, i, h) {
      if (is_owner(answer, h) != (pass == 0)) continue;
      if ((rc = holder_rows(t, answer, h)) < 0) break;
    }
  }
  if (rc == 0) rc = hg_table_render(t, out);
  if (rc == 0) rc = holder_notes(holders, notes);
  hg_table_free(t);
  return rc;
}

static int write_buf(FILE *f, const hg_buf *b) {
  return b->len && fwrite(b->data, 1, b->len, f) != b->len ? -EIO : 0;
}

int hg_cmd_replicas(hg_client *c, const hg_cli_args *a) {
  json_t *j = NULL;
  int rc = hg_cmd_sandbox_get(c, a->args[0], "/replicas", &j);
  if (rc == 0 && c->json) {
    rc = hg_json_print(j);
  } else if (rc == 0) {
    hg_buf out, notes;
    hg_buf_init(&out, 64u << 20);
    hg_buf_init(&notes, 1u << 20);
    rc = hg_replicas_render(j, &out, &notes);
    if (rc == 0) rc = write_buf(stdout, &out);
    if (rc < 0) fprintf(stderr, "hangar: cannot print the table: %s\n", strerror(-rc));
    if (rc == 0) write_buf(stderr, &notes);
    hg_buf_free(&out);
    hg_buf_free(&notes);
  }
  json_decref(j);
  return hg_cmd_exit(rc);
}
