/* handles: how many of an owner's libuv handles are still open. A handle's
 * memory must outlive its close callback, so a struct holding several is
 * freed (or its own close finishes) only after the last callback ran. Every
 * owner in the tree counts them this one way:
 *
 *   hg_handles_add(&o->handles, 1);            // after each uv_*_init
 *   uv_close(h, on_closed);                    // ...
 *   static void on_closed(uv_handle_t *h) {    // the close callback
 *     if (hg_handles_closed(&o->handles)) free(o);
 *   }
 *
 * Loop thread only, like the handles. */
#ifndef HG_CORE_HANDLES_H
#define HG_CORE_HANDLES_H

#include <stdbool.h>

typedef struct hg_handles {
  unsigned open;
} hg_handles;

static inline void hg_handles_add(hg_handles *h, unsigned n) { h->open += n; }

/* In a close callback: one fewer; whether it was the last. */
static inline bool hg_handles_closed(hg_handles *h) { return --h->open == 0; }

/* Whether none is open (nothing left to wait for). */
static inline bool hg_handles_none(const hg_handles *h) { return h->open == 0; }

#endif
