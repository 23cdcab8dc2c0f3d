/* cmdutil: what the commands share: the sandbox a person named, the
 * object of KEY=VALUE arguments, whole writes, exit codes. */
#ifndef HG_CLI_CMDUTIL_H
#define HG_CLI_CMDUTIL_H

#include <jansson.h>
#include <stddef.h>

#include "tools/cli/cli.h"
#include "tools/cli/client.h"

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
