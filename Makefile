# bmc: build, run, test. Every target works on a fresh machine with Go;
# modules come from the Go module proxy.
GO      ?= go
BIN     := bin/bmc
EXAMPLE := examples/bluetooth.bpl

.PHONY: all build run test vet corpus fuzz bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/bmc

# The main job on an example: the Bluetooth driver is safe with one adder
# and one stopper, and has a bug with two adders (exit status 10, trace).
run: build
	./$(BIN) check --switches 4 --threads adder=1,stopper=1 $(EXAMPLE)
	./$(BIN) check --switches 4 --threads adder=2,stopper=1 $(EXAMPLE) || test $$? -eq 10

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Every test: unit and table tests, examples, corpus verdicts, differential
# tests, and the parser fuzz target's seed corpus.
test: vet
	$(GO) test -timeout 20m ./...

# The corpus verdict check with the acceptance time limit of 60 s a program.
corpus:
	BMC_CORPUS_TIMEOUT=60s BMC_CORPUS_MAX_STATES=100000000 $(GO) test -timeout 60m -run TestCorpusVerdicts -v ./explicit

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzFrontEnd -fuzztime 5m ./lang

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
