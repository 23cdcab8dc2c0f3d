#include "node/core/closer.h"

#include <assert.h>
#include <stddef.h>

void hg_closer_init(hg_closer *cl, void *owner, bool (*ready)(void *owner),
                    void (*idle)(void *owner)) {
  *cl = (hg_closer){.owner = owner, .ready = ready, .idle = idle};
}

void hg_closer_then(hg_closer *cl, void (*done)(void *ud), void *ud) {
  cl->done = done;
  cl->done_ud = ud;
}

bool hg_closer_closed(hg_closer *cl) {
  assert(cl->open > 0); /* a close callback for a handle never counted */
  cl->open--;
  return hg_closer_check(cl);
}

bool hg_closer_check(hg_closer *cl) {
  if (cl->open > 0 || (cl->ready && !cl->ready(cl->owner))) return false;
  /* idle usually frees the struct cl lives in: read what is needed first */
  void (*done)(void *) = cl->done;
  void *ud = cl->done_ud;
  cl->idle(cl->owner);
  if (done) done(ud);
  return true;
}
