/* members: `hangar members`, and the cluster part of `hangar status`. */
#ifndef HG_CLI_MEMBERS_H
#define HG_CLI_MEMBERS_H

#include <jansson.h>

#include "node/core/buf.h"
#include "tools/cli/cli.h"
#include "tools/cli/client.h"

int hg_cmd_members(hg_client *c, const hg_cli_args *a);

/* The `members` table from a GET /v1/cluster/members answer. */
int hg_members_render(const json_t *answer, hg_buf *out);
/* The cluster part of `status`: *out gets {members, by_state, capacity,
 * unreachable, sandboxes}, or stays NULL when the node has no cluster.
 * Errors are printed unless they repeat *last_error. */
int hg_cluster_summary(hg_client *c, long *last_error, json_t **out);
void hg_cluster_summary_print(const json_t *summary);

#endif
