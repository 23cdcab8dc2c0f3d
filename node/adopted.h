/* adopted: the records of sandboxes adopted lazily and not yet copied into
 * place (node/sandbox.c's hg_sandbox_adopt), group-committed in
 * <data>/adopted/; see adopted.c. Internal to the manager. */
#ifndef HG_NODE_ADOPTED_H
#define HG_NODE_ADOPTED_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct hg_adopted hg_adopted;

/* Reads what dir (<data>/adopted) holds (an id in two files keeps its
 * highest epoch, the other file is written again without it). */
int hg__adopted_open(const char *dir, hg_adopted **out);
void hg__adopted_close(hg_adopted *a);
/* Calls fn with each record (from NULL, epoch 0: one that does not read). */
void hg__adopted_each(hg_adopted *a,
                      void (*fn)(void *ud, const char *id, const char *from, uint64_t epoch),
                      void *ud);
/* Records id as adopted from generation `from` at epoch; on disk when it
 * returns, in one write with the records other threads put meanwhile. */
int hg__adopted_put(hg_adopted *a, const char *id, const char *from, uint64_t epoch);
/* Removes id's record, if any; durable: the removal is synced too. */
int hg__adopted_remove(hg_adopted *a, const char *id, bool durable);

#endif
