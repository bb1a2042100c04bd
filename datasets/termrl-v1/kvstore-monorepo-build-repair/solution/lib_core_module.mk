# internal helper library, linked into libkv (not installed)
core_SRCS := lib/core/kvc_hash.c lib/core/kvc_buf.c
core_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(core_SRCS))
core_CPPFLAGS = -Ilib/core

$(B)/lib/libkvcore.a: $(core_OBJS) | $(B)/lib
	rm -f $@
	ar rcs $@ $^
