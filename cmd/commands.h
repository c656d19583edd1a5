/* SPDX-License-Identifier: MIT */
/* commands.h - the entry points of the profconv subcommands. */
#ifndef PROFCONV_CMD_COMMANDS_H
#define PROFCONV_CMD_COMMANDS_H

int cmd_merge(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_text2pb(int argc, char **argv);

#endif /* PROFCONV_CMD_COMMANDS_H */
