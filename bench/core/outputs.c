/* outputs.c — every output format, in --help order (the first is the
 * default). Adding a format: its file (out_NAME.c with one `const struct
 * arena_output`), one line here, one in meson.build. What the formats share
 * is in out_common.c. */
#include <string.h>

#include "bench/core/output.h"

extern const struct arena_output arena_output_table; /* out_table.c */
extern const struct arena_output arena_output_csv;   /* out_csv.c */
extern const struct arena_output arena_output_json;  /* out_json.c */

static const struct arena_output *const registry[] = {
    &arena_output_table,
    &arena_output_csv,
    &arena_output_json,
};

size_t arena_output_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const struct arena_output *arena_output_at(size_t i)
{
    return i < arena_output_count() ? registry[i] : NULL;
}

const struct arena_output *arena_output_find(const char *name)
{
    for (size_t i = 0; name && i < arena_output_count(); i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}
