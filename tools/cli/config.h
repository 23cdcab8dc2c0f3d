/* config: where the CLI finds its daemon and its key.
 *
 *   url: --url, $HANGAR_URL, `url =` in the config file, http://127.0.0.1:7070
 *   key: --key, $HANGAR_API_KEY, `key =` in the config file, else the
 *        daemon's own key file (HG_CLI_DAEMON_KEY_FILE) when it is readable
 *        and the URL points at this machine — a local admin key is never
 *        sent to another host unasked.
 *
 * The config file is $HANGAR_CONFIG, else $XDG_CONFIG_HOME/hangar/config,
 * else ~/.config/hangar/config: `name = value` lines, '#' comments. */
#ifndef HG_CLI_CONFIG_H
#define HG_CLI_CONFIG_H

#include <stddef.h>

#include "tools/cli/cli.h"

#define HG_CLI_DEFAULT_URL "http://127.0.0.1:7070"
#define HG_CLI_DAEMON_KEY_FILE "/var/lib/hangar/state/api-key"
#define HG_CLI_CONFIG_MAX (64u * 1024) /* a config file is a few lines */

typedef struct hg_cli_conf {
  char url[1024]; /* "" when not set */
  char key[512];
} hg_cli_conf;

/* Parses config file text. Every good line is applied; the first bad one
 * (no '=', unknown name, value too long or with control characters) is
 * described in err and -EINVAL returned. */
int hg_cli_conf_parse(const char *text, hg_cli_conf *conf, char *err, size_t errcap);

/* Resolves url and key (see above); warnings go to stderr. *key is NULL
 * when none was found. Both are freed by the caller. */
int hg_cli_conf_resolve(const hg_cli_args *a, char **url, char **key);

#endif
