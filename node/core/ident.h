/* ident: what a node id, a peer address and a local name may look like,
 * and how long they may be. Every module that stores, sends or checks one
 * takes its limits and its grammar from here, so a node id the API accepts
 * is one the cluster accepts, and both refuse what the other would. */
#ifndef HG_CORE_IDENT_H
#define HG_CORE_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_NODE_ID_MAX 64 /* a node id, with the NUL */
#define HG_ADDR_MAX 64    /* "host:port" or "[v6]:port", with the NUL */

/* 1 to HG_NODE_ID_MAX - 1 of [a-z0-9-]: safe in a header, a path, a
 * metric label and a log line as it is. */
bool hg_node_id_valid(const char *id);

/* "host:port" (host of [A-Za-z0-9.-]) or "[v6]:port" (hex digits, ':'
 * and '.'), port 1-65535, shorter than HG_ADDR_MAX. */
bool hg_addr_valid(const char *addr);

/* A name that becomes a file or namespace name: 1 to max - 1 of
 * [A-Za-z0-9._-], not "." or "..". */
bool hg_name_valid(const char *name, size_t max);

/* An orphan's name, the fenced copy of a sandbox kept at
 * orphans/<name> (DESIGN §9): "<sandbox id>/<epoch>" or
 * "<sandbox id>/<epoch>.<n>", epoch in 1..UINT64_MAX and n in
 * 1..HG_ORPHAN_DUP_MAX, decimal without leading zeros. It becomes a store
 * path as it is, so nothing else passes: no "..", no third part. */
#define HG_ORPHAN_NAME_MAX 64 /* with the NUL */
#define HG_ORPHAN_DUP_MAX 999
bool hg_orphan_name_valid(const char *name);
/* The parts of a valid name: the sandbox id (HG_ORPHAN_NAME_MAX bytes) and
 * the epoch; -EINVAL when the name is not valid. */
int hg_orphan_name_split(const char *name, char *id, uint64_t *epoch);

#endif
