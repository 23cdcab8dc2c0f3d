/* hangar: the command-line client of hangard's HTTP API (docs/api.md).
 * main() only parses, finds the daemon and the key, and dispatches; the
 * commands are in commands.c, exec.c and cp.c. */
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "node/core/curluv.h"
#include "tools/cli/cli.h"
#include "tools/cli/client.h"
#include "tools/cli/commands.h"
#include "tools/cli/config.h"

/* --help, --version, no command: answered without a daemon. Returns -1
 * when there is a command to run. */
static int answer_locally(const hg_cli_args *a) {
  if (a->cmd && a->help) {
    hg_cli_print_cmd_usage(stdout, a->cmd);
    return HG_CLI_EXIT_OK;
  }
  if (a->cmd) return -1;
  if (a->version) {
    printf("hangar %s\n", HG_CLI_VERSION);
    return HG_CLI_EXIT_OK;
  }
  hg_cli_print_usage(a->help ? stdout : stderr, hg_cli_commands, hg_cli_ncommands);
  return a->help ? HG_CLI_EXIT_OK : HG_CLI_EXIT_USAGE;
}

static int run(const hg_cli_args *a) {
  char *url = NULL, *key = NULL;
  hg_client c;
  int code = HG_CLI_EXIT_ERROR;
  if (hg_cli_conf_resolve(a, &url, &key) == 0 && hg_client_init(&c, url, key) == 0) {
    c.json = a->json;
    code = a->cmd->run(&c, a);
    hg_client_end_line(&c);
    hg_client_free(&c);
  } else {
    fprintf(stderr, "hangar: out of memory\n");
  }
  free(url);
  free(key);
  return code;
}

int main(int argc, char **argv) {
  hg_cli_args a;
  int code;
  if (hg_cli_parse(hg_cli_commands, hg_cli_ncommands, argc, argv, &a) < 0) {
    fprintf(stderr, "hangar: %s\n", a.err[0] ? a.err : "out of memory");
    hg_cli_args_free(&a);
    return HG_CLI_EXIT_USAGE;
  }
  if ((code = answer_locally(&a)) >= 0) {
    hg_cli_args_free(&a);
    return code;
  }
  /* A reader that goes away (`hangar exec … | head`) should be an EPIPE we
   * can answer, not a silent death mid-write. */
  signal(SIGPIPE, SIG_IGN);
  if (hg_curl_global_init() < 0) {
    fprintf(stderr, "hangar: cannot initialise libcurl\n");
    code = HG_CLI_EXIT_ERROR;
  } else {
    code = run(&a);
  }
  /* `hangar ls > /full/disk` must not report success. */
  if (fflush(stdout) != 0 && code == HG_CLI_EXIT_OK) code = HG_CLI_EXIT_ERROR;
  hg_cli_args_free(&a);
  return code;
}
