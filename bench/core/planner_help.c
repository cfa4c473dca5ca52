/* planner_help.c — the planners' keys for people (planner_help.h). */
#include "bench/core/planner_help.h"

#include <string.h>

#include "bench/core/options.h"
#include "planners/keys.h"

static const char *default_text(const struct arena_key *k)
{
    return k->def ? k->def : "--seed";
}

/* One key: key=default after indent spaces, then what it takes and its
 * help, wrapped at column col. */
static void key_line(FILE *out, const struct arena_key *k, int indent, int col)
{
    char head[96], takes[600], text[1400];
    snprintf(head, sizeof head, "%*s%s=%s", indent, "", k->name, default_text(k));
    arena_key_describe(k, takes, sizeof takes);
    snprintf(text, sizeof text, "%s%s%s", takes, k->help ? ": " : "", k->help ? k->help : "");
    arena_opt_wrapped(out, head, col, text);
}

void arena_planner_help(FILE *out, const struct arena_planner *pl, int indent)
{
    fprintf(out, "%*s%-26s %-15s %s\n", indent, "", pl->name, arena_planner_kind_name(pl->kind),
            pl->summary ? pl->summary : "");
    for (uint32_t i = 0; i < pl->n_keys; i++) key_line(out, &pl->keys[i], indent + 4, indent + 28);
}

void arena_planner_help_keys(FILE *out)
{
    fprintf(out, "\nPlanner keys (--planner NAME:key=value,...; shown with their defaults):\n");
    char none[1200] = "";
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        if (pl->n_keys == 0) {
            size_t used = strlen(none);
            snprintf(none + used, sizeof none - used, "%s%s", used ? ", " : "", pl->name);
            continue;
        }
        fprintf(out, "  %s\n", pl->name);
        for (uint32_t k = 0; k < pl->n_keys; k++) key_line(out, &pl->keys[k], 4, 30);
    }
    if (none[0]) arena_opt_wrapped(out, "  without keys:", 17, none);
}

/* Markdown cell text: | escaped. */
static void cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', out);
        fputc(*s, out);
    }
}

void arena_planner_help_markdown(FILE *out)
{
    fputs("| planner | key | takes | default | meaning |\n|---|---|---|---|---|\n", out);
    for (size_t i = 0; i < arena_planner_count(); i++) {
        const struct arena_planner *pl = arena_planner_at(i);
        for (uint32_t k = 0; k < pl->n_keys; k++) {
            const struct arena_key *key = &pl->keys[k];
            char takes[600];
            arena_key_describe(key, takes, sizeof takes);
            fprintf(out, "| `%s` | `%s` | ", pl->name, key->name);
            cell(out, takes);
            fprintf(out, " | `%s` | ", default_text(key));
            cell(out, key->help ? key->help : "");
            fputs(" |\n", out);
        }
    }
}
