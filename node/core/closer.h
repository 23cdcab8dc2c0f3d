/* closer: frees an owner of libuv handles once the last of them has closed
 * and the owner's own condition holds. A handle's memory must outlive its
 * close callback, so a struct holding several is freed (or its close
 * finishes) only after the last callback ran; most owners also wait for
 * something of their own (a work item back, its connections gone, a
 * persist done). That "free when nothing is open AND ..." test, and the
 * "save the caller's done, free, then call it" that follows, are written
 * here once instead of in each owner's maybe_free:
 *
 *   hg_closer_init(&o->closer, o, o_ready, o_free);  // once, at creation
 *   hg_closer_add(&o->closer, 1);                    // after each uv_*_init
 *   static void on_closed(uv_handle_t *h) {          // the close callback
 *     owner *o = h->data;
 *     hg_closer_closed(&o->closer);                  // may free o
 *   }
 *   hg_closer_check(&o->closer);  // o_ready may hold now (work came back)
 *
 * The owner keeps its handles' data pointers (pending write callbacks still
 * read them during a close), so its close callbacks stay its own; each is
 * one call. Caller-owned, loop thread only, like the handles. */
#ifndef HG_CORE_CLOSER_H
#define HG_CORE_CLOSER_H

#include <stdbool.h>

typedef struct hg_closer {
  unsigned open;               /* handles initialised whose close callback has not run */
  void *owner;
  bool (*ready)(void *owner);  /* the owner's own condition; NULL: none */
  void (*idle)(void *owner);   /* nothing open and ready: frees the owner, usually */
  void (*done)(void *ud);      /* the owner's closer's caller, told after idle */
  void *done_ud;
} hg_closer;

/* ready may be NULL; idle may free the owner, and cl with it. */
void hg_closer_init(hg_closer *cl, void *owner, bool (*ready)(void *owner),
                    void (*idle)(void *owner));

/* n more handles open (after their uv_*_init succeeded). */
static inline void hg_closer_add(hg_closer *cl, unsigned n) { cl->open += n; }

/* Whether none is open. */
static inline bool hg_closer_none(const hg_closer *cl) { return cl->open == 0; }

/* done(ud) is called once idle has run (the owner is gone by then), for the
 * owner's own close(owner, done, ud). */
void hg_closer_then(hg_closer *cl, void (*done)(void *ud), void *ud);

/* In a close callback: one handle fewer, then hg_closer_check. */
bool hg_closer_closed(hg_closer *cl);

/* Runs idle (then done) if nothing is open and ready holds. true: it ran,
 * and the owner may be freed: touch neither again. */
bool hg_closer_check(hg_closer *cl);

#endif
