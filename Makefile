# Two commands for a newcomer: `make example` and `make test`.
.PHONY: setup build example smoke test bench dist

setup:
	./scripts/setup

# SWIFT_BUILD_FLAGS: more flags for `swift build` and `swift test` (.ci/run keeps its builds outside the clone with
# --scratch-path, so that a clean clone builds only the package's own modules; scripts/dist reads it too).
build: setup
	swift build $(SWIFT_BUILD_FLAGS)

# Starts the demo API on a free loopback port, runs the example collection against it, stops the API.
example: setup
	./scripts/run-example

# The example collection run by the release binary (built as users ship it), one request at a time and with
# --jobs 4: what only a release build does (its optimizer, the Swift runtime linked in) shows here before CI's tarball.
smoke: setup
	RUNNER_EXAMPLE_BUILD=release ./scripts/run-example
	RUNNER_EXAMPLE_BUILD=release ./scripts/run-example --jobs 4

# Runs every test: unit, integration (a real server on 127.0.0.1) and end-to-end. One at a time: with
# two cores, CPU-heavy tests running beside the timing-bound ones (timeouts, throttling) starve them.
test: setup
	swift build $(SWIFT_BUILD_FLAGS)
	swift test --no-parallel $(SWIFT_BUILD_FLAGS)

# The release tarball: dist/runner-VERSION-linux-ARCH.tar.gz and its .sha256, a stripped binary that needs only the
# C library (the Swift runtime, Foundation, libyaml and libxml2, built from Debian's source, linked in). See
# docs/install.md.
dist: setup
	./scripts/dist

# Measures the release build beside a raw HTTP client loop and prints a table of ratios (README, "Benchmarks").
# Release executables are built as users ship them: the Swift runtime and Foundation linked in (the raw loop too).
bench: setup
	swift build -c release --static-swift-stdlib && .build/release/runner-bench
