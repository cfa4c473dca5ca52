/* allocators.c — the real allocators' names and the --allocator list
 * (allocators.h). */
#include "bench/core/allocators.h"

#include <stdio.h>
#include <string.h>

#include "planners/planner.h"

static const char *const names[ARENA_REPLAY_ALLOCATORS] = {"glibc", "jemalloc", "mimalloc"};

const char *arena_replay_allocator_name(unsigned i)
{
    return i < ARENA_REPLAY_ALLOCATORS ? names[i] : NULL;
}

int arena_replay_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
    *mask = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            *mask |= (1u << ARENA_REPLAY_ALLOCATORS) - 1;
        } else {
            unsigned i = 0;
            while (i < ARENA_REPLAY_ALLOCATORS &&
                   !(strlen(names[i]) == len && strncmp(p, names[i], len) == 0))
                i++;
            if (i == ARENA_REPLAY_ALLOCATORS) {
                char known[128] = "";
                for (unsigned k = 0; k < ARENA_REPLAY_ALLOCATORS; k++)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s, ",
                             names[k]);
                return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                    "unknown allocator '%.*s' in '%s' (known: %sor all)",
                                    (int)len, p, list, known);
            }
            *mask |= 1u << i;
        }
        if (!comma)
            return ARENA_OK;
        p = comma + 1;
    }
}
