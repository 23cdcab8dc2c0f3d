#include "node/core/strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STRMAP_MIN_BUCKETS 64

/* FNV-1a: keys are short ids; nothing here is chosen by an attacker who
 * could also see the bucket count, and a long chain costs time, not
 * correctness. */
size_t hg_strmap_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;
}

static hg_strmap_node **slot_of(const hg_strmap *m, const char *key) {
  return &m->buckets[hg_strmap_hash(key) & (m->nbuckets - 1)];
}

hg_strmap_node *hg_strmap_get(const hg_strmap *m, const char *key) {
  if (!m->nbuckets) return NULL;
  for (hg_strmap_node *n = *slot_of(m, key); n; n = n->next)
    if (strcmp(n->key, key) == 0) return n;
  return NULL;
}

static int strmap_grow(hg_strmap *m) {
  size_t nb = m->nbuckets ? m->nbuckets * 2 : STRMAP_MIN_BUCKETS;
  hg_strmap_node **b = calloc(nb, sizeof *b);
  if (!b) return -ENOMEM;
  for (size_t i = 0; i < m->nbuckets; i++) {
    for (hg_strmap_node *n = m->buckets[i], *next; n; n = next) {
      next = n->next;
      hg_strmap_node **slot = &b[hg_strmap_hash(n->key) & (nb - 1)];
      n->next = *slot;
      *slot = n;
    }
  }
  free(m->buckets);
  m->buckets = b;
  m->nbuckets = nb;
  return 0;
}

int hg_strmap_put(hg_strmap *m, hg_strmap_node *n) {
  if (hg_strmap_get(m, n->key)) return -EEXIST;
  if (m->count + 1 > m->nbuckets / 4 * 3) {
    int rc = strmap_grow(m);
    if (rc < 0) return rc;
  }
  hg_strmap_node **slot = slot_of(m, n->key);
  n->next = *slot;
  *slot = n;
  m->count++;
  return 0;
}

void hg_strmap_del(hg_strmap *m, hg_strmap_node *n) {
  for (hg_strmap_node **pp = slot_of(m, n->key); *pp; pp = &(*pp)->next) {
    if (*pp == n) {
      *pp = n->next; /* n->next stays: an iteration that returned n goes on */
      m->count--;
      return;
    }
  }
}

hg_strmap_node *hg_strmap_next(const hg_strmap *m, size_t *cursor, hg_strmap_node *prev) {
  if (prev && prev->next) return prev->next;
  while (*cursor < m->nbuckets) {
    hg_strmap_node *n = m->buckets[(*cursor)++];
    if (n) return n;
  }
  return NULL;
}

void hg_strmap_clear(hg_strmap *m) {
  free(m->buckets);
  *m = (hg_strmap)HG_STRMAP_INIT;
}

void hg_strmap_free_all(hg_strmap *m, size_t offset) {
  size_t cur = 0;
  for (hg_strmap_node *n = hg_strmap_next(m, &cur, NULL), *next; n; n = next) {
    next = hg_strmap_next(m, &cur, n);
    free((char *)n - offset);
  }
  hg_strmap_clear(m);
}
