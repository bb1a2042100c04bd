/* imgtool: applies filter plugins to a plain PGM image.
     imgtool --list
     imgtool [-v] FILTER[=ARG]... < in.pgm > out.pgm
   Filters are listed in filters.def; FILTER is loaded from <prefix>/lib/imgtool/plugins/<file>.so
   where <prefix> is the directory above the one holding this executable. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core.h"
#include "filters_table.h"

static int verbose;

void host_log(const char *msg) {
    if (verbose) fprintf(stderr, "[plugin] %s\n", msg);
}

typedef void (*init_fn)(void);
typedef int (*apply_fn)(struct image *img, int arg);

static void plugin_dir(char *out, size_t n) {
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len < 0) { perror("readlink"); exit(1); }
    exe[len] = 0;
    snprintf(out, n, "%s/../lib/imgtool/plugins", dirname(exe));
}

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < N_FILTERS; i++) printf("%s\t%s\n", FILTERS[i].name, FILTERS[i].description);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "-v")) { verbose = 1; first = 2; }
    char dir[PATH_MAX];
    plugin_dir(dir, sizeof dir);
    struct image img;
    if (core_read_pgm(stdin, &img)) { fprintf(stderr, "imgtool: bad PGM on stdin\n"); return 2; }
    for (int a = first; a < argc; a++) {
        char name[128];
        int arg = 0;
        snprintf(name, sizeof name, "%s", argv[a]);
        char *eq = strchr(name, '=');
        if (eq) { *eq = 0; arg = atoi(eq + 1); }
        const struct filter_info *fi = NULL;
        for (int i = 0; i < N_FILTERS; i++) if (!strcmp(FILTERS[i].name, name)) fi = &FILTERS[i];
        if (!fi) { fprintf(stderr, "imgtool: unknown filter %s\n", name); return 2; }
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s.so", dir, fi->file);
        /* RTLD_GLOBAL: plugins may share helpers */
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (!h) { fprintf(stderr, "imgtool: %s\n", dlerror()); return 3; }
        init_fn init = (init_fn)dlsym(h, "plugin_init");
        apply_fn apply = (apply_fn)dlsym(h, "plugin_apply");
        if (!init || !apply) { fprintf(stderr, "imgtool: %s is not a plugin\n", path); return 3; }
        init();
        if (apply(&img, arg)) { fprintf(stderr, "imgtool: filter %s failed\n", name); return 4; }
    }
    core_write_pgm(stdout, &img);
    return 0;
}
