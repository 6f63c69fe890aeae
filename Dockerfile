# runner in a container: built in the official Swift image as `make dist` builds the release tarball, and run
# from Debian slim with nothing added but the CA certificates HTTPS needs.
#   docker build -t runner .
#   docker run --rm -v "$PWD:/work" runner run requests/ --env qa --report-junit report.xml
# The build image is Ubuntu 22.04's: the binary needs a glibc at least as new as the build's, and 22.04's (2.35)
# is older than Debian 12's (2.36), as in the release workflow.

FROM swift:6.3-jammy AS build
# scripts/dist downloads libxml2's source from a Debian mirror (docs/install.md): --build-arg RUNNER_DEBIAN_MIRROR=URL
# picks another one than deb.debian.org.
ARG RUNNER_DEBIAN_MIRROR
WORKDIR /source
COPY . .
RUN ./scripts/dist && mkdir /release && tar -xzf dist/runner-*.tar.gz -C /release --strip-components=1

FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /release/runner /usr/local/bin/runner
RUN ["/usr/local/bin/runner", "--version"]
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/runner"]
CMD ["--help"]
