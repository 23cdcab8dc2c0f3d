/* commands: the command table. Each command is a function that takes the
 * parsed arguments and returns the process exit code; most are one request
 * and a table (commands.c), exec and cp stream (exec.c, cp.c), members and
 * replicas have files of their own (members.h, replicas.h); what they all
 * share is cmdutil.h. */
#ifndef HG_CLI_COMMANDS_H
#define HG_CLI_COMMANDS_H

#include <stddef.h>

#include "tools/cli/cli.h"
#include "tools/cli/client.h"

extern const hg_cli_cmd hg_cli_commands[];
extern const size_t hg_cli_ncommands;

int hg_cmd_exec(hg_client *c, const hg_cli_args *a);
int hg_cmd_cp(hg_client *c, const hg_cli_args *a);
#endif
