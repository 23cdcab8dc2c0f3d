/* config: one table of options, read from (lowest to highest precedence)
 * defaults, a "key = value" file, HANGAR_<KEY> environment variables and
 * --key flags. Option "max-sandboxes" is flag --max-sandboxes, env
 * HANGAR_MAX_SANDBOXES and file key max-sandboxes (or max_sandboxes). */
#ifndef HG_CORE_CONFIG_H
#define HG_CORE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

typedef enum { HG_OPT_STR, HG_OPT_INT, HG_OPT_FLAG } hg_opt_type;

typedef struct hg_opt {
  const char *name;
  hg_opt_type type;
  void *dst;       /* char[cap] for STR, int64_t for INT, int for FLAG */
  size_t cap;      /* for STR */
  const char *help;
} hg_opt;

/* Parses everything; the file comes from the "config" option if the table
 * has one and it is set by flag or env. Prints a message to stderr and
 * returns -EINVAL on a bad flag or value; returns 1 when --help was given
 * (usage already printed). */
int hg_config_load(const hg_opt *opts, size_t n, int argc, char **argv, const char *prog);
void hg_config_usage(const hg_opt *opts, size_t n, const char *prog);

#endif
