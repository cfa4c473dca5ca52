/* plugin.c — planners from shared objects (plugin.h): load, hash, check. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "bench/external/plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/keys.h"

const char *arena_origin_name(int origin)
{
    switch (origin) {
    case ARENA_ORIGIN_PLUGIN: return "plugin";
    case ARENA_ORIGIN_CMD: return "cmd";
    default: return "built-in";
    }
}

void arena_planner_origin_free(struct arena_planner_origin *o)
{
    if (!o) return;
    free(o->path);
    free(o->sha256);
    free(o->command);
    free(o->keys);
    free(o->spec);
    free(o->values);
    if (o->own) {
        free((char *)o->own->name);
        free((char *)o->own->summary);
        free(o->own);
    }
    memset(o, 0, sizeof *o);
}

int arena_planner_name_ok(const char *name, size_t len)
{
    if (len == 0 || len > 64) return 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '+' || c == '-'))
            return 0;
    }
    return 1;
}

int arena_file_sha256(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f) return ARENA_EIO;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&ctx, got, buf);
    int bad = ferror(f);
    fclose(f);
    if (bad) return ARENA_EIO;
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return ARENA_OK;
}

void arena_plugin_abi_text(uint32_t v, char *buf, size_t len)
{
    if (v >> 16) snprintf(buf, len, "%u.%u", (unsigned)(v >> 16), (unsigned)(v & 0xffffu));
    else snprintf(buf, len, "%u", (unsigned)v);
}

/* The version: this bench's major, a minor at most its own, a table size
 * between 2.0's and this bench's. */
static int check_abi(const char *path, const struct arena_plugin *pg, char *err, size_t errlen)
{
    char theirs[32], ours[32];
    arena_plugin_abi_text(pg->abi, theirs, sizeof theirs);
    arena_plugin_abi_text(ARENA_PLANNER_ABI, ours, sizeof ours);
    if (pg->abi >> 16 != ARENA_PLANNER_ABI_MAJOR || (pg->abi & 0xffffu) > ARENA_PLANNER_ABI_MINOR)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "plugin:%s: built for planner ABI %s, this bench has ABI %s (it loads"
                            " %u.0 to %s): rebuild it against this bench's arenabench/planner.h",
                            path, theirs, ours, ARENA_PLANNER_ABI_MAJOR, ours);
    size_t v20 = offsetof(struct arena_planner, configure); /* 2.0's table ends there */
    if (pg->planner_size < v20 || pg->planner_size > sizeof(struct arena_planner))
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "plugin:%s: its planner tables are %u bytes, not %zu to %zu (ABI %s):"
                            " list them with ARENA_PLUGIN(...)",
                            path, (unsigned)pg->planner_size, v20, sizeof(struct arena_planner),
                            theirs);
    return ARENA_OK;
}

/* Each table once, copied as this bench reads it (lib->tables): what bench
 * relies on when it calls one. */
static int check_tables(const char *path, const struct arena_plugin *pg,
                        struct arena_plugin_lib *lib, char *err, size_t errlen)
{
    if (pg->count == 0 || pg->count > 4096 || !pg->planners)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "plugin:%s: lists %u planners (ARENA_PLUGIN(...) needs 1 to 4096)",
                            path, (unsigned)pg->count);
    lib->tables = calloc(pg->count, sizeof *lib->tables);
    if (!lib->tables) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < pg->count; i++) {
        if (!pg->planners[i])
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "plugin:%s: planner %u is NULL",
                                path, (unsigned)i);
        memcpy(&lib->tables[i], pg->planners[i], pg->planner_size);
        const struct arena_planner *pl = &lib->tables[i];
        if (!pl->name || !arena_planner_name_ok(pl->name, strlen(pl->name)))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "plugin:%s: planner %u has the name '%.80s', not 1 to 64 bytes of"
                                " letters, digits, '.', '_', '+', '-'",
                                path, (unsigned)i, pl->name ? pl->name : "(NULL)");
        if (!pl->plan)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "plugin:%s: planner '%s' has no plan"
                                " function", path, pl->name);
        if ((unsigned)pl->kind > ARENA_KIND_ONLINE)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "plugin:%s: planner '%s' has kind %d, none of offsets,"
                                " shared-objects, search, online",
                                path, pl->name, (int)pl->kind);
        char owner[160], why[400];
        snprintf(owner, sizeof owner, "planner '%s'", pl->name);
        if (arena_keys_check(owner, pl->keys, pl->n_keys, why, sizeof why))
            return arena_errorf(err, errlen, 0, ARENA_EINVAL, "plugin:%s: %s", path, why);
        if (!pl->configure != !pl->release)
            return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                "plugin:%s: planner '%s' has %s but not %s (both or neither)",
                                path, pl->name, pl->configure ? "configure" : "release",
                                pl->configure ? "release" : "configure");
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(lib->tables[k].name, pl->name) == 0)
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "plugin:%s: two planners named '%s'", path, pl->name);
    }
    return ARENA_OK;
}

int arena_plugin_open(const char *path, struct arena_plugin_lib *lib, char *err, size_t errlen)
{
    memset(lib, 0, sizeof *lib);
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        return arena_errorf(err, errlen, 0, ARENA_EIO, "plugin:%s: %s", path, strerror(errno));
    if (arena_file_sha256(abs, lib->sha256) != ARENA_OK)
        return arena_errorf(err, errlen, 0, ARENA_EIO, "plugin:%s: cannot read it: %s", path,
                            strerror(errno));
    lib->path = strdup(abs);
    if (!lib->path) return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "out of memory");
    dlerror();
    lib->handle = dlopen(abs, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) {
        const char *why = dlerror();
        arena_plugin_close(lib);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL, "plugin:%s: cannot load it: %s", path,
                            why ? why : "dlopen failed");
    }
    const struct arena_plugin *pg = dlsym(lib->handle, ARENA_PLUGIN_SYMBOL);
    if (!pg) {
        arena_plugin_close(lib);
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "plugin:%s: exports no '%s' (list its planners with"
                            " ARENA_PLUGIN(...) of arenabench/planner.h)",
                            path, ARENA_PLUGIN_SYMBOL);
    }
    int rc = check_abi(path, pg, err, errlen);
    if (rc == ARENA_OK) rc = check_tables(path, pg, lib, err, errlen);
    if (rc != ARENA_OK) {
        arena_plugin_close(lib);
        return rc;
    }
    lib->count = pg->count;
    lib->plugin = pg;
    return ARENA_OK;
}

void arena_plugin_close(struct arena_plugin_lib *lib)
{
    if (!lib) return;
    if (lib->handle) dlclose(lib->handle);
    free(lib->tables);
    free(lib->path);
    memset(lib, 0, sizeof *lib);
}
