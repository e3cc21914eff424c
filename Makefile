# parlor — one Makefile. `make help` lists the targets.

BUILD   ?= build
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)
CC      ?= cc
OPT     ?= -O2 -g
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wundef -Werror
PKGS    := msgpack libzmq jansson
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPT) \
           $(WARN) -MMD -MP $(EXTRA_CFLAGS)
# x86-64-v2 (every x86-64 CPU since about 2009) gives the POPCNT
# instruction that hand bitsets count with; elsewhere the default target.
ifeq ($(shell uname -m),x86_64)
CFLAGS  += -march=x86-64-v2
endif
DEPS_OK := $(BUILD)/.deps-ok
PKGCFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKGLIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TESTLIBS  = $(shell pkg-config --libs cmocka 2>/dev/null)
LDLIBS  += $(PKGLIBS) -lpthread -lm $(EXTRA_LDFLAGS)

LIB_SRC  := $(wildcard common/*.c engine/*.c engine/games/*.c env/*.c \
                       protocol/*.c tournament/*.c \
                       agents/*.c)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(sort $(shell find tests -name 'test_*.c' 2>/dev/null))

LIB      := $(BUILD)/libparlor.a
BIN      := $(BUILD)/parlor
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:%.c=$(BUILD)/%)

.PHONY: all test asan bench bench-tournament demo train clean help deps format
all: $(BIN) $(LIB)

help:
	@echo "make            build $(BIN) and $(LIB) (installs missing deps)"
	@echo "make test       build and run every test suite"
	@echo "make asan       the tests under AddressSanitizer + UBSan"
	@echo "make test-slurm a sharded tournament on a local Slurm (root)"
	@echo "make bench      parlor bench over every game"
	@echo "make bench-tournament  tournament overhead against parlor bench"
	@echo "make demo       a tournament of the built-in bots: ratings, plots"
	@echo "make train      train PPO agents and rate them against the bots"
	@echo "make plots      redraw a tournament's plots (JOURNAL=DIR, PLOTS=DIR)"
	@echo "make V=1        show full compiler command lines"
	@echo "make deps       check and install build dependencies"
	@echo "make format     clang-format the sources"
	@echo "make clean      remove build outputs"

deps $(DEPS_OK): scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(BUILD) && touch $(DEPS_OK)

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(PKGCFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	@echo "  AR      $@"
	$(Q)$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(LIB) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@echo "  TEST-LD $@"
	$(Q)$(CC) $(CFLAGS) $(PKGCFLAGS) -I. -DPARLOR_BIN='"$(BIN)"' -o $@ $< \
	  $(LIB) $(TESTLIBS) $(LDLIBS)

# PYTESTS=0 skips the Python and JavaScript clients' tests (the sanitizer run does: they
# exercise the server binary, which the C suites already cover there).
PYTESTS ?= 1
test: $(TESTS) $(BIN)
	@scripts/run-tests.sh $(TESTS)
	@echo "== Replays and the report (tests/report)"
	@tests/report/run.sh $(BIN)
ifeq ($(PYTESTS),1)
	@echo "== Python client (protocol/python)"
	@protocol/python/run-tests.sh $(BIN)
	@echo "== JavaScript client (protocol/js)"
	@protocol/js/run-tests.sh $(BIN)
	@echo "== Training example (examples/train; skipped without python3-torch)"
	@PARLOR_BIN=$(BIN) /usr/bin/python3 examples/train/test_train.py
endif

# The conformance suite plays a fifth of its games under the sanitizers
# (they run about 3x slower); the normal run plays them all.
asan:
	PARLOR_CONFORMANCE_SCALE=0.2 $(MAKE) BUILD=build/asan PYTESTS=0 OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test

# A tournament on a one-node Slurm cluster started on localhost (root;
# installs slurm-wlm and munge when missing), with one shard requeued.
.PHONY: test-slurm
test-slurm: $(BIN)
	@tests/slurm/run.sh $(BIN)

bench: $(BIN)
	$(BIN) bench all --seconds 2

# The tournament harness's throughput against parlor bench, same run.
bench-tournament: $(BIN)
	/usr/bin/python3 scripts/bench-tournament.py --bin $(BIN)

# A tournament of the built-in agents on two-player Spoil-Five (150
# duplicate deals, both seatings, 900 games; about a minute on 2 cores):
# the ratings, then the plots in $(BUILD)/demo.
DEMO_GAME   := spoil_five(players=2)
DEMO_AGENTS := random,pimc,ismcts(iters=300)
demo: $(BIN)
	@rm -rf $(BUILD)/demo
	$(BIN) tournament --game '$(DEMO_GAME)' --agents '$(DEMO_AGENTS)' \
	  --deals 150 --jobs 2 --seed 1 --out $(BUILD)/demo
	@echo
	$(BIN) rate $(BUILD)/demo
	@echo
	$(BIN) plot $(BUILD)/demo --out $(BUILD)/demo

# Trains masked-action PPO agents on three games (examples/train/run.py),
# then rates each against random, pimc and ismcts: checkpoints, learning
# curves, tournaments, ratings.json and plots in $(BUILD)/train. Installs
# python3-torch first if it is missing (only this target needs it).
train: $(BIN)
	@scripts/deps.sh --train
	/usr/bin/python3 examples/train/run.py --bin $(BIN) --out $(BUILD)/train

# Redraws a tournament's plots: make plots JOURNAL=DIR [PLOTS=OUTDIR].
JOURNAL ?= $(BUILD)/demo
PLOTS   ?= $(JOURNAL)
.PHONY: plots
plots: $(BIN)
	$(BIN) plot $(JOURNAL) --out $(PLOTS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TESTS:=.d)

# ---- protocol extras: example agents, remote benchmark, fuzzing ----------
# `make examples` builds protocol/examples/*.c against the library;
# `make bench-remote` times the env server against raw ZeroMQ round trips;
# `make fuzz` runs the message decoder under libFuzzer with ASan and UBSan
# for FUZZ_SECONDS (needs clang); `make protodoc` rewrites PROTOCOL.md's
# catalogue section from protocol/messages.def.
EXAMPLES     := $(patsubst protocol/examples/%.c,$(BUILD)/examples/%,\
                  $(wildcard protocol/examples/*.c))
REMOTE_BENCH := $(BUILD)/bench/remote_bench
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_BIN     := $(BUILD)/fuzz/fuzz_decode
FUZZ_SRC     := protocol/fuzz/fuzz_decode.c protocol/codec.c common/err.c
PROTODOC     := protocol/PROTOCOL.md
CODEC_TEST   := $(BUILD)/tests/protocol/test_codec

.PHONY: examples bench-remote fuzz protodoc

examples: $(EXAMPLES)

$(BUILD)/examples/%: protocol/examples/%.c $(LIB) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(PKGCFLAGS) -I. -o $@ $< $(LIB) $(LDLIBS)

$(REMOTE_BENCH): bench/remote_bench.c $(LIB) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(PKGCFLAGS) -I. -o $@ $< $(LIB) $(LDLIBS)

bench-remote: $(REMOTE_BENCH)
	$(REMOTE_BENCH)

$(FUZZ_BIN): $(FUZZ_SRC) protocol/codec.h protocol/messages.def | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@echo "  FUZZ-LD $@"
	$(Q)$(FUZZ_CC) -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $(WARN) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $(PKGCFLAGS) -o $@ $(FUZZ_SRC) $(PKGLIBS)

# New inputs go to $(BUILD)/fuzz/corpus; the golden fixtures seed it.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	  -dict=protocol/fuzz/msgpack.dict $(BUILD)/fuzz/corpus \
	  tests/protocol/fixtures

protodoc: $(CODEC_TEST)
	@$(CODEC_TEST) --doc > $(BUILD)/protodoc.tables
	@awk -v t=$(BUILD)/protodoc.tables \
	  '/<!-- catalogue:end -->/ { while ((getline l < t) > 0) print l; \
	     print ""; skip = 0 } !skip { print } \
	   /<!-- catalogue:begin -->/ { print ""; skip = 1 }' \
	  $(PROTODOC) > $(BUILD)/protodoc.md && mv $(BUILD)/protodoc.md $(PROTODOC)
	@echo "  DOC     $(PROTODOC)"

-include $(EXAMPLES:=.d) $(REMOTE_BENCH).d
