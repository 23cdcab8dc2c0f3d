/* replicas: `hangar replicas ID`, and what a suspend tells of its copies. */
#ifndef HG_CLI_REPLICAS_H
#define HG_CLI_REPLICAS_H

#include <jansson.h>
#include <stdint.h>

#include "node/core/buf.h"
#include "tools/cli/cli.h"
#include "tools/cli/client.h"

int hg_cmd_replicas(hg_client *c, const hg_cli_args *a);
/* The GET /v1/sandboxes/{id}/replicas answer for people: a summary line and
 * a NODE ROLE STATE GEN SIZE AGE table (one row per generation per holder,
 * the owner first, newest first) into out; "node: could not be asked: …"
 * lines for holders that did not answer into notes. */
int hg_replicas_render(const json_t *answer, hg_buf *out, hg_buf *notes);
/* One peer of a suspend's result.replication.peers, as a line:
 * "replicated gen 4 to n2: 45 KiB (zstd, 2.7x of 123 KiB) against gen 3 in
 * 120 ms", or "failed to replicate gen 4 to n2: code: message". gen < 0:
 * not known. out is sanitized. */
void hg_repl_peer_line(const json_t *peer, int64_t gen, char *out, size_t cap);
/* Those lines for every peer of a finished suspend operation (nothing when
 * its result has no replication), each after "prefix: " when prefix is set. */
int hg_repl_report(const json_t *op, const char *prefix, hg_buf *out);

#endif
