#!/bin/sh
# gen_table.sh filters.def > filters_table.h
echo "/* generated from $1 by tools/gen_table.sh - do not edit */"
echo "struct filter_info { const char *name, *file, *description; };"
echo "static const struct filter_info FILTERS[] = {"
n=0
grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | while IFS='|' read -r name file desc; do
    printf '    {"%s", "%s", "%s"},\n' "$name" "$file" "$desc"
done
echo "};"
echo "#define N_FILTERS ((int)(sizeof FILTERS / sizeof FILTERS[0]))"
