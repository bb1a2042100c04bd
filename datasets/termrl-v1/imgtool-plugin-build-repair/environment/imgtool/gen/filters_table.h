/* generated from filters.def by tools/gen_table.sh - do not edit */
struct filter_info { const char *name, *file, *description; };
static const struct filter_info FILTERS[] = {
    {"invert", "invert", "replace every level v by maxval - v"},
    {"brighten", "brighten", "add ARG to every level, clamped to 0..maxval"},
    {"threshold", "threshold", "maxval where the level is >= ARG, else 0"},
};
#define N_FILTERS ((int)(sizeof FILTERS / sizeof FILTERS[0]))
