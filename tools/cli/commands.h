/* commands: the command table, and what the commands share. Each command
 * is a function that takes the parsed arguments and returns the process
 * exit code; most are one request and a table (commands.c), exec and cp
 * stream (exec.c, cp.c). */
#ifndef HG_CLI_COMMANDS_H
#define HG_CLI_COMMANDS_H

#include <stddef.h>

#include "tools/cli/cli.h"
#include "tools/cli/client.h"

extern const hg_cli_cmd hg_cli_commands[];
extern const size_t hg_cli_ncommands;

int hg_cmd_exec(hg_client *c, const hg_cli_args *a);
int hg_cmd_cp(hg_client *c, const hg_cli_args *a);
int hg_cmd_members(hg_client *c, const hg_cli_args *a);

/* members.c: the `members` table from a GET /v1/cluster/members answer. */
int hg_members_render(const json_t *answer, hg_buf *out);
/* The cluster part of `status`: *out gets {members, by_state, capacity,
 * unreachable, sandboxes}, or stays NULL when the node has no cluster.
 * Errors are printed unless they repeat *last_error. */
int hg_cluster_summary(hg_client *c, long *last_error, json_t **out);
void hg_cluster_summary_print(const json_t *summary);

/* replicas.c: `hangar replicas ID`, and what a suspend tells of its copies. */
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

/* The sandbox id a person typed: a full id as is, else a unique prefix
 * ("3f2a", "sb-3f2a") of a listed sandbox. -EINVAL (printed) when it is not
 * an id or is ambiguous. */
int hg_cmd_sandbox_id(hg_client *c, const char *arg, char out[HG_CLI_ID_MAX]);
/* GET /v1/sandboxes/{id}{suffix} ("" or "/replicas") of the sandbox arg
 * names (hg_cmd_sandbox_id): the answer in *out. */
int hg_cmd_sandbox_get(hg_client *c, const char *arg, const char *suffix, json_t **out);

/* {"K": "V", …} from "K=V" arguments; NULL (printed) if one is not UTF-8. */
json_t *hg_cmd_kv_object(const char *const *kvs, size_t n);

/* write(2) until all is written; -errno (EPIPE when the reader left). */
int hg_cmd_write_all(int fd, const void *p, size_t len);

/* 0 -> 0, -EINVAL (a usage problem) -> 2, anything else -> 1. */
int hg_cmd_exit(int rc);

#endif
