#include "node/core/err.h"

#include <errno.h>
#include <string.h>

static const struct {
  int err;
  hg_err_class cls;
} err_table[] = {
    {ENOENT, {"not_found", 404}},
    {ESRCH, {"not_found", 404}},
    {EINVAL, {"bad_request", 400}},
    {ENAMETOOLONG, {"bad_request", 400}},
    {EISDIR, {"bad_request", 400}},
    {ENOTDIR, {"bad_request", 400}},
    {EEXIST, {"conflict", 409}},
    {ENOTEMPTY, {"conflict", 409}},
    {EBUSY, {"conflict", 409}},
    {EALREADY, {"conflict", 409}},
    {ENOSPC, {"insufficient_capacity", 507}},
    {EDQUOT, {"insufficient_capacity", 507}},
    {EAGAIN, {"unavailable", 503}},
    {EFBIG, {"too_large", 413}},
    {ENOBUFS, {"too_large", 413}},
    {E2BIG, {"too_large", 413}},
    {EMSGSIZE, {"too_large", 413}},
    {ETIMEDOUT, {"timeout", 504}},
    {EPROTO, {"guest_error", 502}},
    {ECONNRESET, {"guest_error", 502}},
    {EPIPE, {"guest_error", 502}},
    {ENOTCONN, {"guest_error", 502}},
    {EHOSTUNREACH, {"owner_unreachable", 502}}, /* a peer node did not answer */
    {EREMOTEIO, {"replication_incomplete", 503}}, /* fewer peers acknowledged than wanted */
    {ENODATA, {"not_a_holder", 409}},   /* resume where no replica of the newest gen is */
    {ESTALE, {"stale_epoch", 409}},     /* another node owns it at a higher epoch */
    {ENOLCK, {"no_quorum", 503}},       /* no majority of its acceptor group answered */
    {EACCES, {"forbidden", 403}},
    {EPERM, {"forbidden", 403}},
};

hg_err_class hg_err_classify(int err) {
  for (unsigned i = 0; i < sizeof err_table / sizeof err_table[0]; i++)
    if (err_table[i].err == -err) return err_table[i].cls;
  return (hg_err_class){"internal", 500};
}

const char *hg_err_str(int err) { return strerror(err < 0 ? -err : err); }
