/* members: the cluster as one node sees it — `hangar members`, and the
 * cluster half of `hangar status` — from GET /v1/cluster/members and
 * GET /v1/cluster/sandboxes (docs/api.md). A node started without
 * --gossip lists itself alone; `status` then leaves the cluster out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/buf.h"
#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/members.h"
#include "tools/cli/table.h"

/* ---- reading a member ----------------------------------------------------------- */

/* A member's field by its path in the answer ("load.sandboxes.total"). */
static const json_t *member_get(const json_t *m, const char *path) {
  char key[64];
  while (m && *path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof key) return NULL;
    memcpy(key, path, n);
    key[n] = '\0';
    m = json_object_get(m, key);
    path += n + (path[n] == '.');
  }
  return m;
}

static int64_t member_num(const json_t *m, const char *path) {
  const json_t *v = member_get(m, path);
  if (json_is_integer(v)) return json_integer_value(v);
  double d = json_real_value(v); /* beyond int64_t the conversion is undefined */
  if (json_is_real(v) && d > -0x1p63 && d < 0x1p63) return (int64_t)d;
  return -1;
}

/* hg_cluster_members_json's layout (docs/api.md). */
#define F_API "addresses.api"
#define F_VCPUS "capacity.vcpus"
#define F_VCPUS_USED "load.vcpus_used"
#define F_MEM "capacity.memory_mib"
#define F_MEM_USED "load.memory_used_mib"
#define F_DISK "capacity.disk_free_mib"
#define F_SANDBOXES "load.sandboxes.total"
#define F_HEALTH "health"

/* The array of a list answer: {"members": […]} (or a bare array). */
static const json_t *list_in(const json_t *j, const char *key) {
  if (json_is_array(j)) return j;
  const json_t *v = json_object_get(j, key);
  return json_is_array(v) ? v : NULL;
}

static bool unreachable(const char *state) {
  return state && (strcmp(state, "suspect") == 0 || strcmp(state, "dead") == 0);
}

/* ---- cells ---------------------------------------------------------------------- */

static void mib_cell(int64_t mib, char *out, size_t cap) {
  if (mib < 0)
    snprintf(out, cap, "-");
  else
    hg_cli_fmt_bytes((uint64_t)mib << 20, out, cap);
}

static void count_cell(int64_t n, char *out, size_t cap) {
  if (n < 0)
    snprintf(out, cap, "-");
  else
    snprintf(out, cap, "%lld", (long long)n);
}

/* "used/total", either side "-" when unknown. */
static void pair_cell(int64_t used, int64_t total, bool mib, char *out, size_t cap) {
  char u[32], t[32];
  if (mib) {
    mib_cell(used, u, sizeof u);
    mib_cell(total, t, sizeof t);
  } else {
    count_cell(used, u, sizeof u);
    count_cell(total, t, sizeof t);
  }
  snprintf(out, cap, "%s/%s", u, t);
}

static void state_cell(const json_t *m, char *out, size_t cap) {
  const char *state = hg_json_str(m, "state");
  const json_t *d = json_object_get(m, "draining");
  snprintf(out, cap, "%s%s", state ? state : "?", json_is_true(d) ? ",draining" : "");
}

/* Lifeguard's local health where the node reports it (0: answers in
 * time), else what gossip says of it. */
static void health_cell(const json_t *m, char *out, size_t cap) {
  int64_t h = member_num(m, F_HEALTH);
  const char *state = hg_json_str(m, "state");
  if (h > 0)
    snprintf(out, cap, "slow (%lld)", (long long)h);
  else if (h == 0 || (state && strcmp(state, "alive") == 0))
    snprintf(out, cap, "ok");
  else if (unreachable(state))
    snprintf(out, cap, "unreachable");
  else
    snprintf(out, cap, "-");
}

int hg_members_render(const json_t *answer, hg_buf *out) {
  const char *const head[] = {"ID",    "STATE",          "ZONE",      "API",   "SANDBOXES",
                              "VCPUS", "MEM-USED/TOTAL", "DISK-FREE", "HEALTH"};
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (!t) return -ENOMEM;
  for (size_t col = 4; col <= 7; col++) hg_table_right(t, col);
  const json_t *list = list_in(answer, "members"), *m;
  size_t i;
  int rc = 0;
  json_array_foreach(list, i, m) {
    char state[64], sbx[24], vcpus[48], mem[64], disk[32], health[32];
    state_cell(m, state, sizeof state);
    count_cell(member_num(m, F_SANDBOXES), sbx, sizeof sbx);
    pair_cell(member_num(m, F_VCPUS_USED), member_num(m, F_VCPUS), false, vcpus, sizeof vcpus);
    pair_cell(member_num(m, F_MEM_USED), member_num(m, F_MEM), true, mem, sizeof mem);
    mib_cell(member_num(m, F_DISK), disk, sizeof disk);
    health_cell(m, health, sizeof health);
    const char *zone = hg_json_str(m, "zone");
    const char *row[] = {hg_json_str(m, "id"), state, zone && *zone ? zone : NULL,
                         json_string_value(member_get(m, F_API)), sbx, vcpus, mem, disk, health};
    if ((rc = hg_table_add(t, row)) < 0) break;
  }
  if (rc == 0) rc = hg_table_render(t, out);
  hg_table_free(t);
  return rc;
}

/* GET a cluster list. 0 with *out set; 1 when the node does not know the
 * route (404: a server older than clusters); < 0 on an error, printed
 * unless it repeats *last_error. */
static int cluster_get(hg_client *c, const char *path, long *last_error, json_t **out) {
  long status = 0;
  json_t *j = NULL;
  *out = NULL;
  int rc = hg_client_try_json(c, "GET", path, NULL, &status, &j);
  if (rc < 0) return rc;
  if (status == 404) {
    json_decref(j);
    return 1;
  }
  if (status != 200) {
    if (!last_error || status != *last_error) hg_client_print_error(c, status, j);
    if (last_error) *last_error = status;
    json_decref(j);
    return -EPROTO;
  }
  *out = j;
  return 0;
}

int hg_cmd_members(hg_client *c, const hg_cli_args *a) {
  json_t *j;
  int rc = cluster_get(c, "/v1/cluster/members", NULL, &j);
  if (rc == 1) {
    fprintf(stderr, "hangar: %s is not in a cluster (hangard runs without --gossip)\n", c->url);
    return HG_CLI_EXIT_ERROR;
  }
  if (rc == 0 && c->json) {
    rc = hg_json_print(j);
  } else if (rc == 0) {
    hg_buf b;
    hg_buf_init(&b, 64u << 20);
    rc = hg_members_render(j, &b);
    if (rc == 0 && b.len && fwrite(b.data, 1, b.len, stdout) != b.len) rc = -EIO;
    if (rc < 0) fprintf(stderr, "hangar: cannot print the table: %s\n", strerror(-rc));
    hg_buf_free(&b);
  }
  json_decref(j);
  return hg_cmd_exit(rc);
}

/* ---- the cluster in `hangar status` ----------------------------------------------- */

static void bump(json_t *counts, const char *key, json_int_t by) {
  json_object_set_new(counts, key, json_integer(hg_json_int(counts, key, 0) + by));
}

/* A node without --gossip answers the members route with itself alone and
 * no addresses: a status has no cluster to tell of. */
static bool lone_node(const json_t *list) {
  const json_t *m = json_array_get(list, 0);
  return json_array_size(list) == 1 && !json_object_get(m, "addresses");
}

/* Totals over alive members: what placement can use now. */
static json_t *capacity_of(const json_t *list) {
  static const struct {
    const char *out;
    const char *path;
  } sums[] = {{"vcpus_used", F_VCPUS_USED},     {"vcpus_total", F_VCPUS},
              {"memory_used_mib", F_MEM_USED},  {"memory_total_mib", F_MEM},
              {"disk_free_mib", F_DISK},        {"sandboxes", F_SANDBOXES}};
  json_t *cap = json_object();
  size_t i;
  const json_t *m;
  json_array_foreach(list, i, m) {
    const char *state = hg_json_str(m, "state");
    if (!state || strcmp(state, "alive") != 0) continue;
    for (size_t k = 0; k < HG_ARRAY_SIZE(sums); k++) {
      int64_t v = member_num(m, sums[k].path);
      bump(cap, sums[k].out, v > 0 ? v : 0);
    }
  }
  return cap;
}

static json_t *unreachable_of(const json_t *list) {
  json_t *out = json_array();
  size_t i;
  const json_t *m;
  json_array_foreach(list, i, m) {
    const char *state = hg_json_str(m, "state"), *id = hg_json_str(m, "id");
    if (!id || !unreachable(state)) continue;
    json_t *e = json_pack("{s:s,s:s}", "id", id, "state", state);
    const json_t *since = json_object_get(m, "since");
    if (since) json_object_set(e, "since", (json_t *)since);
    json_array_append_new(out, e);
  }
  return out;
}

int hg_cluster_summary(hg_client *c, long *last_error, json_t **out) {
  json_t *members = NULL, *dir = NULL;
  *out = NULL;
  int rc = cluster_get(c, "/v1/cluster/members", last_error, &members);
  if (rc != 0) return rc == 1 ? 0 : rc;
  const json_t *mlist = list_in(members, "members"), *m;
  if (lone_node(mlist)) {
    json_decref(members);
    return 0;
  }
  json_t *by_state = json_object();
  size_t i;
  json_array_foreach(mlist, i, m) {
    const char *state = hg_json_str(m, "state");
    bump(by_state, state ? state : "unknown", 1);
  }
  json_t *sum = json_pack("{s:I,s:o,s:o,s:o}", "members", (json_int_t)json_array_size(mlist),
                          "by_state", by_state, "capacity", capacity_of(mlist), "unreachable",
                          unreachable_of(mlist));
  json_decref(members);
  /* The directory may fail alone; the members still tell most of it. */
  int rc2 = cluster_get(c, "/v1/cluster/sandboxes", last_error, &dir);
  if (rc2 == 0 && sum) {
    json_t *sb_states = json_object(), *e;
    json_int_t total = 0;
    json_array_foreach(list_in(dir, "sandboxes"), i, e) {
      const char *state = hg_json_str(e, "state");
      if (state && strcmp(state, "deleted") == 0) continue;
      bump(sb_states, state ? state : "unknown", 1);
      total++;
    }
    json_object_set_new(sum, "sandboxes",
                        json_pack("{s:I,s:o}", "total", total, "by_state", sb_states));
  }
  json_decref(dir);
  *out = sum;
  return sum ? (rc2 < 0 ? rc2 : 0) : -ENOMEM;
}

/* "3: 2 running, 1 suspended" */
static void counts_line(hg_buf *b, json_int_t total, const json_t *by_state) {
  const char *k;
  json_t *v;
  int n = 0;
  hg_buf_printf(b, "%lld", (long long)total);
  json_object_foreach((json_t *)by_state, k, v)
    hg_buf_printf(b, "%s%lld %s", n++ ? ", " : ": ", (long long)json_integer_value(v), k);
}

static void print_line(const char *key, hg_buf *b) {
  hg_cli_sanitize(b->data);
  printf("%-12s %s\n", key, b->data);
  hg_buf_reset(b);
}

void hg_cluster_summary_print(const json_t *sum) {
  hg_buf b;
  hg_buf_init(&b, 8192);
  counts_line(&b, hg_json_int(sum, "members", 0), json_object_get(sum, "by_state"));
  hg_buf_printf(&b, " node%s", hg_json_int(sum, "members", 0) == 1 ? "" : "s");
  print_line("cluster", &b);
  const json_t *sbx = json_object_get(sum, "sandboxes");
  if (sbx) {
    counts_line(&b, hg_json_int(sbx, "total", 0), json_object_get(sbx, "by_state"));
    print_line("in cluster", &b);
  }
  const json_t *cap = json_object_get(sum, "capacity");
  char mu[32], mt[32], df[32];
  mib_cell(hg_json_int(cap, "memory_used_mib", 0), mu, sizeof mu);
  mib_cell(hg_json_int(cap, "memory_total_mib", 0), mt, sizeof mt);
  mib_cell(hg_json_int(cap, "disk_free_mib", 0), df, sizeof df);
  hg_buf_printf(&b, "vcpus %lld/%lld, memory %s/%s, disk free %s (alive nodes)",
                (long long)hg_json_int(cap, "vcpus_used", 0),
                (long long)hg_json_int(cap, "vcpus_total", 0), mu, mt, df);
  print_line("capacity", &b);
  const json_t *down = json_object_get(sum, "unreachable"), *e;
  size_t i;
  json_array_foreach(down, i, e) {
    char age[32] = "";
    int64_t since = hg_json_time_ms(e, "since");
    if (since >= 0) {
      char a[24];
      hg_cli_fmt_age((hg_wall_ns() / 1000000 - since) / 1000, a, sizeof a);
      snprintf(age, sizeof age, " %s", a);
    }
    hg_buf_printf(&b, "%s%s (%s%s)", i ? ", " : "", hg_json_str(e, "id"),
                  hg_json_str(e, "state"), age);
  }
  if (!b.len) hg_buf_printf(&b, "none");
  print_line("unreachable", &b);
  hg_buf_free(&b);
}
