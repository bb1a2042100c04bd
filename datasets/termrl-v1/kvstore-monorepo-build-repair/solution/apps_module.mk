# programs: kvq uses the shared library, kvdump is linked statically against libkv
$(B)/bin/kvq: $(B)/obj/apps/kvq.o $(B)/lib/libkv.so.$(VERSION) $(B)/lib/libkv.so | $(B)/bin
	$(CC) -o $@ $< -L$(B)/lib -lkv '-Wl,-rpath,$$ORIGIN/../lib'

$(B)/bin/kvdump: $(B)/obj/apps/kvdump.o $(B)/lib/libkv.a | $(B)/bin
	$(CC) -o $@ $< $(B)/lib/libkv.a -lm
