# libkv: shared + static.  libkv is built with large keys (see include/kv/kv.h).
SRCS = lib/kv/kv_store.c lib/kv/kv_parse.c lib/kv/kv_stats.c
kv_OBJS = $(patsubst %.c,$(B)/obj/%.o,$(SRCS))
kv_CPPFLAGS = -Ilib/core -DKV_LARGE_KEYS

$(B)/lib/libkv.so.$(VERSION): $(kv_OBJS) $(B)/lib/libkvcore.a
	$(CC) -shared -Wl,-soname,libkv.so.$(VERSION) -o $@ $(kv_OBJS) $(B)/lib/libkvcore.a

$(B)/lib/libkv.a: $(kv_OBJS) $(core_OBJS)
	ar rcs $@ $^
