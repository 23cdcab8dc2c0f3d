/* cluster roster: every node that ever joined, persisted under
 * state/roster.json and left only by decommission; our incarnation under
 * state/incarnation. Persistence is written by one thread-pool job at a
 * time; the loop prepares the bytes. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_internal.h"
#include "node/core/log.h"
#include "node/core/parse.h"
#include "node/core/util.h"

/* ---- roster ---- */

roster_ent *hg__cluster_roster_get(hg_cluster *c, const char *id) {
  for (size_t i = 0; i < c->nroster; i++)
    if (strcmp(c->roster[i].id, id) == 0) return &c->roster[i];
  return NULL;
}

static roster_ent *roster_add(hg_cluster *c, const char *id) {
  if (c->nroster >= CL_ROSTER_MAX) return NULL;
  if (c->nroster == c->roster_cap) {
    size_t cap = c->roster_cap ? 2 * c->roster_cap : 16;
    roster_ent *r = realloc(c->roster, cap * sizeof *r);
    if (!r) return NULL;
    c->roster = r;
    c->roster_cap = cap;
  }
  roster_ent *r = &c->roster[c->nroster++];
  memset(r, 0, sizeof *r);
  hg__cluster_copy_str(r->id, sizeof r->id, id);
  r->joined_ms = hg__cluster_wall_ms();
  return r;
}

/* A member seen alive joins the roster; its addresses are kept current. */
void hg__cluster_roster_note(hg_cluster *c, const char *id, const char *gossip,
                             const char *api) {
  roster_ent *r = hg__cluster_roster_get(c, id);
  if (!r) {
    r = roster_add(c, id);
    if (!r) {
      hg_log_error("cluster.roster_full", "node=%s max=%d", id, CL_ROSTER_MAX);
      return;
    }
    hg_log_info("cluster.roster_add", "node=%s gossip=%s", id, gossip ? gossip : "");
    c->roster_dirty = true;
  }
  if (gossip && gossip[0] && strcmp(r->gossip, gossip) != 0) {
    hg__cluster_copy_str(r->gossip, sizeof r->gossip, gossip);
    c->roster_dirty = true;
  }
  if (api && api[0] && strcmp(r->api, api) != 0) {
    hg__cluster_copy_str(r->api, sizeof r->api, api);
    c->roster_dirty = true;
  }
}

static char *roster_dump(hg_cluster *c) {
  json_t *arr = json_array();
  for (size_t i = 0; i < c->nroster; i++) {
    char t[32];
    hg_iso_time(c->roster[i].joined_ms, t);
    json_array_append_new(
        arr, json_pack("{s:s,s:s,s:s,s:s}", "id", c->roster[i].id, "gossip",
                       c->roster[i].gossip, "api", c->roster[i].api, "joined", t));
  }
  json_t *root = json_pack("{s:i,s:o}", "version", 1, "members", arr);
  char *s = root ? json_dumps(root, JSON_INDENT(1)) : NULL;
  json_decref(root);
  return s;
}

static int roster_str(json_t *o, const char *key, char *out, size_t cap, bool required) {
  json_t *v = json_object_get(o, key);
  if (!v) return required ? -EPROTO : 0;
  if (!json_is_string(v) || json_string_length(v) >= cap ||
      strlen(json_string_value(v)) != json_string_length(v))
    return -EPROTO;
  hg__cluster_copy_str(out, cap, json_string_value(v));
  return 0;
}

/* A roster we cannot read stops the start: majorities are counted over it,
 * and silently starting with a smaller one would let a minority win. */
int hg__cluster_roster_load(hg_cluster *c) {
  char path[PATH_MAX], *data = NULL;
  size_t len = 0;
  if (!c->state_dir) return 0;
  int rc = hg_path(path, sizeof path, "%s/roster.json", c->state_dir);
  if (rc == 0) rc = hg_read_file(path, CL_ROSTER_FILE_MAX, &data, &len);
  if (rc == -ENOENT) return 0;
  if (rc < 0) {
    hg_log_error("cluster.roster_unreadable", "path=%s err=%s", path, uv_strerror(rc));
    return rc;
  }
  json_error_t jerr;
  json_t *root = json_loadb(data, len, 0, &jerr);
  free(data);
  json_t *arr = root ? json_object_get(root, "members") : NULL;
  rc = json_is_array(arr) && json_array_size(arr) <= CL_ROSTER_MAX ? 0 : -EPROTO;
  for (size_t i = 0; rc == 0 && i < json_array_size(arr); i++) {
    json_t *o = json_array_get(arr, i);
    roster_ent e = {0};
    char joined[40] = "";
    if (!json_is_object(o)) rc = -EPROTO;
    if (rc == 0) rc = roster_str(o, "id", e.id, sizeof e.id, true);
    if (rc == 0) rc = roster_str(o, "gossip", e.gossip, sizeof e.gossip, false);
    if (rc == 0) rc = roster_str(o, "api", e.api, sizeof e.api, false);
    if (rc == 0) rc = roster_str(o, "joined", joined, sizeof joined, false);
    if (rc == 0 && !e.id[0]) rc = -EPROTO;
    if (rc < 0 || hg__cluster_roster_get(c, e.id)) continue;
    roster_ent *r = roster_add(c, e.id);
    if (!r) {
      rc = -ENOMEM;
      break;
    }
    *r = e;
    r->joined_ms = hg_iso_parse(joined);
  }
  json_decref(root);
  if (rc < 0) hg_log_error("cluster.roster_corrupt", "path=%s", path);
  return rc;
}

/* ---- incarnation ---- */

uint64_t hg__cluster_incarnation_load(hg_cluster *c) {
  char path[PATH_MAX], *data = NULL;
  size_t len = 0;
  if (!c->state_dir || hg_path(path, sizeof path, "%s/incarnation", c->state_dir) < 0)
    return 0;
  int rc = hg_read_file(path, 64, &data, &len);
  if (rc < 0) {
    if (rc != -ENOENT)
      hg_log_warn("cluster.incarnation_unreadable", "path=%s err=%s", path,
                  uv_strerror(rc));
    return 0;
  }
  uint64_t v = 0;
  if (len > 0 && data[len - 1] == '\n') len--;
  bool ok = hg_parse_uint_n(data, len, UINT64_MAX, &v) == 0;
  free(data);
  if (!ok) {
    /* Not fatal: swim refutes whatever peers remember about us. */
    hg_log_warn("cluster.incarnation_corrupt", "path=%s", path);
    return 0;
  }
  return (uint64_t)v;
}

/* ---- persistence on the thread pool ---- */

int hg__cluster_persist_write(const char *state_dir, const char *roster, bool inc,
                              uint64_t inc_val) {
  char path[PATH_MAX];
  int rc = 0;
  if (roster) {
    rc = hg_path(path, sizeof path, "%s/roster.json", state_dir);
    if (rc == 0) rc = hg_write_file_atomic(path, roster, strlen(roster));
  }
  if (rc == 0 && inc) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%" PRIu64 "\n", inc_val);
    rc = hg_path(path, sizeof path, "%s/incarnation", state_dir);
    if (rc == 0) rc = hg_write_file_atomic(path, buf, (size_t)n);
  }
  return rc;
}

static void persist_work(uv_work_t *w) {
  hg_cluster *c = w->data;
  c->persist_rc = hg__cluster_persist_write(c->state_dir, c->persist_roster,
                                            c->persist_inc, c->persist_inc_val);
}

static void persist_after(uv_work_t *w, int status) {
  hg_cluster *c = w->data;
  c->persist_busy = false;
  if (status == 0 && c->persist_rc < 0) {
    hg_log_error("cluster.persist_failed", "dir=%s err=%s retry_ms=%d", c->state_dir,
                 uv_strerror(c->persist_rc), CL_PERSIST_RETRY_MS);
    c->persist_retry_ms = hg_now_ms() + CL_PERSIST_RETRY_MS;
    if (c->persist_roster) c->roster_dirty = true; /* retried on the next event */
    if (c->persist_inc) c->inc_saved = 0;
  } else if (status == 0 && c->persist_inc) {
    c->inc_saved = c->persist_inc_val;
  } else if (status != 0) {
    if (c->persist_roster) c->roster_dirty = true;
  }
  free(c->persist_roster);
  c->persist_roster = NULL;
  if (c->shutting)
    hg_closer_check(&c->closer);
  else
    hg__cluster_persist_schedule(c);
}

void hg__cluster_persist_schedule(hg_cluster *c) {
  if (!c->state_dir || c->persist_busy || c->shutting || !c->swim) return;
  if (hg_now_ms() < c->persist_retry_ms) return; /* the house timer comes back */
  uint64_t inc = hg_swim_incarnation(c->swim);
  bool want_inc = inc != c->inc_saved;
  if (!c->roster_dirty && !want_inc) return;
  c->persist_roster = c->roster_dirty ? roster_dump(c) : NULL;
  c->roster_dirty = false;
  c->persist_inc = want_inc;
  c->persist_inc_val = inc;
  c->persist.data = c;
  if (uv_queue_work(c->loop, &c->persist, persist_work, persist_after) < 0) {
    free(c->persist_roster);
    c->persist_roster = NULL;
    return;
  }
  c->persist_busy = true;
}

/* At close, after the last job: what is still unsaved, written in place
 * (blocking, once). Not after a crash, which saves nothing. */
void hg__cluster_persist_flush(hg_cluster *c) {
  if (c->crashed || !c->state_dir || !c->swim) return;
  uint64_t inc = hg_swim_incarnation(c->swim);
  char *roster = c->roster_dirty ? roster_dump(c) : NULL;
  if (roster || inc != c->inc_saved)
    hg__cluster_persist_write(c->state_dir, roster, inc != c->inc_saved, inc);
  free(roster);
}

int hg_cluster_decommission(hg_cluster *c, const char *node_id) {
  roster_ent *r = node_id ? hg__cluster_roster_get(c, node_id) : NULL;
  if (!r) return -ENOENT;
  const hg_swim_member *m = hg_swim_member_get(c->swim, node_id);
  if (strcmp(node_id, c->id) == 0 ||
      (m && (m->state == HG_MEMBER_ALIVE || m->state == HG_MEMBER_SUSPECT)))
    return -EBUSY;
  *r = c->roster[--c->nroster];
  c->roster_dirty = true;
  hg_log_info("cluster.decommission", "node=%s roster=%zu", node_id, c->nroster);
  hg__cluster_persist_schedule(c);
  return 0;
}
