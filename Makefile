# bmc: build, run, test. Every target works on a fresh machine with Go;
# modules come from the Go module proxy.
SHELL   := /bin/bash
GO      ?= go
BIN     := bin/bmc
EXAMPLE := examples/bluetooth.bpl
# TAGS=noz3 builds without Z3 (no cgo, no libz3 needed).
TAGS    ?=
GOFLAGS_TAGS := $(if $(TAGS),-tags $(TAGS),)
# Debian packages, as root or through sudo: $(APT_INSTALL) PACKAGE...;
# apt's output is shown only when it fails.
APT_INSTALL := sh -c 'if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; log=$$(mktemp); \
	$$SUDO apt-get update -qq >$$log 2>&1 && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq "$$@" >>$$log 2>&1; \
	status=$$?; [ $$status = 0 ] || cat $$log; rm -f $$log; exit $$status' apt-install

.PHONY: all build run test soak vet corpus fuzz bench clean deps peers bench-tables bench-moped bench-loops bench-lasso bench-portfolio bench-scale bench-batch bench-amplify bench-parameterized bench-recursion behaviour trace-check

all: build

# Z3 comes from Debian's libz3-dev; install it when it is missing.
deps:
ifeq ($(findstring noz3,$(TAGS)),)
	@if [ ! -f /usr/include/z3.h ]; then \
	  echo "installing libz3-dev (needed by the Z3 binding in smt/; TAGS=noz3 builds without it)"; \
	  $(APT_INSTALL) libz3-dev; \
	fi
endif

# The peers the tests compare bmc with, from Debian: ABC reads our AIGER
# files, the z3 command our Horn clauses. Under CI=true a test whose peer
# is missing fails (internal/peer); Moped and the AIGER tools come from
# no package registry, and their comparisons are skipped when they are
# missing (the last line of make test counts them).
peers:
	@missing=; \
	command -v berkeley-abc >/dev/null || command -v abc >/dev/null || missing="$$missing berkeley-abc"; \
	command -v z3 >/dev/null || missing="$$missing z3"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing (the peers the tests compare bmc with)"; \
	  $(APT_INSTALL) $$missing || echo "could not install$$missing: the tests that need them fail under CI=true and are skipped otherwise"; \
	fi

# -buildvcs=auto: the version (bmc --version) names the checkout's
# revision, whatever GOFLAGS says.
build: deps
	$(GO) build -buildvcs=auto $(GOFLAGS_TAGS) -o $(BIN) ./cmd/bmc

# The main job on an example: the Bluetooth driver is safe with one adder
# and one stopper, and has a bug with two adders (exit status 10, trace).
run: build
	./$(BIN) check --switches 4 --threads adder=1,stopper=1 $(EXAMPLE)
	./$(BIN) check --switches 4 --threads adder=2,stopper=1 $(EXAMPLE) || test $$? -eq 10

vet: deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(GOFLAGS_TAGS) ./...

# Every test: unit and table tests, examples, corpus verdicts, differential
# tests, the comparisons with the peers, and the parser fuzz target's seed
# corpus. scripts/testreport prints what go test prints and, as the last
# line, how many cases each peer decided and which peers were missing.
test: vet peers
	@set -o pipefail; status=0; tmp=$$(mktemp -d); report="$$tmp/testreport -peers $$tmp/peers.json"; \
	$(GO) build -o $$tmp/testreport ./scripts/testreport || exit 2; \
	$(GO) test $(GOFLAGS_TAGS) -json -timeout 20m ./... | $$report || status=1; \
	if [ -z "$(findstring noz3,$(TAGS))" ]; then \
	  echo "# without Z3: the driver's plans and errors (the differential and soundness tests ran above, on the same engines and Z3)"; \
	  $(GO) vet -tags noz3 ./... || status=1; \
	  $(GO) test -tags noz3 -short -json -skip 'Differential|Soundness|KeyframeSummaries|AmplifyK' ./smt ./driver | $$report || status=1; \
	fi; \
	$$report -print; rm -rf $$tmp; exit $$status

# The random differential suites with many more seeds than make test
# runs (internal/soak; docs/USAGE.md, "Testing bmc", gives both counts):
# hours on two cores, for a change to an engine.
soak: deps peers
	BMC_SOAK=1 $(GO) test $(GOFLAGS_TAGS) -timeout 6h ./...

# The corpus verdict checks with the acceptance time limit of 60 s a
# program (a check, for BMC), and `bmc seq --for moped` on every corpus
# program with a round bound (make test leaves out the SafeStack ones).
corpus: deps
	BMC_CORPUS_TIMEOUT=60s BMC_CORPUS_MAX_STATES=100000000 $(GO) test -timeout 60m -run TestCorpusVerdicts -v ./explicit
	BMC_CORPUS_TIMEOUT=60s $(GO) test -timeout 60m -run TestCorpusConcurrentBMC -v ./driver
	BMC_CORPUS_ALL=1 $(GO) test -timeout 60m -run 'TestSeqForMoped$$' -v ./cmd/bmc

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzFrontEnd -fuzztime 5m ./lang

bench: deps
	$(GO) test $(GOFLAGS_TAGS) -run '^$$' -bench . -benchmem -benchtime 3x ./...

# The Bluetooth and permutation tables of issue 4 (docs/BENCHMARKS.md), every
# sequentialization and solver against the explicit checker; Markdown on
# stdout, raw numbers in /tmp/bench-tables.tsv. Hours at the default 60 s a
# cell: options (BENCH_TIMEOUT, BENCH_PROGRAMS, ...) in scripts/bench-tables.sh.
bench-tables: build
	BMC=./$(BIN) bash scripts/bench-tables.sh

# The table of Moped beside our engines (docs/BENCHMARKS.md): bmc compare
# on the concurrent examples at 2 and 3 rounds; Moped's columns only when
# it is installed. Options in scripts/bench-moped.sh.
bench-moped: build
	BMC=./$(BIN) bash scripts/bench-moped.sh

# The table of looping programs (docs/BENCHMARKS.md, "Looping programs"):
# the exact eager check, prove, explicit and ABC's pdr (when installed) on
# the examples, Burns' mutual exclusion and the pumps; about an hour at the
# default 30 s a cell. Options in scripts/bench-loops.sh.
bench-loops: build
	BMC=./$(BIN) bash scripts/bench-loops.sh

# The livelock table (docs/BENCHMARKS.md, "Livelocks"): the dining
# philosophers of mutant-fair-nontermination, Fig. 3, N = 2..8, on the lasso
# translation (gini, Z3), the direct product and the explicit search.
# Options in scripts/bench-lasso.sh.
bench-lasso: build
	BMC=./$(BIN) bash scripts/bench-lasso.sh

# The portfolio table (docs/BENCHMARKS.md, "Bounded safety"): the default plan
# against each single engine on the Bluetooth driver, Burns' and a
# flag-based mutual exclusion, the late permutation, the pump, the
# philosophers' livelocks and bmc prove on the safe programs; median of 3
# runs a cell. Options in scripts/bench-portfolio.sh.
bench-portfolio: build
	BMC=./$(BIN) bash scripts/bench-portfolio.sh

# The portfolio's families one size up (docs/BENCHMARKS.md, "Twice the
# threads"): the default's time, peak memory and growth per added thread,
# median of 3 runs a cell. Options in scripts/bench-scale.sh.
bench-scale: build
	BMC=./$(BIN) bash scripts/bench-scale.sh

# K-induction with amplification (docs/BENCHMARKS.md, "K-induction with
# amplification"): our programs for Fig. 12 and 13 of its paper and the fixed
# Bluetooth driver, median of 3 runs a cell. Options in
# scripts/bench-amplify.sh.
bench-amplify: build
	BMC=./$(BIN) bash scripts/bench-amplify.sh

# The parameterized programs of ../shared/bench and ours, each method
# alone and the default race (docs/BENCHMARKS.md, "Parameterized
# programs"); see scripts/bench-parameterized.sh.
bench-parameterized: build
	BMC=./$(BIN) bash scripts/bench-parameterized.sh

# The recursive programs of internal/progen.Recursion at n = 4..10 bits
# (docs/BENCHMARKS.md, "Recursion"): the default plan, each summary engine
# alone and Moped (when installed). Options in scripts/bench-recursion.sh.
bench-recursion: build
	BMC=./$(BIN) bash scripts/bench-recursion.sh

# What bmc answers on every example's expect line (exit status and --json
# without times, on one core so that no race decides the winner), for a
# diff before and after a restructuring: make behaviour > after.txt
behaviour: build
	@$(GO) run ./scripts/behaviour -bmc ./$(BIN)

# bmc batch against the same checks one after another, on the corpus
# manifests (docs/BENCHMARKS.md, "Batch runs"); BENCH_TIMEOUT a check.
bench-batch: build
	BMC=./$(BIN) bash scripts/bench-batch.sh

# The pictures of traces (docs/USAGE.md, "Pictures of traces"): every
# example with an unsafe or livelock expectation drawn with --trace-svg
# and --trace-html, and each page photographed in headless Chromium
# (Debian's chromium, installed when missing) into TRACE_DIR
# (/tmp/bmc-trace-check); TRACE_DOCS=docs updates the manual's two
# screenshots. Options in scripts/trace-check.sh.
trace-check: build
	BMC=./$(BIN) bash scripts/trace-check.sh

clean:
	rm -rf bin
