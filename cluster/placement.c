/* cluster placement: where a new sandbox goes (power of two choices over
 * the members with room), and which peers hold a sandbox's replicas
 * (rendezvous hashing spread across zones). See cluster.h. */
#include <errno.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_internal.h"
#include "node/core/log.h"

/* ---- replica targets (thread-safe) ---- */

typedef struct target_cand {
  hg_cluster_peer p;
  uint64_t w;
  bool suspect; /* after every alive one */
  bool taken;
} target_cand;

/* The first 8 bytes of SHA-256(key | 0x00 | id), big-endian. */
static int rendezvous_weight(EVP_MD_CTX *md, const char *key, const char *id,
                             uint64_t *w) {
  uint8_t h[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (!EVP_DigestInit_ex(md, EVP_sha256(), NULL) ||
      !EVP_DigestUpdate(md, key, strlen(key)) || !EVP_DigestUpdate(md, "", 1) ||
      !EVP_DigestUpdate(md, id, strlen(id)) || !EVP_DigestFinal_ex(md, h, &len) ||
      len < 8)
    return -EIO;
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | h[i];
  *w = v;
  return 0;
}

uint64_t hg_cluster_rendezvous(const char *key, const char *id) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  uint64_t w = 0;
  if (md && rendezvous_weight(md, key, id, &w) < 0) w = 0;
  EVP_MD_CTX_free(md);
  return w;
}

static int cand_cmp(const void *a, const void *b) {
  const target_cand *x = a, *y = b;
  if (x->suspect != y->suspect) return x->suspect ? 1 : -1;
  if (x->w != y->w) return x->w > y->w ? -1 : 1;
  return strcmp(x->p.id, y->p.id);
}

static bool str_in(const char *s, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] && strcmp(v[i], s) == 0) return true;
  return false;
}

typedef char zone_name[32];

static bool zone_in(zone_name *zones, size_t n, const char *z) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(zones[i], z) == 0) return true;
  return false;
}

/* Under mu: the eligible peers into cand (suspect ones too if suspect_ok),
 * and into zones our zone and those of the excluded peers still alive (a
 * dead holder keeps no zone safe). zones holds npeers + 1. */
static size_t targets_collect(hg_cluster *c, const char *const *exclude, size_t nexclude,
                              bool suspect_ok, target_cand *cand, zone_name *zones,
                              size_t *nzones) {
  size_t k = 0;
  hg__cluster_copy_str(zones[(*nzones)++], sizeof *zones, c->meta.zone);
  for (size_t i = 0; i < c->npeers; i++) {
    const peer_snap *s = &c->peers[i];
    if (!s->has_meta) continue;
    if (str_in(s->p.id, exclude, nexclude)) {
      if (s->p.alive && !zone_in(zones, *nzones, s->p.zone))
        hg__cluster_copy_str(zones[(*nzones)++], sizeof *zones, s->p.zone);
      continue;
    }
    hg_cluster_peer p = hg__cluster_snap_peer(c, s);
    bool suspect = s->state == HG_MEMBER_SUSPECT;
    if ((s->state == HG_MEMBER_ALIVE || (suspect_ok && suspect)) && p.compatible &&
        !p.draining && p.repl_addr[0])
      cand[k++] = (target_cand){.p = p, .suspect = suspect};
  }
  return k;
}

static size_t targets(hg_cluster *c, const char *key, const char *const *exclude,
                      size_t nexclude, size_t n, bool suspect_ok, hg_cluster_peer *out) {
  if (!key || !n || !out) return 0;
  size_t ncand = 0, nzones = 0, k = 0;
  pthread_mutex_lock(&c->mu);
  target_cand *cand = malloc((c->npeers ? c->npeers : 1) * sizeof *cand);
  zone_name *zones = malloc((c->npeers + 1) * sizeof *zones);
  if (cand && zones)
    ncand = targets_collect(c, exclude, nexclude, suspect_ok, cand, zones, &nzones);
  pthread_mutex_unlock(&c->mu);
  EVP_MD_CTX *md = cand && zones ? EVP_MD_CTX_new() : NULL;
  int rc = md ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < ncand; i++)
    rc = rendezvous_weight(md, key, cand[i].p.id, &cand[i].w);
  if (rc < 0) {
    hg_log_error("cluster.replica_targets", "key=%s err=%s", key, uv_strerror(rc));
    ncand = 0;
  }
  if (ncand > 1) qsort(cand, ncand, sizeof *cand, cand_cmp);
  /* First the best of each zone no copy is in yet, then by weight alone. */
  for (size_t i = 0; i < ncand && k < n; i++) {
    if (zone_in(zones, nzones, cand[i].p.zone)) continue;
    hg__cluster_copy_str(zones[nzones++], sizeof *zones, cand[i].p.zone);
    cand[i].taken = true;
    out[k++] = cand[i].p;
  }
  for (size_t i = 0; i < ncand && k < n; i++)
    if (!cand[i].taken) out[k++] = cand[i].p;
  EVP_MD_CTX_free(md);
  free(cand);
  free(zones);
  return k;
}

size_t hg_cluster_replica_targets(hg_cluster *c, const char *key,
                                  const char *const *exclude, size_t nexclude, size_t n,
                                  hg_cluster_peer *out) {
  return targets(c, key, exclude, nexclude, n, false, out);
}

size_t hg_cluster_acceptor_targets(hg_cluster *c, const char *key, size_t n,
                                   hg_cluster_peer *out) {
  return targets(c, key, NULL, 0, n, true, out);
}

/* ---- placement ---- */

static void template_norm(const char *ref, char out[HG_META_NAME_MAX]) {
  if (!ref || !ref[0]) ref = "default";
  if (strchr(ref, ':'))
    hg__cluster_copy_str(out, HG_META_NAME_MAX, ref);
  else
    snprintf(out, HG_META_NAME_MAX, "%.*s:latest", HG_META_NAME_MAX - 8, ref);
}

static bool has_str(const char *strs, size_t stride, unsigned n, const char *s) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(strs + i * stride, s) == 0) return true;
  return false;
}

static bool has_room(const hg_node_meta *m, const hg_place_req *req) {
  if (m->max_sandboxes && m->sandboxes_total >= m->max_sandboxes) return false;
  if (m->memory_total_mib && (m->memory_used_mib > m->memory_total_mib ||
                              m->memory_total_mib - m->memory_used_mib < req->memory_mib))
    return false;
  return true;
}

static uint64_t free_mib(const hg_node_meta *m) {
  if (!m->memory_total_mib) return UINT64_MAX;
  return m->memory_used_mib > m->memory_total_mib
             ? 0
             : m->memory_total_mib - m->memory_used_mib;
}

/* Which filter a node fails first; counts per filter make the reason. */
enum place_fail { PF_OK, PF_DRAINING, PF_TEMPLATE, PF_ZONE, PF_LABEL, PF_FULL };

static enum place_fail place_check(const hg_node_meta *m, const hg_place_req *req,
                                   const char *tmpl) {
  if (m->draining) return PF_DRAINING;
  if (!has_str(m->templates[0], HG_META_NAME_MAX, m->ntemplates, tmpl))
    return PF_TEMPLATE;
  if (req->zone && req->zone[0] && strcmp(m->zone, req->zone) != 0) return PF_ZONE;
  if (req->label && req->label[0] &&
      !has_str(m->labels[0], HG_META_NAME_MAX, m->nlabels, req->label))
    return PF_LABEL;
  if (!has_room(m, req)) return PF_FULL;
  return PF_OK;
}

static bool better(const hg_node_meta *a, const hg_node_meta *b) {
  uint64_t fa = free_mib(a), fb = free_mib(b);
  if (fa != fb) return fa > fb;
  return a->sandboxes_total < b->sandboxes_total;
}

int hg_cluster_place(hg_cluster *c, const hg_place_req *req, char node_id[HG_NODE_ID_MAX],
                     char api_addr[HG_ADDR_MAX], char reason[256]) {
  char tmpl[HG_META_NAME_MAX];
  template_norm(req->template_ref, tmpl);
  hg_node_meta self;
  hg__cluster_meta_of(c, c->id, &self);
  if (place_check(&self, req, tmpl) == PF_OK) return 1;

  size_t n = 0;
  hg_swim_member *ms = hg__cluster_members_copy(c, &n);
  hg_node_meta *cand = calloc(n ? n : 1, sizeof *cand);
  if (!ms || !cand) {
    free(ms);
    free(cand);
    snprintf(reason, 256, "out of memory while placing");
    return -ENOMEM;
  }
  size_t ncand = 0, alive = 1, fails[PF_FULL + 1] = {0};
  fails[place_check(&self, req, tmpl)]++;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(ms[i].id, c->id) == 0 || ms[i].state != HG_MEMBER_ALIVE) continue;
    alive++;
    hg_node_meta m;
    if (!hg__cluster_meta_of(c, ms[i].id, &m) || !m.api_addr[0]) continue;
    enum place_fail f = place_check(&m, req, tmpl);
    fails[f]++;
    if (f == PF_OK) cand[ncand++] = m;
  }
  free(ms);
  int rc = 0;
  if (ncand == 0) {
    size_t with_tmpl = fails[PF_ZONE] + fails[PF_LABEL] + fails[PF_FULL];
    if (fails[PF_DRAINING] == alive)
      snprintf(reason, 256, "every alive node is draining (%zu nodes)", alive);
    else if (with_tmpl == 0)
      snprintf(reason, 256, "no alive node has template %s", tmpl);
    else if (fails[PF_FULL] == 0 && fails[PF_LABEL] == 0)
      snprintf(reason, 256, "no node in zone %s has template %s", req->zone, tmpl);
    else if (fails[PF_FULL] == 0)
      snprintf(reason, 256, "no node with label %s has template %s", req->label, tmpl);
    else
      snprintf(reason, 256, "every node with template %s%s%s is full (%zu node%s)", tmpl,
               req->zone && req->zone[0] ? " in zone " : "", req->zone ? req->zone : "",
               fails[PF_FULL], fails[PF_FULL] == 1 ? "" : "s");
    rc = -ENOSPC;
  } else {
    /* Power of two choices: two random candidates, the emptier wins. */
    const hg_node_meta *a = &cand[hg__cluster_rnd(c) % ncand], *pick = a;
    if (ncand > 1) {
      size_t j = hg__cluster_rnd(c) % (ncand - 1);
      const hg_node_meta *b = &cand[j >= (size_t)(a - cand) ? j + 1 : j];
      pick = better(b, a) ? b : a;
    }
    hg__cluster_copy_str(node_id, HG_NODE_ID_MAX, pick->id);
    hg__cluster_copy_str(api_addr, HG_ADDR_MAX, pick->api_addr);
  }
  free(cand);
  return rc;
}
