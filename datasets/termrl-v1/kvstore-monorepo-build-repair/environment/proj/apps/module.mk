# programs: kvq uses the shared library, kvdump is linked statically against libkv
SRCS = apps/kvq.c apps/kvdump.c
apps_OBJS = $(patsubst %.c,$(B)/obj/%.o,$(SRCS))

$(B)/bin/kvq: $(B)/obj/apps/kvq.o $(B)/lib/libkv.so.$(VERSION)
	$(CC) -o $@ $< -L$(B)/lib -lkv -Wl,-rpath,$ORIGIN/../lib

$(B)/bin/kvdump: $(B)/obj/apps/kvdump.o $(B)/lib/libkv.a
	$(CC) -o $@ $< $(B)/lib/libkv.a
