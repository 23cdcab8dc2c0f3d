#include "node/core/keylock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct held {
  hg_strmap_node node;
  char key[];
} held;

int hg_keylock_init(hg_keylock *kl) {
  kl->held = (hg_strmap)HG_STRMAP_INIT;
  int rc = pthread_mutex_init(&kl->mu, NULL);
  if (rc) return -rc;
  if ((rc = pthread_cond_init(&kl->cv, NULL))) {
    pthread_mutex_destroy(&kl->mu);
    return -rc;
  }
  return 0;
}

void hg_keylock_destroy(hg_keylock *kl) {
  hg_strmap_free_all(&kl->held, offsetof(held, node));
  pthread_cond_destroy(&kl->cv);
  pthread_mutex_destroy(&kl->mu);
}

int hg_keylock_take(hg_keylock *kl, const char *key, bool wait) {
  size_t len = strlen(key);
  held *h = malloc(sizeof *h + len + 1);
  if (!h) return -ENOMEM;
  memcpy(h->key, key, len + 1);
  h->node.key = h->key;
  pthread_mutex_lock(&kl->mu);
  while (wait && hg_strmap_get(&kl->held, key)) pthread_cond_wait(&kl->cv, &kl->mu);
  int rc = hg_strmap_put(&kl->held, &h->node);
  pthread_mutex_unlock(&kl->mu);
  if (rc < 0) free(h);
  return rc == -EEXIST ? -EBUSY : rc;
}

void hg_keylock_release(hg_keylock *kl, const char *key) {
  pthread_mutex_lock(&kl->mu);
  hg_strmap_node *n = hg_strmap_get(&kl->held, key);
  if (n) hg_strmap_del(&kl->held, n);
  /* Waiters for other keys wake and sleep again: a few per release, as
   * the same key is rarely wanted twice at once. */
  pthread_cond_broadcast(&kl->cv);
  pthread_mutex_unlock(&kl->mu);
  free(n ? HG_CONTAINER_OF(n, held, node) : NULL);
}
