#include "node/core/guard.h"

void hg_guard_init(hg_guard *g, void *ptr) {
  pthread_mutex_init(&g->mu, NULL);
  g->ptr = ptr;
}

void hg_guard_destroy(hg_guard *g) {
  pthread_mutex_destroy(&g->mu);
}

void *hg_guard_enter(hg_guard *g) {
  pthread_mutex_lock(&g->mu);
  return g->ptr;
}

void hg_guard_leave(hg_guard *g) {
  pthread_mutex_unlock(&g->mu);
}

void hg_guard_set(hg_guard *g, void *ptr) {
  pthread_mutex_lock(&g->mu);
  g->ptr = ptr;
  pthread_mutex_unlock(&g->mu);
}
