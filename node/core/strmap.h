/* strmap: an intrusive hash table keyed by NUL-terminated strings.
 *
 * The caller embeds an hg_strmap_node in its own struct, points node.key at
 * the key the struct holds (it must not change while the node is in a map)
 * and gets the struct back with HG_CONTAINER_OF. The map owns only its
 * bucket array: nodes are the caller's to allocate and free. Chained, grows
 * by doubling past 3/4 full; not thread-safe. */
#ifndef HG_CORE_STRMAP_H
#define HG_CORE_STRMAP_H

#include <stddef.h>

#ifndef HG_CONTAINER_OF
#define HG_CONTAINER_OF(ptr, type, member) \
  ((type *)((char *)(ptr)-offsetof(type, member)))
#endif

typedef struct hg_strmap_node {
  struct hg_strmap_node *next;
  const char *key;
} hg_strmap_node;

typedef struct hg_strmap {
  hg_strmap_node **buckets;
  size_t nbuckets; /* a power of two, or 0 before the first put */
  size_t count;
} hg_strmap;

#define HG_STRMAP_INIT \
  { NULL, 0, 0 }

/* The map's hash of a key (FNV-1a). */
size_t hg_strmap_hash(const char *s);
/* The node whose key equals key, or NULL. */
hg_strmap_node *hg_strmap_get(const hg_strmap *m, const char *key);
/* Adds n (n->key set): 0, -EEXIST when the key is there already (n is not
 * added), -ENOMEM. */
int hg_strmap_put(hg_strmap *m, hg_strmap_node *n);
/* Removes n, which must be in m. */
void hg_strmap_del(hg_strmap *m, hg_strmap_node *n);
/* Iteration in no particular order: start with *cursor = 0 and prev NULL;
 * returns the next node or NULL at the end. The node returned may be
 * removed (not freed) before the next call; no put while iterating. */
hg_strmap_node *hg_strmap_next(const hg_strmap *m, size_t *cursor, hg_strmap_node *prev);
/* Frees the bucket array (not the nodes); the map is empty afterwards. */
void hg_strmap_clear(hg_strmap *m);
/* For maps whose nodes are malloc'd containers with the node at offset
 * (offsetof(type, member)): frees every container, then clears. */
void hg_strmap_free_all(hg_strmap *m, size_t offset);

#endif
