# libkv: shared + static.  libkv is built with large keys (see include/kv/kv.h).
kv_SRCS := lib/kv/kv_store.c lib/kv/kv_parse.c lib/kv/kv_stats.c
kv_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(kv_SRCS))
kv_CPPFLAGS = -Ilib/core

$(B)/lib/libkv.so.$(VERSION): $(kv_OBJS) $(B)/lib/libkvcore.a | $(B)/lib
	$(CC) -shared -Wl,-soname,libkv.so.$(SOVERSION) -o $@ $(kv_OBJS) $(B)/lib/libkvcore.a -lm

$(B)/lib/libkv.a: $(kv_OBJS) $(core_OBJS) | $(B)/lib
	rm -f $@
	ar rcs $@ $^
