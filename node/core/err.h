/* err: the one table from negative errno to an error code slug and an HTTP
 * status, shared by operations (which record failures) and the API (which
 * answers them). */
#ifndef HG_CORE_ERR_H
#define HG_CORE_ERR_H

typedef struct hg_err_class {
  const char *code; /* "not_found", "conflict", ... */
  int status;       /* HTTP status */
} hg_err_class;

/* err is a negative errno; unknown ones map to {"internal", 500}. */
hg_err_class hg_err_classify(int err);
/* strerror for a negative errno. */
const char *hg_err_str(int err);

#endif
