# pebs-tools: one non-recursive GNU Makefile.
#
#   make            build libpebs (.a and .so) and every tool into build/
#   make test       install missing packages, build, run every test (also
#                   under ASan+UBSan in build-asan/, the fuzz corpora under
#                   clang's ASan+UBSan in build-clang/, and the threaded
#                   reader under TSan in build-tsan/)
#   make check      the fast subset: unit + CLI + ABI tests, normal build
#                   only
#   make bench      benchmarks (bench/RESULTS.md records results)
#   make fuzz       build the fuzz targets for AFL++ (build-fuzz/)
#   make demo       install, build, run the main job on the simulated PMU
#   make fault      fault injection: each tool with the Nth allocation,
#                   read, write, open... failing (tests/fault/); FULL=1
#                   for every case and more points (part of make test)
#   make golden     regenerate the CLI golden files (review the diff!)
#   make install    PREFIX=/usr/local DESTDIR=
#
# The sanitizer variant is the same Makefile run with B=build-asan and
# SAN=1; every object of a variant lives under its own $(B).

B ?= build
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
LD ?= ld
OBJCOPY ?= objcopy
VERSION := 0.1.0
# libpebs.so.0.1.0 with soname libpebs.so.0: programs record the soname
# and keep working with any 0.x.y build installed under it.
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libpebs.so.$(SOMAJOR)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wformat=2 -Wpointer-arith -Wundef -Wwrite-strings \
	-Wno-missing-field-initializers -Werror
OPT ?= -O2
CFLAGS_BASE := -std=gnu11 $(OPT) -g -fPIC -pthread $(WARN) -D_GNU_SOURCE
ifeq ($(SAN),1)
CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LDSAN := -fsanitize=address,undefined
endif
CFLAGS_ALL := $(CFLAGS_BASE) $(CFLAGS)
LIBS := -lzstd -lyaml -lcsv -lxxhash -ldw -lelf -ldl -lpthread -lm

LIB_SRC := $(sort $(wildcard lib/*.c))
CMD_SRC := $(sort $(wildcard cmd/pebs-*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
FUZZ_SRC := $(sort $(filter-out fuzz/replay.c,$(wildcard fuzz/*.c)))

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
BINS := $(CMD_SRC:cmd/%.c=$(B)/bin/%)
FUZZ_REPLAY := $(FUZZ_SRC:fuzz/%.c=$(B)/fuzz/%-replay)
# libpebs-trace: the access-recording runtime linked into programs built
# with -fsanitize=thread instead of libtsan (trace/, formats/trace-format.md)
TRACE_SRC := $(sort $(wildcard trace/*.c))
TRACE_OBJ := $(TRACE_SRC:%.c=$(B)/%.o)
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
# cmd/ helpers that are not tools (shared CLI plumbing) are cmd/util*.c
CMD_UTIL := $(sort $(wildcard cmd/util*.c))
CMD_UTIL_OBJ := $(CMD_UTIL:%.c=$(B)/%.o)

.PHONY: all test check unit cli replay asan replay-clang tsan bench fuzz demo \
	test-build \
	golden install clean deps deps-test deps-bench lib trace examples perf-compat abi \
	schema fault
all: $(B)/libpebs.a $(B)/libpebs.so $(B)/$(SONAME) $(BINS) \
	$(B)/libpebs-trace.a $(B)/libpebs-trace.so
lib: $(B)/libpebs.a

$(B)/lib/%.o: lib/%.c $(wildcard lib/*.h lib/include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Ilib -Ilib/include -c -o $@ $<

# cmd/ sees only the public headers.
$(B)/cmd/%.o: cmd/%.c $(wildcard lib/include/*.h cmd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Ilib/include -DPEBS_VERSION='"$(VERSION)"' \
		-c -o $@ $<

# Every object as it is, its internal functions global: for the unit
# tests and fuzz replayers, which call them, and the tools (each takes
# only the objects it uses).  Not installed.
$(B)/libpebs-internal.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Exports only what lib/include declares (scripts/libpebs-map.sh says why).
$(B)/libpebs.map: $(LIB_OBJ) $(wildcard lib/include/*.h) \
		scripts/libpebs-map.sh
	scripts/libpebs-map.sh '$(CC)' lib/include $(LIB_OBJ) > $@.tmp
	mv $@.tmp $@
$(B)/libpebs.syms: $(LIB_OBJ) $(wildcard lib/include/*.h) \
		scripts/libpebs-map.sh
	scripts/libpebs-map.sh --syms '$(CC)' lib/include $(LIB_OBJ) > $@.tmp
	mv $@.tmp $@

# The installed static library shows what the .so exports, and no more:
# its objects linked into one (ld -r), whose every global but the public
# ones objcopy makes local.  With the objects as they are, a program
# defining a name of the library's internals (fmt_checksum) failed to
# link statically (multiple definition), or, in another order, replaced
# the library's own.  One object: a program gets all of the library.
$(B)/libpebs.o: $(LIB_OBJ) $(B)/libpebs.syms
	$(LD) -r -o $@.tmp $(LIB_OBJ)
	$(OBJCOPY) --keep-global-symbols=$(B)/libpebs.syms $@.tmp $@
	@rm -f $@.tmp

$(B)/libpebs.a: $(B)/libpebs.o
	@rm -f $@
	ar rcs $@ $^

$(B)/libpebs.so.$(VERSION): $(LIB_OBJ) $(B)/libpebs.map
	$(CC) -shared $(LDSAN) -Wl,-soname,$(SONAME) \
		-Wl,--version-script,$(B)/libpebs.map -o $@ $(LIB_OBJ) $(LIBS)

# The run-time name (the soname) and the link-time name (-lpebs).
$(B)/$(SONAME) $(B)/libpebs.so: $(B)/libpebs.so.$(VERSION)
	ln -sf libpebs.so.$(VERSION) $@

$(B)/bin/%: $(B)/cmd/%.o $(CMD_UTIL_OBJ) $(B)/libpebs-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -pthread -o $@ $< $(CMD_UTIL_OBJ) \
		$(B)/libpebs-internal.a $(LIBS)

# No sanitizer flags on purpose: this goes into the user's program.
$(B)/trace/%.o: trace/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(OPT) -g -fPIC -pthread $(WARN) -D_GNU_SOURCE \
		-c -o $@ $<

$(B)/libpebs-trace.a: $(TRACE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/libpebs-trace.so: $(TRACE_OBJ)
	$(CC) -shared -pthread -o $@ $^ -ldl

# Example programs, instrumented and linked against libpebs-trace; $(1):
# extra compiler flags.
define example_build
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -fsanitize=thread $(1) -c -o $@.o $<
	$(CC) -o $@ $@.o $(B)/libpebs-trace.a -pthread -ldl
endef
$(B)/examples/%: examples/%.c $(B)/libpebs-trace.a
	$(call example_build,)
# false_sharing with its fix (each counter on a line of its own), to
# compare the two captures.
EXAMPLES += $(B)/examples/false_sharing_padded
$(B)/examples/false_sharing_padded: examples/false_sharing.c \
		$(B)/libpebs-trace.a
	$(call example_build,-DPADDED)

trace: $(B)/libpebs-trace.a $(B)/libpebs-trace.so
examples: $(EXAMPLES)

# Unit tests: one Criterion binary; tests may include internal headers.
$(B)/tests/unit-tests: $(UNIT_SRC) $(B)/libpebs-internal.a \
		$(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -Ilib -Ilib/include \
		-o $@ $(UNIT_SRC) $(B)/libpebs-internal.a -lcriterion $(LIBS)

# Fuzz targets built as corpus replayers (a main() that feeds each file).
$(B)/fuzz/%-replay: fuzz/%.c fuzz/replay.c $(B)/libpebs-internal.a \
		$(wildcard fuzz/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -Ilib -Ilib/include \
		-o $@ $< fuzz/replay.c $(B)/libpebs-internal.a $(LIBS)

deps:
	@scripts/deps.sh

# make test also needs clang (replay-clang)
deps-test:
	@scripts/deps.sh --test

# make bench also needs /usr/bin/time and python3
deps-bench:
	@scripts/deps.sh --bench

unit: $(B)/tests/unit-tests
	$(B)/tests/unit-tests -j2 --short-filename

cli: all
	tests/cli/run.sh $(B)/bin

replay: $(FUZZ_REPLAY)
	@for t in $(FUZZ_REPLAY); do \
		name=$$(basename $$t -replay); \
		$$t fuzz/corpus/$$name || exit 1; \
	done

# libpebs.so as programs see it: exports, soname, install, C++ (tests/abi/).
abi: all
	CC='$(CC)' CXX='$(CXX)' MAKE='$(MAKE)' tests/abi/run.sh $(B)

# The YAML results validate against schemas/ (tests/schema/; python3-yaml
# and python3-jsonschema from scripts/deps.sh --test).
schema: all
	tests/schema/run.sh $(B)

check: all unit cli abi schema

# What the suites run, built in parallel first (make test runs without -j:
# serial builds of the four variants took two of its ten minutes on two
# cores); the suites then run one after another, each its cases in
# parallel.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test-build: all $(B)/tests/unit-tests $(FUZZ_REPLAY)

# The sanitizer builds are unoptimized: ASan and UBSan check no less at
# -O0 (optimization only removes checks), gcc's -O1 build took 70 s of
# make test on two cores against 28 s, for 15 s more of running, and
# clang's 75 s against 23 s.  The warnings optimization adds are the
# normal build's (-O2).
asan:
	$(MAKE) -j$(NPROC) B=build-asan SAN=1 OPT=-O0 test-build
	$(MAKE) B=build-asan SAN=1 OPT=-O0 unit cli replay

# Everything built with clang, the unit tests too (its warnings differ:
# make CC=clang once failed on cmd/util.c, and its unit tests on
# -Wsign-compare unnoticed), and the fuzz corpora again under clang's
# ASan+UBSan, which checks what gcc's
# does not: NULL + 0, for one (the reader resynchronising a stream that
# had buffered nothing, found by libFuzzer; corpus/reader/
# stream-one-zero-byte.pebs).
replay-clang: deps-test
	$(MAKE) -j$(NPROC) B=build-clang CC=clang SAN=1 OPT=-O0 all \
		build-clang/libpebs-internal.a build-clang/tests/unit-tests
	$(MAKE) B=build-clang CC=clang SAN=1 OPT=-O0 replay

# ThreadSanitizer: libpebs built with -fsanitize=thread, and a stress test
# of the threaded reader (every thread count, consume callbacks, damage,
# salvage, files and a pipe); Criterion's runner does not run under TSan,
# so it is a plain program (tests/tsan/reader_stress.c).
tsan:
	$(MAKE) -j$(NPROC) B=build-tsan OPT=-O1 CFLAGS=-fsanitize=thread \
		build-tsan/libpebs-internal.a
	@mkdir -p build-tsan/tests
	$(CC) -std=gnu11 -O1 -g -fsanitize=thread $(WARN) -D_GNU_SOURCE \
		-Ilib/include -o build-tsan/tests/reader-stress \
		tests/tsan/reader_stress.c build-tsan/libpebs-internal.a $(LIBS)
	@d=$$(mktemp -d) && \
		TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/reader-stress $$d; \
		rc=$$?; rm -rf "$$d"; exit $$rc

# Fault injection (tests/fault/): an LD_PRELOAD shim makes the Nth call of
# a function family fail (malloc, read, open, ...); the driver runs each
# tool once per N and checks the exit code, the message and that an exit
# 0 wrote what a clean run writes.  Normal build only: the shim goes
# under the tool, so it has no sanitizer flags, as libpebs-trace.
$(B)/tests/fault-shim.so: tests/fault/shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(OPT) -g -fPIC -pthread $(WARN) -D_GNU_SOURCE \
		-shared -o $@ $< -ldl

fault: all $(B)/tests/fault-shim.so
	FULL='$(FULL)' tests/fault/run.sh $(B)/bin $(B)/tests/fault-shim.so

test: deps-test
	$(MAKE) -j$(NPROC) test-build $(B)/tests/fault-shim.so
	$(MAKE) unit cli abi schema replay fault
	$(MAKE) asan
	$(MAKE) replay-clang
	$(MAKE) tsan
	@echo "make test: all suites passed"

# Checks against the installed Linux perf (perf script, perf mem/c2c report
# reading our perf.data); not part of `make test`, which must pass without it.
perf-compat: all
	tests/perf-compat.sh $(B)/bin

golden: all
	tests/cli/run.sh --update $(B)/bin

bench: deps-bench all
	bench/run.sh $(B)

# AFL++ build of every fuzz target (afl-clang-fast, its libFuzzer driver).
fuzz: deps
	@mkdir -p build-fuzz
	@for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		echo "AFL++ $$n"; \
		AFL_QUIET=1 afl-clang-fast -std=gnu11 -O1 -g -D_GNU_SOURCE \
			-fsanitize=fuzzer -Ilib -Ilib/include -o build-fuzz/$$n \
			$$f $(LIB_SRC) $(LIBS) || exit 1; \
	done
	@echo "run: afl-fuzz -i fuzz/corpus/NAME -o build-fuzz/out-NAME -- build-fuzz/NAME"

demo: deps
	$(MAKE) all examples
	scripts/demo.sh $(B)/bin $(B)/examples

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man7 $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(B)/libpebs.a $(B)/libpebs.so.$(VERSION) \
		$(B)/libpebs-trace.a $(B)/libpebs-trace.so $(DESTDIR)$(PREFIX)/lib
	ln -sf libpebs.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf libpebs.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libpebs.so
	install -m 644 lib/include/*.h $(DESTDIR)$(PREFIX)/include
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		libpebs.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libpebs.pc

clean:
	rm -rf build build-asan build-clang build-tsan build-fuzz
