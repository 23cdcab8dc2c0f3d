/* chaos/checker.h: the chaos history checker. It reads a history (one JSON
 * event a line, as chaos/run writes it) and knows nothing of hangard's
 * internals: only what clients were told, what the observers saw in /proc,
 * what the nemesis did, and what every node said after the heal.
 *
 * Invariants (chaos/README.md says what each means):
 *   lost_state     an acknowledged append, made durable by a later
 *                  acknowledged suspend or checkpoint, missing from a read
 *                  after that
 *   lost_memory    a memory counter read, made durable the same way,
 *                  lower (or gone) in a read after that
 *   lost_sandbox   an acknowledged create, never deleted, 404 on every node
 *                  after the heal
 *   double_run     two running VMMs of one sandbox in one watcher sample,
 *                  or two run intervals in the node logs that overlap
 *   epoch_order    a client read an epoch lower than one an earlier
 *                  (finished before it began) request had read
 *   api_down       a node no fault touched did not answer /healthz for
 *                  CH_API_DOWN_MS and more
 *   not_converged  after the heal, nodes disagree on a sandbox's owner or
 *                  state, or on who is alive, or do not answer
 *   bad_generation a generation on a node's disk that is no read-only
 *                  subvolume, or was received without a received UUID, or
 *                  a receive's remains left in staging after the heal
 *   leftover       a process, namespace, link, mount or loop device of the
 *                  run still there after the teardown */
#ifndef HG_CHAOS_CHECKER_H
#define HG_CHAOS_CHECKER_H

#include <jansson.h>

#define CH_API_DOWN_MS 4000   /* a node quiet this long, untouched, is down */
#define CH_FAULT_GRACE_MS 15000 /* after a node's own fault ends: coming back */
#define CH_SAMPLE_LAG_MS 500  /* a VMM started by t is in the watcher's samples by this */
#define CH_LOG_MARGIN_MS 100  /* two logged run intervals may touch by this much */

/* Reads the history at path into an array of events sorted by "t".
 * 0, or -errno (-EINVAL with a message on stderr for a malformed line). */
int hg_chaos_load(const char *path, json_t **events);

/* Checks events; *report gets {"seed", "faults", "requests", "ops",
 * "violations": [{"invariant","t","sb"?,"node"?,"detail"}], ...}.
 * Returns the number of violations (>= 0), or -errno. */
int hg_chaos_check(json_t *events, json_t **report);

/* Writes the static page (inline SVG timeline, violations listed). */
int hg_chaos_report_html(const json_t *report, const json_t *events, const char *path);

#endif
