/* op: tracked asynchronous lifecycle requests ("op-…"). Thread-safe. Each
 * operation is journaled under state/ops/ before it is reported, so after a
 * crash an operation that was in flight reads "failed" with the reason
 * "interrupted by daemon restart" instead of vanishing. Finished operations
 * are kept for a while (HG_OP_KEEP) and then forgotten. */
#ifndef HG_NODE_OP_H
#define HG_NODE_OP_H

#include <jansson.h>
#include <stdint.h>

#include "node/core/util.h"

#define HG_OP_KEEP 1024

typedef struct hg_ops hg_ops;

typedef enum hg_op_status { HG_OP_RUNNING, HG_OP_SUCCEEDED, HG_OP_FAILED } hg_op_status;

int hg_ops_open(const char *state_dir, hg_ops **out);
void hg_ops_close(hg_ops *ops);

/* kind: create, pause, resume, suspend, snapshot, fork, delete, template. */
int hg_op_begin(hg_ops *ops, const char *kind, const char *sandbox, char id[HG_ID_MAX]);
/* An operation that is complete by the time it is recorded (a create the
 * warm pool served): journaled once, as succeeded with result (stolen,
 * may be NULL), instead of a begin and a finish. */
int hg_op_done(hg_ops *ops, const char *kind, const char *sandbox, json_t *result,
               char id[HG_ID_MAX]);
/* Progress text shown while running (e.g. "saving memory"). */
void hg_op_progress(hg_ops *ops, const char *id, const char *text);
/* rc 0: succeeded with result (stolen reference, may be NULL); rc < 0: failed. */
void hg_op_finish(hg_ops *ops, const char *id, int rc, json_t *result);
/* {id, kind, sandbox, status, started_at, finished_at, duration_ms, progress,
 *  result | error{code,message}}; -ENOENT when unknown. */
int hg_op_describe(hg_ops *ops, const char *id, json_t **out);
int hg_op_status_of(hg_ops *ops, const char *id, hg_op_status *out);
json_t *hg_op_list(hg_ops *ops, const char *sandbox);

/* Histogram of finished operation durations (seconds) per kind, for
 * /metrics: buckets[i] counts durations <= bounds[i] and > bounds[i-1] (not
 * cumulative); buckets[nbuckets-1] is +Inf, beyond the last bound. */
typedef void (*hg_op_metric_fn)(void *ud, const char *kind, const double *bounds,
                                const uint64_t *buckets, int nbuckets,
                                double sum, uint64_t count, uint64_t failed);
void hg_ops_metrics(hg_ops *ops, hg_op_metric_fn fn, void *ud);

#endif
