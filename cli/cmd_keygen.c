/* cmd_keygen.c — `parlor keygen BASE`: a CURVE key pair for parlor serve,
 * the tournament arena, clients and bots (protocol/auth.h). */
#include <string.h>

#include "../protocol/auth.h"
#include "cli.h"

int cmd_keygen(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_usage("keygen", stdout);
        return CLI_OK;
    }
    if (argc != 2 || argv[1][0] == '-')
        return cli_usage_error("keygen", "give one file name base, e.g. "
                                         "keys/alice");
    char err[512];
    if (auth_keygen(argv[1], err, sizeof err))
        return cli_fail("keygen", "%s", err);
    printf("%s.key_secret: the key pair (keep it private)\n"
           "%s.key: the public key (copy it into the --allow directory of "
           "the servers that should accept this key)\n",
           argv[1], argv[1]);
    return CLI_OK;
}
