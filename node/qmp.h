/* qmp: a small blocking client for QEMU's machine protocol (QMP) over a
 * unix socket. One request at a time; every read is bounded in size
 * (HG_QMP_MAX_LINE) and in time (a deadline per call), so a stopped or
 * hostile VMM can stall a caller only until its deadline.
 *
 *   hg_qmp *q;
 *   hg_qmp_connect("/run/sb/qmp.sock", hg_now_ms() + 5000, &q);
 *   hg_qmp_exec(q, "stop", NULL, 5000, NULL);
 *   hg_qmp_close(q);
 *
 * Requests carry ids and replies are matched by id; asynchronous events
 * are skipped. A call that ends without its reply (timeout, EOF, garbage)
 * drops the connection, so no late reply can answer a later request. */
#ifndef HG_NODE_QMP_H
#define HG_NODE_QMP_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define HG_QMP_MAX_LINE (1024 * 1024)

typedef struct hg_qmp hg_qmp;

/* Connects to path, retrying while the socket does not exist or refuses
 * (the VMM is still starting) until deadline_ms (CLOCK_MONOTONIC), reads the
 * greeting and negotiates capabilities. -ETIMEDOUT when the deadline passes. */
int hg_qmp_connect(const char *path, int64_t deadline_ms, hg_qmp **out);
void hg_qmp_close(hg_qmp *q);
/* False once a call failed without a reply (timeout, EOF, garbage): the
 * connection was dropped and the owner should reconnect. */
bool hg_qmp_connected(const hg_qmp *q);

/* Runs cmd with args (borrowed; NULL for none). On success *ret (if not
 * NULL) receives the "return" value, which the caller json_decref()s.
 * A QMP error is logged with its class and description and returned as
 * -EOPNOTSUPP (CommandNotFound), -ENODEV (DeviceNotFound) or -EIO. */
int hg_qmp_exec(hg_qmp *q, const char *cmd, json_t *args, int timeout_ms, json_t **ret);

/* Hands fd to the VMM under name (QMP getfd, SCM_RIGHTS), for URIs such as
 * "fd:<name>". The caller keeps and closes its own copy. */
int hg_qmp_send_fd(hg_qmp *q, int fd, const char *name, int timeout_ms);

#endif
