# internal helper library, linked into libkv (not installed)
SRCS = lib/core/kvc_hash.c lib/core/kvc_buf.c
core_OBJS = $(patsubst %.c,$(B)/obj/%.o,$(SRCS))
core_CPPFLAGS = -Ilib/core

$(B)/lib/libkvcore.a: $(core_OBJS)
	ar rcs $@ $^
