/* log: one line per event, key=value, written with a single write(2) so
 * lines from threads and processes never interleave.
 *
 *   hg_log_info("sandbox.create", "sandbox=%s ms=%d", id, ms);
 *   -> ts=2026-12-02T12:00:00.123Z level=info event=sandbox.create sandbox=sb-… ms=12
 */
#ifndef HG_CORE_LOG_H
#define HG_CORE_LOG_H

enum hg_log_level { HG_LOG_DEBUG, HG_LOG_INFO, HG_LOG_WARN, HG_LOG_ERROR };

void hg_log_set_level(enum hg_log_level level);
void hg_log_set_fd(int fd);
/* A fixed key=value pair put on every line (e.g. "node=n1"); NULL clears. */
void hg_log_set_prefix(const char *prefix);

void hg_log(enum hg_log_level level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define hg_log_debug(ev, ...) hg_log(HG_LOG_DEBUG, ev, __VA_ARGS__)
#define hg_log_info(ev, ...) hg_log(HG_LOG_INFO, ev, __VA_ARGS__)
#define hg_log_warn(ev, ...) hg_log(HG_LOG_WARN, ev, __VA_ARGS__)
#define hg_log_error(ev, ...) hg_log(HG_LOG_ERROR, ev, __VA_ARGS__)

#endif
