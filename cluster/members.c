/* cluster members: what we know of each member beyond swim (its decoded
 * metadata), the copy of the peers other threads read, and the members'
 * JSON for the API. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_internal.h"
#include "node/core/log.h"
#include "node/core/util.h"

/* ---- members' metadata ---- */

static member_info *minfo_get(hg_cluster *c, const char *id) {
  for (size_t i = 0; i < c->nminfo; i++)
    if (strcmp(c->minfo[i].id, id) == 0) return &c->minfo[i];
  return NULL;
}

static member_info *minfo_add(hg_cluster *c, const char *id) {
  if (c->nminfo == c->minfo_cap) {
    size_t cap = c->minfo_cap ? 2 * c->minfo_cap : 16;
    member_info *m = realloc(c->minfo, cap * sizeof *m);
    if (!m) return NULL;
    c->minfo = m;
    c->minfo_cap = cap;
  }
  member_info *m = &c->minfo[c->nminfo++];
  memset(m, 0, sizeof *m);
  hg__cluster_copy_str(m->id, sizeof m->id, id);
  return m;
}

/* Forgets the metadata of members swim has forgotten. */
void hg__cluster_minfo_prune(hg_cluster *c) {
  for (size_t i = 0; i < c->nminfo;) {
    if (!hg_swim_member_get(c->swim, c->minfo[i].id))
      c->minfo[i] = c->minfo[--c->nminfo];
    else
      i++;
  }
}

/* ---- peers, copied for other threads ----
 *
 * swim and member_info are the loop's. Each swim event about a member
 * updates its copy under mu (hg__cluster_on_member); every housekeeping tick the
 * whole copy is rebuilt, which also drops members swim has forgotten. */

/* m: the member's metadata, NULL when it has none yet. */
static void snap_fill(peer_snap *s, const char *id, hg_member_state st,
                      const hg_node_meta *m) {
  memset(s, 0, sizeof *s);
  hg__cluster_copy_str(s->p.id, sizeof s->p.id, id);
  s->state = st;
  s->p.alive = st == HG_MEMBER_ALIVE || st == HG_MEMBER_SUSPECT;
  s->p.suspect = st == HG_MEMBER_SUSPECT;
  if (!m) return;
  s->has_meta = true;
  hg__cluster_copy_str(s->p.api_addr, sizeof s->p.api_addr, m->api_addr);
  hg__cluster_copy_str(s->p.repl_addr, sizeof s->p.repl_addr, m->repl_addr);
  hg__cluster_copy_str(s->p.zone, sizeof s->p.zone, m->zone);
  s->p.draining = m->draining;
  s->p.memory_free_mib = m->memory_total_mib > m->memory_used_mib
                             ? m->memory_total_mib - m->memory_used_mib
                             : 0;
  hg__cluster_copy_str(s->vmm_kind, sizeof s->vmm_kind, m->vmm_kind);
  hg__cluster_copy_str(s->cpu_class, sizeof s->cpu_class, m->cpu_class);
}

/* Index of id in the sorted copy, or where it would go (caller holds mu). */
static size_t snap_find(const hg_cluster *c, const char *id, bool *found) {
  size_t lo = 0, hi = c->npeers;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int d = strcmp(c->peers[mid].p.id, id);
    if (d == 0) {
      *found = true;
      return mid;
    }
    if (d < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = false;
  return lo;
}

/* One member changed (loop). On ENOMEM the next rebuild catches up. */
static void snap_update(hg_cluster *c, const peer_snap *s) {
  bool found;
  pthread_mutex_lock(&c->mu);
  size_t i = snap_find(c, s->p.id, &found);
  if (!found && c->npeers == c->peers_cap) {
    size_t cap = c->peers_cap ? 2 * c->peers_cap : 16;
    peer_snap *a = realloc(c->peers, cap * sizeof *a);
    if (a) {
      c->peers = a;
      c->peers_cap = cap;
    }
  }
  if (found) {
    c->peers[i] = *s;
  } else if (c->npeers < c->peers_cap) {
    memmove(&c->peers[i + 1], &c->peers[i], (c->npeers - i) * sizeof *c->peers);
    c->peers[i] = *s;
    c->npeers++;
  }
  pthread_mutex_unlock(&c->mu);
}

static int snap_cmp(const void *a, const void *b) {
  return strcmp(((const peer_snap *)a)->p.id, ((const peer_snap *)b)->p.id);
}

/* The whole copy from swim, member_info and the roster (loop). The roster
 * members swim no longer knows are dead, as in members_json. */
void hg__cluster_peers_rebuild(hg_cluster *c) {
  size_t need = c->nminfo + c->nroster, k = 0;
  if (need > c->peers_build_cap) {
    peer_snap *a = realloc(c->peers_build, need * sizeof *a);
    if (!a) return; /* the per-event updates keep the old copy going */
    c->peers_build = a;
    c->peers_build_cap = need;
  }
  for (size_t i = 0; i < c->nminfo; i++) {
    const hg_swim_member *m = hg_swim_member_get(c->swim, c->minfo[i].id);
    if (m && strcmp(m->id, c->id) != 0)
      snap_fill(&c->peers_build[k++], m->id, m->state,
                c->minfo[i].has_meta ? &c->minfo[i].meta : NULL);
  }
  for (size_t i = 0; i < c->nroster; i++) {
    const char *id = c->roster[i].id;
    if (strcmp(id, c->id) != 0 && !hg_swim_member_get(c->swim, id))
      snap_fill(&c->peers_build[k++], id, HG_MEMBER_DEAD, NULL);
  }
  if (k > 1) qsort(c->peers_build, k, sizeof *c->peers_build, snap_cmp);
  pthread_mutex_lock(&c->mu);
  peer_snap *old = c->peers;
  size_t old_cap = c->peers_cap;
  c->peers = c->peers_build;
  c->peers_cap = c->peers_build_cap;
  c->npeers = k;
  pthread_mutex_unlock(&c->mu);
  c->peers_build = old;
  c->peers_build_cap = old_cap;
}

void hg__cluster_on_member(void *ud, const hg_swim_member *m, hg_member_state old,
                           bool is_new) {
  hg_cluster *c = ud;
  member_info *mi = minfo_get(c, m->id);
  if (!mi) mi = minfo_add(c, m->id);
  if (mi && (m->meta_len != mi->raw_len || memcmp(m->meta, mi->raw, m->meta_len) != 0)) {
    memcpy(mi->raw, m->meta, m->meta_len);
    mi->raw_len = m->meta_len;
    hg_node_meta meta;
    mi->has_meta = false;
    if (m->meta_len && hg_node_meta_decode(m->meta, m->meta_len, &meta) == 0) {
      mi->meta = meta;
      mi->has_meta = true;
    } else if (m->meta_len) {
      hg__cluster_drop(c, CL_DROP_MALFORMED, m->addr);
    }
  }
  if (m->state == HG_MEMBER_ALIVE)
    hg__cluster_roster_note(c, m->id, m->addr,
                            mi && mi->has_meta ? mi->meta.api_addr : NULL);
  if (strcmp(m->id, c->id) != 0) {
    peer_snap s;
    snap_fill(&s, m->id, m->state, mi && mi->has_meta ? &mi->meta : NULL);
    snap_update(c, &s);
  }
  if (is_new || old != m->state)
    hg_log_info("cluster.member",
                "node=%s state=%s was=%s incarnation=%" PRIu64 " addr=%s", m->id,
                hg_member_state_name(m->state),
                is_new ? "new" : hg_member_state_name(old), m->incarnation, m->addr);
  if ((is_new || old != m->state) && strcmp(m->id, c->id) != 0 && c->on_member_change)
    c->on_member_change(c->on_member_change_ud, m->id, m->state);
}

/* ---- members ---- */

hg_swim_member *hg__cluster_members_copy(hg_cluster *c, size_t *n) {
  size_t cap = hg_swim_members(c->swim, NULL, 0);
  hg_swim_member *a = calloc(cap ? cap : 1, sizeof *a);
  if (!a) {
    *n = 0;
    return NULL;
  }
  *n = hg_swim_members(c->swim, a, cap);
  if (*n > cap) *n = cap;
  return a;
}

/* Our own latest metadata, or a member's last decoded one. */
bool hg__cluster_meta_of(hg_cluster *c, const char *id, hg_node_meta *out) {
  if (strcmp(id, c->id) == 0) {
    pthread_mutex_lock(&c->mu);
    *out = c->meta;
    pthread_mutex_unlock(&c->mu);
    return true;
  }
  member_info *mi = minfo_get(c, id);
  if (!mi || !mi->has_meta) return false;
  *out = mi->meta;
  return true;
}

int hg_cluster_api_addr(hg_cluster *c, const char *node_id, char addr[HG_ADDR_MAX]) {
  const hg_swim_member *m = hg_swim_member_get(c->swim, node_id);
  if (!m) return -ENOENT;
  if (m->state != HG_MEMBER_ALIVE) return -EHOSTDOWN;
  hg_node_meta meta;
  if (!hg__cluster_meta_of(c, node_id, &meta) || !meta.api_addr[0]) return -ENOENT;
  hg__cluster_copy_str(addr, HG_ADDR_MAX, meta.api_addr);
  return 0;
}

/* ---- peers (thread-safe) ---- */

/* Caller holds mu: compatibility is judged against our metadata now. */
hg_cluster_peer hg__cluster_snap_peer(const hg_cluster *c, const peer_snap *s) {
  hg_cluster_peer p = s->p;
  p.compatible = s->has_meta && strcmp(s->vmm_kind, c->meta.vmm_kind) == 0 &&
                 strcmp(s->cpu_class, c->meta.cpu_class) == 0;
  return p;
}

size_t hg_cluster_peers(hg_cluster *c, hg_cluster_peer *out, size_t cap) {
  size_t k = 0;
  pthread_mutex_lock(&c->mu);
  for (size_t i = 0; i < c->npeers && k < cap; i++)
    if (c->peers[i].has_meta && c->peers[i].p.alive)
      out[k++] = hg__cluster_snap_peer(c, &c->peers[i]);
  pthread_mutex_unlock(&c->mu);
  return k;
}

int hg_cluster_peer_get(hg_cluster *c, const char *id, hg_cluster_peer *out) {
  if (!id) return -EINVAL;
  int rc = -ENOENT;
  pthread_mutex_lock(&c->mu);
  if (strcmp(id, c->id) == 0) {
    peer_snap s;
    snap_fill(&s, c->id, HG_MEMBER_ALIVE, &c->meta);
    *out = s.p;
    out->compatible = true;
    rc = 0;
  } else {
    bool found;
    size_t i = snap_find(c, id, &found);
    if (found && !c->peers[i].p.alive) {
      rc = -EHOSTDOWN;
    } else if (found && c->peers[i].has_meta) {
      *out = hg__cluster_snap_peer(c, &c->peers[i]);
      rc = 0;
    }
  }
  pthread_mutex_unlock(&c->mu);
  return rc;
}

json_t *hg__cluster_strs_json(const char *strs, size_t stride, unsigned n) {
  json_t *a = json_array();
  for (unsigned i = 0; i < n; i++)
    json_array_append_new(a, json_string(strs + i * stride));
  return a;
}

static json_t *member_json(hg_cluster *c, const char *id, const char *state, uint64_t inc,
                           int64_t since_wall, const char *gossip) {
  hg_node_meta meta;
  bool has = hg__cluster_meta_of(c, id, &meta);
  if (!has) memset(&meta, 0, sizeof meta);
  roster_ent *r = hg__cluster_roster_get(c, id);
  char since[32] = "";
  if (since_wall > 0) hg_iso_time(since_wall, since);
  const char *api = meta.api_addr[0] ? meta.api_addr : r ? r->api : "";
  return json_pack(
      "{s:s,s:s,s:I,s:s?,s:{s:s,s:s,s:s},s:s,s:b,s:{s:s,s:s,s:s},"
      "s:{s:I,s:I,s:I,s:I},s:{s:I,s:I,s:{s:I,s:I,s:I,s:I}},s:o,s:o,s:b,s:b}",
      "id", id, "state", state, "incarnation", (json_int_t)inc, "since",
      since[0] ? since : NULL, "addresses", "api", api, "gossip", gossip, "replication",
      meta.repl_addr, "zone", meta.zone, "draining", meta.draining, "vmm", "kind",
      meta.vmm_kind, "version", meta.vmm_version, "cpu_class", meta.cpu_class, "capacity",
      "vcpus", (json_int_t)meta.vcpus_total, "memory_mib",
      (json_int_t)meta.memory_total_mib, "disk_free_mib", (json_int_t)meta.disk_free_mib,
      "max_sandboxes", (json_int_t)meta.max_sandboxes, "load", "vcpus_used",
      (json_int_t)meta.vcpus_used, "memory_used_mib", (json_int_t)meta.memory_used_mib,
      "sandboxes", "running", (json_int_t)meta.sandboxes_running, "paused",
      (json_int_t)meta.sandboxes_paused, "suspended",
      (json_int_t)meta.sandboxes_suspended, "total", (json_int_t)meta.sandboxes_total,
      "templates",
      hg__cluster_strs_json(meta.templates[0], HG_META_NAME_MAX, meta.ntemplates),
      "labels", hg__cluster_strs_json(meta.labels[0], HG_META_NAME_MAX, meta.nlabels),
      "roster", r != NULL, "self", strcmp(id, c->id) == 0);
}

static int json_id_cmp(const void *a, const void *b) {
  const char *x = json_string_value(json_object_get(*(json_t *const *)a, "id"));
  const char *y = json_string_value(json_object_get(*(json_t *const *)b, "id"));
  return strcmp(x ? x : "", y ? y : "");
}

json_t *hg_cluster_members_json(hg_cluster *c) {
  size_t n = 0;
  hg_swim_member *ms = hg__cluster_members_copy(c, &n);
  int64_t mono = hg_now_ms(), wall = hg__cluster_wall_ms();
  size_t cap = n + c->nroster, k = 0;
  json_t **items = calloc(cap ? cap : 1, sizeof *items);
  json_t *out = json_array();
  if (!items || !out) goto done;
  for (size_t i = 0; i < n; i++)
    items[k++] =
        member_json(c, ms[i].id, hg_member_state_name(ms[i].state), ms[i].incarnation,
                    wall - (mono - ms[i].since_ms), ms[i].addr);
  /* Roster members swim has forgotten (dead long ago): still counted. */
  for (size_t i = 0; i < c->nroster; i++) {
    bool known = false;
    for (size_t j = 0; j < n && !known; j++)
      known = strcmp(ms[j].id, c->roster[i].id) == 0;
    if (!known)
      items[k++] = member_json(c, c->roster[i].id, "dead", 0, 0, c->roster[i].gossip);
  }
  qsort(items, k, sizeof *items, json_id_cmp);
  for (size_t i = 0; i < k; i++)
    if (items[i]) json_array_append_new(out, items[i]);
done:
  free(items);
  free(ms);
  return out;
}
