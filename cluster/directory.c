/* cluster directory: the sandbox directory, a hash table under mu (see
 * cluster.h for the rules of put, get and update). Other threads put; the
 * loop broadcasts what they put (the async handle) and merges what gossip
 * and push-pulls bring. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_internal.h"
#include "node/core/log.h"
#include "node/core/strmap.h"
#include "node/core/util.h"

/* ---- directory (caller holds mu) ---- */

static dir_node *dir_find(hg_cluster *c, const char *sandbox) {
  dir_node *n = c->buckets[hg_strmap_hash(sandbox) & (c->nbuckets - 1)];
  for (; n; n = n->next)
    if (strcmp(n->e.sandbox, sandbox) == 0) return n;
  return NULL;
}

static void dir_unlink(hg_cluster *c, dir_node *victim) {
  dir_node **pp = &c->buckets[hg_strmap_hash(victim->e.sandbox) & (c->nbuckets - 1)];
  while (*pp != victim) pp = &(*pp)->next;
  *pp = victim->next;
  c->ndir--;
  free(victim);
}

static bool is_tombstone(const hg_dirent *e) {
  return strcmp(e->state, "deleted") == 0;
}

/* Full: the oldest tombstone makes room; live entries are never evicted. */
static bool dir_make_room(hg_cluster *c) {
  dir_node *oldest = NULL;
  for (size_t b = 0; b < c->nbuckets; b++)
    for (dir_node *n = c->buckets[b]; n; n = n->next)
      if (is_tombstone(&n->e) && (!oldest || n->stored_ms < oldest->stored_ms))
        oldest = n;
  if (!oldest) return false;
  dir_unlink(c, oldest);
  return true;
}

static void dir_grow(hg_cluster *c) {
  size_t nb = c->nbuckets * 2;
  dir_node **b = calloc(nb, sizeof *b);
  if (!b) return; /* longer chains, still correct */
  for (size_t i = 0; i < c->nbuckets; i++) {
    for (dir_node *n = c->buckets[i], *next; n; n = next) {
      next = n->next;
      size_t k = hg_strmap_hash(n->e.sandbox) & (nb - 1);
      n->next = b[k];
      b[k] = n;
    }
  }
  free(c->buckets);
  c->buckets = b;
  c->nbuckets = nb;
}

/* A tombstone older than tombstone_ms by the deleter's wall clock. Every
 * node forgets a tombstone at that same age (within the clocks' skew), and
 * none takes one that old back from a peer that has not swept yet: else
 * two nodes that expire it at different times hand it back and forth, and
 * a holder that returns after the tombstone's time learns of the delete
 * from a tombstone that should be gone (DESIGN §9: it asks the group). */
static bool tombstone_expired(const hg_cluster *c, const hg_dirent *e, int64_t wall_ms) {
  return is_tombstone(e) && wall_ms - e->updated_ms > c->tombstone_ms;
}

/* 1: stored (it was newer), 0: ignored (not newer, or an expired
 * tombstone of an entry not known here), -ENOSPC, -ENOMEM. */
int hg__cluster_dir_merge(hg_cluster *c, const hg_dirent *e) {
  dir_node *n = dir_find(c, e->sandbox);
  if (!n && tombstone_expired(c, e, hg__cluster_wall_ms())) return 0;
  if (n) {
    if (hg_dirent_cmp(e, &n->e) <= 0) return 0;
    n->e = *e;
    n->stored_ms = hg_now_ms();
    return 1;
  }
  if (c->ndir >= CL_DIR_MAX && !dir_make_room(c)) {
    c->dir_refused++;
    return -ENOSPC;
  }
  n = calloc(1, sizeof *n);
  if (!n) return -ENOMEM;
  n->e = *e;
  n->stored_ms = hg_now_ms();
  size_t k = hg_strmap_hash(e->sandbox) & (c->nbuckets - 1);
  n->next = c->buckets[k];
  c->buckets[k] = n;
  if (++c->ndir > 2 * c->nbuckets) dir_grow(c);
  return 1;
}

void hg__cluster_dir_sweep(hg_cluster *c) {
  int64_t now = hg_now_ms(), wall = hg__cluster_wall_ms();
  pthread_mutex_lock(&c->mu);
  for (size_t b = 0; b < c->nbuckets; b++) {
    for (dir_node *n = c->buckets[b], *next; n; n = next) {
      next = n->next;
      bool old = now - n->stored_ms > c->tombstone_ms || tombstone_expired(c, &n->e, wall);
      if (is_tombstone(&n->e) && old) dir_unlink(c, n);
    }
  }
  pthread_mutex_unlock(&c->mu);
}

void hg__cluster_dir_free(hg_cluster *c) {
  for (size_t b = 0; b < c->nbuckets; b++) {
    for (dir_node *n = c->buckets[b], *next; n; n = next) {
      next = n->next;
      free(n);
    }
  }
  free(c->buckets);
  c->buckets = NULL;
  c->ndir = 0;
}

/* Copies the whole directory (for a push-pull). */
int hg__cluster_dir_snapshot(hg_cluster *c, hg_dirent **out, size_t *n) {
  pthread_mutex_lock(&c->mu);
  hg_dirent *a = c->ndir ? malloc(c->ndir * sizeof *a) : NULL;
  size_t k = 0;
  if (a || !c->ndir) {
    for (size_t b = 0; b < c->nbuckets; b++)
      for (dir_node *d = c->buckets[b]; d; d = d->next) a[k++] = d->e;
  }
  pthread_mutex_unlock(&c->mu);
  if (c->ndir && !a) return -ENOMEM;
  *out = a;
  *n = k;
  return 0;
}

void hg__cluster_on_user(void *ud, const hg_wire_user *u) {
  hg_cluster *c = ud;
  hg_dirent e;
  if (hg_dirent_decode(u->data, u->len, &e) < 0 || strcmp(e.sandbox, u->key) != 0) {
    hg__cluster_drop(c, CL_DROP_MALFORMED, NULL);
    return;
  }
  pthread_mutex_lock(&c->mu);
  hg__cluster_dir_merge(c, &e);
  pthread_mutex_unlock(&c->mu);
}

/* Directory entries put by other threads, broadcast from the loop. */
void hg__cluster_dir_on_async(uv_async_t *a) {
  hg_cluster *c = a->data;
  for (;;) {
    hg_wire_user u;
    bool have = false;
    pthread_mutex_lock(&c->mu);
    while (c->npending && !have) {
      dir_node *n = dir_find(c, c->pending[--c->npending]);
      if (!n) continue;
      hg__cluster_copy_str(u.key, sizeof u.key, n->e.sandbox);
      have = hg_dirent_encode(&n->e, u.data, sizeof u.data, &u.len) == 0;
    }
    pthread_mutex_unlock(&c->mu);
    if (!have) break;
    if (c->started && !c->shutting) hg_swim_broadcast_user(c->swim, &u);
    c->dir_burst++;
  }
  hg__cluster_after_swim(c);
}

/* Gossip carries a handful of entries a datagram, each a few times: some
 * hundred entries a second to a peer. A burst of changes (a failover
 * adopting hundreds of sandboxes, a mass create) would take seconds to be
 * heard, and every node answers the API from its copy. Past CL_DIR_BURST
 * broadcasts the whole directory also goes to every live member by
 * push-pull (one compressed TCP exchange each, both ways), at most every
 * CL_DIR_BURST_MS; the swim timer (gossip's interval at most) brings this
 * back for the rest of a longer one. A burst's tail goes the same way, up
 * to CL_DIR_TAIL_MS after its last push: gossip alone took a failover's
 * last few dozen adoptions most of a second to carry (docs/benchmarks.md).
 * A change on its own, outside a burst, goes by gossip alone. Loop only. */
void hg__cluster_dir_burst(hg_cluster *c) {
  int64_t now = hg_now_ms();
  unsigned enough = now < c->dir_tail_until_ms ? 1 : CL_DIR_BURST;
  if (c->dir_burst < enough || now < c->dir_burst_next_ms || !c->started || c->shutting)
    return;
  size_t n;
  hg_swim_member *ms = hg__cluster_members_copy(c, &n);
  if (!ms) return;
  unsigned sent = 0;
  for (size_t i = 0; i < n; i++)
    if (ms[i].state == HG_MEMBER_ALIVE && strcmp(ms[i].id, c->id) != 0) {
      hg__cluster_push_pull(c, ms[i].addr, false);
      sent++;
    }
  hg_log_debug("cluster.dir_burst", "changes=%u peers=%u", c->dir_burst, sent);
  free(ms);
  c->dir_burst = 0;
  c->dir_burst_next_ms = now + CL_DIR_BURST_MS;
  c->dir_tail_until_ms = now + CL_DIR_TAIL_MS;
}

/* ---- the directory API (thread-safe) ---- */

static bool dirent_valid(const hg_dirent *e) {
  return e->sandbox[0] && strnlen(e->sandbox, sizeof e->sandbox) < sizeof e->sandbox;
}

/* dir_put's work, caller holds mu: version, fence, merge, queue the
 * broadcast. */
static int dir_put_locked(hg_cluster *c, const hg_dirent *e) {
  hg_dirent n = *e;
  if (!n.owner[0]) hg__cluster_copy_str(n.owner, sizeof n.owner, c->id);
  if (!n.updated_ms) n.updated_ms = hg__cluster_wall_ms();
  int rc = 0;
  dir_node *old = dir_find(c, n.sandbox);
  if (old && old->e.epoch > n.epoch) {
    rc = -ESTALE; /* fenced: someone claimed it at a higher epoch */
  } else {
    /* The version never goes back, even for an owner that restarted and
     * has not heard its old entries yet: floor it at the wall clock. */
    uint64_t v = (uint64_t)hg__cluster_wall_ms();
    if (old && old->e.epoch == n.epoch && old->e.version >= v) v = old->e.version + 1;
    if (n.version >= v) v = n.version + 1;
    n.version = v;
    rc = hg__cluster_dir_merge(c, &n);
    if (rc > 0) rc = 0;
  }
  bool signal = false;
  if (rc == 0 && c->npending < CL_PENDING_MAX) {
    if (c->npending == c->pending_cap) {
      size_t cap = c->pending_cap ? 2 * c->pending_cap : 64;
      void *p = realloc(c->pending, cap * sizeof *c->pending);
      if (p) {
        c->pending = p;
        c->pending_cap = cap;
      }
    }
    if (c->npending < c->pending_cap) {
      hg__cluster_copy_str(c->pending[c->npending++], HG_ID_MAX, n.sandbox);
      signal = !c->async_closed;
    }
  }
  if (signal) uv_async_send(&c->async);
  return rc;
}

int hg_cluster_dir_put(hg_cluster *c, const hg_dirent *e) {
  if (!dirent_valid(e)) return -EINVAL;
  pthread_mutex_lock(&c->mu);
  int rc = dir_put_locked(c, e);
  pthread_mutex_unlock(&c->mu);
  return rc;
}

int hg_cluster_dir_update(hg_cluster *c, const char *sandbox, hg_cluster_dir_fn fn,
                          void *arg) {
  hg_dirent e;
  memset(&e, 0, sizeof e);
  if (!sandbox || strlen(sandbox) >= sizeof e.sandbox || !sandbox[0]) return -EINVAL;
  pthread_mutex_lock(&c->mu);
  dir_node *n = dir_find(c, sandbox);
  if (n)
    e = n->e;
  else
    hg__cluster_copy_str(e.sandbox, sizeof e.sandbox, sandbox);
  int rc = fn(arg, &e, n != NULL);
  if (rc > 0) {
    /* fn edits one entry: the key stays the one asked for. */
    hg__cluster_copy_str(e.sandbox, sizeof e.sandbox, sandbox);
    rc = dir_put_locked(c, &e);
  }
  pthread_mutex_unlock(&c->mu);
  return rc;
}

int hg_cluster_dir_get(hg_cluster *c, const char *sandbox, hg_dirent *out) {
  if (!sandbox) return -EINVAL;
  pthread_mutex_lock(&c->mu);
  dir_node *n = dir_find(c, sandbox);
  if (n) *out = n->e;
  pthread_mutex_unlock(&c->mu);
  return n ? 0 : -ENOENT;
}

static int dirent_ptr_cmp(const void *a, const void *b) {
  return strcmp((*(const hg_dirent *const *)a)->sandbox,
                (*(const hg_dirent *const *)b)->sandbox);
}

json_t *hg_cluster_dir_json(hg_cluster *c) {
  json_t *out = json_array();
  pthread_mutex_lock(&c->mu);
  const hg_dirent **v = malloc((c->ndir ? c->ndir : 1) * sizeof *v);
  size_t k = 0;
  if (v) {
    for (size_t b = 0; b < c->nbuckets; b++)
      for (dir_node *n = c->buckets[b]; n; n = n->next) v[k++] = &n->e;
    qsort(v, k, sizeof *v, dirent_ptr_cmp);
  }
  for (size_t i = 0; i < k; i++) {
    const hg_dirent *e = v[i];
    char t[32];
    hg_iso_time(e->updated_ms, t);
    json_array_append_new(
        out, json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:I,s:o,s:s}", "sandbox", e->sandbox,
                       "owner", e->owner, "epoch", (json_int_t)e->epoch, "version",
                       (json_int_t)e->version, "state", e->state, "template",
                       e->template_ref, "gen", (json_int_t)e->gen, "holders",
                       hg__cluster_strs_json(e->holders[0], HG_NODE_ID_MAX, e->nholders),
                       "updated_at", t));
  }
  pthread_mutex_unlock(&c->mu);
  free(v);
  return out;
}
