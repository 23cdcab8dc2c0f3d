/* ident: what a node id, a peer address and a local name may look like,
 * and how long they may be. Every module that stores, sends or checks one
 * takes its limits and its grammar from here, so a node id the API accepts
 * is one the cluster accepts, and both refuse what the other would. */
#ifndef HG_CORE_IDENT_H
#define HG_CORE_IDENT_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
