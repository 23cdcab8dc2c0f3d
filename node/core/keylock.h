/* keylock: one holder at a time per string key, for any number of keys.
 *
 * For steps that must not interleave over one name (a sandbox's moves, a
 * sandbox's receives) while steps over other names go on beside them: a
 * fixed array of stripes would make unrelated names wait for each other
 * (a mass failover's hundreds of adopts, each waiting for a disk commit,
 * queued behind 64 stripes). Threads block; nothing here runs on a loop. */
#ifndef HG_CORE_KEYLOCK_H
#define HG_CORE_KEYLOCK_H

#include <pthread.h>
#include <stdbool.h>

#include "node/core/strmap.h"

typedef struct hg_keylock {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a key was released */
  hg_strmap held;    /* the keys taken */
} hg_keylock;

int hg_keylock_init(hg_keylock *kl);
/* No key may be held. */
void hg_keylock_destroy(hg_keylock *kl);
/* Takes key, waiting for its holder when wait: 0, -EBUSY (held, !wait),
 * -ENOMEM. */
int hg_keylock_take(hg_keylock *kl, const char *key, bool wait);
/* Releases key, which the caller took. */
void hg_keylock_release(hg_keylock *kl, const char *key);

#endif
