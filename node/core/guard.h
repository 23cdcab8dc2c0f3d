/* guard: a handle that threads use while the loop may take it away.
 *
 * hangard closes the cluster on the loop while threads (the manager's
 * change hook, the meta worker, the replicator's workers) may be about to
 * call into it. Each such call runs between hg_guard_enter, which hands out
 * the handle or NULL once it is cleared, and hg_guard_leave; hg_guard_set
 * (NULL) waits for the calls under way, so nothing reaches the handle after
 * it returns. One user at a time: the callers also rely on it to keep their
 * own read-modify-write steps whole. */
#ifndef HG_CORE_GUARD_H
#define HG_CORE_GUARD_H

#include <pthread.h>

typedef struct hg_guard {
  pthread_mutex_t mu;
  void *ptr;
} hg_guard;

void hg_guard_init(hg_guard *g, void *ptr);
void hg_guard_destroy(hg_guard *g);
/* Locks; the handle, or NULL once cleared. Always paired with leave. */
void *hg_guard_enter(hg_guard *g);
void hg_guard_leave(hg_guard *g);
/* Sets the handle (NULL: takes it away), after any user has left. */
void hg_guard_set(hg_guard *g, void *ptr);

#endif
