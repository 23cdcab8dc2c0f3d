/* cluster_internal: hooks for tests, not for hangard. */
#ifndef HG_CLUSTER_CLUSTER_INTERNAL_H
#define HG_CLUSTER_CLUSTER_INTERNAL_H

#include "cluster/cluster.h"

/* Like hg_cluster_close but as a crash looks from outside: no leave, no
 * final flush of roster or incarnation; handles closed, memory freed, then
 * done. */
void hg_cluster_crash(hg_cluster *c, void (*done)(void *ud), void *ud);

#endif
