# Thin wrapper over the CMake presets (CMakePresets.json); `make` lists the targets.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

ARGS ?=
CTEST_JOBS ?= 2
BOOTSTRAP := scripts/bootstrap
E2E_FLAG := $(if $(wildcard tests/e2e/package.json),--browser)
SERVER := build/release/server/cor-server
# CI=true (.ci/run) configures for one cold build: unity batches, line tables only (CMakeLists.txt,
# GCOR_CI_BUILD); passed on every configure, so that a later local `make test` goes back to one
# object per file.
CI_BUILD := $(if $(filter true,$(CI)),ON,OFF)
# `make test` builds dev; with CI=true it builds asan instead, one tree for every test (unit,
# benchmark smoke and browser tests all sanitized): building dev besides cost CI a third of its
# time (docs/operations.md, "Build time in CI").
TEST_PRESET := $(if $(filter true,$(CI)),asan,dev)

.PHONY: help run test asan-test tsan-test bench fuzz format format-check clean

help: ## List the targets
	@echo "Usage: make TARGET [ARGS='...']"
	@awk -F':.*## ' '/^[a-z-]+:.*## /{printf "  %-13s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

run: ## Build release and start cor-server with config/cor-server.conf and ARGS
	$(BOOTSTRAP)
	cmake --preset release
	cmake --build --preset release
	exec $(SERVER) --config config/cor-server.conf $(ARGS)

test: ## Build the dev preset (asan when CI=true), run the unit tests, then tests/e2e/run
	$(BOOTSTRAP) $(E2E_FLAG)
	cmake --preset $(TEST_PRESET) -DGCOR_CI_BUILD=$(CI_BUILD)
	cmake --build --preset $(TEST_PRESET)
	ctest --preset $(TEST_PRESET) -j $(CTEST_JOBS)
	@if [[ -e tests/e2e/run ]]; then set -x; COR_SERVER=build/$(TEST_PRESET)/server/cor-server tests/e2e/run; fi

asan-test: ## Build and run the unit tests under ASan+UBSan (preset asan)
tsan-test: ## Build and run the unit tests under TSan (preset tsan)
asan-test tsan-test: %-test:
	$(BOOTSTRAP)
	cmake --preset $* -DGCOR_CI_BUILD=$(CI_BUILD)
	cmake --build --preset $*
	ctest --preset $* -j $(CTEST_JOBS)

bench: ## Build release, run the benchmark suite (ARGS: --quick ...), update docs/benchmarks.md
	$(BOOTSTRAP)
	cmake --preset release
	cmake --build --preset release
	scripts/bench $(ARGS)

fuzz: ## Build the libFuzzer targets (clang, ASan+UBSan) and run each (ARGS: --seconds N --target NAME)
	scripts/fuzz $(ARGS)

format: ## clang-format -i every tracked *.cpp and *.hpp
	git ls-files -z -- '*.cpp' '*.hpp' | xargs -0 -r clang-format -i

format-check: ## Fail, listing the files, if a tracked *.cpp or *.hpp is not clang-formatted
	@bad=(); \
	while IFS= read -r -d '' f; do \
	    clang-format --dry-run -Werror "$$f" >/dev/null 2>&1 || bad+=("$$f"); \
	done < <(git ls-files -z -- '*.cpp' '*.hpp'); \
	if (( $${#bad[@]} )); then \
	    echo "format-check: not clang-formatted (fix with 'make format'):" >&2; \
	    printf '  %s\n' "$${bad[@]}" >&2; exit 1; \
	fi; \
	echo "format-check: $$(git ls-files -- '*.cpp' '*.hpp' | wc -l) files ok"

clean: ## Remove build/ (every preset's build tree)
	rm -rf build
