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

.PHONY: all test asan bench demo clean help deps format
all: $(BIN) $(LIB)

help:
	@echo "make            build $(BIN) and $(LIB) (installs missing deps)"
	@echo "make test       build and run every test suite"
	@echo "make asan       the tests under AddressSanitizer + UBSan"
	@echo "make bench      parlor bench over every game"
	@echo "make demo       a seeded game between bots: trace and result"
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

test: $(TESTS) $(BIN)
	@scripts/run-tests.sh $(TESTS)

asan:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test

bench: $(BIN)
	@for g in $$($(BIN) games --names); do $(BIN) bench "$$g" --seconds 2; done

demo: $(BIN)
	$(BIN) play 'spoil_five(players=4,deals=1)' --seats random,random,random,random --seed 7

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TESTS:=.d)
