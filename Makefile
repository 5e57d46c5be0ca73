# bpfvet build. `make demo` and `make test` are the two entry points for a
# fresh Debian 12 machine: both install missing packages first.

ifeq ($(origin CC),default)
CC := clang-19
endif
BPF_CC ?= clang-19
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin

B := build
PKGS := libelf libbpf zlib
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))

WARN := -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
# -MMD: each object records the headers it read (build/**/*.d), so that a
# header change rebuilds only what includes it.
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Isrc
CFLAGS ?= -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer

# The library: one folder per layer (docs/architecture.md); generated
# tables live in a data/ folder of their layer.
LIB_SRCS := $(sort $(wildcard src/*/*.c src/*/data/*.c))
CLI_SRCS := $(sort $(wildcard tools/*.c))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_SUPPORT := $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
BPF_TEST_SRCS := $(sort $(wildcard tests/progs/*.c))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.bpf.c))
# The conformance runner (tests/conformance, not part of the library); the
# annotation reader is also linked into the tests/unit/test_conf_* tests.
# The runner reads target profiles as the CLI does.
CONF_SRCS := $(sort $(wildcard tests/conformance/*.c)) tools/profile.c
CONF_HDRS := $(wildcard tests/conformance/*.h)
CONF_LIB_SRCS := tests/conformance/annotations.c
HDRS := $(wildcard include/*.h src/*/*.h src/*/data/*.h tools/*.h tests/unit/*.h)

LIB_OBJS := $(LIB_SRCS:src/%.c=$(B)/obj/%.o)
# The CLI is linked with ThinLTO from objects of its own: the verifier's
# small hot functions (tnum, bounds, register and slot helpers) live in
# other files than their callers, and inlining them across files took
# about 10% off the verification time (docs/benchmarks.md). The library
# archives keep plain objects, for any compiler and linker. LTO= builds
# the CLI without it.
LTO ?= -flto=thin
LTO_LDFLAGS := $(if $(LTO),-fuse-ld=lld)
LTO_OBJS := $(LIB_SRCS:src/%.c=$(B)/lto/%.o) $(CLI_SRCS:tools/%.c=$(B)/lto/cli_%.o)
# Profile-guided optimisation of the library and the CLI: block counts of
# a training run over the selftest corpus (make pgo-profile), kept as text
# in bench/pgo/. Functions changed since keep their code without the
# profile's advice (clang's out-of-date warnings are off). Together with
# LTO it took 12% more off (docs/benchmarks.md). PGO= builds without it.
PGO ?= bench/pgo/bpfvet.proftext
PGO_DATA := $(if $(PGO),$(B)/pgo/bpfvet.profdata)
PGO_FLAGS := $(if $(PGO),-fprofile-instr-use=$(PGO_DATA) -Wno-profile-instr-unprofiled \
	     -Wno-profile-instr-out-of-date)
PIC_OBJS := $(LIB_SRCS:src/%.c=$(B)/pic/%.o)
SAN_OBJS := $(LIB_SRCS:src/%.c=$(B)/san/obj/%.o)
CLI_OBJS := $(CLI_SRCS:tools/%.c=$(B)/obj/cli_%.o)
SAN_CLI_OBJS := $(CLI_SRCS:tools/%.c=$(B)/san/obj/cli_%.o)
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(B)/san/tests/%)
BPF_TEST_OBJS := $(BPF_TEST_SRCS:tests/progs/%.c=$(B)/progs/%.o)
EXAMPLE_OBJS := $(EXAMPLE_SRCS:examples/%.bpf.c=$(B)/examples/%.bpf.o)

# asm/types.h lives in the multiarch include directory.
BPF_CFLAGS := -g -O2 --target=bpf -mcpu=v3 -Wall -Werror \
	      -idirafter /usr/include/$(shell uname -m)-linux-gnu \
	      -D__TARGET_ARCH_x86 -Itests/progs

.PHONY: all deps demo test check examples progs install uninstall clean \
	target corpus-cache realworld-cache kernel-check disasm-fixtures architecture \
	corpus realworld profiles conformance bench pgo-profile fuzz fuzz-build helper-fixtures \
	scalar-fixtures soundness interp-fixtures selfcheck-kernel interp-corpus-fixtures \
	interp-fib-fixtures selfcheck

all: $(B)/libbpfvet.a $(B)/libbpfvet.so $(B)/bpfvet

deps:
	@scripts/deps.sh

# Verifies each example and compares with what the kernel said of it
# (scripts/demo.sh; it calls `bpfvet explain` on the rejected examples once
# that command exists: the lines marked EXPLAIN HOOK there).
demo: deps
	@$(MAKE) --no-print-directory all examples
	@BPFVET=$(B)/bpfvet scripts/demo.sh $(EXAMPLE_OBJS)

# Parallel builds, and tests/run.sh runs tests in parallel too.
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) check

check: all $(B)/san/bpfvet $(B)/conformance-runner $(TEST_BINS) progs examples \
		target corpus-cache realworld-cache
	@tests/run.sh

examples: $(EXAMPLE_OBJS)
progs: $(BPF_TEST_OBJS)

$(B)/obj/%.o: src/%.c $(PGO_DATA) | $(B)/obj
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(PGO_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/pic/%.o: src/%.c $(PGO_DATA) | $(B)/pic
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(PGO_FLAGS) -fPIC $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/san/obj/%.o: src/%.c | $(B)/san/obj
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -O1 -g $(SAN_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/obj/cli_%.o: tools/%.c | $(B)/obj
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/lto/cli_%.o: tools/%.c $(PGO_DATA)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LTO) $(PGO_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/lto/%.o: src/%.c $(PGO_DATA)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(LTO) $(PGO_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(B)/pgo/bpfvet.profdata: $(PGO)
	@mkdir -p $(dir $@)
	llvm-profdata-19 merge -o $@ $<
$(B)/san/obj/cli_%.o: tools/%.c | $(B)/san/obj
	$(CC) $(BASE_CFLAGS) -O1 -g $(SAN_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(B)/libbpfvet.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/libbpfvet.so: $(PIC_OBJS)
	$(CC) -shared -Wl,-soname,libbpfvet.so.0 $^ -o $@ $(PKG_LIBS) -lm
$(B)/san/libbpfvet.a: $(SAN_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/bpfvet: $(LTO_OBJS)
	$(CC) $(CFLAGS) $(LTO) $(LTO_LDFLAGS) $^ -o $@ $(PKG_LIBS) -lm
# The loader of the reference VMs (scripts/kernel-vm.sh): static, for an
# initramfs with nothing else in it.
$(B)/bpfvet-static: $(CLI_OBJS) $(B)/libbpfvet.a
	$(CC) $(CFLAGS) -static $^ -o $@ -lbpf -lelf -lz -lm 2>&1 | \
		{ grep -v "statically linked applications requires at runtime" || true; }
	@test -x $@
$(B)/san/bpfvet: $(SAN_CLI_OBJS) $(B)/san/libbpfvet.a
	$(CC) $(SAN_FLAGS) $^ -o $@ $(PKG_LIBS) -lm

# The test support files (tests/unit/*.c other than test_*.c) are compiled
# once into an archive that every test binary links.
TEST_CFLAGS = $(BASE_CFLAGS) -Itests/unit -Itests/conformance -O1 -g $(SAN_FLAGS) $(PKG_CFLAGS)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT:tests/unit/%.c=$(B)/san/tests/support/%.o)
$(B)/san/tests/support/%.o: tests/unit/%.c | $(B)/san/tests/support
	$(CC) $(TEST_CFLAGS) -MMD -MP -c $< -o $@
$(B)/san/tests/support.a: $(TEST_SUPPORT_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/san/tests/test_conf_%: TEST_EXTRA = $(CONF_LIB_SRCS)
$(B)/san/tests/%: tests/unit/%.c $(B)/san/tests/support.a $(B)/san/libbpfvet.a \
		$(CONF_LIB_SRCS) | $(B)/san/tests
	$(CC) $(TEST_CFLAGS) -MMD -MP $< $(TEST_EXTRA) $(B)/san/tests/support.a $(B)/san/libbpfvet.a \
		-o $@ $(PKG_LIBS) -lm

# The runner loads programs into the kernel with the selftests' own libbpf
# (Linux 6.12's, built from the corpus sources; see scripts/build-libbpf.sh).
LIBBPF_REF := $(B)/libbpf-6.12/libbpf.a
$(LIBBPF_REF): scripts/build-libbpf.sh
	scripts/build-libbpf.sh $(B)/libbpf-6.12
$(B)/conformance-runner: $(CONF_SRCS) $(CONF_HDRS) $(HDRS) $(B)/libbpfvet.a $(LIBBPF_REF)
	$(CC) $(BASE_CFLAGS) -Itests/conformance -Itools $(CFLAGS) $(PKG_CFLAGS) \
		$(CONF_SRCS) $(B)/libbpfvet.a $(LIBBPF_REF) -o $@ \
		$(shell pkg-config --libs libelf zlib) -lm

# The runner inside the reference VMs (scripts/kernel-vm.sh --testloader):
# static, as bpfvet-static.
$(B)/conformance-runner-static: $(CONF_SRCS) $(CONF_HDRS) $(HDRS) $(B)/libbpfvet.a $(LIBBPF_REF)
	$(CC) $(BASE_CFLAGS) -Itests/conformance -Itools $(CFLAGS) $(PKG_CFLAGS) -static \
		$(CONF_SRCS) $(B)/libbpfvet.a $(LIBBPF_REF) -o $@ -lelf -lz -lm 2>&1 | \
		{ grep -v "statically linked applications requires at runtime" || true; }
	@test -x $@

# Custom loaders' objects often carry no BTF.
$(B)/progs/conv_bare.o $(B)/progs/conv_calls.o $(B)/progs/conv_falco.o \
	$(B)/progs/conv_samples.o: BPF_CFLAGS += -g0
$(B)/progs/%.o: tests/progs/%.c $(wildcard tests/progs/*.h) | $(B)/progs
	$(BPF_CC) $(BPF_CFLAGS) -c $< -o $@
$(B)/examples/%.bpf.o: examples/%.bpf.c | $(B)/examples
	$(BPF_CC) $(BPF_CFLAGS) -c $< -o $@

$(B)/obj $(B)/pic $(B)/san/obj $(B)/san/tests $(B)/san/tests/support $(B)/progs $(B)/examples:
	mkdir -p $@

# The recorded targets, as profile folders for --target DIR
# (scripts/target-record.sh): 6.18 is the BTF the corpus is compiled
# against and the tests verify for; 6.1 and 6.12 are Debian's kernels
# behind kernel-6.1.csv and kernel-6.12.csv. BTF and config are checked in
# compressed, used as plain files.
TARGET_NAMES := 6.1 6.12 6.18
target: $(foreach t,$(TARGET_NAMES),$(B)/target-$(t)/btf)
$(B)/target-%/btf: tests/conformance/target-%/btf.xz tests/conformance/target-%/config.xz \
		tests/conformance/kernel-%.build scripts/target-record.sh
	scripts/target-record.sh $* $(B)/target-$*

# Selftest corpus from Debian's linux-source-6.12 (cached outside the tree).
corpus: deps all
	scripts/build-corpus.sh
# The same without deps, for `make check`: built while the rest compiles.
corpus-cache:
	@scripts/build-corpus.sh
realworld-cache:
	@scripts/collect-realworld.sh --quiet

# The running kernel against the recorded reference: what drifted, never a
# failure (scripts/kernel-check.py; KERNEL_CHECK_ARGS: --quick, --strict).
# Root; a few minutes. Not part of `make test`.
KERNEL_CHECK_ARGS ?=
kernel-check: deps all $(B)/san/bpfvet $(B)/conformance-runner $(TEST_BINS) progs \
		target corpus-cache realworld-cache
	@python3 scripts/kernel-check.py $(KERNEL_CHECK_ARGS)

# bpfvet against Linux on the annotated selftests: the table goes to
# build/conformance.txt, the report to docs/conformance.md.
conformance: deps all $(B)/conformance-runner
	scripts/build-corpus.sh
	$(B)/conformance-runner --markdown docs/conformance.md $(B)/corpus/verifier \
		>$(B)/conformance.txt
	@sed -n '/^reference:/,$$p' $(B)/conformance.txt

# bpfvet against the running kernel on the scale programs and the corpus
# (root; minutes): bench/results/*.csv and docs/benchmarks.md. Not part of
# `make check`. BENCH_ARGS: e.g. --scale-only, --runs 3.
BENCH_ARGS ?=
bench: deps all
	scripts/build-corpus.sh
	bench/run $(BENCH_ARGS)

# The PGO profile (bench/pgo/): an instrumented CLI verifies the corpus
# for the recorded 6.18 target, and its counts are kept as text.
pgo-profile: deps target
	scripts/build-corpus.sh
	scripts/pgo-profile.sh $(B)/pgo-train bench/pgo/bpfvet.proftext

# Real-world BPF objects from libxdp1, xdp-tools and libbpf-tools.
realworld: deps
	scripts/collect-realworld.sh

# Target profiles for --target 6.1|6.12|6.18 (cached outside the tree;
# 6.1 and 6.12 boot Debian's kernels once under qemu).
profiles: deps
	scripts/profiles.sh

# libFuzzer target for the loader. FUZZ_SECONDS bounds the run.
FUZZ_SECONDS ?= 60
fuzz-build: $(B)/fuzz/fuzz_loader
$(B)/fuzz/fuzz_loader: tests/fuzz/fuzz_loader.c $(LIB_SRCS) $(HDRS)
	mkdir -p $(B)/fuzz
	clang-19 $(BASE_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(PKG_CFLAGS) \
		tests/fuzz/fuzz_loader.c $(LIB_SRCS) -o $@ $(PKG_LIBS) -lm
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build progs
	scripts/fuzz.sh $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) $(DESTDIR)$(BINDIR)
	install -m 644 include/bpfvet.h $(DESTDIR)$(INCDIR)/
	install -m 644 $(B)/libbpfvet.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/libbpfvet.so $(DESTDIR)$(LIBDIR)/libbpfvet.so.0
	ln -sf libbpfvet.so.0 $(DESTDIR)$(LIBDIR)/libbpfvet.so
	install -m 755 $(B)/bpfvet $(DESTDIR)$(BINDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(INCDIR)|' bpfvet.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/bpfvet.pc

uninstall:
	rm -f $(DESTDIR)$(INCDIR)/bpfvet.h $(DESTDIR)$(LIBDIR)/libbpfvet.a \
	      $(DESTDIR)$(LIBDIR)/libbpfvet.so $(DESTDIR)$(LIBDIR)/libbpfvet.so.0 \
	      $(DESTDIR)$(BINDIR)/bpfvet $(DESTDIR)$(LIBDIR)/pkgconfig/bpfvet.pc

clean:
	rm -rf $(B)

# docs/architecture.dot from the includes of src/ (scripts/check-layers.py),
# drawn into docs/architecture.svg with graphviz.
architecture:
	python3 scripts/check-layers.py --dot >docs/architecture.dot
	dot -Tsvg docs/architecture.dot -o docs/architecture.svg

# Refresh tests/fixtures/disasm from the running kernel (root).
disasm-fixtures: $(B)/san/tests/test_disasm_kernel target
	$(B)/san/tests/test_disasm_kernel --update tests/fixtures/disasm

# Refresh tests/fixtures/helpers from the running kernel (root).
helper-fixtures: $(B)/san/tests/test_helpers_kernel
	mkdir -p tests/fixtures/helpers
	$(B)/san/tests/test_helpers_kernel --update tests/fixtures/helpers

# Number-domain fixtures from the running kernel (root only). The
# comparison test replays the checked-in file; this only regenerates it.
SCALAR_FIXTURES ?= tests/fixtures/scalar/progs.txt.gz
SCALAR_COUNT ?= 12000
scalar-fixtures: $(B)/scalar-gen
	mkdir -p $(dir $(SCALAR_FIXTURES))
	$(B)/scalar-gen -n $(SCALAR_COUNT) -o $(SCALAR_FIXTURES)
SCALAR_GEN_SUPPORT := tests/unit/scalar_live.c tests/unit/kernel_log.c
$(B)/scalar-gen: tests/scalar/gen.c $(SCALAR_GEN_SUPPORT) $(wildcard tests/unit/*.h)
	mkdir -p $(B)
	$(CC) $(BASE_CFLAGS) -Itests/unit -O2 -g $(PKG_CFLAGS) $< $(SCALAR_GEN_SUPPORT) \
		-o $@ $(PKG_LIBS)

# Interpreter differential fixtures (issue 21; docs/interp-fixtures.md):
# random programs of three families run by the kernel's BPF_PROG_TEST_RUN
# (root only). interp-fixtures records the checked-in files with fixed
# seeds; selfcheck-kernel records fresh ones (INTERP_SEED, by default the
# time) into build/interp and replays them through the interpreter's
# differential test.
INTERP_FAMILIES := scalar mem branchy
INTERP_COUNT ?= 500
INTERP_RUNS ?= 4
INTERP_SEED ?= $(shell date +%s)
INTERP_GEN_SRCS := tests/interp/gen.c tests/interp/gen_prog.c tests/interp/model_env.c
$(B)/interp-gen: $(INTERP_GEN_SRCS) tests/interp/gen.h tests/interp/model_env.h
	mkdir -p $(B)
	$(CC) $(BASE_CFLAGS) -O2 -g $(PKG_CFLAGS) $(INTERP_GEN_SRCS) -o $@ $(PKG_LIBS)
interp-fixtures: $(B)/interp-gen
	mkdir -p tests/fixtures/interp
	@set -e; n=1; for f in $(INTERP_FAMILIES); do \
		$(B)/interp-gen -f $$f -s $$n -n $(INTERP_COUNT) -r $(INTERP_RUNS) \
			-o tests/fixtures/interp/$$f.txt.gz; \
		n=$$((n + 1)); \
	done
# The differential test comes with the interpreter (tests/unit/
# test_interp_kernel.c); the corpus family is replayed too when recorded.
INTERP_DIFF := $(if $(wildcard tests/unit/test_interp_kernel.c),$(B)/san/tests/test_interp_kernel)
selfcheck-kernel: $(B)/interp-gen $(INTERP_DIFF)
	@test -n "$(INTERP_DIFF)" || { echo "selfcheck-kernel: tests/unit/test_interp_kernel.c" \
		"(the interpreter's differential test) is not in this tree" >&2; exit 1; }
	mkdir -p $(B)/interp
	@set -e; for f in $(INTERP_FAMILIES); do \
		$(B)/interp-gen -f $$f -s $(INTERP_SEED) -n $(INTERP_COUNT) \
			-r $(INTERP_RUNS) -o $(B)/interp/$$f.txt.gz; \
	done
	$(INTERP_DIFF) $(foreach f,$(INTERP_FAMILIES),$(B)/interp/$(f).txt.gz) \
		$(wildcard tests/fixtures/interp/fib.txt.gz tests/fixtures/interp/corpus.txt.gz)

# The corpus measure of bpfvet selfcheck (docs/selfcheck.md): every
# corpus program on SELFCHECK_RUNS random runs against the recorded 6.18
# target, in SELFCHECK_JOBS processes; the totals go to
# build/selfcheck/corpus.txt. No privileges needed; about 40 CPU-minutes
# at the default 1,200 runs (a million runs).
SELFCHECK_RUNS ?= 1200
SELFCHECK_JOBS ?= $(shell nproc)
selfcheck: deps all target
	scripts/build-corpus.sh
	scripts/selfcheck-corpus.sh -n $(SELFCHECK_RUNS) -j $(SELFCHECK_JOBS)

# Interpreter differential fixtures of the corpus (root only): what
# BPF_PROG_TEST_RUN gives for the corpus's socket filter, tc and XDP
# programs on seeded random packets. test_interp_kernel replays them.
INTERP_CORPUS_FIXTURES ?= tests/fixtures/interp/corpus.txt.gz
INTERP_CORPUS_RUNS ?= 8
interp-corpus-fixtures: $(B)/interp-record-corpus
	mkdir -p $(dir $(INTERP_CORPUS_FIXTURES))
	$(B)/interp-record-corpus -r $(INTERP_CORPUS_RUNS) -o $(INTERP_CORPUS_FIXTURES) \
		$(B)/corpus/progs/*.o
$(B)/interp-record-corpus: tests/interp/record_corpus.c tests/interp/model_env.c \
		tests/interp/model_env.h tests/interp/rec_common.h $(B)/libbpfvet.a
	$(CC) $(BASE_CFLAGS) -O2 -g $(PKG_CFLAGS) $(filter %.c,$^) $(B)/libbpfvet.a -o $@ \
		$(PKG_LIBS) -lm

# bpf_fib_lookup's answers in the modelled network (root only; src/interp/
# fib.c): four crafted programs, tc and XDP, on seeded parameters.
interp-fib-fixtures: $(B)/interp-record-fib
	mkdir -p tests/fixtures/interp
	$(B)/interp-record-fib -o tests/fixtures/interp/fib.txt.gz
$(B)/interp-record-fib: tests/interp/record_fib.c tests/interp/model_env.c tests/interp/model_env.h \
		tests/interp/rec_common.h
	mkdir -p $(B)
	$(CC) $(BASE_CFLAGS) -O2 -g $(PKG_CFLAGS) $(filter %.c,$^) -o $@ $(PKG_LIBS)

# Full soundness run of the number domain (over 2*10^9 checks) on an
# optimized build; `make check` runs a smaller sample of the same tests.
SOUNDNESS_TESTS := test_tnum test_scalar_sound
soundness: $(B)/libbpfvet.a
	mkdir -p $(B)/soundness
	@set -e; for t in $(SOUNDNESS_TESTS); do \
		$(CC) $(BASE_CFLAGS) -Itests/unit -O2 $(PKG_CFLAGS) \
			tests/unit/$$t.c $(TEST_SUPPORT) $(B)/libbpfvet.a \
			-o $(B)/soundness/$$t $(PKG_LIBS) -lm; \
		SCALAR_SOUND=full $(B)/soundness/$$t; \
	done

# Header dependencies recorded by -MMD.
-include $(shell find $(B) -name '*.d' 2>/dev/null)
