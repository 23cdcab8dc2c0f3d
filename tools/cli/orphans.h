/* orphans: `hangar orphans` and `hangar orphans rm NAME...`, the fenced
 * copies of sandboxes a node keeps (GET /v1/orphans, DELETE
 * /v1/orphans/{name}; docs/api.md, Orphans). Node-local: they are the
 * orphans of the node at --url. */
#ifndef HG_CLI_ORPHANS_H
#define HG_CLI_ORPHANS_H

#include <jansson.h>

#include "node/core/buf.h"
#include "tools/cli/cli.h"
#include "tools/cli/client.h"

int hg_cmd_orphans(hg_client *c, const hg_cli_args *a);
/* The GET /v1/orphans answer for people: a NAME WAS TEMPLATE AGE REASON
 * table into out (cells sanitized). */
int hg_orphans_render(const json_t *answer, hg_buf *out);

#endif
