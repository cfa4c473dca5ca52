/* plugin.h — the planners a run takes from outside the tree, and where each
 * of a run's planners comes from.
 *
 * `--planner plugin:PATH.so` loads a shared object built against
 * include/arenabench/planner.h (dlopen) and takes every planner it exports;
 * `plugin:PATH.so:NAME` takes the one named NAME. The file is hashed
 * (SHA-256) as it is loaded, its ABI version checked before anything else
 * is read, and each of its tables checked once, here at the front door:
 * a name of 1 to 64 bytes of [A-Za-z0-9._+-], a plan function, a known
 * kind. `cmd:NAME=COMMAND` names an external program (bench/external/cmd.h) that
 * plans each problem in a process of its own.
 *
 * Every refusal is one line naming the item and what is wrong (for the ABI,
 * both versions). Internal to bench/. */
#ifndef ARENA_BENCH_PLUGIN_H
#define ARENA_BENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "planners/planner.h"

/* Where a planner of the run comes from; stored with every result
 * (results.origin and the columns beside it). */
enum arena_origin {
    ARENA_ORIGIN_BUILTIN = 0, /* the registry (planners/registry.c) */
    ARENA_ORIGIN_PLUGIN,      /* a shared object: --planner plugin:PATH.so */
    ARENA_ORIGIN_CMD,         /* an external program: --planner cmd:NAME=COMMAND */
};

/* "built-in", "plugin", "cmd". */
const char *arena_origin_name(int origin);

struct arena_planner_origin {
    enum arena_origin origin;
    char *path;    /* plugin: the shared object's absolute path; else NULL */
    char *sha256;  /* plugin: 64 lowercase hex digits of the file loaded; cmd: of the
                      command as given (its identity, results.command_sha256); else NULL */
    char *command; /* cmd: the command, as given; else NULL */
    struct arena_planner *own; /* cmd: its table (name, summary; plan NULL:
                                  bench/external/cmd.c runs it), owned; else NULL */
    /* The planner's spec (bench/external/planner_keys.h): the keys as given
     * after NAME: (NULL for none); once the options are read, the canonical
     * spec and the values, n_keys of the planner's table (NULL when it has
     * none). */
    char *keys;
    char *spec;
    struct arena_key_value *values;
};
void arena_planner_origin_free(struct arena_planner_origin *o);

/* A loaded shared object: closed by arena_plugin_close. */
struct arena_plugin_lib {
    void *handle;
    const struct arena_plugin *plugin; /* its exported table, checked */
    /* Its planners' tables as this bench reads them: the plugin's bytes
     * (planner_size of them), the fields a later minor version appended
     * zero; count of them, checked. What bench calls. */
    struct arena_planner *tables;
    uint32_t count;
    char *path;                        /* absolute */
    char sha256[65];
};

/* "2.1" for ABI value v (MAJOR << 16 | MINOR; version 1 is 1) into buf. */
void arena_plugin_abi_text(uint32_t v, char *buf, size_t len);

/* Loads the shared object at path (as given; relative to the working
 * folder): resolves it, hashes it, dlopens it (RTLD_NOW | RTLD_LOCAL), finds
 * ARENA_PLUGIN_SYMBOL, checks its ABI version and every table. ARENA_OK,
 * or ARENA_EINVAL / ARENA_EIO / ARENA_ENOMEM with one line in err that
 * starts "plugin:PATH: ". lib is zeroed on error. */
int arena_plugin_open(const char *path, struct arena_plugin_lib *lib, char *err, size_t errlen);
void arena_plugin_close(struct arena_plugin_lib *lib);

/* Whether name is a planner name a plugin or a cmd: item may use (1 to 64
 * bytes of letters, digits, '.', '_', '+', '-'). */
int arena_planner_name_ok(const char *name, size_t len);

/* The SHA-256 of the file at path as 64 lowercase hex digits (and a NUL)
 * into hex. ARENA_OK or ARENA_EIO. */
int arena_file_sha256(const char *path, char hex[65]);

#endif
