#ifndef LEGACY_H
#define LEGACY_H
#define LEGACY_SUFFIX "!"
#endif
